// The viewport snapshot's byte budget: long runs of one role cut with a count, then lines.
import { expect, it } from 'vitest';
import { capRuns, fitTree, headWithCount, renderYaml } from '../../src/aria/index.js';
import type { AriaNode } from '../../src/injected/aria-snapshot.js';

const grid = (rows: number): AriaNode[] => [
  {
    role: 'grid',
    name: 'People',
    children: Array.from({ length: rows }, (_, i) => ({
      role: 'row',
      name: `Person ${i} ${'x'.repeat(40)}`,
      ref: `s1e${i + 1}`,
    })),
  },
];

it('cuts a long run of rows to its first few and counts the rest', () => {
  expect(renderYaml(capRuns(grid(6), 3))).toBe(
    [
      '- grid "People":',
      `  - row "Person 0 ${'x'.repeat(40)}" [ref=s1e1]`,
      `  - row "Person 1 ${'x'.repeat(40)}" [ref=s1e2]`,
      `  - row "Person 2 ${'x'.repeat(40)}" [ref=s1e3]`,
      '  - text: \u2026 3 more row (in fullSnapshot)',
    ].join('\n'),
  );
  expect(capRuns(grid(4), 3)).toEqual(grid(4)); // one more is shown rather than counted
});

it('fits a 5,000-row grid in 4 KB and leaves a small tree alone', () => {
  const yaml = renderYaml(fitTree(grid(5000)));
  expect(Buffer.byteLength(yaml)).toBeLessThanOrEqual(4096);
  expect(yaml).toContain('4988 more row');
  expect(fitTree(grid(3))).toEqual(grid(3));
});

it('cuts at a line with a count of what is left out', () => {
  const { text, cut } = headWithCount(Array.from({ length: 100 }, (_, i) => `- text: line ${i}`).join('\n'), 200);
  expect(cut).toBe(true);
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(200);
  expect(text.endsWith('more lines in fullSnapshot')).toBe(true);
});
