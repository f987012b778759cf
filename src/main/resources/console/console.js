// Herald Console: everything it shows or changes goes through the management API (/api/v1/admin), as the signed-in
// account. Text is only ever set as text (never as markup), and nothing here runs code from a string: the page's
// Content-Security-Policy allows neither.

const API = '/api/v1/admin';
// The Link header of the last answer: where a list's next page is.
let lastLink = null;
let session = null;

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `Herald answered ${status}`);
    this.status = status;
    this.code = body && body.code;
    this.field = body && body.details && body.details.field;
  }
}

const $ = (id) => document.getElementById(id);

async function call(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && session && session.csrfToken) headers['X-CSRF-Token'] = session.csrfToken;
  let response;
  try {
    response = await fetch(API + path, {
      method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, { error: 'Herald could not be reached; check the connection and try again.' });
  }
  const date = Date.parse(response.headers.get('Date'));
  if (!Number.isNaN(date)) clockOffset = date - Date.now();
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  lastLink = response.headers.get('Link');
  if (!response.ok) {
    const error = new ApiError(response.status, json);
    if (response.status === 401 && session) sessionEnded();
    throw error;
  }
  return json;
}

// A question in a modal dialog of the page (Escape or Cancel says no); the focus goes back where it was.
// The close event comes a task after the dialog closed: a question asked again at once would otherwise take the
// answer of the one before (seen under load: a key revoked by Yes stayed, its question answered by the Cancel before).
let questionsAsked = 0;

function confirmed(question, yes) {
  const dialog = $('confirm');
  const before = document.activeElement;
  const asked = ++questionsAsked;
  $('confirm-text').textContent = question;
  $('confirm-yes').textContent = yes;
  dialog.returnValue = 'no';
  dialog.showModal();
  $('confirm-no').focus();
  return new Promise((resolve) => {
    const answered = () => {
      if (asked === questionsAsked && dialog.open) return;
      dialog.removeEventListener('close', answered);
      if (asked !== questionsAsked) {
        resolve(false);
        return;
      }
      if (before) before.focus();
      resolve(dialog.returnValue === 'yes');
    };
    dialog.addEventListener('close', answered);
  });
}

function say(message) {
  $('status').textContent = message;
}

function show(section) {
  for (const id of ['sign-in', 'projects', 'project', 'audit']) $(id).hidden = id !== section;
}

// Herald's clock, as its answers' Date header tells it: a notification's state is the one its feed computes now.
let clockOffset = 0;

function serverNow() {
  return Date.now() + clockOffset;
}

// Signing in and out

async function start() {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  $('new-project').addEventListener('submit', createProject);
  $('new-key').addEventListener('click', createKey);
  $('notification-state').addEventListener('change', () => loadNotifications());
  $('notification-search').addEventListener('input', filterNotifications);
  $('notification-filter').addEventListener('submit', (event) => event.preventDefault());
  window.addEventListener('hashchange', () => {
    if (!session) return;
    // What the page left said ("Project … created.") is not said of the next one; and the link just followed is
    // hidden with its page, so the focus goes to the new page's content rather than falling to the body.
    say('');
    route();
    $('main').focus();
  });
  $('stats-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadStats();
  });
  $('stats-of').addEventListener('change', () => loadStats());
  $('stats-csv').addEventListener('click', downloadCsv);
  $('compose').addEventListener('click', () => openComposer(null));
  $('audit-more').addEventListener('click', () => loadAudit(auditNext));
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
  for (const zone of document.querySelectorAll('.time-zone')) {
    zone.textContent = `your time zone, ${Intl.DateTimeFormat().resolvedOptions().timeZone}`;
  }
  try {
    session = await call('GET', '/session');
    signedIn();
  } catch (e) {
    session = null;
    showSignIn(e.status === 401 ? '' : e.message);
  }
}

function showSignIn(message) {
  $('who').hidden = true;
  document.body.classList.remove('viewer');
  show('sign-in');
  $('sign-in-error').textContent = message;
  $('sign-in-name').focus();
}

async function signIn(event) {
  event.preventDefault();
  const name = $('sign-in-name').value.trim();
  const token = $('sign-in-token').value.trim();
  if (!name || !token) {
    $('sign-in-error').textContent = 'Give your account\'s name and token.';
    (name ? $('sign-in-token') : $('sign-in-name')).focus();
    return;
  }
  try {
    session = await call('POST', '/session', { name, token });
    $('sign-in-token').value = '';
    $('sign-in-error').textContent = '';
    if (!(await keptTheCookie())) {
      session = null;
      $('sign-in-error').textContent = 'Your browser did not keep the session: the console needs HTTPS '
        + '(or localhost). Ask whoever runs Herald to serve it over HTTPS.';
      $('sign-in-name').focus();
      return;
    }
    signedIn();
  } catch (e) {
    $('sign-in-error').textContent = e.status === 401 ? 'No account has this name and token.' : e.message;
    $('sign-in-token').select();
    $('sign-in-token').focus();
  }
}

// A Secure cookie is dropped over plain HTTP (but on localhost): ask once with it before going on.
async function keptTheCookie() {
  const answer = await fetch(API + '/session', { credentials: 'same-origin', cache: 'no-store' });
  return answer.ok;
}

function signedIn() {
  $('who-name').textContent = `${session.name} (${session.role})`;
  $('who').hidden = false;
  document.body.classList.toggle('viewer', session.role !== 'editor');
  say('');
  route();
  // Where a keyboard or screen reader user goes on from: the page's content, not the form that is gone.
  $('main').focus();
}

// #/projects, or #/projects/{id}: a reload or a link keeps the page.
function route() {
  const match = /^#\/projects\/([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (match) {
    showProject(match[1]);
  } else if (location.hash === '#/audit') {
    showAudit();
  } else {
    showProjects();
  }
}

async function signOut() {
  try {
    await call('DELETE', '/session');
  } catch (e) {
    // Signed out either way: the session has ended, or is ending.
  }
  session = null;
  say('Signed out.');
  showSignIn('');
}

function sessionEnded() {
  session = null;
  showSignIn('Your session has ended; sign in again.');
}

// Projects

async function showProjects() {
  show('projects');
  try {
    renderProjects(await call('GET', '/projects?limit=1000'));
  } catch (e) {
    say(e.message);
  }
}

function renderProjects(projects) {
  const body = $('project-list').tBodies[0];
  body.replaceChildren(...projects.map(projectRow));
  $('no-projects').hidden = projects.length > 0;
  $('project-list').hidden = projects.length === 0;
}

function projectRow(project) {
  const row = document.createElement('tr');
  row.dataset.id = project.id;
  const name = document.createElement('td');
  name.className = 'name';
  const link = document.createElement('a');
  link.href = `#/projects/${project.id}`;
  link.textContent = project.name;
  name.append(link);
  const created = document.createElement('td');
  const time = document.createElement('time');
  time.dateTime = project.createdAt;
  time.textContent = new Date(project.createdAt).toLocaleString();
  created.append(time);
  const actions = document.createElement('td');
  actions.className = 'actions';
  if (session && session.role === 'editor') {
    const rename = button('Rename', () => startRename(row, project), 'secondary');
    rename.setAttribute('aria-label', `Rename ${project.name}`);
    actions.append(rename);
  }
  row.append(name, created, actions);
  return row;
}

function startRename(row, project) {
  const cell = row.querySelector('td.name');
  const form = document.createElement('form');
  form.className = 'inline';
  form.noValidate = true;
  const label = document.createElement('label');
  label.className = 'visually-hidden';
  label.htmlFor = `rename-${project.id}`;
  label.textContent = `New name of ${project.name}`;
  const input = document.createElement('input');
  input.id = label.htmlFor;
  input.value = project.name;
  input.maxLength = 200;
  const error = document.createElement('p');
  error.className = 'error';
  error.setAttribute('role', 'alert');
  const cancel = () => {
    const fresh = projectRow(project);
    row.replaceWith(fresh);
    fresh.querySelector('td.actions button').focus();
  };
  form.append(label, input, button('Save', null), button('Cancel', cancel, 'secondary'), error);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const renamed = await call('PATCH', `/projects/${encodeURIComponent(project.id)}`, { name: input.value });
      const fresh = projectRow(renamed);
      row.replaceWith(fresh);
      say(`Renamed to ${renamed.name}.`);
      fresh.querySelector('td.actions button').focus();
    } catch (e) {
      error.textContent = e.message;
      input.focus();
    }
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') cancel();
  });
  cell.replaceChildren(form);
  input.select();
  input.focus();
}

async function createProject(event) {
  event.preventDefault();
  const input = $('new-project-name');
  try {
    const project = await call('POST', '/projects', { name: input.value });
    input.value = '';
    $('new-project-error').textContent = '';
    input.removeAttribute('aria-invalid');
    say(`Project ${project.name} created.`);
    await showProjects();
    input.focus();
  } catch (e) {
    $('new-project-error').textContent = e.message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
}

// One project: its keys, its announcements, its activity

let currentProject = null;
let notifications = [];

async function showProject(id) {
  show('project');
  try {
    currentProject = await call('GET', `/projects/${id}`);
  } catch (e) {
    // Replaced, not assigned: a hashchange would clear what is said here.
    history.replaceState(null, '', '#/projects');
    showProjects();
    say(e.status === 404 ? 'No such project.' : e.message);
    return;
  }
  $('project-title').textContent = currentProject.name;
  document.title = `${currentProject.name} · Herald Console`;
  const today = new Date(serverNow()).toISOString().slice(0, 10);
  $('stats-to').value = today;
  $('stats-from').value = dayOffset(today, -29);
  await Promise.all([loadKeys(), loadNotifications(), loadActivity()]);
  await loadStats();
}

const ORDERS = {
  createdAt_desc: 'newest first', createdAt_asc: 'oldest first', startDate_asc: 'by start, soonest first',
  startDate_desc: 'by start, latest first', endDate_asc: 'by end, soonest first', endDate_desc: 'by end, latest first',
};

async function loadKeys() {
  const keys = await call('GET', `/projects/${currentProject.id}/api-keys?limit=1000`);
  $('key-list').replaceChildren(...keys.map(keyCard));
  $('no-keys').hidden = keys.length > 0;
}

function keyCard(key) {
  const item = document.createElement('li');
  const value = document.createElement('p');
  value.className = 'key';
  value.textContent = key.key;
  item.append(value);
  const editable = session.role === 'editor' && key.revokedAt === null;
  if (key.revokedAt !== null) {
    const revoked = document.createElement('p');
    revoked.className = 'revoked';
    revoked.textContent = `Revoked ${new Date(key.revokedAt).toLocaleString()}: clients using it get 401.`;
    item.append(revoked);
  }
  item.append(
    checkbox(key, 'showPast', 'Show past', 'Ended announcements stay in this key\'s feed.', editable),
    checkbox(key, 'showFuture', 'Show future', 'Scheduled announcements are in the feed before they start.',
      editable),
    orderSelect(key, editable));
  if (editable) {
    const revoke = button('Revoke', () => revokeKey(key), 'secondary');
    revoke.setAttribute('aria-label', `Revoke key ${key.key}`);
    item.append(revoke);
  }
  return item;
}

function checkbox(key, field, text, hint, editable) {
  const line = document.createElement('div');
  line.className = 'switch';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.id = `${field}-${key.key}`;
  input.checked = key[field];
  input.disabled = !editable;
  const label = document.createElement('label');
  label.htmlFor = input.id;
  label.textContent = text;
  const explanation = document.createElement('p');
  explanation.className = 'hint';
  explanation.id = `${input.id}-hint`;
  explanation.textContent = hint;
  input.setAttribute('aria-describedby', explanation.id);
  input.addEventListener('change', () => updateKey(key, { [field]: input.checked }, () => {
    input.checked = key[field];
  }));
  line.append(input, label, explanation);
  return line;
}

function orderSelect(key, editable) {
  const line = document.createElement('div');
  line.className = 'switch';
  const select = document.createElement('select');
  select.id = `orderBy-${key.key}`;
  select.disabled = !editable;
  for (const [value, text] of Object.entries(ORDERS)) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = text;
    option.selected = value === key.orderBy;
    select.append(option);
  }
  const label = document.createElement('label');
  label.htmlFor = select.id;
  label.textContent = 'Order';
  const explanation = document.createElement('p');
  explanation.className = 'hint';
  explanation.id = `${select.id}-hint`;
  explanation.textContent = 'How the feed orders the announcements it shows.';
  select.setAttribute('aria-describedby', explanation.id);
  select.addEventListener('change', () => updateKey(key, { orderBy: select.value }, () => {
    select.value = key.orderBy;
  }));
  line.append(label, select, explanation);
  return line;
}

async function updateKey(key, change, undo) {
  try {
    Object.assign(key, await call('PATCH', `/api-keys/${encodeURIComponent(key.key)}`, change));
    say('Key saved.');
    loadActivity();
  } catch (e) {
    undo();
    say(`Not saved: ${e.message}`);
  }
}

async function createKey() {
  try {
    const key = await call('POST', `/projects/${currentProject.id}/api-keys`, {});
    say(`Key ${key.key} created.`);
    await Promise.all([loadKeys(), loadActivity()]);
    $(`showPast-${key.key}`).focus();
  } catch (e) {
    say(e.message);
  }
}

async function revokeKey(key) {
  if (!(await confirmed(`Revoke ${key.key}? Clients using it stop getting announcements at once.`, 'Revoke'))) {
    return;
  }
  try {
    await call('DELETE', `/api-keys/${encodeURIComponent(key.key)}`);
    say(`Key ${key.key} revoked.`);
    await Promise.all([loadKeys(), loadActivity()]);
    $('new-key').focus();
  } catch (e) {
    say(e.message);
  }
}

// The state as the feed computes it (NotificationState): draft, archived, scheduled, ended or live.
function stateOf(notification, now) {
  if (notification.status === 'DRAFT') return 'draft';
  if (notification.status === 'ARCHIVED') return 'archived';
  if (notification.startDate !== null && Date.parse(notification.startDate) > now) return 'scheduled';
  if (notification.endDate !== null && Date.parse(notification.endDate) < now) return 'ended';
  return 'live';
}

async function loadNotifications() {
  const state = $('notification-state').value;
  const query = state ? `?state=${state}&limit=1000` : '?limit=1000';
  notifications = await call('GET', `/projects/${currentProject.id}/notifications${query}`);
  filterNotifications();
  statsChoices();
}

// Performance: totals, a chart of the daily series and its CSV, of the project or of one announcement

let shownStats = null;

function dayOffset(day, days) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function statsChoices() {
  const select = $('stats-of');
  const chosen = select.value;
  const options = [['', 'the whole project'],
    ...notifications.map((n) => [n.id, `“${excerpt(plainText(n.message), 60)}”`])];
  select.replaceChildren(...options.map(([value, text]) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = text;
    return option;
  }));
  select.value = options.some(([value]) => value === chosen) ? chosen : '';
}

async function loadStats() {
  const from = $('stats-from').value;
  const to = $('stats-to').value;
  if (!from || !to || to < from) {
    $('stats-error').textContent = 'Give a first day and a last day that is not before it.';
    return;
  }
  $('stats-error').textContent = '';
  const of = $('stats-of').value;
  const path = of ? `/notifications/${of}/stats` : `/projects/${currentProject.id}/stats`;
  try {
    const stats = await call('GET', `${path}?from=${from}&to=${to}`);
    shownStats = { from, to, of, days: everyDay(from, to, stats.daily), stats };
    renderStats(shownStats);
  } catch (e) {
    $('stats-error').textContent = e.message;
  }
}

// Every day of the range, those without activity as zeros: a line that skips them would lie.
function everyDay(from, to, daily) {
  const byDate = new Map(daily.map((day) => [day.date, day]));
  const days = [];
  for (let day = from; day <= to && days.length < 3700; day = dayOffset(day, 1)) {
    days.push(byDate.get(day) || { date: day, impression: 0, click: 0, conversion: 0 });
  }
  return days;
}

const SERIES = ['impression', 'click', 'conversion'];

function renderStats({ from, to, days, stats }) {
  const totals = [['Impressions', stats.impression], ['Clicks', stats.click], ['Conversions', stats.conversion],
    ['CTR', `${(stats.ctr * 100).toFixed(1)} %`]];
  $('stats-totals').replaceChildren(...totals.map(([name, value]) => {
    const group = document.createElement('div');
    const term = document.createElement('dt');
    term.textContent = name;
    const figure = document.createElement('dd');
    figure.textContent = String(value);
    group.append(term, figure);
    return group;
  }));
  $('stats-chart-title').textContent = `Daily interactions from ${from} to ${to}: ${stats.impression} impressions, `
    + `${stats.click} clicks, ${stats.conversion} conversions`;
  drawChart(days);
  $('stats-days').tBodies[0].replaceChildren(...days.filter((day) => SERIES.some((s) => day[s] > 0)).map((day) => {
    const row = document.createElement('tr');
    for (const value of [day.date, ...SERIES.map((s) => day[s])]) {
      const cell = document.createElement('td');
      cell.textContent = String(value);
      row.append(cell);
    }
    return row;
  }));
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function drawChart(days) {
  const chart = $('stats-chart');
  const [width, height, left, bottom, top] = [600, 200, 40, 20, 10];
  const highest = Math.max(1, ...days.flatMap((day) => SERIES.map((s) => day[s])));
  const x = (i) => left + (days.length === 1 ? (width - left) / 2 : (i * (width - left - 10)) / (days.length - 1));
  const y = (value) => height - bottom - (value * (height - bottom - top)) / highest;
  const parts = [
    svg('line', { class: 'axis', x1: left, y1: height - bottom, x2: width, y2: height - bottom }),
    svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }),
    label(left - 6, top + 8, String(highest), 'end'), label(left - 6, height - bottom, '0', 'end'),
    label(left, height - 4, days[0].date, 'start'), label(width, height - 4, days[days.length - 1].date, 'end'),
  ];
  for (const series of SERIES) {
    parts.push(svg('polyline', {
      class: `series-${series}`,
      points: days.map((day, i) => `${x(i).toFixed(1)},${y(day[series]).toFixed(1)}`).join(' '),
    }));
  }
  chart.replaceChildren($('stats-chart-title'), ...parts);
}

function label(x, y, text, anchor) {
  const element = svg('text', { class: 'label', x, y, 'text-anchor': anchor });
  element.textContent = text;
  return element;
}

function downloadCsv() {
  if (!shownStats) return;
  const lines = ['date,impression,click,conversion',
    ...shownStats.days.map((day) => [day.date, ...SERIES.map((s) => day[s])].join(','))];
  const blob = new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  const subject = shownStats.of ? `notification-${shownStats.of}` : `project-${currentProject.id}`;
  link.download = `herald-${subject}-${shownStats.from}-${shownStats.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function filterNotifications() {
  const words = $('notification-search').value.trim().toLowerCase();
  const now = serverNow();
  const shown = notifications.filter((n) => !words || plainText(n.message).toLowerCase().includes(words));
  $('notification-list').tBodies[0].replaceChildren(...shown.map((n) => notificationRow(n, now)));
  $('notification-list').hidden = shown.length === 0;
  $('no-notifications').hidden = shown.length > 0;
}

function notificationRow(notification, now) {
  const row = document.createElement('tr');
  const message = document.createElement('td');
  message.className = 'value';
  message.textContent = excerpt(plainText(notification.message));
  const state = document.createElement('td');
  const badge = document.createElement('span');
  const name = stateOf(notification, now);
  badge.className = `state ${name}`;
  badge.textContent = name;
  state.append(badge);
  const actions = document.createElement('td');
  actions.className = 'actions';
  if (session.role === 'editor') {
    const edit = button('Edit', () => composeInView(notification), 'secondary');
    edit.setAttribute('aria-label', `Edit “${excerpt(plainText(notification.message), 60)}”`);
    actions.append(edit);
  }
  row.append(message, state, when(notification.startDate, 'Starts'), when(notification.endDate, 'Ends'), actions);
  return row;
}

// The form may open far below the row its Edit is on: brought to the top of the view, where the editor has the focus.
async function composeInView(notification) {
  await openComposer(notification);
  $('composer-title').scrollIntoView({ block: 'start' });
}

// label: the column's name, which a phone shows before the date (console.css), having no room for the columns.
function when(iso, label) {
  const cell = document.createElement('td');
  cell.dataset.label = label;
  if (iso !== null) {
    cell.append(instant(iso));
  } else {
    cell.textContent = '—';
  }
  return cell;
}

// An instant in the reader's time zone.
function instant(iso) {
  const time = document.createElement('time');
  time.dateTime = String(iso);
  time.textContent = new Date(iso).toLocaleString();
  return time;
}

// A message's words, always a string: a rich-text document's text (Herald stores a document as its JSON text, and
// any other message that would start with '{' starts with '&#123;'), an HTML string's text (parsed inert, never
// rendered), or the text. What is stored is data, not a promise: JSON that is no document the console knows (a
// text that is an object, content that is a string) is shown as the JSON it is.
function plainText(message) {
  if (message !== null && typeof message === 'object') return documentText(message, 0);
  if (typeof message !== 'string') return message === null || message === undefined ? '' : String(message);
  if (message.startsWith('{')) {
    try {
      const words = documentText(JSON.parse(message), 0);
      return words.trim() ? words : message;
    } catch (e) {
      return message;
    }
  }
  if (/[<&]/.test(message)) {
    return new DOMParser().parseFromString(message, 'text/html').body.textContent || '';
  }
  return message;
}

// Whatever its shape: a node that is no object, a text that is no string, content that is no array add no words.
function documentText(node, depth) {
  if (node === null || typeof node !== 'object' || depth > 100) return '';
  if (node.type === 'text') return typeof node.text === 'string' ? node.text : '';
  const parts = Array.isArray(node.content) ? node.content.map((child) => documentText(child, depth + 1)) : [];
  const block = ['paragraph', 'heading', 'listItem', 'blockquote', 'codeBlock'].includes(node.type);
  return parts.join(block ? ' ' : '') + (block ? ' ' : '');
}

// At most `max` characters, cut after a whole word (mid-word only for a word longer than half of them).
function excerpt(text, max = 120) {
  const words = String(text).replace(/\s+/g, ' ').trim();
  if (words.length <= max) return words;
  const space = words.lastIndexOf(' ', max - 1);
  return `${words.slice(0, space > max / 2 ? space : max - 1)}…`;
}

async function loadActivity() {
  const lines = await call('GET', `/audit?projectId=${currentProject.id}&limit=20`);
  $('activity').replaceChildren(...lines.map((line) => {
    const item = document.createElement('li');
    item.append(instant(line.occurredAt), ` ${line.actor}: ${String(line.action).replace('.', ' ')}`);
    return item;
  }));
}

// Writing an announcement: the editor (editor.js, ProseMirror), loaded when first needed; the preview is the
// browser SDK's own renderMessage, so what it shows is what end users will see.

let editing = null;
let editor = null;
let modules = null;
// The form as it was opened, to tell whether Close would lose something.
let opened = null;

// A published announcement is in its users' feeds, or will be at its start: a PATCH of it reaches them at once. So
// its "Save as draft" keeps a draft of changes apart (PUT …/draft, in no feed), and only "Update live
// announcement", asked first as publishing is, changes it (the PATCH deletes the draft).
const isPublished = (notification) => !!notification && notification.status === 'PUBLISHED';
// The draft of changes of the published announcement being edited, as Herald keeps it, or null.
let pendingDraft = null;

async function openComposer(notification) {
  if (!modules) {
    const [editorModule, sdk] = await Promise.all([import('./editor.js'), import('/sdk/v1/herald.mjs')]);
    modules = { ...editorModule, renderMessage: sdk.renderMessage };
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
  $('image-url').value = notification && notification.image ? notification.image : '';
  const action = notification && notification.action;
  $('action-type').value = action ? action.type : 'NO_ACTION';
  $('action-url').value = action && action.data ? action.data.url : '';
  $('action-target').value = action && action.data ? action.data.target : '_blank';
  $('preset').value = notification ? notification.preset : 'default';
  $('start-date').value = localInput(notification && notification.startDate);
  $('end-date').value = localInput(notification && notification.endDate);
  $('publish').hidden = isPublished(notification);
  for (const id of ['update-live', 'archive']) $(id).hidden = !isPublished(notification);
  $('discard-draft').hidden = !pendingDraft;
  if (editor) editor.destroy();
  $('message-editor').replaceChildren();
  editor = modules.mountEditor($('message-editor'), notification ? notification.message : '', editorChanged);
  opened = JSON.stringify(formBody());
  $('composer').hidden = false;
  editor.focus();
}

async function closeComposer() {
  if (JSON.stringify(formBody()) !== opened
      && !(await confirmed('Discard changes? What you changed here has not been saved.', 'Discard changes'))) {
    return;
  }
  $('composer').hidden = true;
  editing = null;
  $('compose').focus();
}

function editorChanged(state) {
  for (const buttonElement of $('toolbar').querySelectorAll('[aria-pressed]')) {
    buttonElement.setAttribute('aria-pressed', String(modules.isActive(state, buttonElement.dataset.command)));
  }
  const message = state.doc.toJSON();
  for (const id of ['preview-light', 'preview-dark']) $(id).replaceChildren(modules.renderMessage(message));
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
    message: editor.state.doc.toJSON(),
    image: $('image-url').value.trim() || null,
    action: {
      type: $('action-type').value,
      data: $('action-type').value === 'LINK' ? { url: $('action-url').value.trim(), target: $('action-target').value } : null,
    },
    preset: $('preset').value.trim() || 'default',
    startDate: utcOf($('start-date').value),
    endDate: utcOf($('end-date').value),
  };
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
  if (status === 'UPDATE' && !(await confirmed(atOnce
    ? 'Update the live announcement? Your change is in the feeds of this project\'s keys at once.'
    : 'Update the published announcement? Your change is what its feeds show from its start.',
  'Update live announcement'))) {
    return;
  }
  const draftOfChanges = isPublished(editing) && !status;
  for (const error of document.querySelectorAll('#announcement-form .error')) error.textContent = '';
  try {
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
    $('composer').hidden = true;
    editing = null;
    await Promise.all([loadNotifications(), loadActivity()]);
    $('compose').focus();
  } catch (e) {
    const field = (e.field || '').split('.')[0];
    const place = field && $(`${field}-error`) ? $(`${field}-error`) : $('status-error');
    place.textContent = e.message;
    const input = { message: $('message-editor'), image: $('image-url'), action: $('action-url'),
      preset: $('preset'), startDate: $('start-date'), endDate: $('end-date') }[field];
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
  $('composer').hidden = true;
  editing = null;
  pendingDraft = null;
  await loadActivity();
  $('compose').focus();
}

// The whole audit log, a page at a time

let auditNext = null;

async function showAudit() {
  show('audit');
  document.title = 'Audit log · Herald Console';
  $('audit-list').tBodies[0].replaceChildren();
  await loadAudit('/audit?limit=50');
}

async function loadAudit(path) {
  let lines;
  try {
    lines = await call('GET', path);
  } catch (e) {
    say(e.message);
    return;
  }
  const next = /<\/api\/v1\/admin([^>]*)>; rel="next"/.exec(lastLink || '');
  auditNext = next ? next[1] : null;
  $('audit-more').hidden = !auditNext;
  $('audit-list').tBodies[0].append(...lines.map(auditRow));
}

// The columns' names, which a phone shows before each cell (console.css), having no room for the columns.
const AUDIT_COLUMNS = ['When', 'Who', 'What', 'Change'];

// One line, whatever it holds: a line the console cannot read as it expects is shown as its JSON, never hides others.
function auditRow(line) {
  const row = document.createElement('tr');
  let cells;
  try {
    const target = line.target && line.target.id ? ` ${line.target.id}` : '';
    cells = [instant(line.occurredAt), String(line.actor), `${String(line.action).replace('.', ' ')}${target}`,
      changeSummary(line.details)];
  } catch (e) {
    cells = ['', '', '', cut(JSON.stringify(line))];
  }
  cells.forEach((content, column) => {
    const cell = document.createElement('td');
    cell.dataset.label = AUDIT_COLUMNS[column];
    cell.append(content);
    row.append(cell);
  });
  row.children[2].className = 'value';
  row.lastChild.className = 'change';
  return row;
}

// A change as a line a person reads: each member, from → to for an update; long values cut. Only a message is read
// as a message (its words); any other value is shown as it is, a name that looks like markup or JSON included.
function changeSummary(details) {
  if (details === null || typeof details !== 'object' || isExcerpt(details)) return shown('', details);
  return Object.entries(details).map(([member, value]) => (value !== null && typeof value === 'object'
      && Object.hasOwn(value, 'from') && Object.hasOwn(value, 'to')
    ? `${member}: ${shown(member, value.from)} → ${shown(member, value.to)}` : `${member}: ${shown(member, value)}`))
    .join('; ');
}

// A long value as the audit log keeps it: its beginning, its length and its digest (docs/api.md#audit-log).
function isExcerpt(value) {
  return value !== null && typeof value === 'object' && typeof value.excerpt === 'string'
    && typeof value.bytes === 'number' && typeof value.sha256 === 'string';
}

function shown(member, value) {
  if (isExcerpt(value)) {
    const words = cut(member === 'message' ? excerpt(plainText(value.excerpt)) : value.excerpt);
    return `${words.endsWith('…') ? words : `${words}…`} (${value.bytes.toLocaleString()} bytes)`;
  }
  if (typeof value === 'string') return cut(member === 'message' ? excerpt(plainText(value)) : value);
  return cut(JSON.stringify(value) ?? String(value));
}

function cut(text) {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function button(text, onClick, className) {
  const element = document.createElement('button');
  element.type = onClick ? 'button' : 'submit';
  element.textContent = text;
  if (className) element.className = className;
  if (onClick) element.addEventListener('click', onClick);
  return element;
}

start();
