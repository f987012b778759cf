// An announcement's life after its first save: duplicate it, take it back to draft, delete it, read its history and
// restore a version of it as a draft (docs/console.md#an-announcements-life). Every step that changes what users
// see, or loses something, is asked first.
import { call, isEditor, nextPage, lastTag } from './api.js';
import { $, say, confirmed, button, instant, plainText, announcementName } from './ui.js';
import { wordDiff } from './diff.js';
import { notifications, loadNotifications, loadActivity } from './project.js';
import { openComposer, leaveComposer, hasUnsavedEdits, editedAnnouncement, openedCondition } from './composer.js';

export function init() {
  $('duplicate').addEventListener('click', duplicate);
  $('unpublish').addEventListener('click', unpublish);
  $('delete').addEventListener('click', remove);
  $('show-history').addEventListener('click', () => showHistory(editedAnnouncement()));
  $('close-history').addEventListener('click', closeHistory);
  $('older-versions').addEventListener('click', olderVersions);
  $('notification-list').addEventListener('click', (event) => {
    const history = event.target.closest('button[data-history]');
    if (history) showHistory(notifications.find((n) => n.id === history.dataset.history));
  });
}

const quoted = (notification) => `“${announcementName(notification, 60)}”`;

async function duplicate() {
  const original = editedAnnouncement();
  if (hasUnsavedEdits() && !(await confirmed('Duplicate the announcement as it was saved? Your changes here have not '
    + 'been saved and are not copied.', 'Duplicate as saved'))) {
    return;
  }
  await act(async () => {
    const copy = await call('POST', `/notifications/${original.id}/duplicate`);
    await Promise.all([loadNotifications(), loadActivity()]);
    await openComposer(copy);
    say(`Copied ${quoted(original)} as a new draft, without its dates: you are editing the copy.`);
  });
}

async function unpublish() {
  const notification = editedAnnouncement();
  if (!(await confirmed('Unpublish? It leaves the feeds of this project\'s keys at once and becomes a draft again; '
    + 'a draft of changes you kept becomes its content.', 'Unpublish'))) {
    return;
  }
  await act(async () => {
    try {
      await call('POST', `/notifications/${notification.id}/unpublish`, undefined, openedCondition());
    } catch (e) {
      if (e.code !== 'CHANGED_SINCE_READ') throw e;
      $('status-error').textContent = 'Someone saved this announcement or its draft of changes since you opened it: '
        + 'it is not unpublished, so that their draft does not become its content unseen. Close it and open it '
        + 'again, then unpublish.';
      return;
    }
    leaveComposer();
    await Promise.all([loadNotifications(), loadActivity()]);
    say(`Unpublished: ${quoted(notification)} is a draft again, in no feed.`);
    $('compose').focus();
  });
}

async function remove() {
  const notification = editedAnnouncement();
  if (!(await confirmed(`Delete ${quoted(notification)} for good? Its users no longer see it; its text, its history `
    + 'and any draft of changes are deleted and cannot be restored. Its impressions and clicks stay in the '
    + 'project\'s totals.', 'Delete for good'))) {
    return;
  }
  await act(async () => {
    try {
      await call('DELETE', `/notifications/${notification.id}`, undefined, openedCondition());
    } catch (e) {
      if (e.code !== 'CHANGED_SINCE_READ') throw e;
      $('status-error').textContent = 'Someone saved this announcement or its draft of changes since you opened it: '
        + 'it is not deleted, so that their work is not lost unseen. Close it and open it again to see what they '
        + 'changed, then delete it if it should still go.';
      return;
    }
    leaveComposer();
    await Promise.all([loadNotifications(), loadActivity()]);
    say(`Deleted ${quoted(notification)}.`);
    $('compose').focus();
  });
}

// A failure is said where the composer's other failures are, or on the page when the composer is closed.
async function act(step) {
  try {
    await step();
  } catch (e) {
    if (!$('composer').hidden) $('status-error').textContent = e.message; else say(e.message);
  }
}

// The announcement whose history is shown; the oldest version read and not yet drawn (it is drawn against the one
// before it, on the next page), and where that page is.
let shown = null;
// Its ETag as the history opened: a restore applies only to it as it was then (If-Match, covering its draft of changes).
let shownTag = null;
let newest = null;
let pending = null;
let older = null;

// Versions a page: the recent ones are what a reader compares first; "Older versions" reads on.
const PAGE = 20;

/** The history of an announcement, below the list: each version against the one before it. */
export async function showHistory(notification) {
  if (hasUnsavedEdits() && !(await confirmed('Leave the editor for the history? Your changes to the announcement '
    + 'have not been saved.', 'Leave and discard'))) {
    return;
  }
  leaveComposer();
  shown = notification;
  shownTag = null;
  try {
    await call('GET', `/notifications/${notification.id}`);
    shownTag = lastTag();
    const versions = await call('GET', `/notifications/${notification.id}/versions?limit=${PAGE}`);
    $('history-title').textContent = `History of ${quoted(notification)}`;
    $('history-list').replaceChildren();
    pending = null;
    newest = versions.length ? versions[0].version : null;
    drawVersions(versions, nextPage());
    $('no-history').hidden = versions.length > 0;
    $('history').hidden = false;
    $('history-title').focus();
  } catch (e) {
    say(e.message);
  }
}

// Each version against the one after it in the list (the one before it in time); the last of a page that has a next
// one waits for that page.
function drawVersions(versions, next) {
  const all = pending ? [pending, ...versions] : versions;
  const drawn = next ? all.slice(0, -1) : all;
  $('history-list').append(...drawn.map((version, i) => versionItem(version, all[i + 1], version.version === newest)));
  pending = next ? all[all.length - 1] : null;
  older = next;
  $('older-versions').hidden = !next;
}

async function olderVersions() {
  try {
    const firstNew = $('history-list').children.length;
    drawVersions(await call('GET', older), nextPage());
    // The first version just drawn: where reading goes on (the button may be gone).
    const item = $('history-list').children[firstNew];
    if (item) item.querySelector('h3').focus();
  } catch (e) {
    say(e.message);
  }
}

function closeHistory() {
  const notification = shown;
  leaveHistory();
  // Back where a viewer came from (its row's History), or to the editor's next step.
  const row = notification && document.querySelector(`button[data-history="${notification.id}"]`);
  (isEditor() || !row ? $('compose') : row).focus();
}

/** Closed with the project's page, whatever it showed. */
export function leaveHistory() {
  $('history').hidden = true;
  shown = null;
  shownTag = null;
}

// What a version shows of its content, in the order the composer asks for it.
const FIELDS = [
  ['title', 'Title', (c) => c.title || ''],
  ['message', 'Message', (c) => plainText(c.message).trim()],
  ['image', 'Image', (c) => c.image || ''],
  ['imageAlt', 'Image description', (c) => c.imageAlt || ''],
  ['action', 'Call to action', (c) => (c.action.type === 'LINK'
    ? `link to ${c.action.data.url} (${c.action.data.target === '_self' ? 'same tab' : 'new tab'})`
      + (c.action.data.label ? `, its button “${c.action.data.label}”` : '')
    : { NO_ACTION: 'none', CLOSE: 'a close button' }[c.action.type] || c.action.type)],
  ['preset', 'Preset', (c) => c.preset],
  // A version saved before languages has none; each translation as its tag, its title, its words and its own image
  // or description, so that a version changing only those shows what it changed.
  ['translations', 'Translations', (c) => Object.entries(c.translations || {}).map(([tag, t]) => `${tag}: `
    + `${t.title ? `${t.title}. ` : ''}${plainText(t.message).trim()}`
    + (t.image || t.imageAlt
      ? ` (image ${t.image || 'as above'}${t.imageAlt ? `, described “${t.imageAlt}”` : ''})` : '')).join('\n')],
  ['startDate', 'Starts', (c) => (c.startDate ? new Date(c.startDate).toLocaleString() : 'at once')],
  ['endDate', 'Ends', (c) => (c.endDate ? new Date(c.endDate).toLocaleString() : 'never')],
];

function versionItem(version, before, isNewest) {
  const item = document.createElement('li');
  const heading = document.createElement('h3');
  heading.tabIndex = -1;
  heading.append(`Version ${version.version}${isNewest ? ' (the newest)' : ''}, `, instant(version.savedAt),
    ` by ${version.savedBy}`);
  item.append(heading);
  const changes = document.createElement('dl');
  changes.className = 'changes';
  for (const [name, label, text] of FIELDS) {
    const now = text(version.content);
    const was = before ? text(before.content) : '';
    const formattingOnly = name === 'message' && before && now === was
      && version.content.message !== before.content.message;
    if (now === was && !formattingOnly) continue;
    const term = document.createElement('dt');
    term.textContent = label;
    const detail = document.createElement('dd');
    detail.className = 'diff';
    if (now === was) {
      detail.textContent = 'Formatting changed; the words are the same.';
    } else {
      detail.append(...wordDiff(was, now).map(marked));
    }
    changes.append(term, detail);
  }
  if (!before) {
    const note = document.createElement('p');
    note.className = 'hint';
    note.textContent = 'The oldest version kept: everything it holds is shown as added.';
    item.append(note);
  }
  item.append(changes);
  if (isEditor()) {
    const restore = button('Restore as draft', () => restoreVersion(version), 'secondary');
    restore.setAttribute('aria-label', `Restore version ${version.version} as draft`);
    item.append(restore);
  }
  return item;
}

// Added and removed words marked by more than colour: ins and del (underlined, struck through), and words a screen
// reader says.
function marked(part) {
  if (part.type === 'same') return document.createTextNode(part.text);
  const element = document.createElement(part.type === 'added' ? 'ins' : 'del');
  const label = document.createElement('span');
  label.className = 'visually-hidden';
  label.textContent = part.type === 'added' ? '[added: ' : '[removed: ';
  const end = document.createElement('span');
  end.className = 'visually-hidden';
  end.textContent = ']';
  element.append(label, part.text, end);
  return element;
}

async function restoreVersion(version) {
  const notification = shown;
  const draft = notification.status === 'DRAFT';
  const kept = notification.status === 'ARCHIVED' ? 'archived announcement stays as it is until you save or publish'
    : 'published announcement stays as it is until you update';
  if (!(await confirmed(draft
    ? `Restore version ${version.version} as the draft? The draft's content becomes that version's; its present `
      + 'content stays in the history.'
    : `Keep version ${version.version} as a draft of changes? The ${kept} it; a draft of changes kept before is `
      + 'replaced.', 'Restore as draft'))) {
    return;
  }
  try {
    const answer = await call('POST', `/notifications/${notification.id}/versions/${version.version}/restore`,
      undefined, shownTag ? { 'If-Match': shownTag } : {});
    leaveHistory();
    await Promise.all([loadNotifications(), loadActivity()]);
    await openComposer(draft ? answer : notification);
    say(draft ? `Version ${version.version} restored as the draft.`
      : `Version ${version.version} kept as a draft of changes; the ${notification.status === 'ARCHIVED' ? 'archived'
        : 'published'} announcement is as it was.`);
  } catch (e) {
    say(e.code === 'CHANGED_SINCE_READ' ? 'Someone saved this announcement or its draft of changes since you opened '
      + 'its history: nothing is restored, so that their change is not replaced unseen. Close the history and open it '
      + 'again, then restore.' : e.message);
  }
}
