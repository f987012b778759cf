// A project's user token keys (docs/identity.md): the keys Herald checks its users' signed tokens with. An HS256
// secret is made by Herald and shown once, in the answer that made it; an ES256 or EdDSA public key is registered,
// its private key staying with the customer's backend. Revoking one stops the tokens it signed at once.
import { call, callAll, isEditor } from './api.js';
import { $, say, button, confirmed, instant, copy } from './ui.js';
import { currentProject, loadActivity } from './project.js';

export function init() {
  $('new-token-secret').addEventListener('click', createSecret);
  $('register-token-key').addEventListener('submit', registerKey);
  $('token-secret-copy').addEventListener('click', () => copy('token-secret-value'));
}

export async function loadTokenKeys() {
  // A secret shown once is gone with the page it was shown on: a project opened again never shows it.
  hideSecret();
  const keys = await callAll(`/projects/${currentProject.id}/token-keys?limit=1000`);
  $('token-key-list').tBodies[0].replaceChildren(...keys.map(keyRow));
  $('token-key-list').hidden = keys.length === 0;
  $('no-token-keys').hidden = keys.length > 0;
}

function keyRow(key) {
  const row = document.createElement('tr');
  row.dataset.kid = key.kid;
  const kid = document.createElement('td');
  kid.className = 'key';
  kid.dataset.label = 'Key id';
  kid.textContent = key.kid;
  const algorithm = cell('Algorithm', key.algorithm);
  const created = cell('Created', '');
  created.append(instant(key.createdAt));
  const state = cell('State', '');
  if (key.revokedAt === null) {
    state.textContent = 'active';
  } else {
    state.className = 'revoked';
    state.append('revoked ', instant(key.revokedAt));
  }
  const actions = document.createElement('td');
  actions.className = 'actions';
  if (isEditor() && key.revokedAt === null) {
    const revoke = button('Revoke', () => revokeKey(key), 'secondary');
    revoke.setAttribute('aria-label', `Revoke token key ${key.kid}`);
    actions.append(revoke);
  }
  row.append(kid, algorithm, created, state, actions);
  return row;
}

function cell(label, text) {
  const element = document.createElement('td');
  element.dataset.label = label;
  element.textContent = text;
  return element;
}

async function createSecret() {
  try {
    const key = await call('POST', `/projects/${currentProject.id}/token-keys`, { algorithm: 'HS256' });
    await Promise.all([loadTokenKeys(), loadActivity()]);
    $('token-secret-kid').textContent = key.kid;
    $('token-secret-value').value = key.secret;
    $('token-secret').hidden = false;
    $('token-secret-value').select();
    $('token-secret-value').focus();
    say(`HS256 key ${key.kid} created; copy its secret now.`);
  } catch (e) {
    say(e.message);
  }
}

function hideSecret() {
  $('token-secret').hidden = true;
  $('token-secret-value').value = '';
}

// A JWK is sent as the object it is, anything else as the PEM text it should be: the server says what is wrong.
async function registerKey(event) {
  event.preventDefault();
  const text = $('token-public-key').value.trim();
  let publicKey = text;
  if (text.startsWith('{')) {
    try {
      publicKey = JSON.parse(text);
    } catch (e) {
      showKeyError('This is not JSON: paste the whole JWK object, or a PEM from -----BEGIN PUBLIC KEY-----.');
      return;
    }
  }
  try {
    const key = await call('POST', `/projects/${currentProject.id}/token-keys`,
      { algorithm: $('token-algorithm').value, publicKey });
    showKeyError('');
    $('token-public-key').value = '';
    hideSecret();
    await Promise.all([loadTokenKeys(), loadActivity()]);
    say(`${key.algorithm} key ${key.kid} registered: sign tokens with its private key and "kid": "${key.kid}".`);
    $('token-public-key').focus();
  } catch (e) {
    showKeyError(e.message);
  }
}

function showKeyError(message) {
  $('token-key-error').textContent = message;
  if (message) {
    $('token-public-key').setAttribute('aria-invalid', 'true');
    $('token-public-key').focus();
  } else {
    $('token-public-key').removeAttribute('aria-invalid');
  }
}

async function revokeKey(key) {
  if (!(await confirmed(`Revoke token key ${key.kid}? Every token it signed is refused at once (401 `
    + 'USER_TOKEN_KEY_UNKNOWN) until your backend signs new ones with another key.',
  'Revoke'))) {
    return;
  }
  try {
    await call('DELETE', `/token-keys/${encodeURIComponent(key.kid)}`);
    say(`Token key ${key.kid} revoked.`);
    await Promise.all([loadTokenKeys(), loadActivity()]);
    $('new-token-secret').focus();
  } catch (e) {
    say(e.message);
  }
}
