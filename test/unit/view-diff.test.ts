// Page-side pure helpers of the view diff: which siblings moved (the longest run kept in order stayed).
import { expect, it } from 'vitest';
import { longestIncreasing } from '../../src/injected/view-diff.js';

it('keeps the longest increasing run and names the rest as moved', () => {
  expect([...longestIncreasing([0, 1, 2, 3])].sort()).toEqual([0, 1, 2, 3]);
  // B1 dragged from 1st to 3rd: order now B2, B3, B1, B4 → old positions 1, 2, 0, 3.
  expect([...longestIncreasing([1, 2, 0, 3])].sort()).toEqual([0, 1, 3]);
  // The last item moved to the front: only it moved.
  expect([...longestIncreasing([5, 0, 1, 2, 3, 4])].sort()).toEqual([1, 2, 3, 4, 5]);
  expect(longestIncreasing([]).size).toBe(0);
});
