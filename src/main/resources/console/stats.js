// Performance: totals, a chart of the daily series and its CSV, of the project or of one announcement.
import { call, serverNow } from './api.js';
import { $, announcementName } from './ui.js';
import { currentProject, notifications } from './project.js';

export function init() {
  $('stats-form').addEventListener('submit', (event) => {
    event.preventDefault();
    loadStats();
  });
  $('stats-of').addEventListener('change', () => loadStats());
  $('stats-csv').addEventListener('click', downloadCsv);
}

/** The range a project's page opens with: the last 30 days, today included, by Herald's clock. */
export function showLastThirtyDays() {
  const today = new Date(serverNow()).toISOString().slice(0, 10);
  $('stats-to').value = today;
  $('stats-from').value = dayOffset(today, -29);
}

let shownStats = null;

function dayOffset(day, days) {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
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

export async function loadStats() {
  const from = $('stats-from').value;
  const to = $('stats-to').value;
  if (!from || !to || to < from) {
    $('stats-error').textContent = 'Give a first day and a last day that is not before it.';
    return;
  }
  $('stats-error').textContent = '';
  const of = $('stats-of').value;
  const path = of ? `/notifications/${of}/stats` : `/projects/${currentProject.id}/stats`;
  try {
    const stats = await call('GET', `${path}?from=${from}&to=${to}`);
    shownStats = { from, to, of, days: everyDay(from, to, stats.daily), stats };
    renderStats(shownStats);
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

function renderStats({ from, to, days, stats }) {
  const totals = [['Impressions', stats.impression], ['Clicks', stats.click], ['Conversions', stats.conversion],
    ['CTR', `${(stats.ctr * 100).toFixed(1)} %`]];
  $('stats-totals').replaceChildren(...totals.map(([name, value]) => {
    const group = document.createElement('div');
    const term = document.createElement('dt');
    term.textContent = name;
    const figure = document.createElement('dd');
    figure.textContent = String(value);
    group.append(term, figure);
    return group;
  }));
  $('stats-chart-title').textContent = `Daily interactions from ${from} to ${to}: ${stats.impression} impressions, `
    + `${stats.click} clicks, ${stats.conversion} conversions`;
  drawChart(days);
  $('stats-days').tBodies[0].replaceChildren(...days.filter((day) => SERIES.some((s) => day[s] > 0)).map((day) => {
    const row = document.createElement('tr');
    for (const value of [day.date, ...SERIES.map((s) => day[s])]) {
      const cell = document.createElement('td');
      cell.textContent = String(value);
      row.append(cell);
    }
    return row;
  }));
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function drawChart(days) {
  const chart = $('stats-chart');
  const [width, height, left, bottom, top] = [600, 200, 40, 20, 10];
  const highest = Math.max(1, ...days.flatMap((day) => SERIES.map((s) => day[s])));
  const x = (i) => left + (days.length === 1 ? (width - left) / 2 : (i * (width - left - 10)) / (days.length - 1));
  const y = (value) => height - bottom - (value * (height - bottom - top)) / highest;
  const parts = [
    svg('line', { class: 'axis', x1: left, y1: height - bottom, x2: width, y2: height - bottom }),
    svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }),
    label(left - 6, top + 8, String(highest), 'end'), label(left - 6, height - bottom, '0', 'end'),
    label(left, height - 4, days[0].date, 'start'), label(width, height - 4, days[days.length - 1].date, 'end'),
  ];
  for (const series of SERIES) {
    parts.push(svg('polyline', {
      class: `series-${series}`,
      points: days.map((day, i) => `${x(i).toFixed(1)},${y(day[series]).toFixed(1)}`).join(' '),
    }));
  }
  chart.replaceChildren($('stats-chart-title'), ...parts);
}

function label(x, y, text, anchor) {
  const element = svg('text', { class: 'label', x, y, 'text-anchor': anchor });
  element.textContent = text;
  return element;
}

function downloadCsv() {
  if (!shownStats) return;
  const lines = ['date,impression,click,conversion',
    ...shownStats.days.map((day) => [day.date, ...SERIES.map((s) => day[s])].join(','))];
  const blob = new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  const subject = shownStats.of ? `notification-${shownStats.of}` : `project-${currentProject.id}`;
  link.download = `herald-${subject}-${shownStats.from}-${shownStats.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
