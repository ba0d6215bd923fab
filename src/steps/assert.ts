// The assert step (SPEC §11.13, DECISIONS): URL checks {url: {contains|equals|startsWith|endsWith|
// matches}} and the shorthands urlContains / urlMatches, text checks {text, selector, caseSensitive},
// or an array of them. All checks run; any failure is an AssertionError listing expected vs actual.

import { AssertionError } from '../common/index.js';
import type { TextCheck } from '../injected/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, optString, ParamError, type Obj } from './params.js';

const URL_OPS = ['contains', 'equals', 'startsWith', 'endsWith', 'matches'] as const;
type UrlOp = (typeof URL_OPS)[number];
type Check = { kind: 'url'; op: UrlOp; expected: string } | ({ kind: 'text' } & TextCheck);
interface Outcome {
  type: string;
  expected: string;
  passed: boolean;
  actual?: string;
  selector?: string;
}

function regex(source: string, key: string): RegExp {
  try {
    return new RegExp(source);
  } catch (err) {
    throw new ParamError(`"${key}" is not a valid regular expression: ${(err as Error).message}`);
  }
}

function urlChecks(o: Obj): Check[] {
  const out: Check[] = [];
  if (o.url !== undefined) {
    if (typeof o.url === 'string') {
      out.push({ kind: 'url', op: 'contains', expected: optString(o, 'url')! });
    } else {
      const u = obj(o.url, URL_OPS, 'url');
      const ops = URL_OPS.filter((op) => u[op] !== undefined);
      if (!ops.length) throw new ParamError(`"url" needs one of ${URL_OPS.join(', ')}`);
      for (const op of ops) {
        const expected = optString(u, op, { nonEmpty: op !== 'equals' })!;
        if (op === 'matches') regex(expected, 'url.matches');
        out.push({ kind: 'url', op, expected });
      }
    }
  }
  const contains = optString(o, 'urlContains');
  if (contains !== undefined) out.push({ kind: 'url', op: 'contains', expected: contains });
  const matches = optString(o, 'urlMatches');
  if (matches !== undefined) {
    regex(matches, 'urlMatches');
    out.push({ kind: 'url', op: 'matches', expected: matches });
  }
  return out;
}

function readChecks(v: unknown): Check[] {
  if (!isObj(v))
    throw new ParamError(
      `an assertion is {url: {contains|equals|startsWith|endsWith|matches}}, {urlContains}, {urlMatches} or {text, selector, caseSensitive}; got ${describe(v)}`,
    );
  const o = obj(v, keysOf(ASSERT_PARAMS), 'assert');
  const checks = urlChecks(o);
  const text = optString(o, 'text');
  if (text !== undefined) {
    const selector = optString(o, 'selector')?.trim();
    checks.push({
      kind: 'text',
      expected: text,
      ...(selector ? { selector } : {}),
      caseSensitive: optBool(o, 'caseSensitive') ?? true,
    });
  } else if (o.selector !== undefined || o.caseSensitive !== undefined) {
    throw new ParamError('"selector" and "caseSensitive" go with "text"');
  }
  if (!checks.length) throw new ParamError('assert needs "url", "urlContains", "urlMatches" or "text"');
  return checks;
}

function urlPasses(op: UrlOp, actual: string, expected: string): boolean {
  switch (op) {
    case 'contains':
      return actual.includes(expected);
    case 'equals':
      return actual === expected;
    case 'startsWith':
      return actual.startsWith(expected);
    case 'endsWith':
      return actual.endsWith(expected);
    default:
      return new RegExp(expected).test(actual);
  }
}

function failureLine(o: Outcome): string {
  const what =
    o.type === 'text'
      ? `text "${o.expected}" in ${o.selector ?? 'body'}`
      : `${o.type.replace('.', ' ')} "${o.expected}"`;
  return `${what} — actual: ${o.actual === undefined ? '(none)' : JSON.stringify(o.actual)}`;
}

const ASSERT_PARAMS: ParamSchema = {
  forms: ['[…]'],
  keys: {
    url: '{contains|equals|matches…}',
    urlContains: '-',
    urlMatches: '-',
    text: '',
    selector: '',
    caseSensitive: '-',
  },
};

defineStep<Check[]>({
  name: 'assert',
  summary: 'Check the page',
  params: ASSERT_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (Array.isArray(v)) {
      if (!v.length) throw new ParamError('assert needs at least one assertion');
      return v.flatMap(readChecks);
    }
    return readChecks(v);
  },
  async run(ctx, checks) {
    const tab = ctx.command.requireTab();
    const texts = checks.filter((c): c is Check & { kind: 'text' } => c.kind === 'text').map(({ kind, ...t }) => t);
    const textResults = texts.length
      ? await ctx.scope.call((rt, t) => rt.observe.checkTexts(t), texts, {
          deadline: ctx.deadline,
          what: 'the text assertions',
        })
      : [];
    const url = tab.page.lifecycle.url;
    let t = 0;
    const outcomes: Outcome[] = checks.map((c) => {
      if (c.kind === 'url') {
        const passed = urlPasses(c.op, url, c.expected);
        return { type: `url.${c.op}`, expected: c.expected, actual: url, passed };
      }
      const r = textResults[t++]!;
      return {
        type: 'text',
        expected: c.expected,
        ...(c.selector ? { selector: c.selector } : {}),
        passed: r.passed,
        ...(r.passed ? {} : { actual: r.error ?? r.actual }),
      };
    });
    const failed = outcomes.filter((o) => !o.passed);
    if (failed.length) {
      throw new AssertionError(
        `${failed.length} of ${outcomes.length} assertion${outcomes.length > 1 ? 's' : ''} failed: ${failed.map(failureLine).join('; ')}`,
        { assertions: outcomes },
      );
    }
    return { passed: true, assertions: outcomes };
  },
});
