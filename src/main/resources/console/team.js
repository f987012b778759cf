// The team (docs/console.md#team): an owner invites a colleague with a one-time link, changes a role, disables or
// enables an account, resets its credential. The colleague opens the link (#/invite/<secret>: in the fragment, which
// no request carries, so it reaches no log) and receives the account's token, shown this once.
import { call, callAll } from './api.js';
import { $, say, show, button, instant, confirmed, copy } from './ui.js';

const ROLES = ['owner', 'editor', 'viewer'];
const INVITE_LINK = /^#\/invite\/([A-Za-z0-9_-]{20,100})$/;

let signInAs = () => {};
// The secret of the link this page was opened with, kept here only: the address no longer shows it.
let inviteSecret = null;

/** @param showSignIn the console's sign-in page, shown with the colleague's name filled in */
export function init(showSignIn) {
  signInAs = showSignIn;
  $('team-invite').addEventListener('submit', invite);
  // The link of the page shown changes no address: it reads the team again, as a reload would.
  $('team-nav').addEventListener('click', () => {
    if (location.hash === '#/team') showTeam();
  });
  $('team-copy').addEventListener('click', () => copy('team-link-url'));
  $('invite-accept').addEventListener('click', accept);
  $('invite-copy').addEventListener('click', () => copy('invite-token'));
  $('invite-sign-in').addEventListener('click', () => {
    $('invite-token').value = '';
    signInAs($('invite-name').textContent);
  });
}

/**
 * The invitation page, when the console was opened with an invitation's link: true if so. The secret leaves the
 * address at once (history, a screenshot, a shoulder), and stays in this module until it is taken.
 */
export function showInviteFromLink() {
  const link = INVITE_LINK.exec(location.hash);
  if (!link) return false;
  inviteSecret = link[1];
  history.replaceState(null, '', `${location.pathname}#/invite`);
  say('');
  show('invite');
  document.title = 'Join the team · Herald Console';
  $('invite-start').hidden = false;
  $('invite-done').hidden = true;
  $('invite-error').textContent = '';
  $('invite-accept').focus();
  return true;
}

async function accept() {
  if (!inviteSecret) {
    $('invite-error').textContent = 'Open the link you were given again.';
    return;
  }
  try {
    const account = await call('POST', '/invites/accept', { secret: inviteSecret });
    inviteSecret = null;
    $('invite-name').textContent = account.name;
    $('invite-role').textContent = account.role;
    $('invite-token').value = account.token;
    $('invite-start').hidden = true;
    $('invite-done').hidden = false;
    $('invite-token').select();
    $('invite-token').focus();
  } catch (e) {
    $('invite-error').textContent = e.code === 'INVITE_NOT_VALID'
      ? 'This link is unknown, used already or expired. Ask an owner of the team for a new one.' : e.message;
    $('invite-accept').focus();
  }
}

export async function showTeam() {
  show('team');
  document.title = 'Team · Herald Console';
  $('team-link').hidden = true;
  await loadTeam();
}

async function loadTeam(focusId) {
  let accounts;
  try {
    accounts = await callAll('/accounts');
  } catch (e) {
    say(e.message);
    return;
  }
  $('team-list').tBodies[0].replaceChildren(...accounts.map(accountRow));
  if (focusId && $(focusId)) $(focusId).focus();
}

// The columns' names, which a phone shows before each cell (console.css), having no room for the columns.
const COLUMNS = ['Name', 'Role', 'State', 'Actions'];

function accountRow(account) {
  const row = document.createElement('tr');
  const cells = [account.name, roleCell(account), stateCell(account), actionsCell(account)];
  cells.forEach((content, column) => {
    const cell = document.createElement('td');
    // An account of the configuration has no actions: a phone shows no empty "Actions:".
    if (column < 3 || account.source === 'console') cell.dataset.label = COLUMNS[column];
    cell.append(content);
    row.append(cell);
  });
  row.firstChild.className = 'name';
  row.lastChild.className = 'actions';
  return row;
}

// A console account's role is a select and its button; the configuration's is text.
function roleCell(account) {
  if (account.source !== 'console') return account.role;
  const wrapper = document.createElement('span');
  wrapper.className = 'role-change';
  const label = document.createElement('label');
  label.className = 'visually-hidden';
  label.htmlFor = `account-${account.name}-role`;
  label.textContent = `Role of ${account.name}`;
  const select = document.createElement('select');
  select.id = label.htmlFor;
  for (const role of ROLES) {
    const option = document.createElement('option');
    option.value = role;
    option.textContent = role;
    option.selected = role === account.role;
    select.append(option);
  }
  const change = button('Change', () => changeRole(account, select.value), 'secondary');
  change.id = `account-${account.name}-change`;
  change.setAttribute('aria-label', `Change the role of ${account.name}`);
  wrapper.append(label, select, change);
  return wrapper;
}

function stateCell(account) {
  const cell = document.createElement('span');
  if (account.source === 'configuration') {
    cell.textContent = 'configured (read-only: change it in the configuration)';
    cell.className = 'hint';
    return cell;
  }
  cell.textContent = account.state;
  if (account.state === 'invited' && account.inviteExpiresAt && !account.inviteExpired) {
    cell.append(', link valid until ', instant(account.inviteExpiresAt));
  } else if (account.state === 'invited') {
    // Expired, or none (its link shown once is gone): only a reset gives the colleague a way in.
    cell.append(', link expired: Reset credential gives a new one');
  }
  return cell;
}

function actionsCell(account) {
  const cell = document.createElement('span');
  if (account.source !== 'console') return cell;
  const disabled = account.state === 'disabled';
  const toggle = button(disabled ? 'Enable' : 'Disable', () => setDisabled(account, !disabled), 'secondary');
  toggle.id = `account-${account.name}-toggle`;
  toggle.setAttribute('aria-label', `${disabled ? 'Enable' : 'Disable'} ${account.name}`);
  const resetButton = button('Reset credential', () => reset(account), 'secondary');
  resetButton.id = `account-${account.name}-reset`;
  resetButton.setAttribute('aria-label', `Reset the credential of ${account.name}`);
  cell.append(toggle);
  if (!disabled) cell.append(' ', resetButton);
  return cell;
}

async function invite(event) {
  event.preventDefault();
  const input = $('team-name');
  try {
    const account = await call('POST', '/accounts', { name: input.value.trim(), role: $('team-role').value });
    input.value = '';
    input.removeAttribute('aria-invalid');
    $('team-error').textContent = '';
    say(`${account.name} invited.`);
    await loadTeam();
    showLink(account);
  } catch (e) {
    $('team-error').textContent = e.message;
    if (e.field === 'role') {
      $('team-role').focus();
    } else {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  }
}

async function changeRole(account, role) {
  if (role === account.role) {
    say(`${account.name} is ${role} already.`);
    return;
  }
  if (!(await confirmed(`Make ${account.name} ${role === 'owner' ? 'an owner' : `a ${role}`}?`,
    'Change role'))) return;
  await write(() => call('PATCH', `/accounts/${encodeURIComponent(account.name)}`, { role }),
    `${account.name} is now ${role}.`, `account-${account.name}-change`);
}

async function setDisabled(account, disabled) {
  const question = disabled
    ? `Disable ${account.name}? Every session of it ends at once, and its token stops working.`
    : `Enable ${account.name}? Its token works again.`;
  if (!(await confirmed(question, disabled ? 'Disable' : 'Enable'))) return;
  await write(() => call('PATCH', `/accounts/${encodeURIComponent(account.name)}`, { disabled }),
    `${account.name} ${disabled ? 'disabled' : 'enabled'}.`, `account-${account.name}-toggle`);
}

async function reset(account) {
  if (!(await confirmed(`Reset the credential of ${account.name}? Its token stops working and every session `
    + 'of it ends at once; a new link gives it a new token.', 'Reset'))) return;
  try {
    const changed = await call('POST', `/accounts/${encodeURIComponent(account.name)}/reset`);
    say(`The credential of ${account.name} is reset.`);
    await loadTeam();
    showLink(changed);
  } catch (e) {
    say(e.message);
  }
}

async function write(change, done, focusId) {
  try {
    await change();
    say(done);
  } catch (e) {
    say(e.message);
  }
  await loadTeam(focusId);
}

// The link with its secret, shown this once: Herald keeps only its digest.
function showLink(account) {
  const url = new URL(account.invite.path, location.origin).href;
  $('team-link-text').textContent = `Give this link to ${account.name} alone. It works once, until `;
  $('team-link-text').append(instant(account.invite.expiresAt), '; it is not shown again.');
  $('team-link-url').value = url;
  $('team-link').hidden = false;
  $('team-link-url').select();
  $('team-link-url').focus();
}
