// Generated hostile commands for the fuzz tests: wrong types for every parameter of every
// registered step, huge strings, deep nesting, unknown keys, unicode and control characters,
// prototype-pollution keys. Deterministic (seeded), so a failure names a reproducible case.
import { allSteps, ParamError } from '../../src/steps/index.js';

/** mulberry32: a tiny seeded PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function nested(depth: number, leaf: unknown, kind: 'array' | 'object'): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** Text that is legal JSON for a value nested `depth` deep (too deep for a recursive walker). */
export function deepJsonText(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('') + '\u007f\u2028\u2029\ufeff';

/** Values of every JSON type and shape, most of them wrong wherever they are put. */
export function hostileValues(): unknown[] {
  return [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    '',
    ' ',
    'x',
    '0',
    'true',
    'null',
    [],
    [null],
    [1, 'a'],
    {},
    { '': '' },
    { __proto__: null },
    'x'.repeat(100_000),
    '💥'.repeat(5_000),
    CONTROL,
    'e\u0301\u200d\ud83d',
    '\ud800',
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    'javascript:alert(1)',
    '${process.exit(1)}',
    '\\u0000',
    nested(2_000, 1, 'array'),
    nested(2_000, 'x', 'object'),
    JSON.parse('{"__proto__":{"polluted":1}}'),
    JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'),
    { prototype: { polluted: 1 } },
    { toString: 1, valueOf: 'x', hasOwnProperty: null },
  ];
}

/** The keys a step's object form accepts, read from its own "unknown key" error. */
export function paramKeys(parse: (v: unknown) => unknown): string[] {
  try {
    parse({ '\u0000fuzz-unknown-key': 1 });
  } catch (err) {
    if (err instanceof ParamError && err.knownKeys) return [...err.knownKeys];
  }
  return [];
}

export interface FuzzCase {
  name: string;
  input: unknown;
}

/** Every registered step, with each hostile value as its whole parameter and as each of its keys. */
export function stepCases(): FuzzCase[] {
  const values = hostileValues();
  const cases: FuzzCase[] = [];
  for (const step of allSteps()) {
    values.forEach((v, i) =>
      cases.push({ name: `${step.name}=value#${i}`, input: { tab: 't1', steps: [{ [step.name]: v }] } }),
    );
    for (const key of paramKeys((v) => step.parse(v))) {
      values.forEach((v, i) =>
        cases.push({
          name: `${step.name}.${key}=value#${i}`,
          input: { tab: 't1', steps: [{ [step.name]: { [key]: v } }] },
        }),
      );
    }
    for (const key of ['__proto__', 'constructor', 'prototype', 'toString', '']) {
      cases.push({
        name: `${step.name}.${key || 'empty-key'}`,
        input: { tab: 't1', steps: [JSON.parse(`{"${step.name}":{"${key}":{"polluted":1}}}`)] },
      });
    }
  }
  return cases;
}

/** Top-level and step-level shapes: wrong types for tab/timeout/steps/stopOnError/optional, odd keys. */
export function shapeCases(): FuzzCase[] {
  const values = hostileValues();
  const cases: FuzzCase[] = [];
  for (const [i, v] of values.entries()) {
    cases.push({ name: `root=value#${i}`, input: v });
    for (const key of ['tab', 'timeout', 'steps', 'stopOnError', 'config', '__proto__', 'constructor', 'Steps', '💥']) {
      cases.push({ name: `root.${key}=value#${i}`, input: { steps: [{ listTabs: true }], [key]: v } });
    }
    for (const key of ['optional', 'timeout', '__proto__', 'constructor', 'hasOwnProperty']) {
      cases.push({ name: `step.${key}=value#${i}`, input: { steps: [{ listTabs: true, [key]: v }] } });
    }
    cases.push({ name: `steps[]=value#${i}`, input: { steps: [v] } });
  }
  const huge = 'k'.repeat(100_000);
  cases.push({ name: 'huge root key', input: { steps: [{ listTabs: true }], [huge]: 1 } });
  cases.push({ name: 'huge step key', input: { steps: [{ [huge]: true }] } });
  cases.push({ name: 'huge param key', input: { steps: [{ listTabs: { [huge]: 1 } }] } });
  cases.push({ name: 'many steps', input: { tab: 't1', steps: Array.from({ length: 5_000 }, () => ({ wait: 'x' })) } });
  return cases;
}

/** Random mixtures: several steps, random keys drawn from all steps, random hostile values. */
export function randomCases(count: number, seed: number): FuzzCase[] {
  const next = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const steps = allSteps();
  const keys = [...new Set(steps.flatMap((s) => paramKeys((v) => s.parse(v)))), '__proto__', 'constructor', 'zzz'];
  const values = hostileValues().filter((v) => typeof v !== 'string' || v.length < 1_000); // keep it quick
  const cases: FuzzCase[] = [];
  for (let n = 0; n < count; n++) {
    const stepCount = 1 + Math.floor(next() * 3);
    const list = Array.from({ length: stepCount }, () => {
      const params: Record<string, unknown> = {};
      for (let k = Math.floor(next() * 4); k > 0; k--) params[pick(keys)] = pick(values);
      return {
        [pick(steps).name]: next() < 0.3 ? pick(values) : params,
        ...(next() < 0.2 ? { optional: pick(values) } : {}),
      };
    });
    cases.push({ name: `random#${n} (seed ${seed})`, input: { ...(next() < 0.8 ? { tab: 't1' } : {}), steps: list } });
  }
  return cases;
}

/** Raw texts that are not JSON, or JSON an ordinary parser or printer chokes on. */
export function textCases(): { name: string; text: string }[] {
  return [
    { name: 'empty', text: '' },
    { name: 'whitespace', text: ' \n\t ' },
    { name: 'truncated', text: '{"steps":[{"goto":"https://exa' },
    { name: 'single quotes', text: "{'steps':[]}" },
    { name: 'trailing comma', text: '{"steps":[{"wait":1},]}' },
    { name: 'nul bytes', text: '{"steps":\u0000[]}' },
    { name: 'lone surrogate', text: '{"steps":[{"goto":"\ud800"}]}' },
    { name: 'deep array', text: deepJsonText(50_000) },
    { name: 'deep steps', text: `{"steps":[{"goto":${deepJsonText(50_000)}}]}` },
    { name: 'number', text: '42' },
    { name: 'string', text: '"steps"' },
    { name: 'bare words', text: 'goto example.com' },
  ];
}
