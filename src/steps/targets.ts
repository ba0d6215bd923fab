// Reading a step's target (SPEC §6): a string (a ref like s1e4, else CSS), or an object with
// exactly one of selector / ref / text / label / selectors / x+y, plus the options every
// interaction shares (withinSelector, exact, force, timeout, stable).

import type { TargetOptions, TargetSpec } from '../dom/index.js';
import { describe, optBool, optNumber, optString, ParamError, type Obj } from './params.js';
import { REF_SOURCE } from '../shared/index.js';

/** A ref: `s1e4`, or a cross-origin frame's `f2s1e4` (aria/frames.ts). */
export const REF_PATTERN = new RegExp(`^(f\\d+)?${REF_SOURCE}$`);
export const TARGET_KEYS = [
  'selector',
  'ref',
  'text',
  'label',
  'selectors',
  'x',
  'y',
  'exact',
  'withinSelector',
] as const;
/** The keys that name a target (x stands for x+y); the others refine it. */
export const NAMING_KEYS = ['selector', 'ref', 'text', 'label', 'selectors', 'x'] as const;

/** A string means a ref when it looks like one, else a CSS selector. */
export function stringTarget(s: string, key: string): TargetSpec {
  const t = s.trim();
  if (!t) throw new ParamError(`"${key}" must not be empty`);
  return REF_PATTERN.test(t) ? { by: 'ref', ref: t } : { by: 'css', selector: t };
}

export function hasTarget(o: Obj, allowed: readonly string[] = TARGET_KEYS): boolean {
  return NAMING_KEYS.some((k) => allowed.includes(k) && o[k] !== undefined);
}

/** The one target an object names; `allowed` limits the forms a step accepts. */
export function objectTarget(o: Obj, what: string, allowed: readonly string[] = TARGET_KEYS): TargetSpec {
  const forms = NAMING_KEYS.filter((k) => allowed.includes(k) && o[k] !== undefined);
  const accepted = NAMING_KEYS.filter((k) => allowed.includes(k)).map((k) => (k === 'x' ? 'x+y' : k));
  if (forms.length !== 1) {
    throw new ParamError(
      `${what} needs exactly one target: ${accepted.join(' | ')}${forms.length ? ` (got ${forms.join(' and ')})` : ''}`,
    );
  }
  const exact = optBool(o, 'exact');
  switch (forms[0]) {
    case 'selector':
      return stringTarget(optString(o, 'selector')!, 'selector');
    case 'ref': {
      const ref = optString(o, 'ref')!.trim();
      if (!REF_PATTERN.test(ref)) throw new ParamError(`"ref" looks like "s1e4", got ${describe(ref)}`);
      return { by: 'ref', ref };
    }
    case 'text':
      return { by: 'text', text: optString(o, 'text')!, ...(exact ? { exact } : {}) };
    case 'label':
      return { by: 'label', label: optString(o, 'label')!, ...(exact ? { exact } : {}) };
    case 'selectors': {
      const list = o.selectors;
      if (!Array.isArray(list) || !list.length || list.some((s) => typeof s !== 'string' || !s.trim())) {
        throw new ParamError(`"selectors" must be a non-empty array of CSS selectors, got ${describe(list)}`);
      }
      return { by: 'selectors', selectors: list as string[] };
    }
    default: {
      const x = optNumber(o, 'x', { min: 0 });
      const y = optNumber(o, 'y', { min: 0 });
      if (x === undefined || y === undefined) throw new ParamError('coordinates need both "x" and "y"');
      return { by: 'coords', x, y };
    }
  }
}

/** withinSelector, force, timeout (actionability), stable. */
export function actionOptions(o: Obj): TargetOptions {
  const within = optString(o, 'withinSelector');
  const force = optBool(o, 'force');
  const timeoutMs = optNumber(o, 'timeout', { min: 0, max: 300_000 });
  const stable = optBool(o, 'stable');
  return {
    ...(within ? { within } : {}),
    ...(force ? { force } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(stable ? { stable } : {}),
  };
}
