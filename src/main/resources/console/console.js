// Herald Console: everything it shows or changes goes through the management API (/api/v1/admin), as the signed-in
// account (api.js). Each page is a module with an init() that wires its controls; this one signs in and out and
// routes the address's fragment to a page. Text is only ever set as text (never as markup), and nothing here runs
// code from a string: the page's Content-Security-Policy allows neither.
import { API, call, currentSession, setSession, whenSessionEnds } from './api.js';
import { $, say, show, confirmed } from './ui.js';
import * as projects from './projects.js';
import * as project from './project.js';
import * as keys from './keys.js';
import * as tokens from './tokens.js';
import * as stats from './stats.js';
import * as composer from './composer.js';
import * as audit from './audit.js';
import * as team from './team.js';
import * as sessions from './sessions.js';
import * as lifecycle from './lifecycle.js';
import * as webhooks from './webhooks.js';

// #/projects, #/projects/{id}, #/projects/{id}/announcements/{id} (opened in its project), #/projects/{id}/webhooks,
// #/audit, #/sessions: a reload or a link keeps the page.
const ROUTES = [
  [/^#\/projects\/([A-Za-z0-9_-]+)$/, (id) => project.showProject(id)],
  [/^#\/projects\/([A-Za-z0-9_-]+)\/announcements\/([A-Za-z0-9_-]+)$/,
    (id, announcementId) => project.showProject(id, announcementId)],
  [/^#\/projects\/([A-Za-z0-9_-]+)\/webhooks$/, (id) => webhooks.showWebhooks(id)],
  [/^#\/audit$/, () => audit.showAudit()],
  [/^#\/sessions$/, () => sessions.showSessions()],
  [/^#\/team$/, () => team.showTeam()],
];

async function start() {
  for (const page of [projects, project, keys, tokens, stats, composer, audit, sessions, lifecycle, webhooks]) {
    page.init();
  }
  team.init(signInAs);
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  // A reload, Back out of the console or closing the tab: the browser asks its own question (no text of ours).
  window.addEventListener('beforeunload', (event) => {
    if (composer.hasUnsavedEdits()) event.preventDefault();
  });
  whenSessionEnds((ended) => {
    composer.keepUnsavedEdits(ended.name);
    showSignIn('Your session has ended; sign in again.');
  });
  window.addEventListener('hashchange', async (event) => {
    if (team.showInviteFromLink()) return;
    if (!currentSession()) return;
    if (composer.hasUnsavedEdits()) {
      // Back where it was while asked: a no leaves the page as it is, its address included (replaceState fires no
      // hashchange).
      history.replaceState(null, '', event.oldURL);
      if (!(await confirmed('Leave this page? Your changes to the announcement have not been saved.',
        'Leave and discard'))) {
        return;
      }
      history.replaceState(null, '', event.newURL);
    }
    composer.leaveComposer();
    lifecycle.leaveHistory();
    // What the page left said ("Project … created.") is not said of the next one; and the link just followed is
    // hidden with its page, so the focus goes to the new page's content rather than falling to the body.
    say('');
    route();
    $('main').focus();
  });
  for (const zone of document.querySelectorAll('.time-zone')) {
    zone.textContent = `your time zone, ${Intl.DateTimeFormat().resolvedOptions().timeZone}`;
  }
  // An invitation's link is for someone without an account yet: its page, whoever is signed in.
  if (team.showInviteFromLink()) return;
  try {
    // 204, null: nobody is signed in in this browser (a 401 would be an error in the browser's console).
    setSession(await call('GET', '/session'));
    if (currentSession()) signedIn(); else showSignIn('');
  } catch (e) {
    setSession(null);
    showSignIn(e.status === 401 ? '' : e.message);
  }
}

function route() {
  for (const [pattern, page] of ROUTES) {
    const match = pattern.exec(location.hash);
    if (match) {
      page(...match.slice(1));
      return;
    }
  }
  projects.showProjects();
}

function showSignIn(message) {
  say('');
  $('who').hidden = true;
  document.body.classList.remove('viewer', 'owner');
  show('sign-in');
  $('sign-in-error').textContent = message;
  $('sign-in-name').focus();
}

// After taking an invitation: the sign-in page, the name given, the token to paste.
function signInAs(name) {
  history.replaceState(null, '', location.pathname);
  showSignIn('');
  $('sign-in-name').value = name;
  $('sign-in-token').focus();
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
    setSession(await call('POST', '/session', { name, token }));
    $('sign-in-token').value = '';
    $('sign-in-error').textContent = '';
    if (!(await keptTheCookie())) {
      setSession(null);
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
  return answer.status === 200;
}

function signedIn() {
  const session = currentSession();
  $('who-name').textContent = `${session.name} (${session.role})`;
  $('who').hidden = false;
  document.body.classList.toggle('viewer', session.role === 'viewer');
  document.body.classList.toggle('owner', session.role === 'owner');
  say('');
  // Edits kept when the session ended under them: back to their announcement, where the composer restores them.
  const kept = composer.keptEdits();
  if (kept && kept.account !== session.name) composer.dropKeptEdits();
  if (kept && kept.account === session.name) {
    history.replaceState(null, '', `#/projects/${kept.project}${kept.id ? `/announcements/${kept.id}` : ''}`);
  }
  route();
  // Where a keyboard or screen reader user goes on from: the page's content, not the form that is gone.
  $('main').focus();
}

async function signOut() {
  if (composer.hasUnsavedEdits() && !(await confirmed(
    'Sign out? Your changes to the announcement have not been saved.', 'Sign out and discard'))) {
    return;
  }
  composer.leaveComposer();
  try {
    await call('DELETE', '/session');
  } catch (e) {
    // Signed out either way: the session has ended, or is ending.
  }
  setSession(null);
  showSignIn('');
  say('Signed out.');
}

start();
