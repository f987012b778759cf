// Languages (issue 32): a project's default and required languages, and what the rest of the console asks of a tag:
// its canonical form, its name, its direction, and which required languages an announcement lacks.
import { call, isEditor } from './api.js';
import { $, say } from './ui.js';

/** The canonical form of a BCP 47 tag (as Herald stores it: fr, pt-BR, zh-Hant), or null when it is none. */
export function canonicalTag(text) {
  const tag = String(text || '').trim();
  if (!tag || tag.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch (e) {
    return null;
  }
}

// The languages written right to left, and the scripts that are, whatever the language (az-Arab, pa-Arab): a tag's
// script subtag decides when it has one.
const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ji', 'ks', 'mzn', 'nqo',
  'pnb', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);
const RTL_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa']);

export function isRightToLeft(tag) {
  const parts = String(tag || '').split('-');
  const script = parts.slice(1).find((part) => /^[A-Za-z]{4}$/.test(part));
  if (script) return RTL_SCRIPTS.has(script[0].toUpperCase() + script.slice(1).toLowerCase());
  return RTL_LANGUAGES.has(parts[0].toLowerCase());
}

export const directionOf = (tag) => (isRightToLeft(tag) ? 'rtl' : 'ltr');

let names = null;

/** "French (fr)", or the tag alone when the browser has no name for it. */
export function languageName(tag) {
  try {
    names = names || new Intl.DisplayNames(['en'], { type: 'language' });
    const name = names.of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch (e) {
    return tag;
  }
}

/** The tag an announcement is written in: its own, else its project's default. */
export function ownLocaleOf(notification, project) {
  return (notification && notification.locale) || (project && project.defaultLocale) || 'en';
}

/** The project's required languages the announcement has neither as its own nor as a translation with a message. */
export function missingLocales(notification, project) {
  const required = (project && project.requiredLocales) || [];
  const own = ownLocaleOf(notification, project);
  const translations = notification.translations || {};
  return required.filter((tag) => tag !== own && !(translations[tag] && translations[tag].message));
}

/** The announcement's translations written before its own text last changed (the API's `outdated`), by tag. */
export function outdatedLocales(notification) {
  const translations = (notification && notification.translations) || {};
  return Object.keys(translations).filter((tag) => translations[tag].outdated);
}

// Tags offered when adding a translation, after the project's required ones: the languages most sites add first.
const COMMON = ['fr', 'de', 'es', 'it', 'pt-BR', 'ja', 'zh-Hans', 'ar', 'he', 'nl', 'pl', 'ko'];

/** At most eight tags to suggest, the project's required ones first, none of those in `taken`. */
export function suggestions(project, taken) {
  const required = (project && project.requiredLocales) || [];
  return [...new Set([...required, ...COMMON])].filter((tag) => !taken.includes(tag)).slice(0, 8);
}

// The project's languages form (its page, above the announcements).
let project = null;
let onSaved = () => {};

export function init(saved) {
  onSaved = saved;
  $('project-languages').addEventListener('submit', saveLanguages);
}

export function showLanguages(shown) {
  project = shown;
  $('default-locale').value = project.defaultLocale || 'en';
  $('required-locales').value = (project.requiredLocales || []).join(', ');
  for (const id of ['default-locale', 'required-locales']) {
    $(id).readOnly = !isEditor();
    $(id).removeAttribute('aria-invalid');
  }
  for (const id of ['defaultLocale-error', 'requiredLocales-error']) $(id).textContent = '';
}

async function saveLanguages(event) {
  event.preventDefault();
  if (!isEditor()) return;
  for (const id of ['defaultLocale-error', 'requiredLocales-error']) $(id).textContent = '';
  for (const id of ['default-locale', 'required-locales']) $(id).removeAttribute('aria-invalid');
  // Tags as typed: the API canonicalises them and says which one it cannot read.
  const requiredLocales = $('required-locales').value.split(/[\s,]+/).filter((tag) => tag);
  try {
    const saved = await call('PATCH', `/projects/${encodeURIComponent(project.id)}`,
      { defaultLocale: $('default-locale').value.trim(), requiredLocales });
    showLanguages(saved);
    await onSaved(saved);
    say(`Languages saved: ${saved.defaultLocale} by default; ${saved.requiredLocales.length
      ? `required: ${saved.requiredLocales.join(', ')}` : 'none required'}.`);
  } catch (e) {
    const field = (e.field || '').split(/[.[]/)[0];
    const input = field === 'defaultLocale' ? $('default-locale') : $('required-locales');
    (field === 'defaultLocale' ? $('defaultLocale-error') : $('requiredLocales-error')).textContent = e.message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
}
