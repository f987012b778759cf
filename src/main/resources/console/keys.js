// A project's API keys: their feed switches, a new one, revoking one.
import { call, callAll, isEditor } from './api.js';
import { $, say, button, confirmed } from './ui.js';
import { currentProject, loadActivity } from './project.js';

export function init() {
  $('new-key').addEventListener('click', createKey);
}

const ORDERS = {
  createdAt_desc: 'newest first', createdAt_asc: 'oldest first', startDate_asc: 'by start, soonest first',
  startDate_desc: 'by start, latest first', endDate_asc: 'by end, soonest first', endDate_desc: 'by end, latest first',
};

export async function loadKeys() {
  const keys = await callAll(`/projects/${currentProject.id}/api-keys?limit=1000`);
  $('key-list').replaceChildren(...keys.map(keyCard));
  $('no-keys').hidden = keys.length > 0;
}

function keyCard(key) {
  const item = document.createElement('li');
  const value = document.createElement('p');
  value.className = 'key';
  value.textContent = key.key;
  item.append(value);
  const editable = isEditor() && key.revokedAt === null;
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
    orderSelect(key, editable),
    checkbox(key, 'requireUserToken', 'Require a user token', 'A request without a signed user token is refused '
      + '(401 USER_TOKEN_REQUIRED): for a project whose every announcement has an audience.', editable));
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
