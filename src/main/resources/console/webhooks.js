// A project's webhook endpoints (docs/console.md#webhooks): state, events, recent deliveries, and each action on
// them. A secret is in two answers only, the create's and a rotation's: shown then, once, and gone with the page.
import { call, callAll, isEditor, nextPage } from './api.js';
import { $, say, show, button, confirmed, instant, when, copy } from './ui.js';
import { showProjects } from './projects.js';

// What an endpoint may receive: the API's event types (EventType), in its order, each with what it means.
const EVENT_TYPES = [
  ['notification.created', 'an announcement is written'],
  ['notification.published', 'an announcement is published'],
  ['notification.updated', 'a published or archived announcement is changed (its dates, its text, …)'],
  ['notification.unpublished', 'an announcement is taken back to draft (unpublished)'],
  ['notification.live', 'a published announcement goes live (its start passed)'],
  ['notification.ended', 'a published announcement ends (its end passed)'],
  ['notification.archived', 'an announcement is archived'],
  ['notification.deleted', 'an announcement is deleted'],
  ['interaction.impression', 'impressions, many in one delivery'],
  ['interaction.click', 'clicks, many in one delivery'],
  ['interaction.conversion', 'conversions, many in one delivery'],
  ['user.state', 'users reach a state of an announcement (seen, read, dismissed, archived) for the first time, many '
    + 'in one delivery'],
];

let project = null;
// The endpoints shown, by id, as last read: what their buttons act on.
const shown = new Map();
let deliveriesOf = null;
let deliveriesNext = null;

export function init() {
  $('new-webhook').addEventListener('submit', createEndpoint);
  $('new-webhook-types').append(...EVENT_TYPES.map(([type, meaning]) => typeChoice('new-webhook', type, meaning,
    false, true)));
  $('webhook-secret-copy').addEventListener('click', () => copy('webhook-secret-value'));
  $('webhook-deliveries-refresh').addEventListener('click', () => loadDeliveries(true));
  $('webhook-deliveries-more').addEventListener('click', () => loadDeliveries(false));
  $('webhook-deliveries-close').addEventListener('click', closeDeliveries);
  $('webhook-replay').addEventListener('submit', replaySince);
}

export async function showWebhooks(projectId) {
  show('webhooks');
  hideSecret();
  closeDeliveries();
  try {
    project = await call('GET', `/projects/${projectId}`);
  } catch (e) {
    // The session has ended: the sign-in page is shown (console.js), and the address kept to go on to after it.
    if (e.status === 401) return;
    history.replaceState(null, '', '#/projects');
    showProjects();
    say(e.status === 404 ? 'No such project.' : e.message);
    return;
  }
  $('webhooks-project').textContent = project.name;
  $('webhooks-back').href = `#/projects/${project.id}`;
  document.title = `Webhooks · ${project.name} · Herald Console`;
  await loadEndpoints();
}

async function loadEndpoints(focusId) {
  let endpoints;
  try {
    endpoints = await callAll(`/projects/${project.id}/webhooks?limit=1000`);
  } catch (e) {
    say(e.message);
    return;
  }
  shown.clear();
  for (const endpoint of endpoints) shown.set(endpoint.id, endpoint);
  $('webhook-list').replaceChildren(...endpoints.map(endpointCard));
  $('no-webhooks').hidden = endpoints.length > 0;
  if (focusId && $(focusId)) $(focusId).focus();
}

function endpointCard(endpoint) {
  const id = `webhook-${endpoint.id}`;
  const item = document.createElement('li');
  item.id = id;
  const url = document.createElement('h3');
  url.className = 'key';
  url.id = `${id}-url`;
  url.textContent = endpoint.url;
  item.append(url);
  if (endpoint.description) {
    const description = document.createElement('p');
    description.className = 'hint';
    description.textContent = endpoint.description;
    item.append(description);
  }
  item.append(stateLine(endpoint), typesForm(endpoint, id));
  const actions = document.createElement('div');
  actions.className = 'buttons';
  const deliveries = button('Deliveries', () => openDeliveries(endpoint), 'secondary');
  deliveries.id = `${id}-deliveries`;
  deliveries.setAttribute('aria-describedby', url.id);
  actions.append(deliveries);
  if (isEditor()) {
    const toggle = button(endpoint.enabled ? 'Disable' : 'Enable', () => setEnabled(endpoint, !endpoint.enabled),
      'secondary');
    toggle.id = `${id}-toggle`;
    const rotation = button('Rotate secret', () => rotateSecret(endpoint), 'secondary');
    rotation.id = `${id}-rotate`;
    const remove = button('Delete', () => deleteEndpoint(endpoint), 'secondary danger');
    remove.id = `${id}-delete`;
    for (const control of [toggle, rotation, remove]) control.setAttribute('aria-describedby', url.id);
    actions.append(toggle, rotation, remove);
  }
  item.append(actions);
  return item;
}

// In words, not colour alone: enabled or disabled, why, and since when its deliveries fail.
function stateLine(endpoint) {
  const line = document.createElement('p');
  line.className = 'webhook-state';
  const badge = document.createElement('span');
  badge.className = `state ${endpoint.enabled ? 'enabled' : 'disabled'}`;
  badge.textContent = endpoint.enabled ? 'enabled' : 'disabled';
  line.append(badge);
  if (!endpoint.enabled) {
    const reason = endpoint.disabledReason || 'Disabled';
    line.append(` ${reason}${/[.!?]$/.test(reason) ? '' : '.'} Herald sends it nothing until it is enabled again.`);
  }
  if (endpoint.failingSince) {
    line.append(' Failing since ', instant(endpoint.failingSince),
      endpoint.enabled ? ': Herald disables it if it keeps failing for days.' : '.');
  }
  return line;
}

// The events it receives, named in a line that opens on their checkboxes: a list of endpoints stays short enough to
// read, and what each receives is said without opening anything.
function typesForm(endpoint, id) {
  const details = document.createElement('details');
  details.className = 'webhook-events';
  const summary = document.createElement('summary');
  summary.id = `${id}-types-summary`;
  summary.textContent = `Events: ${endpoint.eventTypes.join(', ')}`;
  const form = document.createElement('form');
  form.className = 'webhook-types';
  form.noValidate = true;
  const fieldset = document.createElement('fieldset');
  fieldset.className = 'event-types';
  const legend = document.createElement('legend');
  legend.textContent = 'Events it receives';
  fieldset.append(legend, ...EVENT_TYPES.map(([type, meaning]) => typeChoice(id, type, meaning,
    endpoint.eventTypes.includes(type), isEditor())));
  const error = document.createElement('p');
  error.className = 'error';
  error.id = `${id}-types-error`;
  error.setAttribute('role', 'alert');
  fieldset.setAttribute('aria-describedby', error.id);
  form.append(fieldset, error);
  if (isEditor()) {
    const save = button('Save events', null, 'secondary');
    save.id = `${id}-save-types`;
    save.setAttribute('aria-describedby', `${id}-url`);
    const row = document.createElement('p');
    row.append(save);
    form.append(row);
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    saveTypes(endpoint, form, error);
  });
  details.append(summary, form);
  return details;
}

function typeChoice(prefix, type, meaning, checked, editable) {
  const choice = document.createElement('div');
  choice.className = 'choice';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.value = type;
  input.id = `${prefix}-type-${type.replaceAll('.', '-')}`;
  input.checked = checked;
  input.disabled = !editable;
  const label = document.createElement('label');
  label.htmlFor = input.id;
  const name = document.createElement('code');
  name.textContent = type;
  label.append(name, `: ${meaning}`);
  choice.append(input, label);
  return choice;
}

function checkedTypes(container) {
  return [...container.querySelectorAll('input[type=checkbox]:checked')].map((input) => input.value);
}

async function createEndpoint(event) {
  event.preventDefault();
  const url = $('new-webhook-url');
  const description = $('new-webhook-description').value.trim();
  clearErrors();
  try {
    const endpoint = await call('POST', `/projects/${project.id}/webhooks`, {
      url: url.value.trim(), eventTypes: checkedTypes($('new-webhook-types')),
      ...(description ? { description } : {}),
    });
    // The whole form afresh, its events too: left ticked, they became the next endpoint's unasked.
    url.value = '';
    $('new-webhook-description').value = '';
    for (const box of $('new-webhook-types').querySelectorAll('input[type=checkbox]')) box.checked = false;
    say(`Endpoint ${endpoint.url} added; copy its secret now.`);
    await loadEndpoints();
    showSecret(endpoint, `The signing secret of ${endpoint.url}.`);
  } catch (e) {
    const field = e.field && e.field.startsWith('eventTypes') ? 'eventTypes' : e.field;
    const target = { url: url, eventTypes: $('new-webhook-types'), description: $('new-webhook-description') }[field]
      || url;
    const error = { eventTypes: 'new-webhook-types-error', description: 'new-webhook-description-error' }[field]
      || 'new-webhook-url-error';
    $(error).textContent = e.message;
    if (target.tagName === 'FIELDSET') {
      target.querySelector('input').focus();
    } else {
      target.setAttribute('aria-invalid', 'true');
      target.focus();
    }
  }
}

function clearErrors() {
  for (const id of ['new-webhook-url-error', 'new-webhook-types-error', 'new-webhook-description-error']) {
    $(id).textContent = '';
  }
  $('new-webhook-url').removeAttribute('aria-invalid');
  $('new-webhook-description').removeAttribute('aria-invalid');
}

// The secret with its warning, selected, the focus on it: it is in no other answer.
function showSecret(endpoint, what) {
  $('webhook-secret-text').textContent = `${what} It is shown this once: store it now with the receiver that `
    + 'verifies the signatures. You will not see it again; if it is lost, rotate the secret.';
  if (endpoint.previousSecretExpiresAt) {
    $('webhook-secret-text').append(' The previous secret still signs beside it until ',
      instant(endpoint.previousSecretExpiresAt), ', so the receiver can switch without losing a delivery.');
  }
  $('webhook-secret-value').value = endpoint.secret;
  $('webhook-secret').hidden = false;
  $('webhook-secret-value').select();
  $('webhook-secret-value').focus();
}

function hideSecret() {
  $('webhook-secret-value').value = '';
  $('webhook-secret').hidden = true;
}

async function saveTypes(endpoint, form, error) {
  error.textContent = '';
  try {
    await call('PATCH', `/webhooks/${endpoint.id}`, { eventTypes: checkedTypes(form) });
    say(`The events of ${endpoint.url} are saved.`);
    await loadEndpoints(`webhook-${endpoint.id}-types-summary`);
  } catch (e) {
    error.textContent = e.message;
    form.querySelector('input').focus();
  }
}

async function setEnabled(endpoint, enabled) {
  if (!enabled && !(await confirmed(`Disable ${endpoint.url}? Herald sends it nothing until it is enabled again.`,
    'Disable'))) {
    return;
  }
  hideSecret();
  await write(() => call('PATCH', `/webhooks/${endpoint.id}`, { enabled }),
    `${endpoint.url} ${enabled ? 'enabled' : 'disabled'}.`, `webhook-${endpoint.id}-toggle`);
}

async function rotateSecret(endpoint) {
  if (!(await confirmed(`Rotate the secret of ${endpoint.url}? A new secret is shown once; the current one keeps `
    + 'signing beside it for a while, so the receiver can switch.', 'Rotate'))) {
    return;
  }
  try {
    const rotated = await call('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    say(`The secret of ${endpoint.url} is rotated; copy the new one now.`);
    await loadEndpoints();
    showSecret(rotated, `The new signing secret of ${endpoint.url}.`);
  } catch (e) {
    say(e.message);
  }
}

async function deleteEndpoint(endpoint) {
  if (!(await confirmed(`Delete ${endpoint.url}? Herald stops sending it events at once; its deliveries and its `
    + 'secret are deleted and cannot be restored.', 'Delete'))) {
    return;
  }
  hideSecret();
  if (deliveriesOf && deliveriesOf.id === endpoint.id) closeDeliveries();
  await write(() => call('DELETE', `/webhooks/${endpoint.id}`), `${endpoint.url} deleted.`, 'new-webhook-url');
}

async function write(change, done, focusId) {
  try {
    await change();
    say(done);
  } catch (e) {
    say(e.message);
  }
  await loadEndpoints(focusId);
}

async function openDeliveries(endpoint) {
  deliveriesOf = endpoint;
  $('webhook-deliveries-url').textContent = endpoint.url;
  $('webhook-replay-error').textContent = '';
  $('webhook-deliveries').hidden = false;
  await loadDeliveries(true);
  $('webhook-deliveries-title').focus();
}

function closeDeliveries() {
  const was = deliveriesOf;
  deliveriesOf = null;
  $('webhook-deliveries').hidden = true;
  $('webhook-delivery-list').tBodies[0].replaceChildren();
  if (was && $(`webhook-${was.id}-deliveries`)) $(`webhook-${was.id}-deliveries`).focus();
}

async function loadDeliveries(fresh) {
  if (!deliveriesOf) return;
  let deliveries;
  try {
    if (fresh) await refreshState(deliveriesOf.id);
    deliveries = await call('GET', fresh ? `/webhooks/${deliveriesOf.id}/deliveries?limit=50` : deliveriesNext);
  } catch (e) {
    say(e.message);
    return;
  }
  deliveriesNext = nextPage();
  $('webhook-deliveries-more').hidden = !deliveriesNext;
  const rows = deliveries.map(deliveryRow);
  if (fresh) $('webhook-delivery-list').tBodies[0].replaceChildren(...rows);
  else $('webhook-delivery-list').tBodies[0].append(...rows);
  const none = $('webhook-delivery-list').tBodies[0].rows.length === 0;
  $('webhook-delivery-list').hidden = none;
  $('no-webhook-deliveries').hidden = !none;
}

// The endpoint's state read again with its deliveries (failing since, disabled by Herald), its card's other fields
// left as they are: events being chosen there are not lost.
async function refreshState(id) {
  const endpoint = shown.get(id);
  const card = $(`webhook-${id}`);
  if (!endpoint || !card) return;
  Object.assign(endpoint, await call('GET', `/webhooks/${id}`));
  card.querySelector('.webhook-state').replaceWith(stateLine(endpoint));
  if ($(`webhook-${id}-toggle`)) $(`webhook-${id}-toggle`).textContent = endpoint.enabled ? 'Disable' : 'Enable';
}

// The columns' names, which a phone shows before each cell (console.css), having no room for the columns.
const DELIVERY_COLUMNS = ['Event', 'Result', 'Attempts', 'Latency', 'Next attempt'];

function deliveryRow(delivery) {
  const row = document.createElement('tr');
  row.dataset.event = delivery.eventId;
  const event = cell(DELIVERY_COLUMNS[0], '');
  event.className = 'value';
  const type = document.createElement('code');
  type.textContent = delivery.eventType || 'event deleted';
  const id = document.createElement('span');
  id.className = 'hint event-id';
  id.textContent = delivery.eventId;
  event.append(type, ' ', instant(delivery.createdAt), ' ', id);
  const result = cell(DELIVERY_COLUMNS[1], '');
  result.className = 'value';
  const badge = document.createElement('span');
  const status = String(delivery.status).toLowerCase();
  // Not `pending` alone: that is an announcement's draft of changes (console.css).
  badge.className = `state delivery-${status}`;
  badge.textContent = status;
  result.append(badge, ` ${answered(delivery)}`);
  // The detail when it says more than the status (a time-out, a refused address, the answer's first words).
  if (delivery.lastDetail && delivery.lastDetail !== answered(delivery)) {
    const detail = document.createElement('span');
    detail.className = 'hint detail';
    detail.textContent = delivery.lastDetail;
    result.append(' ', detail);
  }
  const attempts = cell(DELIVERY_COLUMNS[2], String(delivery.attempts));
  const latency = cell(DELIVERY_COLUMNS[3], delivery.lastLatencyMillis === null ? '—'
    : `${delivery.lastLatencyMillis} ms`);
  const next = when(delivery.status === 'PENDING' ? delivery.nextAttemptAt : null, DELIVERY_COLUMNS[4]);
  const actions = document.createElement('td');
  actions.className = 'actions';
  // A pending one too: sent at once rather than at its next attempt (Herald refuses one being attempted now).
  if (isEditor()) {
    const replay = button('Replay', () => replayOne(delivery), 'secondary');
    replay.setAttribute('aria-label', `Replay ${delivery.eventType || 'event'} ${delivery.eventId}`);
    actions.append(replay);
  }
  row.append(event, result, attempts, latency, next, actions);
  return row;
}

function answered(delivery) {
  if (delivery.attempts === 0) return 'not tried yet';
  if (!delivery.lastStatus) return 'no answer';
  return `HTTP ${delivery.lastStatus}`;
}

function cell(label, text) {
  const element = document.createElement('td');
  element.dataset.label = label;
  element.textContent = text;
  return element;
}

async function replayOne(delivery) {
  try {
    await call('POST', `/webhooks/${deliveriesOf.id}/deliveries/${delivery.eventId}/replay`);
    say(`${delivery.eventType || 'The event'} ${delivery.eventId} will be sent again.`);
  } catch (e) {
    say(e.message);
  }
  await loadDeliveries(true);
  $('webhook-deliveries-refresh').focus();
}

async function replaySince(event) {
  event.preventDefault();
  const field = $('webhook-replay-since');
  $('webhook-replay-error').textContent = '';
  field.removeAttribute('aria-invalid');
  if (!field.value) {
    $('webhook-replay-error').textContent = 'Give the instant to replay from.';
    field.setAttribute('aria-invalid', 'true');
    field.focus();
    return;
  }
  const since = new Date(field.value);
  if (!(await confirmed(`Send again every delivery to ${deliveriesOf.url} since ${since.toLocaleString()}?`,
    'Replay'))) {
    return;
  }
  try {
    const answer = await call('POST', `/webhooks/${deliveriesOf.id}/replay`, { since: since.toISOString() });
    say(`${answer.replayed} ${answer.replayed === 1 ? 'delivery' : 'deliveries'} will be sent again.`);
    await loadDeliveries(true);
  } catch (e) {
    $('webhook-replay-error').textContent = e.message;
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
}
