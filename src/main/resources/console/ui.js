// What every page of the console draws with. Text is only ever set as text (never as markup), and nothing here runs
// code from a string: the page's Content-Security-Policy allows neither.

export const $ = (id) => document.getElementById(id);

export function say(message) {
  $('status').textContent = message;
}

export function show(page) {
  for (const section of document.querySelectorAll('main > section')) section.hidden = section.id !== page;
}

// A question in a modal dialog of the page (Escape or Cancel says no); the focus goes back where it was.
// The close event comes a task after the dialog closed: a question asked again at once would otherwise take the
// answer of the one before (seen under load: a key revoked by Yes stayed, its question answered by the Cancel before).
// By then the browser has put the focus back itself, and a key pressed meanwhile may have moved it on (a Tab right
// after Escape was undone, seen in CI): the focus is put back only where nothing holds it.
let questionsAsked = 0;

export function confirmed(question, yes) {
  const dialog = $('confirm');
  const before = document.activeElement;
  const asked = ++questionsAsked;
  $('confirm-text').textContent = question;
  $('confirm-yes').textContent = yes;
  dialog.returnValue = 'no';
  dialog.showModal();
  $('confirm-no').focus();
  return new Promise((resolve) => {
    const answered = () => {
      if (asked === questionsAsked && dialog.open) return;
      dialog.removeEventListener('close', answered);
      if (asked !== questionsAsked) {
        resolve(false);
        return;
      }
      const lost = document.activeElement === document.body || dialog.contains(document.activeElement);
      if (before && lost) before.focus();
      resolve(dialog.returnValue === 'yes');
    };
    dialog.addEventListener('close', answered);
  });
}

export function button(text, onClick, className) {
  const element = document.createElement('button');
  element.type = onClick ? 'button' : 'submit';
  element.textContent = text;
  if (className) element.className = className;
  if (onClick) element.addEventListener('click', onClick);
  return element;
}

export function instant(iso) {
  const time = document.createElement('time');
  time.dateTime = String(iso);
  time.textContent = new Date(iso).toLocaleString();
  return time;
}

// label: the column's name, which a phone shows before the date (console.css), having no room for the columns.
export function when(iso, label) {
  const cell = document.createElement('td');
  cell.dataset.label = label;
  if (iso !== null) {
    cell.append(instant(iso));
  } else {
    cell.textContent = '—';
  }
  return cell;
}

// A message's words, always a string: a rich-text document's text (Herald stores a document as its JSON text, and
// any other message that would start with '{' starts with '&#123;'), an HTML string's text (parsed inert, never
// rendered), or the text. What is stored is data, not a promise: JSON that is no document the console knows (a
// text that is an object, content that is a string) is shown as the JSON it is.
export function plainText(message) {
  if (message !== null && typeof message === 'object') return documentText(message, 0);
  if (typeof message !== 'string') return message === null || message === undefined ? '' : String(message);
  if (message.startsWith('{')) {
    try {
      const words = documentText(JSON.parse(message), 0);
      return words.trim() ? words : message;
    } catch (e) {
      return message;
    }
  }
  if (/[<&]/.test(message)) {
    return new DOMParser().parseFromString(message, 'text/html').body.textContent || '';
  }
  return message;
}

// Whatever its shape: a node that is no object, a text that is no string, content that is no array add no words.
function documentText(node, depth) {
  if (node === null || typeof node !== 'object' || depth > 100) return '';
  if (node.type === 'text') return typeof node.text === 'string' ? node.text : '';
  const parts = Array.isArray(node.content) ? node.content.map((child) => documentText(child, depth + 1)) : [];
  const block = ['paragraph', 'heading', 'listItem', 'blockquote', 'codeBlock'].includes(node.type);
  return parts.join(block ? ' ' : '') + (block ? ' ' : '');
}

// At most `max` characters, cut after a whole word (mid-word only for a word longer than half of them).
export function excerpt(text, max = 120) {
  const words = String(text).replace(/\s+/g, ' ').trim();
  if (words.length <= max) return words;
  const space = words.lastIndexOf(' ', max - 1);
  return `${words.slice(0, space > max / 2 ? space : max - 1)}…`;
}

// Whether the console's policy (img-src 'self' https:) loads an image; Herald keeps http ones all the same.
export function loadableImage(src) {
  if (!src) return true;
  try {
    const url = new URL(src, location.href);
    return url.protocol !== 'http:' || url.origin === location.origin;
  } catch {
    return true;
  }
}

// What the console calls an announcement in lists and questions: its title, or else the beginning of its words.
export function announcementName(notification, max = 120) {
  return notification.title || excerpt(plainText(notification.message), max);
}

export function cut(text) {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

// A secret shown once (a link, a token, a key's secret): copied, or selected for the reader to copy if the browser
// refuses; the focus stays on it.
export async function copy(id) {
  const field = $(id);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    say('Copied.');
  } catch (e) {
    say('Press Ctrl+C (or ⌘C) to copy the selected text.');
  }
  field.focus();
}
