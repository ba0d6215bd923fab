// SKILL.md stays small, and its step list is what the registry generates (npm run docs writes it).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { stepNames, stepTable } from '../../src/steps/index.js';

const skill = readFileSync(new URL('../../SKILL.md', import.meta.url), 'utf8');

it('keeps SKILL.md under 8 KB', () => {
  expect(Buffer.byteLength(skill)).toBeLessThan(8 * 1024);
});

it('has the step list the registry generates (run npm run docs after changing a step)', () => {
  const list = skill.slice(skill.indexOf('<!-- steps:start -->\n') + 21, skill.indexOf('\n<!-- steps:end -->'));
  expect(list).toBe(stepTable());
  const documented = [...list.matchAll(/^- `(\w+)` /gm)].map((m) => m[1]);
  expect(documented.sort()).toEqual(stepNames().sort());
});
