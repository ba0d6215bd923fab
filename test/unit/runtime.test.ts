// The page runtime bundled from src/injected/index.ts (page/runtime-source.ts): one self-contained
// expression, namespaced by module as index.ts's header says, installed once per world.
import { readdirSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { installExpression, runtimeSource, RUNTIME_GLOBAL } from '../../src/page/runtime-source.js';
import type { PageRuntime } from '../../src/injected/index.js';
import { refsNamedIn } from '../../src/page/agent-refs.js';
import { MAX_STRING_CHARS } from '../../src/shared/index.js';

const camel = (file: string): string => file.replace(/\.ts$/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** Files of a folder and its subfolders, as text. */
function sources(dir: URL): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(new URL(`${e.name}/`, dir))
      : e.name.endsWith('.ts')
        ? [readFileSync(new URL(e.name, dir), 'utf8')]
        : [],
  );
}

/** Every `module.function` of the runtime the Node side calls: `rt.x.y` in page calls, `…?.x.y(` in built expressions, `PageRuntime['x']['y']` in types. */
function runtimeCallsOfNodeSide(): Map<string, Set<string>> {
  const src = new URL('../../src/', import.meta.url);
  const text = readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'injected')
    .flatMap((e) => sources(new URL(`${e.name}/`, src)))
    .join('\n')
    .replace(/^\s*(\/\/|\/\*|\*).*$/gm, ''); // comments name calls as examples (`rt.module.fn`)
  const calls = new Map<string, Set<string>>();
  for (const m of text.matchAll(/\brt\??\.(\w+)\.(\w+)|\}\??\.(\w+)\.(\w+)\(|PageRuntime\['(\w+)'\]\['(\w+)'\]/g)) {
    const [ns, fn] = [m[1] ?? m[3] ?? m[5], m[2] ?? m[4] ?? m[6]] as [string, string];
    calls.set(ns, (calls.get(ns) ?? new Set()).add(fn));
  }
  return calls;
}

describe('page runtime', () => {
  it('exposes the modules the Node side calls, each under the camelCase of its file name, with every function it calls', () => {
    const rt = runInNewContext(runtimeSource(), {}) as Record<string, Record<string, unknown>>;
    const files = readdirSync(new URL('../../src/injected/', import.meta.url)).filter(
      (f) => f.endsWith('.ts') && f !== 'index.ts',
    );
    const calls = runtimeCallsOfNodeSide();
    expect(Object.keys(rt).sort()).toEqual([...calls.keys()].sort());
    for (const ns of Object.keys(rt)) expect(files.map(camel)).toContain(ns);
    const missing = [...calls].flatMap(([ns, fns]) =>
      [...fns].filter((fn) => typeof rt[ns]?.[fn] !== 'function').map((fn) => `${ns}.${fn}`),
    );
    expect(missing).toEqual([]);
    expect(calls.get('refMap')?.has('resolveRef')).toBe(true); // the scan itself finds page calls
  });

  it('runs module code that calls across modules and into shared/ inside the bundle', () => {
    const rt = runInNewContext(runtimeSource(), {}) as PageRuntime;
    // hook-value.ts → serialize.ts → shared/'s cap on a string.
    const long = rt.hookValue.valueAnswer('x'.repeat(MAX_STRING_CHARS + 5)).value as { length?: number; value: string };
    expect([long.length, long.value.length]).toEqual([MAX_STRING_CHARS + 5, MAX_STRING_CHARS + 1]);
  });

  it('keeps its state in one object that lasts across calls in a world, not in globals of that world', () => {
    const native = { alert: () => undefined, confirm: () => true, prompt: () => null };
    const sandbox: Record<string, unknown> = { ...native };
    sandbox.globalThis = sandbox;
    sandbox.window = sandbox;
    const before = Object.getOwnPropertyNames(sandbox);
    const first = runInNewContext(installExpression(), sandbox) as PageRuntime;
    const el = {} as Element;
    const handle = first.locate.holdElement(el);
    first.refMap.syncCounters({ snapshot: 3, element: 7 });
    first.dialogGuard.armDialogGuard({ accept: false });
    (sandbox.confirm as (m: string) => boolean)('Leave?');
    // A later call finds the same runtime, and what the earlier one kept.
    const later = runInNewContext(installExpression(), sandbox) as PageRuntime;
    expect(later.locate.heldElement(handle)).toBe(el);
    expect(later.refMap.syncCounters(undefined)).toEqual({ snapshot: 3, element: 7 });
    expect(later.dialogGuard.takeGuardedDialogs()).toEqual([
      { type: 'confirm', message: 'Leave?', action: 'dismissed' },
    ]);
    expect(sandbox.confirm).toBe(native.confirm);
    // The world gained the runtime and the ref map under the spec's name (window.__ariaRefs), nothing else.
    expect(
      Object.getOwnPropertyNames(sandbox)
        .filter((k) => !before.includes(k))
        .sort(),
    ).toEqual([RUNTIME_GLOBAL, '__ariaRefs'].sort());
  });

  it("undoes a dialog guard it does not hold (another build's, or a runtime installed again)", () => {
    const native = { alert: () => undefined, confirm: () => true, prompt: () => null };
    const sandbox: Record<string, unknown> = { ...native };
    sandbox.globalThis = sandbox;
    sandbox.window = sandbox;
    (runInNewContext(runtimeSource(), sandbox) as PageRuntime).dialogGuard.armDialogGuard(undefined);
    const other = runInNewContext(runtimeSource(), sandbox) as PageRuntime;
    expect(sandbox.alert).not.toBe(native.alert);
    other.dialogGuard.armDialogGuard(undefined);
    expect(other.dialogGuard.takeGuardedDialogs()).toEqual([]);
    expect([sandbox.alert, sandbox.confirm, sandbox.prompt]).toEqual([native.alert, native.confirm, native.prompt]);
  });

  it('is strict code, minified, and pure ASCII', () => {
    const source = runtimeSource();
    expect(source.startsWith('(()=>{"use strict";return ')).toBe(true);
    expect(source).not.toMatch(/[^\x00-\x7f]/);
    expect(source.length).toBeLessThan(runtimeSource(false).length * 0.7);
  });

  it('answers values as agents read them: plain JSON, tags only where JSON cannot carry a value', () => {
    const rt = runInNewContext(runtimeSource(), {}) as PageRuntime;
    expect(rt.hookValue.valueAnswer({ a: [1, NaN] })).toEqual({
      value: { type: 'object', value: { a: [1, { $type: 'number', value: 'NaN' }] } },
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
    expect(typeof rt.hookValue.valueAnswer).toBe('function');
    expect(sandbox[RUNTIME_GLOBAL]).toBe('junk');
    const other: Record<string, unknown> = { [RUNTIME_GLOBAL]: { serialize: 'forged' } };
    other.globalThis = other;
    expect(typeof (runInNewContext(installExpression(), other) as PageRuntime).hookValue.valueAnswer).toBe('function');
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
