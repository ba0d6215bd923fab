// The step registry is the one description of a step (issue 17): each parser accepts exactly the
// keys its schema lists, and the facts the runner reads are there.
import { describe, expect, it } from 'vitest';
import { allSteps, getStep, keysOf, paramsLine, remedyStep } from '../../src/steps/index.js';
import { ParamError } from '../../src/steps/params.js';

const parseError = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof ParamError ? err.message : `not a ParamError: ${String(err)}`;
  }
};

describe('step schemas', () => {
  const objectSteps = allSteps().filter((d) => d.params.keys && !d.target?.fieldMap);

  it('each parser rejects a key its schema does not list, naming only schema keys as known', () => {
    for (const def of objectSteps) {
      const message = parseError(() => def.parse({ notAKey: 1 }));
      expect(message, def.name).toMatch(/unknown key "notAKey"/);
      const known = /\(known: ([^)]*)\)/.exec(message!)![1]!.split(', ');
      expect(keysOf(def.params), def.name).toEqual(expect.arrayContaining(known));
    }
  });

  it('each parser knows every key its schema lists (in one of its object forms)', () => {
    for (const def of objectSteps) {
      const keys = keysOf(def.params);
      for (const key of keys) {
        const known = keys.some(
          (other) =>
            !(parseError(() => def.parse({ [key]: undefined, [other]: undefined })) ?? '').includes(
              `unknown key "${key}"`,
            ),
        );
        expect(known, `${def.name}.${key}`).toBe(true);
      }
    }
  });

  it('declares the target keys a step takes among its schema keys', () => {
    for (const def of allSteps().filter((d) => d.target)) {
      for (const key of def.target!.keys) expect(keysOf(def.params), `${def.name}: ${key}`).toContain(key);
    }
  });

  it('renders every step with its forms, keys and output', () => {
    expect(paramsLine(getStep('goto')!)).toBe(
      '"url" | {url, waitUntil: commit|domcontentloaded|load|networkidle} → {url, status}',
    );
    expect(paramsLine(getStep('click')!)).toMatch(/^T \| \{…T, selectors: \[…\], x, y, /);
    expect(paramsLine(getStep('click')!, true)).toContain('nativeOnly');
    for (const def of allSteps()) expect(paramsLine(def).length, def.name).toBeGreaterThan(0);
  });

  it("names the step for each remedy once, and the runner's facts are where it looks", () => {
    expect(remedyStep('look')).toEqual({ snapshot: true });
    expect(remedyStep('field:file', { selector: '#f' })).toEqual({
      upload: { selector: '#f', files: ['/path/to/file'] },
    });
    expect(remedyStep('field:unknown')).toBeUndefined();
    expect(
      allSteps()
        .filter((d) => d.landsOnUrl)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['connectTab', 'goto', 'openTab']);
    expect(
      allSteps()
        .filter((d) => d.armsDialog)
        .map((d) => d.name),
    ).toEqual(['dialog']);
    expect(getStep('closeTab')!.mustComeLast?.(getStep('closeTab')!.parse(true))).toBe(true);
    expect(getStep('closeTab')!.mustComeLast?.(getStep('closeTab')!.parse('t2'))).toBe(false);
  });
});
