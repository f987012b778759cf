// Writing an announcement: the editor (editor.js, ProseMirror), loaded when first needed; the preview is the
// widget's own panel, drawn by the browser SDK (preview.js), so what it shows is what end users will see.
import { call, lastTag, serverNow } from './api.js';
import { $, say, confirmed, announcementName } from './ui.js';
import { currentProject, loadNotifications, loadActivity, stateOf } from './project.js';
import * as preview from './preview.js';
import * as audience from './audience.js';
import * as languages from './languages.js';
import { initDates, showDates, datesAsShown, instantOf, unreadableDate } from './dates.js';

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
  // One Tab stop, not twelve (WAI-ARIA toolbar): the arrows, Home and End move along it.
  const tools = [...$('toolbar').querySelectorAll('button')];
  const rove = (to) => { for (const tool of tools) tool.tabIndex = tool === to ? 0 : -1; };
  rove(tools[0]);
  $('toolbar').addEventListener('focusin', (event) => rove(event.target));
  $('toolbar').addEventListener('keydown', (event) => {
    const at = tools.indexOf(event.target);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: -1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    tools.at(to % tools.length).focus();
  });
  preview.init();
  audience.init();
  // Every field the widget shows (image, call to action, its label, preset) redraws the preview as it changes.
  for (const type of ['input', 'change']) $('announcement-form').addEventListener(type, redraw);
  $('language-tabs').addEventListener('click', (event) => {
    const tab = event.target.closest('[role=tab]');
    if (tab) selectLanguage(tab.dataset.tag, true);
  });
  $('language-tabs').addEventListener('keydown', moveBetweenTabs);
  $('add-language').addEventListener('click', openAddLanguage);
  $('add-language-apply').addEventListener('click', () => addLanguage($('add-language-tag').value));
  $('add-language-cancel').addEventListener('click', closeAddLanguage);
  $('add-language-tag').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      // Not the form's submit (Save as draft): the tag is added.
      event.preventDefault();
      addLanguage($('add-language-tag').value);
    } else if (event.key === 'Escape') {
      closeAddLanguage();
    }
  });
  $('remove-language').addEventListener('click', removeLanguage);
  $('mark-current').addEventListener('click', markCurrent);
  $('own-locale').addEventListener('change', ownLocaleChanged);
  initDates();
  $('url-apply').addEventListener('click', applyUrl);
  $('url-cancel').addEventListener('click', closeUrlBar);
  for (const id of ['url-input', 'alt-input']) {
    $(id).addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        applyUrl();
      } else if (event.key === 'Escape') {
        closeUrlBar();
      }
    });
  }
}

// The announcement being edited (null: a new one), its editor, and the modules loaded at the first opening.
let editing = null;
let editor = null;
let modules = null;

// The form as it was opened, to tell whether Close would lose something.
let opened = null;

// A published one's PATCH reaches its feeds: its "Save as draft" keeps a draft of changes (PUT …/draft), applied by
// "Update live announcement". An archived one has one only from a restore; saving or publishing applies it.
const isPublished = (notification) => !!notification && notification.status === 'PUBLISHED';
const isArchived = (notification) => !!notification && notification.status === 'ARCHIVED';
const isLive = (notification) => !!notification && stateOf(notification, serverNow()) === 'live';

let pendingDraft = null;

// Its languages: its own (OWN) and each translation by tag, {title, message, image, imageAlt, action} as the form holds
// (null: the own language's); the tab shown; whether it had translations (then always sent, to remove the last).
const OWN = '';
let ownLocale = 'en';
let contents = {};
let selected = OWN;
let hadTranslations = false;
// The own language as opened: sent only when changed (sending the effective one back would pin it).
let openedLocale = 'en';
// Messages and dates as stored and as shown when opened: sent again only when changed here, since the fields cannot
// hold them byte for byte (minutes; a repeated hour, dates.js; the editor writes its JSON anew).
let openedAs = null;
// The ETag of the announcement as opened, or null for a new one. It covers its draft of changes too: "Update live
// announcement", which deletes the draft, is refused once a colleague saved a newer one.
let openedTag = null;
let openedDraftTag = null;

export async function openComposer(notification) {
  say('');
  if (!modules) {
    const [editorModule] = await Promise.all([import('./editor.js'), preview.loadPreview()]);
    modules = editorModule;
  }
  // As it is now, with its tag: a change saved from here applies only to it (If-Match), never over someone else's
  // save since (two tabs saved over each other without a word).
  openedTag = null;
  if (notification) {
    try {
      notification = { ...notification, ...(await call('GET', `/notifications/${notification.id}`)) };
    } catch (e) {
      if (e.status !== 404) throw e;
      say('That announcement is no longer here: someone deleted it.');
      await loadNotifications();
      return;
    }
    openedTag = lastTag();
  }
  editing = notification;
  pendingDraft = null;
  openedDraftTag = null;
  if (isPublished(notification) || isArchived(notification)) {
    try {
      pendingDraft = await call('GET', `/notifications/${notification.id}/draft`);
      openedDraftTag = lastTag();
    } catch (e) {
      if (e.status !== 404) throw e;
    }
  }
  $('draft-note').hidden = !pendingDraft;
  $('draft-note').textContent = pendingDraft ? `This is a draft of changes by ${pendingDraft.updatedBy}, `
    + `${new Date(pendingDraft.updatedAt).toLocaleString()}: ${isArchived(notification)
      ? 'the archived announcement keeps its content until you save or publish this.'
      : 'not live until you update the live announcement.'}` : '';
  notification = pendingDraft ? { ...notification, ...pendingDraft.changes } : notification;
  $('composer-title').textContent = notification ? 'Edit the announcement' : 'New announcement';
  for (const error of document.querySelectorAll('#announcement-form .error')) error.textContent = '';
  ownLocale = languages.ownLocaleOf(notification, currentProject);
  const own = notification || {};
  contents = { [OWN]: { title: own.title || null, message: notification ? own.message : '', image: own.image || null,
    imageAlt: own.imageAlt || null, action: own.action || null } };
  const translations = (notification && notification.translations) || {};
  for (const [tag, translation] of Object.entries(translations)) {
    contents[tag] = { title: translation.title || null, message: documentOrNull(translation.message),
      image: translation.image || null, imageAlt: translation.imageAlt || null, action: translation.action || null };
  }
  hadTranslations = Object.keys(translations).length > 0;
  openedLocale = ownLocale;
  $('own-locale').value = ownLocale;
  selected = OWN;
  closeAddLanguage();
  $('preset').value = notification ? notification.preset : 'default';
  showDates(notification && notification.startDate, notification && notification.endDate);
  openedAs = asOpened(notification, translations);
  audience.showAudience(notification ? notification.audience : null, editing ? editing.id : null);
  $('publish').hidden = isPublished(notification);
  for (const id of ['update-live', 'archive']) $(id).hidden = !isPublished(notification);
  $('discard-draft').hidden = !pendingDraft;
  // An announcement's life (lifecycle.js): a saved one only; unpublishing, a published one only.
  $('lifecycle').hidden = !notification;
  $('unpublish').hidden = !isPublished(notification);
  showLanguage();
  opened = JSON.stringify([formBody(), audience.audienceSnapshot()]);
  $('kept-note').hidden = true;
  const kept = keptEdits();
  if (kept && kept.project === currentProject.id && kept.id === (editing ? editing.id : null)) {
    restoreKept(kept, notification);
  }
  $('composer').hidden = false;
  editor.focus();
}

// Unsaved edits outlive a session that ended under them: kept in this tab's sessionStorage (fields only, never a
// credential) until saved or discarded, and put back when the same announcement opens after the next sign-in.
const KEPT = 'herald.console.unsaved';

/** The composer's unsaved edits, if any, kept for the account whose session ended. */
export function keepUnsavedEdits(account) {
  if (!hasUnsavedEdits()) return;
  sessionStorage.setItem(KEPT, JSON.stringify({ account, project: currentProject.id, id: editing ? editing.id : null,
    name: editing ? announcementName(editing, 60) : null, opened, body: formBody(),
    audience: audienceOrNothing() }));
}

// A builder holding a mistake (a list of numbers that is no number) keeps the audience as opened.
function audienceOrNothing() {
  try {
    return audience.audienceValue();
  } catch (e) {
    return undefined;
  }
}

export function keptEdits() {
  try {
    return JSON.parse(sessionStorage.getItem(KEPT));
  } catch (e) {
    return null;
  }
}

export function dropKeptEdits() {
  sessionStorage.removeItem(KEPT);
}

// The form as it opens now against the one edited: whether someone saved it meanwhile.
function restoreKept(kept, notification) {
  const changed = kept.opened !== opened;
  const { body } = kept;
  contents = { [OWN]: { title: body.title || null, message: body.message, image: body.image,
    imageAlt: body.imageAlt || null, action: body.action },
    ...body.translations };
  if ('locale' in body) {
    $('own-locale').value = body.locale || '';
    ownLocale = languages.ownLocaleOf(body, currentProject);
  }
  $('preset').value = body.preset;
  showDates(body.startDate, body.endDate);
  audience.showAudience(notification ? notification.audience : null, editing ? editing.id : null, kept.audience);
  selected = OWN;
  showLanguage();
  $('kept-note').textContent = `Your unsaved changes to ${kept.name ? `“${kept.name}”` : 'this new announcement'} `
    + 'were kept when your session ended, and are back here: not saved yet.' + (changed ? ' Someone has saved it '
    + 'since you opened it: saving puts your version in place of theirs; Close discards yours and keeps theirs.' : '');
  $('kept-note').hidden = false;
}

function asOpened(notification, translations) {
  const messages = { [OWN]: { stored: notification ? notification.message : '' } };
  messages[OWN].shown = JSON.stringify(modules.toStored(modules.toDocument(messages[OWN].stored)));
  for (const [tag, translation] of Object.entries(translations)) {
    const shown = contents[tag].message;
    if (shown) messages[tag] = { stored: translation.message, shown: JSON.stringify(shown) };
  }
  return { messages, dates: datesAsShown() };
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

/**
 * A change of the announcement as opened applies only to it as opened (If-Match, its tag covering its draft of
 * changes), never over someone else's save since.
 */
export const openedCondition = () => (openedTag ? { 'If-Match': openedTag } : {});

/** Whether the composer is open with changes that Close, a link or a reload would lose. */
export function hasUnsavedEdits() {
  return !$('composer').hidden && !!editor
    && JSON.stringify([formBody(), audience.audienceSnapshot()]) !== opened;
}

/** The composer closed, whatever it holds: the page it was on is left. */
export function leaveComposer() {
  $('composer').hidden = true;
  dropKeptEdits();
  editing = null;
}

function editorChanged(state) {
  for (const buttonElement of $('toolbar').querySelectorAll('[aria-pressed]')) {
    buttonElement.setAttribute('aria-pressed', String(modules.isActive(state, buttonElement.dataset.command)));
  }
  redraw();
}

// The preview fetches the image's URL: not at each key typed into its field (https://p/, https://pi/ …), but once
// typing pauses or the field is left (its change event).
const IMAGE_PAUSE_MS = 500;
let imageTyped = null;

function redraw(event) {
  clearTimeout(imageTyped);
  // A translation's own image is described by its own description only (the API's and the feed's rule).
  $('image-alt').placeholder = selected !== OWN && !$('image-url').value.trim() ? contents[OWN].imageAlt || '' : '';
  if (event && event.type === 'input' && event.target.id === 'image-url') {
    imageTyped = setTimeout(redraw, IMAGE_PAUSE_MS);
    return;
  }
  $('link-fields').hidden = $('action-type').value !== 'LINK';
  if (editor) preview.drawPreview(shownContent(), selected || ownLocale);
  if (editor) sayRequired();
}

// The required languages still without a message here, said before publishing is refused for them.
function sayRequired() {
  const required = currentProject.requiredLocales || [];
  const missing = required.filter((tag) => tag !== ownLocale && !(contents[tag] && contents[tag].message));
  $('languages-required').hidden = required.length === 0;
  $('languages-required').textContent = required.length === 0 ? '' : `This project requires ${required.join(', ')}`
    + (missing.length ? `; without a message yet: ${missing.map(languages.languageName).join(', ')}.` : ': all here.');
}

// As a reader of the tab's language gets it: the translation's members, else the own language's.
function shownContent() {
  const body = formBody();
  if (selected === OWN) return body;
  const translation = contents[selected];
  return { ...body, title: translation.title || body.title, message: translation.message || '',
    image: translation.image || body.image,
    imageAlt: translation.image || translation.imageAlt ? translation.imageAlt : body.imageAlt,
    action: translation.action || body.action };
}

// A stored translation's message as the editor's document, so that opening a tab changes nothing; an empty one null.
function documentOrNull(message) {
  if (message === null || message === undefined || message === '') return null;
  const written = modules.toDocument(message);
  return written.content.size <= 2 ? null : modules.toStored(written);
}

/** The fields, the editor and the tabs for the language selected (the fields hold nothing of the one before). */
function showLanguage() {
  const content = contents[selected];
  const own = contents[OWN];
  const translation = selected !== OWN;
  const ownAction = own.action || { type: 'NO_ACTION', data: null };
  actionChoices(translation, ownAction);
  const action = content.action;
  $('announcement-title').value = content.title || '';
  $('image-url').value = content.image || '';
  $('image-alt').value = content.imageAlt || '';
  $('action-type').value = action ? action.type : (translation ? 'INHERIT' : 'NO_ACTION');
  $('action-url').value = action && action.data ? action.data.url : '';
  $('action-target').value = action && action.data ? action.data.target : '_blank';
  $('action-label').value = action && action.data && action.data.label ? action.data.label : '';
  // What a field left empty gives on a translation's tab: the own language's, shown where the field is.
  $('announcement-title').placeholder = translation ? own.title || '' : '';
  $('image-url').placeholder = translation ? own.image || '' : '';
  $('action-url').placeholder = translation && ownAction.data ? ownAction.data.url : '';
  $('action-label').placeholder = translation && ownAction.data && ownAction.data.label ? ownAction.data.label : '';
  $('language-hint').hidden = !translation;
  $('language-hint').textContent = translation ? `The ${languages.languageName(selected)} text. A title, image (and `
    + `its description) or call to action left empty is the ${languages.languageName(ownLocale)} one, shown greyed `
    + 'in its field.' : '';
  $('remove-language-row').hidden = !translation;
  $('own-locale-row').hidden = translation;
  showOutdated();
  typedIn(selected || ownLocale);
  // A link's or an image's URL asked for the editor of the language left would land in this one's.
  $('url-bar').hidden = true;
  asking = null;
  if (editor) editor.destroy();
  editor = null;
  $('message-editor').replaceChildren();
  editor = modules.mountEditor($('message-editor'), content.message || '', editorChanged);
  renderTabs();
  redraw();
}

// Typed in the tab's language and direction: an Arabic title and message are written right to left.
function typedIn(tag) {
  for (const id of ['announcement-title', 'message-editor']) {
    $(id).lang = tag;
    $(id).dir = languages.directionOf(tag);
  }
}

// The own language changed: its tab's name, its direction and the preview's follow (a tag the browser cannot read
// is left for the API to refuse beside the field).
function ownLocaleChanged() {
  const typed = $('own-locale').value.trim();
  const tag = typed ? languages.canonicalTag(typed) : currentProject.defaultLocale || 'en';
  if (!tag) return;
  ownLocale = tag;
  renderTabs();
  typedIn(ownLocale);
  redraw();
}

// A translation's call to action may be the own language's: a choice of its own, first, on a translation's tab only.
function actionChoices(translation, ownAction) {
  const select = $('action-type');
  let inherit = select.querySelector('option[value=INHERIT]');
  if (!translation) {
    if (inherit) inherit.remove();
    return;
  }
  if (!inherit) {
    inherit = document.createElement('option');
    inherit.value = 'INHERIT';
    select.prepend(inherit);
  }
  const ownChoice = select.querySelector(`option[value="${ownAction.type}"]`);
  const ownName = ownChoice ? ownChoice.textContent : ownAction.type;
  inherit.textContent = `as in ${languages.languageName(ownLocale)}: ${ownName}`;
}

const tabId = (tag) => `language-tab-${tag || 'own'}`;
const translationTags = () => Object.keys(contents).filter((tag) => tag !== OWN).sort();

function renderTabs() {
  $('language-tabs').replaceChildren(...[OWN, ...translationTags()].map((tag) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.id = tabId(tag);
    tab.dataset.tag = tag;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-selected', String(tag === selected));
    tab.setAttribute('aria-controls', 'language-panel');
    tab.tabIndex = tag === selected ? 0 : -1;
    tab.textContent = tag === OWN ? `${languages.languageName(ownLocale)}, its own`
      : `${languages.languageName(tag)}${isOutdated(tag) ? ' · to read again' : ''}`;
    return tab;
  }));
  $('language-panel').setAttribute('aria-labelledby', tabId(selected));
}

// Whether the saved announcement's translation was written before its own text last changed (the API's outdated;
// a draft of changes says nothing of it: the live announcement's).
const isOutdated = (tag) => languages.outdatedLocales(editing).includes(tag);

function showOutdated() {
  const outdated = isOutdated(selected);
  const own = languages.languageName(ownLocale);
  $('outdated-row').hidden = !outdated;
  $('outdated-note').textContent = !outdated ? '' : pendingDraft ? `The live announcement's `
    + `${languages.languageName(selected)} text was written before its ${own} text last changed: read it again.`
    : `Written before the ${own} text last changed: read it again, then change it or mark it as up to date.`;
  // Its route writes the announcement as saved, which would delete a pending draft of changes.
  $('mark-current').hidden = !!pendingDraft;
}

// The translation as saved read again and still right: written through its route, it is up to date. The fields keep
// what is typed; the announcement's tag follows, so that saving them is not refused.
async function markCurrent() {
  const tag = selected;
  // Marked against the own text as saved: an edit of it not yet saved would make it out of date again on saving.
  const own = (body) => JSON.stringify(['title', 'message', 'image', 'imageAlt', 'action'].map((name) => body[name]));
  if (own(formBody()) !== own(JSON.parse(opened)[0])) {
    $('status-error').textContent = `Save the ${languages.languageName(ownLocale)} text first: its changes not yet `
      + `saved would leave ${languages.languageName(tag)} to read again once saved.`;
    return;
  }
  try {
    await call('PATCH', `/notifications/${editing.id}/translations/${tag}`, {}, openedCondition());
  } catch (e) {
    if (e.code === 'CHANGED_SINCE_READ') return sayChangedSinceRead('close it and open it again to see theirs.');
    return showSaveError(e);
  }
  openedTag = lastTag();
  $('status-error').textContent = '';
  editing = { ...editing, translations: { ...editing.translations, [tag]: { ...editing.translations[tag],
    outdated: false } } };
  showOutdated();
  renderTabs();
  $(tabId(tag)).focus();
  say(`${languages.languageName(tag)} marked as up to date.`);
  await loadNotifications();
}

/** Another language's tab: what the fields hold is kept for the one left. */
function selectLanguage(tag, focusTab) {
  if (!(tag in contents)) return;
  if (tag !== selected) {
    formBody();
    selected = tag;
    showLanguage();
  }
  if (focusTab) $(tabId(tag)).focus();
}

// The tabs' keys (WAI-ARIA tabs, selection follows focus): arrows to the next or previous, Home and End.
function moveBetweenTabs(event) {
  const tags = [OWN, ...translationTags()];
  const at = tags.indexOf(event.target.dataset ? event.target.dataset.tag : undefined);
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tags.length - 1 }[event.key];
  if (at < 0 || next === undefined) return;
  event.preventDefault();
  selectLanguage(tags[(next + tags.length) % tags.length], true);
}

// At most this many translations (the API's limit).
const MOST_TRANSLATIONS = 50;

function openAddLanguage() {
  const taken = [ownLocale, ...translationTags()];
  const suggested = languages.suggestions(currentProject, taken);
  $('language-suggestions').replaceChildren(...suggested.map((tag) => {
    const option = document.createElement('option');
    option.value = tag;
    option.textContent = languages.languageName(tag);
    return option;
  }));
  $('language-suggestion-buttons').replaceChildren(...suggested.map((tag) => {
    const choice = document.createElement('button');
    choice.type = 'button';
    choice.className = 'secondary';
    choice.textContent = languages.languageName(tag);
    if ((currentProject.requiredLocales || []).includes(tag)) choice.append(' · required');
    choice.addEventListener('click', () => addLanguage(tag));
    return choice;
  }));
  $('add-language-tag').value = '';
  $('add-language-error').textContent = '';
  $('add-language-bar').hidden = false;
  $('add-language').setAttribute('aria-expanded', 'true');
  $('add-language-tag').focus();
}

function closeAddLanguage() {
  const wasOpen = !$('add-language-bar').hidden;
  $('add-language-bar').hidden = true;
  $('add-language').setAttribute('aria-expanded', 'false');
  if (wasOpen && document.activeElement && $('add-language-bar').contains(document.activeElement)) {
    $('add-language').focus();
  }
}

function addLanguage(text) {
  const tag = languages.canonicalTag(text);
  const refuse = (why) => {
    $('add-language-error').textContent = why;
    $('add-language-tag').focus();
  };
  if (!tag) return refuse('A language is a BCP 47 tag, such as fr, pt-BR or zh-Hant.');
  if (tag === ownLocale) {
    return refuse(`${languages.languageName(tag)} is the announcement's own language: its first tab.`);
  }
  if (!(tag in contents) && translationTags().length >= MOST_TRANSLATIONS) {
    return refuse(`An announcement has at most ${MOST_TRANSLATIONS} translations.`);
  }
  $('add-language-bar').hidden = true;
  $('add-language').setAttribute('aria-expanded', 'false');
  if (!(tag in contents)) {
    formBody();
    contents[tag] = { title: null, message: null, image: null, action: null };
  }
  selectLanguage(tag, false);
  editor.focus();
  return undefined;
}

async function removeLanguage() {
  const tag = selected;
  if (tag === OWN || !(await confirmed(`Remove the ${languages.languageName(tag)} translation? Its text is gone `
    + 'once you save the announcement.', 'Remove translation'))) {
    return;
  }
  delete contents[tag];
  selected = OWN;
  showLanguage();
  say(`${languages.languageName(tag)} removed; saved with the announcement.`);
  $(tabId(OWN)).focus();
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
  // An image selected in the editor is described or changed in place: its URL and alt text are filled in.
  const selected = what === 'image' ? modules.selectedImage(editor.state) : null;
  $('url-input').value = selected ? selected.src : '';
  $('alt-input').value = selected && selected.alt ? selected.alt : '';
  $('alt-label').hidden = what !== 'image';
  $('alt-input').hidden = what !== 'image';
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
  (asking === 'link' ? modules.link(url) : modules.image(url, $('alt-input').value.trim()))(editor.state,
    editor.dispatch);
  closeUrlBar();
}

function closeUrlBar() {
  $('url-bar').hidden = true;
  asking = null;
  // After the key that closed the bar is done with: its Enter must not reach the editor, over the words just linked.
  setTimeout(() => editor.focus(), 0);
}

// The fields of the tab shown: a translation's empty ones are null (the own language's), its empty message too.
function fieldsContent() {
  const translation = selected !== OWN;
  const type = $('action-type').value;
  const written = editor.state.doc;
  return {
    title: $('announcement-title').value.trim() || null,
    message: translation && written.content.size <= 2 ? null : modules.toStored(written),
    image: $('image-url').value.trim() || null,
    imageAlt: $('image-alt').value.trim() || null,
    action: type === 'INHERIT' ? null : { type, data: type === 'LINK' ? linkData() : null },
  };
}

/** The announcement as it would be sent; what the fields hold is kept for their language's tab first. */
function formBody() {
  contents[selected] = fieldsContent();
  const own = contents[OWN];
  const body = {
    title: own.title,
    message: own.message,
    image: own.image,
    imageAlt: own.imageAlt,
    action: own.action,
    preset: $('preset').value.trim() || 'default',
    startDate: instantOf('start-date'),
    endDate: instantOf('end-date'),
  };
  const typedLocale = $('own-locale').value.trim();
  if (typedLocale !== openedLocale) {
    body.locale = typedLocale ? languages.canonicalTag(typedLocale) || typedLocale : null;
  }
  const tags = translationTags();
  // Replaced whole by the API: sent when there is any, or was (the last one removed); never to one that had none.
  if (tags.length || hadTranslations) body.translations = Object.fromEntries(tags.map((tag) => [tag, contents[tag]]));
  return body;
}

// A label left empty is none: the widget says its own (its action-text, else "Learn more").
function linkData() {
  const label = $('action-label').value.trim();
  return { url: $('action-url').value.trim(), target: $('action-target').value, ...(label && { label }) };
}

// status: PUBLISHED or ARCHIVED; UPDATE, a published one's change to its feeds; null, a draft (of a published one:
// a draft of changes, kept apart).
async function saveAnnouncement(status) {
  for (const error of document.querySelectorAll('#announcement-form .error')) error.textContent = '';
  const unreadable = unreadableDate();
  if (unreadable) return showSaveError(unreadable);
  const body = formBody();
  if (status === 'PUBLISHED' || status === 'ARCHIVED') body.status = status;
  const atOnce = !body.startDate || Date.parse(body.startDate) <= serverNow();
  const ended = body.endDate && Date.parse(body.endDate) <= serverNow();
  if (status === 'PUBLISHED' && atOnce && !(await confirmed(ended
    ? 'Publish? Its end is past: it is ended as it is saved, and goes live in no feed.'
    : 'Publish now? It goes live at once in the feeds of this project\'s keys.', 'Publish now'))) {
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
  audience.clearAudienceErrors();
  try {
    // Sent only when changed here: an audience the builder cannot show is never sent back, so never rewritten.
    if (audience.audienceChanged()) body.audience = audience.audienceValue();
    if (editing) leaveUnchangedAsStored(body);
    let saved;
    if (draftOfChanges) {
      saved = await call('PUT', `/notifications/${editing.id}/draft`, body, draftCondition());
      const named = announcementName({ title: saved.changes.title === undefined ? editing.title : saved.changes.title,
        message: saved.changes.message || editing.message }, 60);
      say(`Draft of changes kept: “${named}”; the live announcement is as it was.`);
    } else {
      saved = editing
        ? await call('PATCH', `/notifications/${editing.id}`, body, openedCondition())
        : await call('POST', `/projects/${currentProject.id}/notifications`, { status: 'DRAFT', ...body });
      const outdated = languages.outdatedLocales(saved);
      say(`${stateOf(saved, serverNow())[0].toUpperCase()}${stateOf(saved, serverNow()).slice(1)}: `
        + `“${announcementName(saved, 60)}”.${outdated.length ? ` To read again: ${outdated
          .map(languages.languageName).join(', ')}.` : ''}`);
    }
    leaveComposer();
    await Promise.all([loadNotifications(), loadActivity()]);
    $('compose').focus();
  } catch (e) {
    if (e.code === 'CHANGED_SINCE_READ') {
      sayChangedSinceRead('yours is not saved, so as not to undo theirs. Copy what you need, close it and open it'
        + ' again, then make your change.');
      return;
    }
    if (!audience.showAudienceError(e) && !showLanguageError(e)) showSaveError(e);
  }
}

// A refusal said beside its field (details.field), the focus on it; else beside the buttons.
function showSaveError(e) {
  const field = (e.field || '').split('.')[0];
  // The own language's fields: its tab is shown to say what is wrong in them.
  if (['title', 'message', 'image', 'imageAlt', 'action', 'locale'].includes(field)) selectLanguage(OWN, false);
  const place = field && $(`${field}-error`) ? $(`${field}-error`) : $('status-error');
  place.textContent = e.message;
  const input = e.field === 'action.data.label' ? $('action-label') : { title: $('announcement-title'),
    message: $('message-editor'), image: $('image-url'), imageAlt: $('image-alt'), locale: $('own-locale'),
    action: $('action-url'), preset: $('preset'), startDate: $('start-date'), endDate: $('end-date') }[field];
  if (input === $('message-editor')) editor.focus(); else if (input) input.focus();
}

// A draft of changes is replaced or discarded only if it is the one opened (If-Match), or kept only if none is when
// none was opened (If-None-Match): never over a colleague's saved since, without a word.
function draftCondition() {
  if (!pendingDraft) return { 'If-None-Match': '*' };
  return openedDraftTag ? { 'If-Match': openedDraftTag } : {};
}

// A write refused with 412 CHANGED_SINCE_READ: said beside the buttons, the composer left open as typed.
function sayChangedSinceRead(consequence) {
  $('status-error').textContent = `Someone saved this announcement or its draft of changes since you opened it: ${
    consequence}`;
}

// Dates and messages unchanged since opened are left out of the body, except in a draft of changes (replaced
// whole); a translation's message goes as stored (translations are replaced whole).
function leaveUnchangedAsStored(body) {
  const drafted = pendingDraft ? pendingDraft.changes : {};
  const dates = datesAsShown();
  const unchanged = {
    startDate: dates['start-date'] === openedAs.dates['start-date'],
    endDate: dates['end-date'] === openedAs.dates['end-date'],
    message: JSON.stringify(body.message) === openedAs.messages[OWN].shown,
  };
  for (const field of Object.keys(unchanged).filter((name) => unchanged[name])) {
    if (field in drafted) body[field] = drafted[field]; else delete body[field];
  }
  for (const [tag, translation] of Object.entries(body.translations || {})) {
    const opened = openedAs.messages[tag];
    if (opened && JSON.stringify(translation.message) === opened.shown) {
      body.translations[tag] = { ...translation, message: opened.stored };
    }
  }
}

// A refusal of the translations (`missing` languages, or translations.fr.message): its tab shown, its field focused.
function showLanguageError(e) {
  const [field, tag, member] = (e.field || '').split('.');
  if (field !== 'translations') return false;
  const missing = e.details && Array.isArray(e.details.missing) ? e.details.missing : [];
  // A description's refusal is said beside its field, as the own language's is.
  $(member === 'imageAlt' ? 'imageAlt-error' : 'translations-error').textContent = missing.length
    ? `${e.message} — missing: ${missing.map((lacking) => languages.languageName(String(lacking))).join(', ')}.`
    : e.message;
  if (tag && tag in contents) {
    selectLanguage(tag, false);
    const input = { title: $('announcement-title'), image: $('image-url'), imageAlt: $('image-alt'),
      action: $('action-type') }[member];
    if (input) input.focus(); else editor.focus();
  } else {
    $('add-language').focus();
  }
  return true;
}

async function discardDraft() {
  const kept = isArchived(editing) ? 'archived' : 'live';
  if (!(await confirmed(`Discard the draft of changes? The ${kept} announcement stays as it is.`, 'Discard draft'))) {
    return;
  }
  try {
    await call('DELETE', `/notifications/${editing.id}/draft`, undefined, draftCondition());
  } catch (e) {
    if (e.code === 'CHANGED_SINCE_READ') {
      sayChangedSinceRead('the draft is not discarded, so as not to lose theirs. Close it and open it again to see'
        + ' it.');
      return;
    }
    if (e.status !== 404) {
      $('status-error').textContent = e.message;
      return;
    }
  }
  say(`Draft of changes discarded; the ${kept} announcement is as it was.`);
  leaveComposer();
  pendingDraft = null;
  await loadActivity();
  $('compose').focus();
}
