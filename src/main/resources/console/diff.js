// A difference between two texts by words, as a reader compares two versions: what stayed, what was added, what
// was removed. Words and the spaces between them are the units, so a changed word reads as one word out and one in.
// Bounded work, whatever the texts: the common start and end are set aside first (an edit is usually in one place),
// and the longest common subsequence of what is left is computed only while its table stays under MAX_CELLS; past
// that the middle reads as all removed, then all added, which is still true, only coarser.

export const MAX_CELLS = 250000;

const tokens = (text) => String(text ?? '').split(/(\s+)/).filter((token) => token !== '');

/**
 * @returns {{type: 'same'|'added'|'removed', text: string}[]} in reading order, runs of one type joined
 */
export function wordDiff(before, after) {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts = [];
  const push = (type, text) => {
    const last = parts[parts.length - 1];
    if (last && last.type === type) last.text += text;
    else parts.push({ type, text });
  };
  a.slice(0, start).forEach((token) => push('same', token));
  middle(a.slice(start, endA), b.slice(start, endB), push);
  a.slice(endA).forEach((token) => push('same', token));
  return parts;
}

function middle(a, b, push) {
  if (a.length * b.length > MAX_CELLS) {
    a.forEach((token) => push('removed', token));
    b.forEach((token) => push('added', token));
    return;
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..], one typed row per i.
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i][j] = a[i] === b[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]);
      i++;
      j++;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) {
      push('removed', a[i++]);
    } else {
      push('added', b[j++]);
    }
  }
  while (i < a.length) push('removed', a[i++]);
  while (j < b.length) push('added', b[j++]);
}
