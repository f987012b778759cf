// The console's language helpers (src/main/resources/console/languages.js), run by ConsoleWordDiffTest with
// `node --test`; ConsoleLanguagesBrowserTest sees them at work in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalTag, isRightToLeft, missingLocales, suggestions, languageName }
  from '../../main/resources/console/languages.js';

test('languages and scripts written right to left are, whatever the region', () => {
  for (const tag of ['ar', 'ar-EG', 'he', 'iw', 'fa', 'ur', 'yi', 'ckb', 'az-Arab', 'pa-Arab-PK', 'dv']) {
    assert.equal(isRightToLeft(tag), true, tag);
  }
});

test('the rest is left to right, and a script subtag decides over the language', () => {
  for (const tag of ['en', 'fr-CA', 'zh-Hant-TW', 'az', 'ar-Latn', 'tr', 'ja', '', undefined]) {
    assert.equal(isRightToLeft(tag), false, String(tag));
  }
});

test('tags are canonical as Herald stores them; what is no tag is null', () => {
  assert.equal(canonicalTag(' FR '), 'fr');
  assert.equal(canonicalTag('pt-br'), 'pt-BR');
  assert.equal(canonicalTag('zh-hant-tw'), 'zh-Hant-TW');
  for (const text of ['', 'not a tag', 'fr_', 'x'.repeat(36), null]) assert.equal(canonicalTag(text), null, text);
});

test('a required language is missing unless it is the own one or a translation with a message', () => {
  const project = { defaultLocale: 'en', requiredLocales: ['en', 'fr', 'de', 'es'] };
  const notification = { translations: { fr: { message: '{"type":"doc"}' }, de: { message: null } } };
  assert.deepEqual(missingLocales(notification, project), ['de', 'es']);
  assert.deepEqual(missingLocales({ ...notification, locale: 'es' }, project), ['en', 'de']);
  assert.deepEqual(missingLocales({}, { defaultLocale: 'en' }), []);
});

test('suggestions: the required ones first, none taken, eight at most', () => {
  const offered = suggestions({ requiredLocales: ['sv', 'fr'] }, ['en', 'fr']);
  assert.equal(offered[0], 'sv');
  assert.equal(offered.includes('fr'), false);
  assert.equal(offered.length, 8);
});

test('a language is named with its tag', () => {
  assert.equal(languageName('fr'), 'French (fr)');
  assert.equal(languageName('pt-BR'), 'Brazilian Portuguese (pt-BR)');
  assert.equal(languageName('not a tag'), 'not a tag');
});
