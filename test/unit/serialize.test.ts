import { describe, it, expect } from 'vitest';
import { serializeValue } from '../../src/injected/serialize.js';

// DECISIONS "Values": `{type, value}` at the top, plain JSON inside, tags only where JSON cannot
// carry the value. DOM branches (elements, node lists, documents) are covered in Chromium by
// test/integration/page-function.test.ts.

describe('serializeValue: the top level', () => {
  it('keeps {type, value} for JSON values', () => {
    expect(serializeValue(null)).toEqual({ type: 'null', value: null });
    expect(serializeValue(true)).toEqual({ type: 'boolean', value: true });
    expect(serializeValue('hi')).toEqual({ type: 'string', value: 'hi' });
    expect(serializeValue(42)).toEqual({ type: 'number', value: 42 });
    expect(serializeValue([1, 'a'])).toEqual({ type: 'array', value: [1, 'a'] });
    expect(serializeValue({ a: 1 })).toEqual({ type: 'object', value: { a: 1 } });
  });

  it('gives a special value at the top as its tag with "type"', () => {
    expect(serializeValue(undefined)).toEqual({ type: 'undefined' });
    expect(serializeValue(NaN)).toEqual({ type: 'number', value: 'NaN' });
    expect(serializeValue(-0)).toEqual({ type: 'number', value: '-0' });
    expect(serializeValue(-Infinity)).toEqual({ type: 'number', value: '-Infinity' });
    expect(serializeValue(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)))).toEqual({
      type: 'date',
      value: '2024-01-02T03:04:05.006Z',
    });
    expect(serializeValue(12345678901234567890n)).toEqual({ type: 'bigint', value: '12345678901234567890' });
    expect(serializeValue(/a+b/gi)).toEqual({ type: 'regexp', value: '/a+b/gi' });
    expect(serializeValue(new Map([['k', 1]]))).toEqual({ type: 'map', size: 1, entries: [['k', 1]] });
  });
});

describe('serializeValue: plain JSON inside', () => {
  it('returns nested JSON values as they are', () => {
    const data = { name: 'x', tags: ['a', 'b'], n: 1.5, ok: false, none: null, deep: { list: [{ id: 1 }] } };
    expect(serializeValue(data)).toEqual({ type: 'object', value: data });
  });

  it('tags only the values JSON cannot carry, where they occur', () => {
    const out = serializeValue({
      n: NaN,
      inf: Infinity,
      u: undefined,
      d: new Date(0),
      s: new Set(['a']),
      e: 2n,
      list: [1, undefined],
    });
    expect(out).toEqual({
      type: 'object',
      value: {
        n: { $type: 'number', value: 'NaN' },
        inf: { $type: 'number', value: 'Infinity' },
        u: { $type: 'undefined' },
        d: { $type: 'date', value: '1970-01-01T00:00:00.000Z' },
        s: { $type: 'set', size: 1, values: ['a'] },
        e: { $type: 'bigint', value: '2' },
        list: [1, { $type: 'undefined' }],
      },
    });
  });

  it('gives errors their name and message, the stack only at the top', () => {
    const err = new TypeError('bad thing');
    err.stack = `TypeError: bad thing\n${'    at somewhere (file.js:1:1)\n'.repeat(40)}`;
    const top = serializeValue(err);
    expect(top).toMatchObject({ type: 'error', name: 'TypeError', message: 'bad thing' });
    expect(top.stack).toHaveLength(500);
    expect(serializeValue({ err })).toEqual({
      type: 'object',
      value: { err: { $type: 'error', name: 'TypeError', message: 'bad thing' } },
    });
  });

  it('gives functions as their source, cut to 200 characters', () => {
    const long = new Function(`return ${'1 + '.repeat(200)}1;`);
    const out = serializeValue({ f: long }).value as { f: { $type: string; value: string } };
    expect(out.f.$type).toBe('function');
    expect(out.f.value).toHaveLength(200);
    expect(String(long).startsWith(out.f.value.slice(0, -1))).toBe(true);
  });

  it('does not take a look-alike for a Map, Set or Date', () => {
    expect(serializeValue({ [Symbol.toStringTag]: 'Map', size: 3 })).toEqual({ type: 'object', value: { size: 3 } });
    expect(serializeValue({ [Symbol.toStringTag]: 'Date' })).toEqual({ type: 'object', value: {} });
  });

  it('gives typed arrays as arrays of numbers', () => {
    expect(serializeValue(new Uint8Array([1, 2]))).toEqual({ type: 'array', value: [1, 2] });
  });

  it('spoils only the slot of a getter that throws', () => {
    const obj = {
      ok: 1,
      get bad(): number {
        throw new RangeError('no');
      },
    };
    expect(serializeValue(obj)).toEqual({
      type: 'object',
      value: { ok: 1, bad: { $type: 'unserializable', value: 'RangeError: no' } },
    });
  });

  it('reports a revoked proxy as unserializable instead of throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(serializeValue(proxy)).toMatchObject({ type: 'unserializable' });
  });

  it('keeps a "__proto__" key as a key', () => {
    const out = serializeValue(JSON.parse('{"__proto__": 1}')).value as object;
    expect(Object.getOwnPropertyNames(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('serializeValue: caps', () => {
  it('cuts arrays at 100 items and counts the rest', () => {
    const out = serializeValue(Array.from({ length: 250 }, (_, i) => i)).value as unknown[];
    expect(out).toHaveLength(101);
    expect(out[99]).toBe(99);
    expect(out[100]).toEqual({ $truncated: 150 });
    expect(serializeValue(new Array(100).fill(0)).value).toHaveLength(100);
  });

  it('cuts objects at 50 keys and counts the rest', () => {
    const big = Object.fromEntries(Array.from({ length: 75 }, (_, i) => [`k${i}`, i]));
    const out = serializeValue(big).value as Record<string, unknown>;
    expect(Object.keys(out)).toHaveLength(51);
    expect(out.k49).toBe(49);
    expect(out.$truncated).toBe(25);
  });

  it('cuts maps and sets at 50 entries, keeping their size', () => {
    const map = serializeValue(new Map(Array.from({ length: 60 }, (_, i) => [i, i] as const)));
    expect(map.size).toBe(60);
    expect(map.entries).toHaveLength(50);
    const set = serializeValue(new Set(Array.from({ length: 60 }, (_, i) => i)));
    expect(set.values).toHaveLength(50);
  });

  it('caps strings: 2,000 characters inside a value, 50,000 at the top', () => {
    const inner = (serializeValue({ s: 'x'.repeat(2_500) }).value as { s: string }).s;
    expect(inner).toBe(`${'x'.repeat(2_000)}…[+500 chars]`);
    expect(serializeValue('y'.repeat(50_000)).value).toHaveLength(50_000);
    expect(serializeValue('y'.repeat(50_010))).toEqual({
      type: 'string',
      value: `${'y'.repeat(50_000)}…`,
      length: 50_010,
      truncated: true,
    });
  });

  it('stops after 5,000 values in all', () => {
    const wide = Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, i) => i));
    const out = serializeValue(wide).value as unknown[][];
    expect(JSON.stringify(out)).toContain('{"$type":"truncated"}');
    expect(out[0]).toHaveLength(100);
  });
});

describe('serializeValue: cycles and depth', () => {
  it('marks a container met inside itself as circular', () => {
    const obj: Record<string, unknown> = { name: 'root' };
    obj.self = obj;
    expect(serializeValue(obj)).toEqual({ type: 'object', value: { name: 'root', self: { $type: 'circular' } } });
    const map = new Map<string, unknown>();
    map.set('me', map);
    expect(serializeValue(map)).toEqual({ type: 'map', size: 1, entries: [['me', { $type: 'circular' }]] });
  });

  it('serializes a value shared by siblings twice, since that is not a cycle', () => {
    const shared = { x: 1 };
    expect(serializeValue([shared, shared])).toEqual({ type: 'array', value: [{ x: 1 }, { x: 1 }] });
  });

  it('stops at depth 6 by default and names what it did not expand', () => {
    const nested = { l1: { l2: { l3: { l4: { l5: { l6: { l7: 1 } } } } } } };
    expect(JSON.stringify(serializeValue(nested).value)).toBe(
      '{"l1":{"l2":{"l3":{"l4":{"l5":{"l6":{"$type":"maxDepth","kind":"object"}}}}}}}',
    );
    expect(serializeValue({ m: new Map(), d: new Date(0) }, 1)).toEqual({
      type: 'object',
      value: { m: { $type: 'maxDepth', kind: 'map' }, d: { $type: 'date', value: '1970-01-01T00:00:00.000Z' } },
    });
  });

  it('returns JSON that survives a round trip unchanged', () => {
    const out = serializeValue({ n: [NaN, -0, 1], d: new Date(0), m: new Map([[1, 2]]), f: () => 1, u: undefined });
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });
});
