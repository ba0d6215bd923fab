// The page runtime bundled from src/injected/index.ts (page/runtime-source.ts): one self-contained
// expression, namespaced by module as index.ts's header says, installed once per world.
import { readdirSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { installExpression, runtimeSource, RUNTIME_GLOBAL } from '../../src/page/runtime-source.js';
import type { PageRuntime } from '../../src/injected/index.js';
import { refsNamedIn } from '../../src/page/agent-refs.js';
import { MAX_STRING_CHARS } from '../../src/shared/index.js';

const camel = (file: string): string => file.replace(/\.ts$/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe('page runtime', () => {
  it('exposes every page module under the camelCase of its file name', () => {
    const rt = runInNewContext(runtimeSource(), {}) as Record<string, Record<string, unknown>>;
    const files = readdirSync(new URL('../../src/injected/', import.meta.url)).filter(
      (f) => f.endsWith('.ts') && f !== 'index.ts',
    );
    expect(Object.keys(rt).sort()).toEqual(files.map(camel).sort());
    expect(typeof rt.ariaSnapshot!.ariaSnapshot).toBe('function');
    expect(typeof rt.refMap!.resolveRef).toBe('function');
  });

  it('runs module code that calls across modules inside the bundle', () => {
    const rt = runInNewContext(runtimeSource(), {}) as PageRuntime;
    expect(rt.serialize.serializeValue({ a: [1, NaN] })).toMatchObject({ type: 'object' });
    // shared/ is bundled in: the serializer cuts a long string at the shared cap.
    const long = rt.serialize.serializeValue('x'.repeat(MAX_STRING_CHARS + 5)) as { length?: number; value: string };
    expect([long.length, long.value.length]).toEqual([MAX_STRING_CHARS + 5, MAX_STRING_CHARS + 1]);
  });

  it('is strict code, minified, and pure ASCII', () => {
    const source = runtimeSource();
    expect(source.startsWith('(()=>{"use strict";return ')).toBe(true);
    expect(source).not.toMatch(/[^\x00-\x7f]/);
    expect(source.length).toBeLessThan(runtimeSource(false).length * 0.7);
  });

  it('answers values as agents read them: plain JSON, tags only where JSON cannot carry a value', () => {
    const rt = runInNewContext(runtimeSource(), {}) as PageRuntime;
    expect(rt.serialize.serializeValue({ a: [1, NaN] })).toEqual({
      type: 'object',
      value: { a: [1, { $type: 'number', value: 'NaN' }] },
    });
  });

  it('installs once under the versioned global', () => {
    const sandbox: Record<string, unknown> = {};
    sandbox.globalThis = sandbox;
    const first = runInNewContext(installExpression(), sandbox);
    const second = runInNewContext(installExpression(), sandbox);
    expect(first).toBe(second);
    expect(sandbox[RUNTIME_GLOBAL]).toBe(first);
    expect(RUNTIME_GLOBAL).toBe('__cdpSkill_dev');
  });

  it('installs a working runtime where the page made the global unwritable junk (and ignores a junk value)', () => {
    const sandbox: Record<string, unknown> = {};
    sandbox.globalThis = sandbox;
    Object.defineProperty(sandbox, RUNTIME_GLOBAL, { value: 'junk', writable: false, configurable: false });
    const rt = runInNewContext(installExpression(), sandbox) as PageRuntime;
    expect(typeof rt.serialize.serializeValue).toBe('function');
    expect(sandbox[RUNTIME_GLOBAL]).toBe('junk');
    const other: Record<string, unknown> = { [RUNTIME_GLOBAL]: { serialize: 'forged' } };
    other.globalThis = other;
    expect(typeof (runInNewContext(installExpression(), other) as PageRuntime).serialize.serializeValue).toBe(
      'function',
    );
  });
});

describe("refs named in agents' code", () => {
  it('finds each ref-like name once, and nothing inside longer words', () => {
    expect(refsNamedIn("(refs) => [refs.get('s1e4'), refs.s2e10, refs.get('s1e4'), 'xs1e4', 's1e4x']")).toEqual([
      's1e4',
      's2e10',
    ]);
    expect(refsNamedIn('() => document.title')).toEqual([]);
  });
});
