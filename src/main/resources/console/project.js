// One project's page: its keys, its user token keys, its announcements, its performance, its activity.
import { call, callAll, isEditor, serverNow } from './api.js';
import { $, say, show, button, when, instant, plainText, announcementName } from './ui.js';
import { loadKeys } from './keys.js';
import { loadTokenKeys } from './tokens.js';
import { statsChoices, loadStats, showLastThirtyDays, figureCells } from './stats.js';
import { sentence } from './audit.js';
import { openComposer, keptEdits } from './composer.js';
import { showProjects } from './projects.js';
import * as languages from './languages.js';

// The project shown, and its announcements as last loaded (for the state filter chosen).
export let currentProject = null;
export let notifications = [];

export function init() {
  $('notification-state').addEventListener('change', () => loadNotifications());
  $('notification-search').addEventListener('input', filterNotifications);
  $('notification-filter').addEventListener('submit', (event) => event.preventDefault());
  // Required languages changed: every row's mark of what it lacks is redrawn with the project as saved.
  languages.init((saved) => {
    currentProject = saved;
    filterNotifications();
  });
}

// announcementId: a link to an announcement (the audit log's) opens it in its project: in the editor for an editor,
// its row focused for a viewer.
export async function showProject(id, announcementId) {
  show('project');
  try {
    currentProject = await call('GET', `/projects/${id}`);
  } catch (e) {
    // The session has ended: the sign-in page is shown (console.js), and the address kept to go on to after it.
    if (e.status === 401) return;
    // Replaced, not assigned: a hashchange would clear what is said here.
    history.replaceState(null, '', '#/projects');
    showProjects();
    say(e.status === 404 ? 'No such project.' : e.message);
    return;
  }
  $('project-title').textContent = currentProject.name;
  $('project-webhooks').href = `#/projects/${currentProject.id}/webhooks`;
  document.title = `${currentProject.name} · Herald Console`;
  languages.showLanguages(currentProject);
  showLastThirtyDays();
  await Promise.all([loadKeys(), loadTokenKeys(), loadNotifications(), loadActivity()]);
  await loadStats();
  const kept = keptEdits();
  if (announcementId) {
    await openLinked(announcementId);
  } else if (isEditor() && kept && kept.project === id && kept.id === null) {
    // A new announcement's edits, kept when the session ended: the composer opens them again.
    await composeInView(null);
  }
}

async function openLinked(announcementId) {
  const notification = notifications.find((n) => n.id === announcementId);
  if (!notification) {
    say('That announcement is no longer here.');
  } else if (isEditor()) {
    await composeInView(notification);
  } else {
    const row = $('notification-list').querySelector(`tr[data-id="${CSS.escape(announcementId)}"]`);
    row.tabIndex = -1;
    row.focus();
  }
}

// The state as the feed computes it (NotificationState): draft, archived, scheduled, ended or live.
export function stateOf(notification, now) {
  if (notification.status === 'DRAFT') return 'draft';
  if (notification.status === 'ARCHIVED') return 'archived';
  if (notification.startDate !== null && Date.parse(notification.startDate) > now) return 'scheduled';
  if (notification.endDate !== null && Date.parse(notification.endDate) < now) return 'ended';
  return 'live';
}

export async function loadNotifications() {
  const state = $('notification-state').value;
  notifications = await callAll(`/projects/${currentProject.id}/notifications?limit=1000${state ? `&state=${state}` : ''}`);
  filterNotifications();
  statsChoices();
}

function filterNotifications() {
  const words = $('notification-search').value.trim().toLowerCase();
  const now = serverNow();
  const shown = notifications.filter((n) => !words
    || `${n.title || ''} ${plainText(n.message)}`.toLowerCase().includes(words));
  $('notification-list').tBodies[0].replaceChildren(...shown.map((n) => notificationRow(n, now)));
  $('notification-list').hidden = shown.length === 0;
  $('no-notifications').hidden = shown.length > 0;
}

function notificationRow(notification, now) {
  const row = document.createElement('tr');
  row.dataset.id = notification.id;
  const message = document.createElement('td');
  message.className = 'value';
  message.textContent = announcementName(notification);
  const state = document.createElement('td');
  const badge = document.createElement('span');
  const name = stateOf(notification, now);
  badge.className = `state ${name}`;
  badge.textContent = name;
  state.append(badge);
  if (notification.draftOfChanges) {
    // Not live until someone updates the live announcement: said in the list, so it is not forgotten there.
    const pending = document.createElement('span');
    pending.className = 'pending';
    pending.textContent = 'changes pending';
    pending.title = `Draft of changes by ${notification.draftOfChanges.updatedBy}, `
      + `${new Date(notification.draftOfChanges.updatedAt).toLocaleString()}`;
    state.append(' ', pending);
  }
  const missing = languages.missingLocales(notification, currentProject);
  if (missing.length) {
    // In words, not colour alone: publishing refuses it until each has a translation with a message.
    const lacking = document.createElement('span');
    lacking.className = 'missing';
    lacking.textContent = `missing ${missing.join(', ')}`;
    lacking.title = `Lacks languages the project requires: ${missing.map(languages.languageName).join(', ')}`;
    state.append(' ', lacking);
  }
  const outdated = languages.outdatedLocales(notification);
  if (outdated.length) {
    // Its translators' next task: in words, as the missing languages are.
    const stale = document.createElement('span');
    stale.className = 'outdated';
    stale.textContent = `to read again: ${outdated.join(', ')}`;
    stale.title = `Translations written before its own text last changed: ${outdated.map(languages.languageName)
      .join(', ')}`;
    state.append(' ', stale);
  }
  const actions = document.createElement('td');
  actions.className = 'actions';
  if (isEditor()) {
    const edit = button('Edit', () => composeInView(notification), 'secondary');
    edit.setAttribute('aria-label', `Edit “${announcementName(notification, 60)}”`);
    actions.append(edit);
  } else {
    // A viewer opens no composer: the history is its way to an announcement's past (lifecycle.js listens).
    const history = button('History', null, 'secondary');
    history.type = 'button';
    history.dataset.history = notification.id;
    history.setAttribute('aria-label', `History of “${announcementName(notification, 60)}”`);
    actions.append(history);
  }
  row.append(message, state, when(notification.startDate, 'Starts'), when(notification.endDate, 'Ends'),
    ...figureCells(notification.id), actions);
  return row;
}

// The form may open far below the row its Edit is on: brought to the top of the view, where the editor has the focus.
async function composeInView(notification) {
  await openComposer(notification);
  $('composer-title').scrollIntoView({ block: 'start' });
}

export async function loadActivity() {
  const lines = await call('GET', `/audit?projectId=${currentProject.id}&limit=20`);
  $('activity').replaceChildren(...lines.map((line) => {
    const item = document.createElement('li');
    item.append(instant(line.occurredAt), ' ', sentence(line, false));
    return item;
  }));
}
