// Performance: totals, the daily chart and its CSV (the project's or one announcement's), each announcement's
// figures, and a second range to compare. Unique users: those with a signed token (anonymous impressions are counted,
// not their people). A language filter (?locale=) once more than one language has data.
import { call, callAll, serverNow } from './api.js';
import { $, announcementName } from './ui.js';
import { currentProject, notifications } from './project.js';

export function init() {
  $('stats-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadStats();
  });
  $('stats-of').addEventListener('change', () => loadStats());
  $('stats-compare').addEventListener('change', () => {
    $('stats-compare-range').hidden = $('stats-compare').value !== 'custom';
    if ($('stats-compare').value !== 'custom') loadStats();
  });
  $('stats-locale').addEventListener('change', () => loadStats());
  $('stats-csv').addEventListener('click', downloadCsv);
  $('stats-table-csv').addEventListener('click', downloadTableCsv);
  $('stats-languages-csv').addEventListener('click', downloadLanguagesCsv);
}

/** The range a project's page opens with: the last 30 days, today included, by Herald's clock. */
export function showLastThirtyDays() {
  const today = new Date(serverNow()).toISOString().slice(0, 10);
  $('stats-to').value = today;
  $('stats-from').value = dayOffset(today, -29);
}

let shownStats = null;
// The languages with data in the project, from every range shown since it was opened: the filter's choices.
let languages = { projectId: null, tags: new Set() };
// Each announcement's counts in the range shown, of the project's stats (one request): the list's figures.
let byNotification = new Map();

function dayOffset(day, days) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function daysBetween(from, to) {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86400000) + 1;
}

export function statsChoices() {
  const select = $('stats-of');
  const chosen = select.value;
  const options = [['', 'the whole project'],
    ...notifications.map((n) => [n.id, `“${announcementName(n, 60)}”`])];
  select.replaceChildren(...options.map(([value, text]) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = text;
    return option;
  }));
  select.value = options.some(([value]) => value === chosen) ? chosen : '';
}

// The range to compare with: none, the period of the same length just before, or one chosen.
function comparedRange(from, to) {
  const choice = $('stats-compare').value;
  if (choice === 'previous') {
    const length = daysBetween(from, to);
    return { from: dayOffset(from, -length), to: dayOffset(from, -1) };
  }
  if (choice === 'custom') {
    const range = { from: $('stats-compare-from').value, to: $('stats-compare-to').value };
    if (!range.from || !range.to || range.to < range.from) return { error: true };
    return range;
  }
  return null;
}

export async function loadStats() {
  const from = $('stats-from').value;
  const to = $('stats-to').value;
  if (!from || !to || to < from) {
    $('stats-error').textContent = 'Give a first day and a last day that is not before it.';
    return;
  }
  const compared = comparedRange(from, to);
  if (compared && compared.error) {
    $('stats-error').textContent = 'Give the range to compare with: a first day and a last day not before it.';
    return;
  }
  $('stats-error').textContent = '';
  const of = $('stats-of').value;
  if (languages.projectId !== currentProject.id) {
    languages = { projectId: currentProject.id, tags: new Set() };
    $('stats-locale').value = '';
  }
  const locale = $('stats-locale').value;
  const projectPath = `/projects/${currentProject.id}/stats`;
  const query = (range) => `?from=${range.from}&to=${range.to}${locale ? `&locale=${encodeURIComponent(locale)}` : ''}`;
  const get = (path, range) => call('GET', path + query(range));
  const getProject = (range) => callAll(projectPath + query(range), 'notifications');
  try {
    // In turn: Herald runs two project stats at once, one person should not take both.
    const project = await getProject({ from, to });
    const projectBefore = compared && await getProject(compared);
    const [stats, before] = of
      ? await Promise.all([get(`/notifications/${of}/stats`, { from, to }),
        compared ? get(`/notifications/${of}/stats`, compared) : null])
      : [project, projectBefore];
    shownStats = {
      from, to, of, locale, days: everyDay(from, to, stats.daily), stats,
      compared: compared && { ...compared, days: everyDay(compared.from, compared.to, before.daily), stats: before },
      table: announcementRows(project, projectBefore),
    };
    byNotification = new Map(project.notifications.map((counts) => [counts.notificationId, counts]));
    for (const counts of project.locales) languages.tags.add(counts.locale);
    renderStats(shownStats);
    renderTable();
    renderLanguages();
    showFigures();
  } catch (e) {
    $('stats-error').textContent = e.message;
  }
}

// Every day of the range, those without activity as zeros: a line that skips them would lie.
function everyDay(from, to, daily) {
  const byDate = new Map(daily.map((day) => [day.date, day]));
  const days = [];
  for (let day = from; day <= to && days.length < 3700; day = dayOffset(day, 1)) {
    days.push(byDate.get(day) || { date: day, impression: 0, click: 0, conversion: 0 });
  }
  return days;
}

const SERIES = ['impression', 'click', 'conversion'];

const percent = (ctr) => `${(ctr * 100).toFixed(1)} %`;

// "+20 (+25.0 %)": the change from the compared range, absolute and relative ("new" from nothing).
function change(now, before) {
  const sign = (n) => (n > 0 ? `+${n}` : String(n));
  const relative = before === 0 ? (now === 0 ? '0 %' : 'new') : `${sign(((now - before) * 100 / before).toFixed(1))} %`;
  return `${sign(now - before)} (${relative})`;
}

function renderStats({ from, to, days, stats, compared }) {
  const totals = [['Impressions', 'impression'], ...('uniqueUsers' in stats ? [['Unique users', 'uniqueUsers']] : []),
    ['Clicks', 'click'], ['Conversions', 'conversion'], ['CTR', 'ctr']];
  $('stats-totals').replaceChildren(...totals.map(([name, member]) => {
    const group = document.createElement('div');
    const term = document.createElement('dt');
    term.textContent = name;
    const figure = document.createElement('dd');
    figure.textContent = member === 'ctr' ? percent(stats.ctr) : String(stats[member]);
    group.append(term, figure);
    if (compared) {
      const then = document.createElement('dd');
      then.className = 'compared';
      const was = compared.stats[member];
      then.textContent = member === 'ctr'
        ? `was ${percent(was)}, ${((stats.ctr - was) * 100 >= 0 ? '+' : '')}${((stats.ctr - was) * 100).toFixed(1)} points`
        : `was ${was}, ${change(stats[member], was)}`;
      group.append(then);
    }
    return group;
  }));
  $('stats-chart-title').textContent = `Daily interactions from ${from} to ${to}: ${stats.impression} impressions, `
    + `${stats.click} clicks, ${stats.conversion} conversions`
    + (compared ? `; dashed, from ${compared.from} to ${compared.to}: ${compared.stats.impression} impressions, `
      + `${compared.stats.click} clicks, ${compared.stats.conversion} conversions` : '');
  $('stats-compared-legend').hidden = !compared;
  $('stats-compared-legend').textContent = compared ? `dashed: ${compared.from} to ${compared.to}` : '';
  drawChart(days, compared && compared.days);
  const head = $('stats-days').tHead.rows[0];
  head.replaceChildren(...['Day', 'Impressions', 'Clicks', 'Conversions',
    ...(compared ? ['Compared day', 'Impressions', 'Clicks', 'Conversions'] : [])].map(header));
  $('stats-days').tBodies[0].replaceChildren(...days.map((day, i) => [day, compared && compared.days[i]])
    .filter(([day, then]) => SERIES.some((s) => day[s] > 0 || (then && then[s] > 0))).map(([day, then]) => {
      const row = document.createElement('tr');
      const values = [day.date, ...SERIES.map((s) => day[s])];
      if (compared) values.push(...(then ? [then.date, ...SERIES.map((s) => then[s])] : ['', '', '', '']));
      for (const value of values) {
        const cell = document.createElement('td');
        cell.textContent = String(value);
        row.append(cell);
      }
      return row;
    }));
}

function header(text) {
  const cell = document.createElement('th');
  cell.scope = 'col';
  cell.textContent = text;
  return cell;
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

// The compared range dashed over the same width, its first day over the first day shown.
function drawChart(days, comparedDays) {
  const chart = $('stats-chart');
  const [width, height, left, bottom, top] = [600, 200, 40, 20, 10];
  const highest = Math.max(1, ...[...days, ...(comparedDays || [])].flatMap((day) => SERIES.map((s) => day[s])));
  const x = (i, count) => left + (count === 1 ? (width - left) / 2 : (i * (width - left - 10)) / (count - 1));
  const y = (value) => height - bottom - (value * (height - bottom - top)) / highest;
  const parts = [
    svg('line', { class: 'axis', x1: left, y1: height - bottom, x2: width, y2: height - bottom }),
    svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }),
    label(left - 6, top + 8, String(highest), 'end'), label(left - 6, height - bottom, '0', 'end'),
    label(left, height - 4, days[0].date, 'start'), label(width, height - 4, days[days.length - 1].date, 'end'),
  ];
  for (const [series, compared] of SERIES.flatMap((s) => [[s, false], [s, true]])) {
    const shown = compared ? comparedDays : days;
    if (!shown) continue;
    parts.push(svg('polyline', {
      class: `series-${series}${compared ? ' compared' : ''}`,
      points: shown.map((day, i) => `${x(i, shown.length).toFixed(1)},${y(day[series]).toFixed(1)}`).join(' '),
    }));
  }
  chart.replaceChildren($('stats-chart-title'), ...parts);
}

function label(x, y, text, anchor) {
  const element = svg('text', { class: 'label', x, y, 'text-anchor': anchor });
  element.textContent = text;
  return element;
}

export function figureCells(id) {
  const cells = [['impressions', 'Impressions'], ['users', 'Users'], ['ctr', 'CTR']].map(([name, label]) => {
    const cell = document.createElement('td');
    cell.className = `figure ${name}`;
    cell.dataset.label = label;
    return cell;
  });
  fillFigures(id, ...cells);
  return cells;
}

function fillFigures(id, impressions, users, ctr) {
  const counts = byNotification.get(id);
  impressions.textContent = String(counts ? counts.impression : 0);
  users.textContent = String(counts && counts.uniqueUsers !== undefined ? counts.uniqueUsers : 0);
  ctr.textContent = counts && counts.impression > 0 ? percent(counts.ctr) : '—';
}

function showFigures() {
  // A language chosen in Performance filters the list's figures too: said, or they read as everyone's.
  $('stats-figures-range').textContent = `${shownStats.from} to ${shownStats.to}${shownStats.locale
    ? `, in ${languageName(shownStats.locale)} only` : ''}`;
  for (const row of $('notification-list').tBodies[0].rows) {
    fillFigures(row.dataset.id, ...['impressions', 'users', 'ctr'].map((name) => row.querySelector(`td.${name}`)));
  }
}

// Every announcement with interactions in either range, named as the list names it.
function announcementRows(project, before) {
  const then = new Map((before ? before.notifications : []).map((counts) => [counts.notificationId, counts]));
  const ids = [...new Set([...project.notifications.map((c) => c.notificationId), ...then.keys()])];
  const now = new Map(project.notifications.map((counts) => [counts.notificationId, counts]));
  const none = { impression: 0, click: 0, conversion: 0, ctr: 0, uniqueUsers: 0 };
  return ids.map((id) => {
    const listed = notifications.find((n) => n.id === id);
    return {
      id,
      name: listed ? `“${announcementName(listed, 60)}”` : 'Deleted, or hidden by the list’s filter',
      ...none,
      ...(now.get(id) || none),
      compared: before ? (then.get(id) || none) : null,
    };
  });
}

let sorted = { key: 'impression', descending: true };

function sortBy(key) {
  sorted = { key, descending: sorted.key === key ? !sorted.descending : key !== 'name' };
  renderTable();
  // The header's button was redrawn: the focus stays on the column just sorted.
  document.querySelector(`#stats-by-announcement thead button[data-sort="${key}"]`).focus();
}

const TABLE_COLUMNS = [['name', 'Announcement'], ['impression', 'Impressions'], ['uniqueUsers', 'Unique users'],
  ['click', 'Clicks'],
  ['conversion', 'Conversions'], ['ctr', 'CTR']];

function renderTable() {
  const { table, compared } = shownStats;
  const columns = [...TABLE_COLUMNS, ...(compared ? [['comparedImpression', 'Impressions, compared'],
    ['comparedCtr', 'CTR, compared']] : [])];
  const value = (row, key) => (key === 'comparedImpression' ? row.compared.impression
    : key === 'comparedCtr' ? row.compared.ctr : row[key]);
  const rows = [...table].sort((a, b) => {
    const [p, q] = [value(a, sorted.key), value(b, sorted.key)];
    const order = typeof p === 'string' ? p.localeCompare(q) : p - q;
    return (sorted.descending ? -order : order) || b.impression - a.impression || a.id.localeCompare(b.id);
  });
  $('stats-by-announcement').tHead.rows[0].replaceChildren(...columns.map(([key, text]) => {
    const cell = document.createElement('th');
    cell.scope = 'col';
    const sort = document.createElement('button');
    sort.type = 'button';
    sort.className = 'sort';
    sort.dataset.sort = key;
    sort.textContent = text;
    sort.addEventListener('click', () => sortBy(key));
    if (sorted.key === key) cell.setAttribute('aria-sort', sorted.descending ? 'descending' : 'ascending');
    cell.append(sort);
    return cell;
  }));
  $('stats-by-announcement').tBodies[0].replaceChildren(...rows.map((row) => {
    const line = document.createElement('tr');
    for (const [key, text] of columns) {
      const cell = document.createElement(key === 'name' ? 'th' : 'td');
      if (key === 'name') cell.scope = 'row';
      cell.dataset.label = text;
      const figure = value(row, key);
      cell.textContent = key === 'ctr' || key === 'comparedCtr' ? percent(figure) : String(figure);
      line.append(cell);
    }
    return line;
  }));
  $('stats-by-announcement').hidden = rows.length === 0;
  $('stats-no-announcements').hidden = rows.length > 0;
}

// "French (fr)": the browser's English name of the language, and its tag as the API and the CSV give it.
function languageName(tag) {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

// The filter's choices, every language with data in the project so far; the table, each language of the figures
// shown (the project's or one announcement's), most impressions first; each only when there is a choice to make.
function renderLanguages() {
  const select = $('stats-locale');
  const chosen = select.value;
  const tags = [...new Set([...languages.tags, ...(chosen ? [chosen] : [])])].sort();
  select.replaceChildren(...[['', 'every language'], ...tags.map((tag) => [tag, languageName(tag)])]
    .map(([value, text]) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      return option;
    }));
  select.value = chosen;
  $('stats-locale-choice').hidden = tags.length < 2 && !chosen;
  const { locales } = shownStats.stats;
  $('stats-languages').hidden = locales.length < 2;
  $('stats-by-language').tBodies[0].replaceChildren(...locales.map((counts) => {
    const line = document.createElement('tr');
    const name = document.createElement('th');
    name.scope = 'row';
    name.dataset.label = 'Language';
    name.textContent = languageName(counts.locale);
    line.append(name);
    for (const [key, text] of [['impression', 'Impressions'], ['click', 'Clicks'], ['conversion', 'Conversions'],
      ['ctr', 'CTR']]) {
      const cell = document.createElement('td');
      cell.dataset.label = text;
      cell.textContent = key === 'ctr' ? percent(counts.ctr) : String(counts[key]);
      line.append(cell);
    }
    return line;
  }));
}

function downloadCsv() {
  if (!shownStats) return;
  const { days, compared } = shownStats;
  const lines = [`date,impression,click,conversion${compared ? ',compared_date,compared_impression,compared_click,'
    + 'compared_conversion' : ''}`,
  ...days.map((day, i) => {
    const values = [day.date, ...SERIES.map((s) => day[s])];
    const then = compared && compared.days[i];
    if (compared) values.push(...(then ? [then.date, ...SERIES.map((s) => then[s])] : ['', '', '', '']));
    return values.join(',');
  })];
  const subject = shownStats.of ? `notification-${shownStats.of}` : `project-${currentProject.id}`;
  const language = shownStats.locale ? `-${shownStats.locale}` : '';
  download(lines, `herald-${subject}${language}-${shownStats.from}-${shownStats.to}.csv`);
}

// The table of announcements as shown, with each one's id (its name is quoted: it holds commas and quotes).
function downloadTableCsv() {
  if (!shownStats) return;
  const quoted = (text) => `"${String(text).replace(/"/g, '""')}"`;
  const { table, compared } = shownStats;
  const lines = [`notification_id,announcement,impression,click,conversion,ctr,unique_users${compared
    ? ',compared_impression,compared_click,compared_conversion,compared_ctr' : ''}`,
  ...table.map((row) => [row.id, quoted(row.name), row.impression, row.click, row.conversion, row.ctr, row.uniqueUsers,
    ...(compared ? [row.compared.impression, row.compared.click, row.compared.conversion, row.compared.ctr] : [])]
    .join(','))];
  const language = shownStats.locale ? `-${shownStats.locale}` : '';
  download(lines, `herald-project-${currentProject.id}-announcements${language}-${shownStats.from}-${shownStats.to}.csv`);
}

function downloadLanguagesCsv() {
  if (!shownStats) return;
  const lines = ['locale,impression,click,conversion,ctr',
    ...shownStats.stats.locales.map((c) => [c.locale, c.impression, c.click, c.conversion, c.ctr].join(','))];
  const subject = shownStats.of ? `notification-${shownStats.of}` : `project-${currentProject.id}`;
  download(lines, `herald-${subject}-languages-${shownStats.from}-${shownStats.to}.csv`);
}

function download(lines, name) {
  const blob = new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
