// SKILL.md stays small and lists exactly the registered steps.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { stepNames } from '../../src/steps/index.js';

const skill = readFileSync(new URL('../../SKILL.md', import.meta.url), 'utf8');

it('keeps SKILL.md under 8 KB', () => {
  expect(Buffer.byteLength(skill)).toBeLessThan(8 * 1024);
});

it('documents every registered step in its reference table, and no other', () => {
  const table = skill.slice(skill.indexOf('## Steps'), skill.indexOf('## Tips'));
  // A row names one step or several: | `a` / `b` / `c` | …
  const documented = [...table.matchAll(/^\| (`\w+`(?: \/ `\w+`)*) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`(\w+)`/g)].map((n) => n[1]!));
  expect(documented.sort()).toEqual(stepNames().sort());
});
