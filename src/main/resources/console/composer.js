// Writing an announcement: the editor (editor.js, ProseMirror), loaded when first needed; the preview is the
// widget's own panel, drawn by the browser SDK (preview.js), so what it shows is what end users will see.
import { call, serverNow } from './api.js';
import { $, say, confirmed, excerpt, plainText } from './ui.js';
import { currentProject, loadNotifications, loadActivity, stateOf } from './project.js';
import * as preview from './preview.js';
import * as audience from './audience.js';

export function init() {
  $('compose').addEventListener('click', () => openComposer(null));
  $('close-composer').addEventListener('click', closeComposer);
  $('announcement-form').addEventListener('submit', (event) => {
    event.preventDefault();
    saveAnnouncement(null);
  });
  $('publish').addEventListener('click', () => saveAnnouncement('PUBLISHED'));
  $('update-live').addEventListener('click', () => saveAnnouncement('UPDATE'));
  $('discard-draft').addEventListener('click', discardDraft);
  $('archive').addEventListener('click', () => saveAnnouncement('ARCHIVED'));
  $('toolbar').addEventListener('click', toolbarCommand);
  preview.init();
  audience.init();
  // Every field the widget shows (image, call to action, its label, preset) redraws the preview as it changes.
  for (const type of ['input', 'change']) $('announcement-form').addEventListener(type, redraw);
  $('url-apply').addEventListener('click', applyUrl);
  $('url-cancel').addEventListener('click', closeUrlBar);
  $('url-input').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      applyUrl();
    } else if (event.key === 'Escape') {
      closeUrlBar();
    }
  });
}

// The announcement being edited (null: a new one), its editor, and the modules loaded at the first opening.
let editing = null;
let editor = null;
let modules = null;

// The form as it was opened, to tell whether Close would lose something.
let opened = null;

// A published announcement is in its users' feeds, or will be at its start: a PATCH of it reaches them at once. So
// its "Save as draft" keeps a draft of changes apart (PUT …/draft, in no feed), and only "Update live
// announcement", asked first as publishing is, changes it (the PATCH deletes the draft).
const isPublished = (notification) => !!notification && notification.status === 'PUBLISHED';
const isLive = (notification) => !!notification && stateOf(notification, serverNow()) === 'live';

// The draft of changes of the published announcement being edited, as Herald keeps it, or null.
let pendingDraft = null;

export async function openComposer(notification) {
  if (!modules) {
    const [editorModule] = await Promise.all([import('./editor.js'), preview.loadPreview()]);
    modules = editorModule;
  }
  editing = notification;
  pendingDraft = null;
  if (isPublished(notification)) {
    try {
      pendingDraft = await call('GET', `/notifications/${notification.id}/draft`);
    } catch (e) {
      if (e.status !== 404) throw e;
    }
  }
  $('draft-note').hidden = !pendingDraft;
  $('draft-note').textContent = pendingDraft ? `This is a draft of changes by ${pendingDraft.updatedBy}, `
    + `${new Date(pendingDraft.updatedAt).toLocaleString()}: not live until you update the live announcement.` : '';
  notification = pendingDraft ? { ...notification, ...pendingDraft.changes } : notification;
  $('composer-title').textContent = notification ? 'Edit the announcement' : 'New announcement';
  for (const error of document.querySelectorAll('#announcement-form .error')) error.textContent = '';
  $('announcement-title').value = notification && notification.title ? notification.title : '';
  $('image-url').value = notification && notification.image ? notification.image : '';
  const action = notification && notification.action;
  $('action-type').value = action ? action.type : 'NO_ACTION';
  $('action-url').value = action && action.data ? action.data.url : '';
  $('action-target').value = action && action.data ? action.data.target : '_blank';
  $('action-label').value = action && action.data && action.data.label ? action.data.label : '';
  $('preset').value = notification ? notification.preset : 'default';
  $('start-date').value = localInput(notification && notification.startDate);
  $('end-date').value = localInput(notification && notification.endDate);
  audience.showAudience(notification ? notification.audience : null, editing ? editing.id : null);
  $('publish').hidden = isPublished(notification);
  for (const id of ['update-live', 'archive']) $(id).hidden = !isPublished(notification);
  $('discard-draft').hidden = !pendingDraft;
  // An announcement's life (lifecycle.js): a saved one only; unpublishing, a published one only.
  $('lifecycle').hidden = !notification;
  $('unpublish').hidden = !isPublished(notification);
  if (editor) editor.destroy();
  editor = null;
  $('message-editor').replaceChildren();
  editor = modules.mountEditor($('message-editor'), notification ? notification.message : '', editorChanged);
  redraw();
  opened = JSON.stringify([formBody(), audience.audienceSnapshot()]);
  $('composer').hidden = false;
  editor.focus();
}

async function closeComposer() {
  if (hasUnsavedEdits()
      && !(await confirmed('Discard changes? What you changed here has not been saved.', 'Discard changes'))) {
    return;
  }
  leaveComposer();
  $('compose').focus();
}

/** The saved announcement being edited, as last read; null for a new one. */
export const editedAnnouncement = () => editing;

/** Whether the composer is open with changes that Close, a link or a reload would lose. */
export function hasUnsavedEdits() {
  return !$('composer').hidden && !!editor
    && JSON.stringify([formBody(), audience.audienceSnapshot()]) !== opened;
}

/** The composer closed, whatever it holds: the page it was on is left. */
export function leaveComposer() {
  $('composer').hidden = true;
  editing = null;
}

function editorChanged(state) {
  for (const buttonElement of $('toolbar').querySelectorAll('[aria-pressed]')) {
    buttonElement.setAttribute('aria-pressed', String(modules.isActive(state, buttonElement.dataset.command)));
  }
  redraw();
}

function redraw() {
  $('link-fields').hidden = $('action-type').value !== 'LINK';
  if (editor) preview.drawPreview(formBody());
}

function toolbarCommand(event) {
  const target = event.target.closest('button[data-command]');
  if (!target || !editor) return;
  const name = target.dataset.command;
  if (name === 'link' && modules.isActive(editor.state, 'link')) {
    modules.link(null)(editor.state, editor.dispatch);
  } else if (name === 'link' || name === 'image') {
    askUrl(name);
    return;
  } else {
    modules.commands[name](editor.state, editor.dispatch);
  }
  editor.focus();
}

// The URL of a link or an image, asked in a bar above the editor: Enter applies, Escape cancels.
let asking = null;

function askUrl(what) {
  if (what === 'link' && editor.state.selection.empty) {
    $('message-error').textContent = 'Select the words to link first.';
    editor.focus();
    return;
  }
  asking = what;
  $('url-label').textContent = what === 'link' ? 'The link\'s URL' : 'The image\'s URL';
  $('url-input').value = '';
  $('url-bar').hidden = false;
  $('url-input').focus();
}

function applyUrl() {
  const url = $('url-input').value.trim();
  if (!/^https?:\/\/./i.test(url)) {
    $('message-error').textContent = 'A link or an image is an http or https URL.';
    $('url-input').focus();
    return;
  }
  $('message-error').textContent = '';
  (asking === 'link' ? modules.link(url) : modules.image(url))(editor.state, editor.dispatch);
  closeUrlBar();
}

function closeUrlBar() {
  $('url-bar').hidden = true;
  asking = null;
  // After the key that closed the bar is done with: its Enter must not reach the editor, over the words just linked.
  setTimeout(() => editor.focus(), 0);
}

// A datetime-local field holds a local time with no zone: shown in the user's zone, sent as UTC.
function localInput(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return local.toISOString().slice(0, 16);
}

function utcOf(local) {
  return local ? new Date(local).toISOString() : null;
}

function formBody() {
  return {
    title: $('announcement-title').value.trim() || null,
    message: editor.state.doc.toJSON(),
    image: $('image-url').value.trim() || null,
    action: {
      type: $('action-type').value,
      data: $('action-type').value === 'LINK' ? linkData() : null,
    },
    preset: $('preset').value.trim() || 'default',
    startDate: utcOf($('start-date').value),
    endDate: utcOf($('end-date').value),
  };
}

// A label left empty is none: the widget says its own (its action-text, else "Learn more").
function linkData() {
  const label = $('action-label').value.trim();
  return { url: $('action-url').value.trim(), target: $('action-target').value, ...(label && { label }) };
}

// status: PUBLISHED or ARCHIVED; UPDATE, a published one's change to its feeds; null, a draft (of a published one:
// a draft of changes, kept apart).
async function saveAnnouncement(status) {
  const body = formBody();
  if (status === 'PUBLISHED' || status === 'ARCHIVED') body.status = status;
  const atOnce = !body.startDate || Date.parse(body.startDate) <= serverNow();
  if (status === 'PUBLISHED' && atOnce
      && !(await confirmed('Publish now? It goes live at once in the feeds of this project\'s keys.', 'Publish now'))) {
    return;
  }
  if (status === 'ARCHIVED' && !(await confirmed(isLive(editing)
    ? 'Archive? It leaves the feeds of this project\'s keys at once, and its users no longer see it.'
    : 'Archive? It will not go live, and leaves every feed of this project.', 'Archive'))) {
    return;
  }
  if (status === 'UPDATE' && !(await confirmed(atOnce
    ? 'Update the live announcement? Your change is in the feeds of this project\'s keys at once.'
    : 'Update the published announcement? Your change is what its feeds show from its start.',
  'Update live announcement'))) {
    return;
  }
  const draftOfChanges = isPublished(editing) && !status;
  // An announcement saved before titles (or by an older client) has none: no null sent where nothing changed.
  if (body.title === null && !(editing && editing.title)) delete body.title;
  for (const error of document.querySelectorAll('#announcement-form .error')) error.textContent = '';
  audience.clearAudienceErrors();
  try {
    // Sent only when changed here: an audience the builder cannot show is never sent back, so never rewritten.
    if (audience.audienceChanged()) body.audience = audience.audienceValue();
    let saved;
    if (draftOfChanges) {
      saved = await call('PUT', `/notifications/${editing.id}/draft`, body);
      say(`Draft of changes kept; the live announcement is as it was: “${excerpt(plainText(saved.changes.message))
        .slice(0, 60)}”.`);
    } else {
      saved = editing
        ? await call('PATCH', `/notifications/${editing.id}`, body)
        : await call('POST', `/projects/${currentProject.id}/notifications`, { status: 'DRAFT', ...body });
      say(`${stateOf(saved, serverNow())[0].toUpperCase()}${stateOf(saved, serverNow()).slice(1)}: `
        + `“${excerpt(plainText(saved.message)).slice(0, 60)}”.`);
    }
    leaveComposer();
    await Promise.all([loadNotifications(), loadActivity()]);
    $('compose').focus();
  } catch (e) {
    if (audience.showAudienceError(e)) return;
    const field = (e.field || '').split('.')[0];
    const place = field && $(`${field}-error`) ? $(`${field}-error`) : $('status-error');
    place.textContent = e.message;
    const input = e.field === 'action.data.label' ? $('action-label') : { title: $('announcement-title'),
      message: $('message-editor'), image: $('image-url'), action: $('action-url'), preset: $('preset'),
      startDate: $('start-date'), endDate: $('end-date') }[field];
    if (input === $('message-editor')) editor.focus(); else if (input) input.focus();
  }
}

async function discardDraft() {
  if (!(await confirmed('Discard the draft of changes? The live announcement stays as it is.', 'Discard draft'))) return;
  try {
    await call('DELETE', `/notifications/${editing.id}/draft`);
  } catch (e) {
    if (e.status !== 404) {
      $('status-error').textContent = e.message;
      return;
    }
  }
  say('Draft of changes discarded; the live announcement is as it was.');
  leaveComposer();
  pendingDraft = null;
  await loadActivity();
  $('compose').focus();
}
