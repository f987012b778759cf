// The words one text removed and added to become another: [{type: 'same' | 'removed' | 'added', text}]. Words, not
// characters, so "Monday" → "Friday" reads as a word replaced. The server keeps these runs (audit/WordDiff.java);
// this computes them for older lines. Bounded: the common ends set aside, the middle compared up to MAX_CELLS pairs,
// past that all removed, then all added.

export const MAX_CELLS = 250000;

function tokens(text) {
  return String(text ?? '').match(/\s+|\S+/g) || [];
}

export function wordDiff(before, after) {
  const from = tokens(before);
  const to = tokens(after);
  let prefix = 0;
  while (prefix < from.length && prefix < to.length && from[prefix] === to[prefix]) prefix++;
  let suffix = 0;
  while (suffix < from.length - prefix && suffix < to.length - prefix
    && from[from.length - 1 - suffix] === to[to.length - 1 - suffix]) suffix++;
  const steps = from.slice(0, prefix).map((text) => ['same', text]);
  middle(from.slice(prefix, from.length - suffix), to.slice(prefix, to.length - suffix), steps);
  steps.push(...from.slice(from.length - suffix).map((text) => ['same', text]));
  const runs = [];
  for (const [type, text] of steps) {
    const last = runs[runs.length - 1];
    if (last && last.type === type) {
      last.text += text;
    } else {
      runs.push({ type, text });
    }
  }
  return runs;
}

// The longest common subsequence of the two middles, removed before added where they alternate.
function middle(from, to, steps) {
  const n = from.length;
  const m = to.length;
  if (n * m > MAX_CELLS) {
    steps.push(...from.map((text) => ['removed', text]), ...to.map((text) => ['added', text]));
    return;
  }
  // common[i * (m + 1) + j]: the length of the longest common subsequence of from[i..] and to[j..].
  const common = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i * (m + 1) + j] = from[i] === to[j] ? common[(i + 1) * (m + 1) + j + 1] + 1
        : Math.max(common[(i + 1) * (m + 1) + j], common[i * (m + 1) + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && from[i] === to[j]) {
      steps.push(['same', from[i]]);
      i++;
      j++;
    } else if (i < n && (j === m || common[(i + 1) * (m + 1) + j] >= common[i * (m + 1) + j + 1])) {
      steps.push(['removed', from[i++]]);
    } else {
      steps.push(['added', to[j++]]);
    }
  }
}
