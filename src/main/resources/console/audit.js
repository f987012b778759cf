// The audit log, a page at a time, and the sentence a line reads as (the Activity list too): who did what to which
// object, named as it is now and linked; a message's words removed and added, other members from → to, a creation
// in short.
import { call, nextPage } from './api.js';
import { $, say, show, instant, excerpt, plainText, cut } from './ui.js';
import { wordDiff } from './diff.js';

export function init() {
  $('audit-more').addEventListener('click', () => loadAudit(auditNext));
}

let auditNext = null;

export async function showAudit() {
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
  auditNext = nextPage();
  $('audit-more').hidden = !auditNext;
  $('audit-list').tBodies[0].append(...lines.map(auditRow));
}

// The columns' names, which a phone shows before each cell (console.css), having no room for the columns.
const AUDIT_COLUMNS = ['When', 'What', 'Change'];

// One line, whatever it holds: a line the console cannot read as it expects is shown as its JSON, never hides others.
function auditRow(line) {
  const row = document.createElement('tr');
  let cells;
  try {
    cells = [instant(line.occurredAt), sentence(line, true), change(line)];
  } catch (e) {
    cells = ['', '', cut(JSON.stringify(line))];
  }
  cells.forEach((content, column) => {
    const cell = document.createElement('td');
    cell.dataset.label = AUDIT_COLUMNS[column];
    cell.append(content);
    row.append(cell);
  });
  row.children[1].className = 'value';
  row.lastChild.className = 'change';
  return row;
}

// What each action reads as: a verb, and whether the object is named after it.
const VERBS = {
  'project.created': 'created the project',
  'project.renamed': 'renamed the project',
  'project.updated': 'changed the project',
  'api-key.created': 'created the API key',
  'api-key.updated': 'changed the API key',
  'api-key.revoked': 'revoked the API key',
  'notification.created': 'wrote the announcement',
  'notification.updated': 'changed the announcement',
  'notification.published': 'published the announcement',
  'notification.archived': 'archived the announcement',
  'notification.unpublished': 'unpublished the announcement',
  'notification.deleted': 'deleted the announcement',
  'notification.draft-saved': 'saved a draft of changes to the announcement',
  'notification.draft-discarded': 'discarded the draft of changes to the announcement',
  'notification.duplicated': 'duplicated an announcement as',
  'notification.version-restored': 'restored a version of the announcement',
  'notifications.ended-archived': 'archived the ended announcements of the project',
  'session.opened': 'signed in',
  'session.closed': 'signed out',
  'session.ended': 'ended a session',
  'sessions.ended': 'ended the other sessions of',
  'account.invited': 'invited',
  'account.role-changed': 'changed the role of',
  'account.disabled': 'disabled',
  'account.enabled': 'enabled',
  'account.reset': 'reset the credential of',
  'invite.accepted': 'joined the team',
  'database.backed-up': 'backed up the database into',
  'token-key.created': 'registered the user token key',
  'token-key.revoked': 'revoked the user token key',
  'user.erased': 'erased a user\'s state',
  'webhook.created': 'added the webhook endpoint',
  'webhook.updated': 'changed the webhook endpoint',
  'webhook.deleted': 'deleted the webhook endpoint',
  'webhook.secret-rotated': 'rotated the secret of the webhook endpoint',
  'webhook.replayed': 'replayed deliveries to the webhook endpoint',
  'webhook.disabled': 'disabled the webhook endpoint',
};

/**
 * "alice changed the announcement “Spring sale…” in Shop": the object named by its label (or what the line itself
 * holds of it) and, while it exists, a link to it. withProject: the whole log names the project too.
 */
export function sentence(line, withProject) {
  const words = document.createElement('span');
  const target = line.target || {};
  const verb = VERBS[line.action] || `${String(line.action)} ${target.type || ''}`;
  words.append(`${String(line.actor)} ${verb}`);
  const name = targetName(line);
  if (name) {
    words.append(' ');
    words.append(linked(name, targetLink(line)));
  }
  if (withProject && line.projectId && target.type !== 'project') {
    words.append(' in ', linked(line.projectName || 'a deleted project',
      line.projectName ? `#/projects/${line.projectId}` : null));
  }
  return words;
}

function targetName(line) {
  const target = line.target || {};
  const details = line.details || {};
  switch (target.type) {
    case 'project':
      return target.label || (typeof details.name === 'string' ? details.name : 'a deleted project');
    case 'notification': {
      if (target.label !== undefined) return `“${target.label || '(no words)'}”`;
      const message = isExcerpt(details.message) ? details.message.excerpt : details.message;
      return typeof message === 'string' ? `“${excerpt(plainText(message), 60)}”` : 'no longer there';
    }
    case 'api-key':
      return typeof target.id === 'string' ? `…${target.id.slice(-6)}` : '';
    case 'account':
      // Taking an invitation: the account is its own actor, named once.
      return line.action === 'invite.accepted' ? '' : String(target.id ?? '');
    case 'backup':
    case 'token-key':
      return String(target.id ?? '');
    case 'webhook-endpoint':
      // Its URL where the line holds it (created, deleted, replayed), the one a replay sent to.
      return typeof details.url === 'string' ? details.url : '';
    default:
      return '';
  }
}

// The object's page: a project; an announcement opens in its project; a key is on its project's page.
function targetLink(line) {
  const target = line.target || {};
  if (!line.projectId || !line.projectName) return null;
  if (target.type === 'notification') {
    return target.label !== undefined ? `#/projects/${line.projectId}/announcements/${target.id}` : null;
  }
  return target.type === 'project' || target.type === 'api-key' ? `#/projects/${line.projectId}` : null;
}

function linked(text, href) {
  if (!href) return text;
  const link = document.createElement('a');
  link.href = href;
  link.textContent = text;
  return link;
}

// What changed, as a person reads it; empty where the sentence says it all.
function change(line) {
  const details = line.details;
  if (details === null || typeof details !== 'object' || isExcerpt(details)) return shown('', details);
  if (/\.created$/.test(line.action)) return created(line.action, details);
  if (line.action === 'notification.deleted' || line.action === 'notification.draft-discarded') return '';
  if (line.action === 'notifications.ended-archived') return `${Number(details.archived)} archived`;
  if (line.action === 'session.opened') return typeof details.role === 'string' ? `as ${details.role}` : '';
  if (/^sessions?\./.test(line.action)) return '';
  const parts = document.createDocumentFragment();
  const members = Object.entries(details);
  members.forEach(([member, value], index) => {
    if (index > 0) parts.append('; ');
    const item = document.createElement('span');
    item.className = 'member';
    if (isChange(value)) {
      item.append(`${MEMBERS[member] || member}: `, changed(member, value));
    } else {
      item.append(`${MEMBERS[member] || member}: ${shown(member, value)}`);
    }
    parts.append(item);
  });
  return parts;
}

const MEMBERS = { message: 'Message', status: 'Status', image: 'Image', imageAlt: 'Image description', action: 'Link',
  outdatedTranslations: 'Translations to read again',
  preset: 'Style', startDate: 'Starts', endDate: 'Ends', name: 'Name', showPast: 'Shows ended',
  showFuture: 'Shows scheduled', orderBy: 'Order' };

// A creation in a few words: what a reader needs to recognise it, not every field.
function created(action, details) {
  if (action === 'notification.created') {
    const status = String(details.status || 'DRAFT');
    const parts = [{ DRAFT: 'a draft', PUBLISHED: 'published', ARCHIVED: 'archived' }[status] || status.toLowerCase()];
    if (details.startDate) parts.push(`starts ${when(details.startDate)}`);
    if (details.endDate) parts.push(`ends ${when(details.endDate)}`);
    if (details.image) parts.push('with an image');
    if (details.action && details.action.type === 'LINK') parts.push('with a link');
    return parts.join(', ');
  }
  if (action === 'api-key.created') {
    const shows = [details.showPast && 'ended', details.showFuture && 'scheduled'].filter(Boolean);
    return shows.length ? `shows ${shows.join(' and ')} announcements too` : 'shows live announcements';
  }
  return '';
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

function isChange(value) {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, 'from') && Object.hasOwn(value, 'to');
}

// A message: its words removed and added (kept by the server, or computed here from whole values of an older line);
// any other member: from → to.
function changed(member, value) {
  if (Array.isArray(value.diff)) return diffView(value.diff, value.diffCut === true);
  if (member === 'message' && typeof value.from === 'string' && typeof value.to === 'string') {
    return diffView(withContext(wordDiff(plainText(value.from), plainText(value.to))), false);
  }
  if (member === 'message' && isExcerpt(value.from) && isExcerpt(value.to)
    && value.from.excerpt === value.to.excerpt && value.from.sha256 !== value.to.sha256) {
    return `${shown(member, value.to)}; changed after its first words (this older line did not keep where)`;
  }
  if (member === 'startDate' || member === 'endDate') {
    return `${value.from === null ? 'none' : when(value.from)} → ${value.to === null ? 'none' : when(value.to)}`;
  }
  return `${shown(member, value.from)} → ${shown(member, value.to)}`;
}

const CONTEXT_WORDS = 6;

// Unchanged words only around a change, as the server keeps them (docs/api.md#audit-log): "…" for the rest.
function withContext(runs) {
  return runs.map((run, index) => {
    if (run.type !== 'same') return run;
    const words = run.text.match(/\s+|\S+/g) || [];
    const keep = 2 * CONTEXT_WORDS;
    const afterChange = index > 0;
    const beforeChange = index < runs.length - 1;
    if (words.length <= (afterChange && beforeChange ? 2 * keep + 1 : keep + 1)) return run;
    const head = afterChange ? words.slice(0, keep).join('') : '';
    const tail = beforeChange ? words.slice(-keep).join('') : '';
    return { type: 'same', text: `${head}…${tail && !/^\s/.test(tail) ? ' ' : ''}${tail}` };
  });
}

// Words removed struck through and added underlined (ins/del), each also said in words, not by colour alone.
function diffView(runs, wasCut) {
  const view = document.createElement('span');
  view.className = 'diff';
  const changes = runs.filter((run) => run && run.type !== 'same');
  if (changes.length === 0) {
    view.textContent = 'formatting only, the words are the same';
    return view;
  }
  for (const run of runs) {
    if (!run || typeof run.text !== 'string') continue;
    if (run.type === 'same') {
      view.append(run.text);
      continue;
    }
    const mark = document.createElement(run.type === 'added' ? 'ins' : 'del');
    const said = document.createElement('span');
    said.className = 'visually-hidden';
    said.textContent = run.type === 'added' ? ' [added: ' : ' [removed: ';
    const end = document.createElement('span');
    end.className = 'visually-hidden';
    end.textContent = '] ';
    mark.append(said, run.text, end);
    view.append(mark);
  }
  if (wasCut) view.append(' (more changes than shown)');
  return view;
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
  if (value === null) return 'none';
  if (typeof value === 'string') return cut(member === 'message' ? excerpt(plainText(value)) : value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.length ? cut(value.join(', ')) : 'none';
  if (member === 'action' && typeof value === 'object' && value.type === 'NONE') return 'none';
  if (member === 'action' && typeof value === 'object' && value.data && typeof value.data.url === 'string') {
    return cut(value.data.url);
  }
  return cut(JSON.stringify(value) ?? String(value));
}
