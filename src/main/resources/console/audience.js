// Who an announcement is for (docs/api.md#audience): everyone (null), or rules on the signed token's claims: all/any
// of conditions, groups one level down, a percentage rollout. One the builder cannot show exactly (made through the
// API) is shown read-only as JSON and never sent back, so never rewritten. The server's 400 names the mistake's path
// (details.field), said at its row.
import { call } from './api.js';
import { $ } from './ui.js';

// The server's operators (dev.herald.audience.Operator, in its order; ConsoleAudienceOperatorsTest holds them to
// it), each with the words the builder says and the value it takes.
const OPERATORS = [
  ['equals', 'equals', 'scalar'], ['notEquals', 'does not equal', 'scalar'], ['in', 'is one of', 'scalars'],
  ['notIn', 'is none of', 'scalars'], ['contains', 'contains', 'text'], ['startsWith', 'starts with', 'text'],
  ['exists', 'exists', 'none'], ['greaterThan', 'is greater than', 'number'], ['lessThan', 'is less than', 'number'],
  ['atLeast', 'is at least', 'number'], ['atMost', 'is at most', 'number'], ['before', 'is before', 'instant'],
  ['after', 'is after', 'instant'], ['withinLastDays', 'is within the last', 'days'],
  ['versionAtLeast', 'is version at least', 'version'], ['versionBelow', 'is version below', 'version'],
];
const KIND = Object.fromEntries(OPERATORS.map(([name, , kind]) => [name, kind]));
const WORDS = Object.fromEntries(OPERATORS.map(([name, words]) => [name, words]));

// The builder's model: kind (all or any) of items (conditions, or groups of conditions), and a rollout (the text of
// its field) or null.
let model = null;
// The audience as opened: what is sent only when the builder changed it; readOnly when the builder cannot show it.
let opened = null;
let readOnly = false;
let savedId = null;
// Each path of the audience last serialized (audience.all[0]) and the row or line it came from.
let places = new Map();
let ids = 0;

export function init() {
  for (const id of ['audience-everyone', 'audience-rules']) $(id).addEventListener('change', modeChanged);
  $('audience-kind').addEventListener('change', () => {
    model.kind = $('audience-kind').value;
  });
  $('audience-add').addEventListener('click', () => addItem(model.items, $('audience-rows'), condition()));
  $('audience-add-group').addEventListener('click', () => addItem(model.items, $('audience-rows'),
    { type: 'group', kind: 'any', items: [condition()] }));
  $('audience-rollout-on').addEventListener('change', () => {
    const on = $('audience-rollout-on').checked;
    model.rollout = on ? $('audience-rollout').value : null;
    $('audience-rollout').disabled = !on;
    if (on) $('audience-rollout').focus();
  });
  $('audience-rollout').addEventListener('input', () => {
    model.rollout = $('audience-rollout').value;
  });
  $('audience-check').addEventListener('click', check);
}

const condition = () => ({ type: 'condition', attribute: '', operator: 'equals', scalarType: 'text', text: '' });

/**
 * The composer opened an announcement (its audience: null, a tree, or undefined from a Herald without audiences).
 * @param id the saved announcement's id, whose saved audience "Would this user see it?" checks; null for a new one
 * @param edited the audience the builder shows instead, changed but not saved (kept while its user signed in again)
 */
export function showAudience(audience, id, edited) {
  opened = audience === undefined ? null : audience;
  savedId = id;
  readOnly = false;
  model = { kind: 'all', items: [], rollout: null };
  if (opened !== null) {
    try {
      model = fromJson(opened);
      readOnly = canonical(serialize(model)) !== canonical(opened);
    } catch (e) {
      readOnly = true;
    }
  }
  const shown = edited === undefined || readOnly ? opened : edited;
  if (shown !== opened) model = shown === null ? { kind: 'all', items: [], rollout: null } : fromJson(shown);
  $('audience-everyone').checked = shown === null;
  $('audience-rules').checked = shown !== null;
  for (const id of ['audience-everyone', 'audience-rules']) $(id).disabled = readOnly;
  $('audience-json').hidden = !readOnly;
  $('audience-json-text').textContent = readOnly ? JSON.stringify(opened, null, 2) : '';
  $('audience-error').textContent = '';
  $('audience-check-panel').hidden = !id;
  $('audience-claims-error').textContent = '';
  $('audience-result').replaceChildren();
  $('audience-check-note').textContent = '';
  render();
}

// The focus stays on the choice (moving it as the arrow keys go through the choices would lose the reader); the
// builder follows it, a first condition ready.
function modeChanged() {
  if ($('audience-rules').checked && model.items.length === 0 && model.rollout === null) model.items.push(condition());
  render();
}

function render() {
  const rules = $('audience-rules').checked && !readOnly;
  $('audience-builder').hidden = !rules;
  $('audience-kind').value = model.kind;
  $('audience-rollout-on').checked = model.rollout !== null;
  $('audience-rollout').value = model.rollout === null ? '25' : model.rollout;
  $('audience-rollout').disabled = model.rollout === null;
  $('audience-rows').replaceChildren(...model.items.map((item) => itemRow(item, model.items)));
  number();
}

// "Condition 1", "Group 2", "Condition 2.1": each row says its place, and so does each of its controls' names, so a
// screen reader tells the rows apart.
function number() {
  const name = (row, text) => {
    row.querySelector('.row-name').textContent = text;
    for (const control of row.querySelectorAll(':scope > .row-fields [data-what]')) {
      control.setAttribute('aria-label', `${control.dataset.what} of ${text}`);
    }
    for (const control of row.querySelectorAll(':scope > .row-end button')) {
      control.setAttribute('aria-label', `${control.dataset.what} ${text}`);
    }
  };
  [...$('audience-rows').children].forEach((row, i) => {
    const group = row.classList.contains('group');
    name(row, `${group ? 'Group' : 'Condition'} ${i + 1}`);
    if (group) {
      [...row.querySelector(':scope > ol').children].forEach((child, j) => name(child, `Condition ${i + 1}.${j + 1}`));
    }
  });
}

function addItem(items, list, item) {
  items.push(item);
  const row = itemRow(item, items);
  list.append(row);
  number();
  row.querySelector('input, select').focus();
}

function itemRow(item, items) {
  return item.type === 'group' ? groupRow(item, items) : conditionRow(item, items);
}

function rowShell(item, items, className) {
  const row = document.createElement('li');
  row.className = `audience-row ${className}`;
  const name = document.createElement('span');
  name.className = 'row-name';
  row.append(name);
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'secondary';
  remove.textContent = 'Remove';
  remove.dataset.what = 'Remove';
  remove.addEventListener('click', () => {
    const list = row.parentElement;
    const index = [...list.children].indexOf(row);
    items.splice(items.indexOf(item), 1);
    row.remove();
    number();
    const next = list.children[Math.min(index, list.children.length - 1)];
    (next ? next.querySelector('input, select') : $('audience-add')).focus();
  });
  const end = document.createElement('div');
  end.className = 'row-end';
  const error = document.createElement('p');
  error.className = 'error';
  error.setAttribute('role', 'alert');
  end.append(remove);
  return { row, end, error };
}

function field(labelText, control, what) {
  const wrap = document.createElement('span');
  wrap.className = 'field';
  const id = `audience-field-${++ids}`;
  control.id = id;
  control.dataset.what = what;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = labelText;
  wrap.append(label, control);
  return wrap;
}

function conditionRow(item, items) {
  const { row, end, error } = rowShell(item, items, 'condition');
  row.model = item;
  const fields = document.createElement('div');
  fields.className = 'row-fields';
  const attribute = document.createElement('input');
  attribute.value = item.attribute;
  attribute.placeholder = 'plan';
  attribute.autocomplete = 'off';
  attribute.spellcheck = false;
  attribute.dataset.part = 'attribute';
  attribute.addEventListener('input', () => {
    item.attribute = attribute.value.trim();
  });
  const operator = document.createElement('select');
  operator.dataset.part = 'operator';
  for (const [name, words] of OPERATORS) operator.append(new Option(words, name, false, name === item.operator));
  const value = document.createElement('span');
  value.className = 'value-fields';
  operator.addEventListener('change', () => {
    item.operator = operator.value;
    valueFields(item, value);
    number();
  });
  fields.append(field('Attribute', attribute, 'Attribute'), field('Operator', operator, 'Operator'), value);
  valueFields(item, value);
  row.append(fields, error, end);
  return row;
}

// The value's input as the operator wants it: none for exists, a line per value for in and notIn, a number, a date
// and time in the reader's zone, a number of days, a version.
function valueFields(item, place) {
  const kind = KIND[item.operator];
  place.replaceChildren();
  if (kind === 'none') return;
  if (kind === 'scalar' || kind === 'scalars') {
    const type = document.createElement('select');
    type.dataset.part = 'type';
    for (const [value, text] of [['text', 'text'], ['number', 'number'], ['boolean', 'true or false']]) {
      type.append(new Option(text, value, false, value === item.scalarType));
    }
    type.addEventListener('change', () => {
      item.scalarType = type.value;
      valueFields(item, place);
      number();
      place.querySelector('[data-part=type]').focus();
    });
    place.append(field('Type', type, 'Type of the value'));
  }
  let input;
  if (kind === 'scalar' && item.scalarType === 'boolean') {
    input = document.createElement('select');
    for (const value of ['true', 'false']) input.append(new Option(value, value, false, item.text === value));
    item.text = input.value;
  } else if (kind === 'scalars') {
    input = document.createElement('textarea');
    input.rows = 3;
    input.spellcheck = false;
  } else {
    input = document.createElement('input');
    input.autocomplete = 'off';
    if (kind === 'number' || kind === 'days' || (kind === 'scalar' && item.scalarType === 'number')) {
      input.type = 'number';
      input.step = kind === 'days' ? '1' : 'any';
      if (kind === 'days') input.min = '1';
    } else if (kind === 'instant') {
      input.type = 'datetime-local';
      input.step = '1';
    } else if (kind === 'version') {
      input.placeholder = '2.3.1';
    }
  }
  input.dataset.part = 'value';
  input.value = item.text;
  const update = () => {
    item.text = input.value;
  };
  input.addEventListener('input', update);
  input.addEventListener('change', update);
  const label = { scalars: 'Values, one a line', days: 'Days', instant: 'Date and time (your time zone)' }[kind]
    || 'Value';
  place.append(field(label, input, 'Value'));
}

function groupRow(group, items) {
  const { row, end, error } = rowShell(group, items, 'group');
  row.model = group;
  const fields = document.createElement('div');
  fields.className = 'row-fields';
  const kind = document.createElement('select');
  kind.append(new Option('all of', 'all', false, group.kind === 'all'), new Option('any of', 'any', false,
    group.kind === 'any'));
  kind.addEventListener('change', () => {
    group.kind = kind.value;
  });
  fields.append(field('Match', kind, 'Match'));
  const list = document.createElement('ol');
  list.className = 'audience-rows';
  list.append(...group.items.map((item) => conditionRow(item, group.items)));
  const add = document.createElement('button');
  add.type = 'button';
  add.className = 'secondary';
  add.textContent = 'Add a condition to the group';
  add.dataset.what = 'Add a condition to';
  add.addEventListener('click', () => addItem(group.items, list, condition()));
  end.prepend(add);
  row.append(fields, error, list, end);
  return row;
}

/** What the form holds, for the composer's "unsaved changes" (read-only: as opened). */
export function audienceSnapshot() {
  if (readOnly) return opened;
  try {
    return audienceValue();
  } catch (e) {
    return e.message;
  }
}

/** Whether the audience is to be sent: only when the builder changed it (never when read-only). */
export function audienceChanged() {
  return !readOnly && canonical(audienceSnapshot()) !== canonical(opened);
}

/**
 * The audience the builder holds, as the API takes it: null for everyone. A value the builder can tell is wrong
 * before sending (a line of a list of numbers that is no number) throws, said at its row.
 */
export function audienceValue() {
  places = new Map();
  if (!$('audience-rules').checked) return null;
  return serialize(model, places);
}

function serialize(shown, where = new Map()) {
  // A share that is no number is sent as typed: the server's refusal says what it must be.
  const share = Number(shown.rollout);
  const rollout = shown.rollout === null ? null
    : { rollout: shown.rollout.trim() === '' || !Number.isFinite(share) ? shown.rollout : share };
  const items = (path) => shown.items.map((item, i) => node(item, `${path}[${i}]`, where));
  if (shown.items.length === 0) {
    if (rollout) where.set('audience', $('audience-rollout'));
    return rollout || { all: [] };
  }
  if (!rollout) return { [shown.kind]: items(`audience.${shown.kind}`) };
  const n = shown.kind === 'all' ? shown.items.length : 1;
  where.set(`audience.all[${n}]`, $('audience-rollout'));
  return shown.kind === 'all' ? { all: [...items('audience.all'), rollout] }
    : { all: [{ any: items('audience.all[0].any') }, rollout] };
}

function node(item, path, where) {
  const row = [...document.querySelectorAll('#audience-rows .audience-row')].find((r) => r.model === item);
  if (row) where.set(path, row);
  if (item.type === 'group') {
    return { [item.kind]: item.items.map((child, i) => node(child, `${path}.${item.kind}[${i}]`, where)) };
  }
  const json = { attribute: item.attribute, operator: item.operator };
  const kind = KIND[item.operator];
  if (kind !== 'none') json.value = conditionValue(item, kind, row);
  return json;
}

function conditionValue(item, kind, row) {
  const text = item.text.trim();
  const scalar = (value) => {
    if (item.scalarType === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
    if (item.scalarType === 'number') {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n)) throw new RowError(row, `“${value}” is not a number.`);
      return n;
    }
    return value;
  };
  switch (kind) {
    case 'scalar': return item.scalarType === 'number' && text === '' ? null : scalar(item.scalarType === 'text'
      ? item.text : text);
    case 'scalars': return item.text.split('\n').map((line) => line.trim()).filter((line) => line).map(scalar);
    case 'number': case 'days': return text === '' || !Number.isFinite(Number(text)) ? null : Number(text);
    case 'instant': return text ? new Date(text).toISOString().replace('.000Z', 'Z') : null;
    default: return item.text;
  }
}

class RowError extends Error {
  constructor(row, message) {
    super(message);
    this.row = row;
  }
}

// A stored tree as the builder's model; throws when the builder has no place for it.
function fromJson(json) {
  const unshowable = () => { throw new Error('not for the builder'); };
  const keys = (object) => (object && typeof object === 'object' && !Array.isArray(object) ? Object.keys(object) : []);
  const conditionOf = (c) => {
    if (!keys(c).includes('attribute')) unshowable();
    const kind = KIND[c.operator] || unshowable();
    const item = { ...condition(), attribute: c.attribute, operator: c.operator };
    const typeOf = (v) => (typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'text');
    if (kind === 'scalar') {
      item.scalarType = typeOf(c.value);
      item.text = String(c.value);
    } else if (kind === 'scalars') {
      if (!Array.isArray(c.value) || new Set(c.value.map(typeOf)).size !== 1) unshowable();
      item.scalarType = typeOf(c.value[0]);
      item.text = c.value.join('\n');
    } else if (kind === 'instant') {
      const date = new Date(c.value);
      if (typeof c.value !== 'string' || Number.isNaN(date.getTime())) unshowable();
      item.text = new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
    } else if (kind !== 'none') {
      item.text = String(c.value);
    }
    return item;
  };
  const itemOf = (child) => {
    const [kind] = keys(child);
    if (keys(child).length === 1 && (kind === 'all' || kind === 'any') && Array.isArray(child[kind])) {
      return { type: 'group', kind, items: child[kind].map(conditionOf) };
    }
    return conditionOf(child);
  };
  const [top] = keys(json);
  if (keys(json).length !== 1) unshowable();
  if (top === 'rollout') return { kind: 'all', items: [], rollout: String(json.rollout) };
  if (top !== 'all' && top !== 'any') unshowable();
  const list = Array.isArray(json[top]) ? json[top] : unshowable();
  const last = list[list.length - 1];
  const rollout = top === 'all' && keys(last).length === 1 && keys(last)[0] === 'rollout' ? last.rollout : null;
  const rest = rollout === null ? list : list.slice(0, -1);
  if (rollout !== null && rest.length === 1 && keys(rest[0])[0] === 'any' && keys(rest[0]).length === 1) {
    return { kind: 'any', items: rest[0].any.map(itemOf), rollout: String(rollout) };
  }
  const share = rollout === null ? null : String(rollout);
  return { kind: top, items: rest.map(itemOf), rollout: share };
}

// JSON with its members in one order: two trees compared for what they say, not how their members were ordered.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

/** A refusal of the server (or the builder's own) said at its row, the focus on its field; false if not the audience's. */
export function showAudienceError(error) {
  if (error instanceof RowError) {
    sayAtRow(error.row, error.message, 'value');
    return true;
  }
  const path = error.field || '';
  if (!path.startsWith('audience')) return false;
  // The longest path known that the error's path starts with: audience.all[0] for audience.all[0].value[2].
  let best = null;
  for (const known of places.keys()) {
    const rest = path.slice(known.length);
    if (path.startsWith(known) && (rest === '' || rest[0] === '.' || rest[0] === '[')
        && (!best || known.length > best.length)) best = known;
  }
  const place = best && places.get(best);
  if (place && place.classList && place.classList.contains('audience-row')) {
    const part = (/^\.(attribute|operator|value)/.exec(path.slice(best.length)) || [])[1];
    sayAtRow(place, error.message, part);
  } else {
    $('audience-error').textContent = error.message;
    (place || $('audience-rules')).focus();
  }
  return true;
}

function sayAtRow(row, message, part) {
  const error = row.querySelector(':scope > .error');
  error.textContent = message;
  error.id = error.id || `audience-error-${++ids}`;
  const fields = row.querySelector(':scope > .row-fields');
  const input = (part && fields.querySelector(`[data-part=${part}]`)) || fields.querySelector('input, select');
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', error.id);
  input.focus();
}

export function clearAudienceErrors() {
  $('audience-error').textContent = '';
  for (const error of $('audience-rows').querySelectorAll('.error')) error.textContent = '';
  for (const field of $('audience-rows').querySelectorAll('[aria-invalid]')) {
    field.removeAttribute('aria-invalid');
    field.removeAttribute('aria-describedby');
  }
}

// "Would this user see it?": the claims pasted (as the token would carry them) checked by the server against the
// saved audience; each rule's outcome said in words.
async function check() {
  $('audience-claims-error').textContent = '';
  $('audience-result').replaceChildren();
  let claims;
  try {
    claims = JSON.parse($('audience-claims').value);
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw new Error('not an object');
  } catch (e) {
    $('audience-claims-error').textContent = 'Paste the claims as a JSON object: {"sub": "user-1", "attrs": '
      + '{"plan": "pro"}}.';
    $('audience-claims').focus();
    return;
  }
  $('audience-check-note').textContent = audienceChanged()
    ? 'Checked against the audience as saved, not your changes here: save them to check them.' : '';
  try {
    const answer = await call('POST', `/notifications/${encodeURIComponent(savedId)}/audience-check`, { claims });
    showResult(answer);
  } catch (e) {
    $('audience-claims-error').textContent = e.message;
    $('audience-claims').focus();
  }
}

function showResult(answer) {
  const verdict = document.createElement('p');
  verdict.className = `verdict ${answer.matches ? 'yes' : 'no'}`;
  verdict.textContent = answer.matches ? 'Yes: this user would see it.' : 'No: this user would not see it.';
  // Each node's outcome by its path, children before the node that holds them, the whole audience last.
  const reasons = answer.conditions || [];
  const list = document.createElement('ul');
  list.className = 'reasons';
  for (const reason of reasons) {
    const item = document.createElement('li');
    item.className = reason.matches ? 'yes' : 'no';
    const words = describe(reason.path);
    item.textContent = `${reason.matches ? '✓ true' : '✗ false'}: ${words ? `${words} ` : ''}(${reason.path})`;
    list.append(item);
  }
  $('audience-result').replaceChildren(verdict, list);
}

// A path of the saved audience in words: "plan equals “pro”", "any of 2 rules", "the 25 % rollout".
function describe(path) {
  let node = { audience: opened };
  for (const step of path.match(/[A-Za-z]+|\d+/g) || []) {
    node = node === null || node === undefined ? undefined : node[step];
  }
  if (!node || typeof node !== 'object') return '';
  if ('rollout' in node) return `in the ${node.rollout} % rollout`;
  if ('attribute' in node) {
    const kind = KIND[node.operator];
    const value = kind === 'none' ? '' : kind === 'days' ? ` ${node.value} days` : ` ${JSON.stringify(node.value)}`;
    return `${node.attribute} ${WORDS[node.operator] || node.operator}${value}`;
  }
  const [kind] = Object.keys(node);
  return kind === 'not' ? 'not the rule below' : `${kind} of ${(node[kind] || []).length} rules`;
}
