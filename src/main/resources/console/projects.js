// The list of projects: create one, rename one.
import { call, callAll, isEditor } from './api.js';
import { $, say, show, button } from './ui.js';

export function init() {
  $('new-project').addEventListener('submit', createProject);
}

export async function showProjects() {
  show('projects');
  try {
    renderProjects(await callAll('/projects?limit=1000'));
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
  if (isEditor()) {
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
