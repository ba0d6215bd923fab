// The assembled page runtime is valid, self-contained JavaScript: every name resolves.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { installExpression, runtimeSource, RUNTIME_GLOBAL } from '../../src/injected/runtime.js';
import { readdirSync, readFileSync } from 'node:fs';

/** Every page file: all of src/injected/ but the assembler and its id. */
function pageFiles(): string[] {
  return readdirSync(new URL('../../src/injected/', import.meta.url)).filter((f) => f.endsWith('.ts') && !/^runtime(-id)?\.ts$/.test(f));
}

describe('page runtime', () => {
  it('has no module-level values in page files (only exported functions travel to the page)', () => {
    const offenders = pageFiles().filter((f) => /^(const|let|var|class) /m.test(readFileSync(new URL(`../../src/injected/${f}`, import.meta.url), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('exports every top-level function of the page files', () => {
    const offenders = pageFiles().flatMap((f) => [...readFileSync(new URL(`../../src/injected/${f}`, import.meta.url), 'utf8').matchAll(/^(async )?function (\w+)/gm)].map((m) => `${f}: ${m[2]}`));
    expect(offenders).toEqual([]);
  });

  it('assembles into one IIFE exposing every page function', () => {
    const rt = runInNewContext(runtimeSource(), {}) as Record<string, unknown>;
    for (const name of ['pageContext', 'selectorFor', 'isVisible', 'waitForCondition', 'elementBox', 'serializeValue'])
      expect(typeof rt[name]).toBe('function');
  });

  it('has no two page functions with the same name', async () => {
    const mods = await Promise.all(pageFiles().map((f) => import(`../../src/injected/${f}`)));
    const names = mods.flatMap((m) => Object.keys(m).filter((k) => typeof m[k] === 'function'));
    expect(names.length).toBe(new Set(names).size);
  });

  it('runs serializeValue inside the assembled scope', () => {
    const rt = runInNewContext(runtimeSource(), {}) as { serializeValue: (v: unknown) => unknown };
    expect(rt.serializeValue({ a: [1, NaN] })).toEqual({ type: 'object', value: { a: [1, { $type: 'number', value: 'NaN' }] } });
  });

  it('installs once under the versioned global the Node side expects', () => {
    const sandbox: Record<string, unknown> = {};
    sandbox.globalThis = sandbox;
    const first = runInNewContext(installExpression(), sandbox);
    const second = runInNewContext(installExpression(), sandbox);
    expect(first).toBe(second);
    const evaluateTs = readFileSync(new URL('../../src/page/evaluate.ts', import.meta.url), 'utf8');
    expect(evaluateTs).toContain('const GLOBAL = `__cdpSkill_${RUNTIME_ID}`');
    expect(RUNTIME_GLOBAL).toBe('__cdpSkill_dev');
  });
});
