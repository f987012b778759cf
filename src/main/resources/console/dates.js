// The composer's start and end: a datetime-local field holds a wall time with no zone, shown in the user's zone and
// sent as UTC. A wall time the clocks skip (summer time begins) is read by the browser as the time after the gap; one
// they pass twice (it ends) is two instants, the first unless the field's "the second" box, shown only then, says
// otherwise: a product manager in Berlin could not choose the second 02:30 of the night summer time ends.
import { $ } from './ui.js';

const FIELDS = ['start-date', 'end-date'];

export function initDates() {
  for (const id of FIELDS) {
    $(id).addEventListener('input', () => sayClockChange(id));
    $(`${id}-second`).addEventListener('change', () => sayClockChange(id));
  }
}

/** Both fields as stored instants (ISO, or null) give them: nothing said, the second of a repeated time ticked. */
export function showDates(startDate, endDate) {
  show('start-date', startDate);
  show('end-date', endDate);
}

/** What the fields hold as opened: compared with them when saving, to leave out what did not change. */
export function datesAsShown() {
  return Object.fromEntries(FIELDS.map((id) => [id, `${$(id).value}${$(`${id}-second`).checked ? ' second' : ''}`]));
}

// A field the browser holds unfinished (a part not typed) is empty to script, and a year past 9999 no date: saved,
// either was "at once" or "never" (an outside trial), or threw. Said beside it instead.
export function unreadableDate() {
  for (const id of FIELDS) {
    if ($(id).validity.badInput || Number.isNaN(new Date($(id).value).getTime()) && $(id).value) {
      return { field: id === FIELDS[0] ? 'startDate' : 'endDate',
        message: 'Not a whole date and time (a year of four digits): finish it, or clear the field.' };
    }
  }
  return null;
}

/** The instant a field stands for, as UTC (ISO), or null when it is empty or no date (unreadableDate says so). */
export function instantOf(id) {
  const typed = $(id).value.slice(0, 16);
  const [first, second] = typed ? occurrences(typed) : [];
  if (!first || Number.isNaN(first.getTime())) return null;
  return (second && $(`${id}-second`).checked ? second : first).toISOString();
}

function show(id, iso) {
  $(id).value = localInput(iso);
  const [, second] = iso ? occurrences($(id).value) : [];
  // The field holds minutes: a stored instant with seconds is the second if its minute is (an outside review).
  showChoice(id, second, !!second && second.getTime() === Math.floor(Date.parse(iso) / 60000) * 60000);
  $(`${id}-note`).textContent = '';
}

// Each instant the wall time stands for in the user's zone: one, or two where the clocks go back within the next
// hours and pass it again (as many minutes later as they go back).
function occurrences(typed) {
  const first = new Date(typed);
  if (Number.isNaN(first.getTime())) return [first];
  const back = new Date(first.getTime() + 3 * 3600000).getTimezoneOffset() - first.getTimezoneOffset();
  const second = new Date(first.getTime() + back * 60000);
  return back > 0 && localInput(second.toISOString()) === typed ? [first, second] : [first];
}

function showChoice(id, second, chosen) {
  $(`${id}-twice`).hidden = !second;
  $(`${id}-second`).checked = chosen;
  if (second) $(`${id}-second-label`).textContent = `The second ${time(second)}, ${utcOffset(second)}`;
}

// What a wall time stands for, said beside the field, with what is saved, rather than chosen silently.
function sayClockChange(id) {
  const typed = $(id).value.slice(0, 16);
  const [first, second] = typed ? occurrences(typed) : [];
  showChoice(id, second, !!second && $(`${id}-second`).checked);
  let note = '';
  if (first && !Number.isNaN(first.getTime())) {
    // The wall time typed, as text: it may be no instant of the zone, so written as if it were UTC.
    const asTyped = new Date(`${typed}Z`);
    const said = `${time(asTyped, 'UTC')} on ${asTyped.toLocaleDateString([], { day: 'numeric', month: 'long',
      year: 'numeric', timeZone: 'UTC' })} in ${Intl.DateTimeFormat().resolvedOptions().timeZone}`;
    if (localInput(first.toISOString()) !== typed) {
      note = `${said} does not exist (clocks go forward): saved as ${time(first)}.`;
    } else if (second) {
      const [saved, other, which, otherWhich] = $(`${id}-second`).checked
        ? [second, first, 'second', 'first'] : [first, second, 'first', 'second'];
      note = `${said} happens twice (clocks go back): saved as the ${which}, ${time(saved)} ${utcOffset(saved)}; `
        + `the ${otherWhich} is ${utcOffset(other)}.`;
    }
  }
  $(`${id}-note`).textContent = note;
}

function time(date, zone) {
  return date.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', timeZone: zone });
}

function localInput(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return local.toISOString().slice(0, 16);
}

function utcOffset(date) {
  const minutes = -date.getTimezoneOffset();
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  return `UTC${minutes < 0 ? '-' : '+'}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
}
