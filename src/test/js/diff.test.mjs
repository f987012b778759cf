// The console's word difference (src/main/resources/console/diff.js), run by ConsoleWordDiffTest with `node --test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wordDiff, MAX_CELLS } from '../../main/resources/console/diff.js';

const render = (parts) => parts.map(({ type, text }) => (type === 'same' ? text
  : type === 'added' ? `[+${text}]` : `[-${text}]`)).join('');

test('the same text is one part, the same', () => {
  assert.deepEqual(wordDiff('Hello world', 'Hello world'), [{ type: 'same', text: 'Hello world' }]);
});

test('a changed word reads as one word out and one in', () => {
  assert.equal(render(wordDiff('Sale ends Friday at noon', 'Sale ends Monday at noon')),
    'Sale ends [-Friday][+Monday] at noon');
});

test('an edit at the end of a long message is found there', () => {
  const start = 'word '.repeat(5000);
  assert.equal(render(wordDiff(`${start}old end`, `${start}new end`)), `${start}[-old][+new] end`);
});

test('words added and removed in several places', () => {
  assert.equal(render(wordDiff('one two three four', 'one three four five')),
    'one [-two ]three four[+ five]');
});

test('an empty side is all added or all removed', () => {
  assert.deepEqual(wordDiff('', 'New words'), [{ type: 'added', text: 'New words' }]);
  assert.deepEqual(wordDiff('Old words', null), [{ type: 'removed', text: 'Old words' }]);
  assert.deepEqual(wordDiff(undefined, ''), []);
});

test('past the cap the middle is all removed then all added, and both texts are kept whole', () => {
  const side = Math.ceil(Math.sqrt(MAX_CELLS)) + 10;
  const before = Array.from({ length: side }, (_, i) => `a${i}`).join(' ');
  const after = Array.from({ length: side }, (_, i) => `b${i}`).join(' ');
  const started = Date.now();
  const parts = wordDiff(`keep ${before} keep`, `keep ${after} keep`);
  assert.ok(Date.now() - started < 2000);
  assert.deepEqual(parts.map((part) => part.type), ['same', 'removed', 'added', 'same']);
  assert.equal(parts.filter((p) => p.type !== 'added').map((p) => p.text).join(''), `keep ${before} keep`);
  assert.equal(parts.filter((p) => p.type !== 'removed').map((p) => p.text).join(''), `keep ${after} keep`);
});

test('every part put back gives both texts', () => {
  const before = 'The quick brown fox jumps over the lazy dog.\nA second line.';
  const after = 'The quick red fox leaps over the dog!\nA second line, longer.';
  const parts = wordDiff(before, after);
  assert.equal(parts.filter((p) => p.type !== 'added').map((p) => p.text).join(''), before);
  assert.equal(parts.filter((p) => p.type !== 'removed').map((p) => p.text).join(''), after);
});
