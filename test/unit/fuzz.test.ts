// Fuzz of the validation entry point, in-process: thousands of generated hostile commands must
// each end in a PARSE or VALIDATION error that names the problem (or pass as a valid command),
// never another error, a stack trace, a hang, or a polluted prototype.
import { describe, expect, it } from 'vitest';
import { ParseError, ValidationError } from '../../src/common/index.js';
import { parseJson, validateCommand } from '../../src/runner/index.js';
import { randomCases, shapeCases, stepCases, textCases, type FuzzCase } from '../fuzz/cases.js';

/** Slowest a single case may take (a loaded CI machine included): validation never stalls on any input. */
const CASE_BUDGET_MS = 1_500;

async function check(c: FuzzCase): Promise<string | undefined> {
  const started = Date.now();
  try {
    await validateCommand(c.input);
  } catch (err) {
    if (!(err instanceof ParseError || err instanceof ValidationError))
      return `${c.name}: ${(err as Error)?.constructor?.name} ${String(err)}`;
    if (!err.message || /\n\s+at /.test(err.message)) return `${c.name}: message "${err.message}"`;
    if (err.message.length > 2_000) return `${c.name}: message of ${err.message.length} characters`;
  }
  const ms = Date.now() - started;
  return ms > CASE_BUDGET_MS ? `${c.name}: took ${ms}ms` : undefined;
}

async function run(cases: FuzzCase[]): Promise<void> {
  const failures: string[] = [];
  for (const c of cases) {
    const f = await check(c);
    if (f) failures.push(f);
  }
  expect(failures.slice(0, 20)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
}

describe('fuzz: validation', () => {
  it('rejects wrong types for every parameter of every registered step', async () => {
    const cases = stepCases();
    expect(cases.length).toBeGreaterThan(2_000);
    await run(cases);
  }, 30_000);

  it('rejects malformed top-level and step shapes', async () => {
    await run(shapeCases());
  }, 30_000);

  it('rejects random mixtures of steps, keys and values', async () => {
    await run(randomCases(1_500, 8));
  }, 30_000);

  it('answers PARSE or VALIDATION for text that is not a JSON command', async () => {
    for (const { name, text } of textCases()) {
      const err = await Promise.resolve()
        .then(() => validateCommand(parseJson(text)))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err instanceof ParseError || err instanceof ValidationError, `${name}: ${String(err)}`).toBe(true);
    }
  });
});
