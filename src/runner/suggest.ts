// "Did you mean …?" for unknown step names, keys and values, by edit distance.

import levenshtein from 'fast-levenshtein';

export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    const d = levenshtein.get(lower, c.toLowerCase());
    if (d < bestDistance) { best = c; bestDistance = d; }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= limit ? best : undefined;
}

export function didYouMean(word: string, candidates: readonly string[]): string {
  const hit = closest(word, candidates);
  return hit ? ` Did you mean "${hit}"?` : '';
}
