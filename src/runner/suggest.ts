// "Did you mean …?" for unknown step names, keys and values, by edit distance.

import { editDistance } from '../shared/index.js';

const sorted = (s: string): string => [...s].sort().join('');

/**
 * The candidate nearest to `word`, if near enough. Ties on edit distance go to the candidate with
 * the same letters (transposed digits or letters: "iphone-41" → "iphone-14").
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length > 64) return undefined; // nothing is that long; and edit distance is quadratic
  let best: string | undefined;
  let bestScore = Infinity;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    const other = c.toLowerCase();
    const d = editDistance(lower, other);
    const score = d * 100 + editDistance(sorted(lower), sorted(other));
    if (score < bestScore) {
      best = c;
      bestScore = score;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= limit ? best : undefined;
}

export function didYouMean(word: string, candidates: readonly string[]): string {
  const hit = closest(word, candidates);
  return hit ? ` Did you mean "${hit}"?` : '';
}
