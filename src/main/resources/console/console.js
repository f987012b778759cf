// Herald Console: everything it shows or changes goes through the management API (/api/v1/admin), as the signed-in
// account. Text is only ever set as text (never as markup), and nothing here runs code from a string: the page's
// Content-Security-Policy allows neither.

const API = '/api/v1/admin';
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
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = new ApiError(response.status, json);
    if (response.status === 401 && session) sessionEnded();
    throw error;
  }
  return json;
}

function say(message) {
  $('status').textContent = message;
}

function show(section) {
  for (const id of ['sign-in', 'projects']) $(id).hidden = id !== section;
}

// Signing in and out

async function start() {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  $('new-project').addEventListener('submit', createProject);
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
  showProjects();
  // Where a keyboard or screen reader user goes on from: the page's content, not the form that is gone.
  $('main').focus();
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
  name.textContent = project.name;
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
    cell.replaceChildren(project.name);
    row.querySelector('td.actions button').focus();
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

function button(text, onClick, className) {
  const element = document.createElement('button');
  element.type = onClick ? 'button' : 'submit';
  element.textContent = text;
  if (className) element.className = className;
  if (onClick) element.addEventListener('click', onClick);
  return element;
}

start();
