// The assembled page runtime is valid, self-contained JavaScript: every name resolves.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { installExpression, runtimeSource, RUNTIME_GLOBAL } from '../../src/injected/runtime.js';
import { readFileSync } from 'node:fs';

describe('page runtime', () => {
  it('assembles into one IIFE exposing every page function', () => {
    const rt = runInNewContext(runtimeSource(), {}) as Record<string, unknown>;
    for (const name of ['pageContext', 'selectorFor', 'isVisible', 'waitForCondition', 'elementBox', 'serializeValue'])
      expect(typeof rt[name]).toBe('function');
  });

  it('has no two page functions with the same name', async () => {
    const mods = await Promise.all(['dom-describe', 'element-box', 'page-context', 'serialize', 'wait-condition', 'aria-role', 'aria-name', 'aria-snapshot', 'ref-map', 'ref-box', 'element-query', 'element-search']
      .map((f) => import(`../../src/injected/${f}.ts`)));
    const names = mods.flatMap((m) => Object.keys(m).filter((k) => typeof m[k] === 'function'));
    expect(names.length).toBe(new Set(names).size);
  });

  it('runs serializeValue inside the assembled scope', () => {
    const rt = runInNewContext(runtimeSource(), {}) as { serializeValue: (v: unknown) => unknown };
    expect(rt.serializeValue({ a: [1, NaN] })).toMatchObject({ type: 'object', value: { a: { type: 'array' } } });
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
