// The signed-in account's own sessions: where it is signed in, and signing out the others (a lost phone, a shared
// computer left signed in), which any account may do for itself.
import { call, currentSession } from './api.js';
import { $, say, show, confirmed, instant } from './ui.js';

const COLUMNS = ['Signed in', 'Last used', 'Where'];

export function init() {
  $('sign-out-others').addEventListener('click', signOutOthers);
}

export async function showSessions() {
  show('sessions');
  document.title = 'Your sessions · Herald Console';
  await loadSessions();
}

async function loadSessions() {
  let sessions;
  try {
    sessions = await call('GET', `/sessions?account=${encodeURIComponent(currentSession().name)}`);
  } catch (e) {
    say(e.message);
    return;
  }
  $('session-list').tBodies[0].replaceChildren(...sessions.map(sessionRow));
  $('sign-out-others').hidden = !sessions.some((session) => !session.current);
}

function sessionRow(session) {
  const row = document.createElement('tr');
  const where = document.createElement('td');
  where.textContent = session.current ? 'This browser' : 'Elsewhere';
  if (session.current) where.className = 'this';
  const cells = [instant(session.createdAt), instant(session.lastSeenAt)].map((time) => {
    const cell = document.createElement('td');
    cell.append(time);
    return cell;
  });
  [...cells, where].forEach((cell, column) => {
    cell.dataset.label = COLUMNS[column];
    row.append(cell);
  });
  return row;
}

async function signOutOthers() {
  if (!(await confirmed('Sign out your other sessions? Every browser signed in as you but this one is signed out at '
    + 'once.', 'Sign out other sessions'))) {
    return;
  }
  try {
    const { ended } = await call('DELETE', `/sessions?account=${encodeURIComponent(currentSession().name)}`);
    say(`${ended} other session${ended === 1 ? '' : 's'} signed out.`);
  } catch (e) {
    say(e.message);
    return;
  }
  await loadSessions();
  $('main').focus();
}
