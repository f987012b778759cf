// The whole audit log, a page at a time.
import { call, nextPage } from './api.js';
import { $, say, show, instant, excerpt, plainText, cut } from './ui.js';

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
