import { describe, it, expect } from 'vitest';
import * as serialize from '../../src/injected/serialize.js';
import { serializeValue, type SerializedValue } from '../../src/injected/serialize.js';

// DOM branches (Element, NodeList, Document, Window) are covered in Chromium by the integration tests.

describe('serializeValue: primitives', () => {
  it('tags null, undefined, booleans, strings and finite numbers', () => {
    expect(serializeValue(null)).toEqual({ type: 'null', value: null });
    expect(serializeValue(undefined)).toEqual({ type: 'undefined' });
    expect(serializeValue(true)).toEqual({ type: 'boolean', value: true });
    expect(serializeValue(false)).toEqual({ type: 'boolean', value: false });
    expect(serializeValue('hi')).toEqual({ type: 'string', value: 'hi' });
    expect(serializeValue('')).toEqual({ type: 'string', value: '' });
    expect(serializeValue(42)).toEqual({ type: 'number', value: 42 });
    expect(serializeValue(-1.5)).toEqual({ type: 'number', value: -1.5 });
    expect(serializeValue(0)).toEqual({ type: 'number', value: 0 });
  });

  it('spells out the numbers JSON cannot carry', () => {
    expect(serializeValue(NaN)).toEqual({ type: 'number', value: 'NaN' });
    expect(serializeValue(Infinity)).toEqual({ type: 'number', value: 'Infinity' });
    expect(serializeValue(-Infinity)).toEqual({ type: 'number', value: '-Infinity' });
    expect(serializeValue(-0)).toEqual({ type: 'number', value: '-0' });
  });

  it('gives bigints as decimal strings and symbols as their description', () => {
    expect(serializeValue(12345678901234567890n)).toEqual({ type: 'bigint', value: '12345678901234567890' });
    expect(serializeValue(Symbol('token'))).toEqual({ type: 'symbol', value: 'token' });
    expect(serializeValue(Symbol())).toEqual({ type: 'symbol', value: '' });
  });

  it('gives functions as their source, cut to 200 characters', () => {
    const short = function add(a: number, b: number): number { return a + b; };
    expect(serializeValue(short)).toEqual({ type: 'function', value: String(short) });
    const long = new Function(`return ${'1 + '.repeat(200)}1;`);
    const out = serializeValue(long) as { type: string; value: string };
    expect(out.type).toBe('function');
    expect(out.value).toHaveLength(200);
    expect(out.value.endsWith('…')).toBe(true);
    expect(String(long).startsWith(out.value.slice(0, -1))).toBe(true);
  });
});

describe('serializeValue: built-in objects', () => {
  it('gives dates as ISO string and timestamp', () => {
    const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6));
    expect(serializeValue(date)).toEqual({ type: 'Date', value: '2024-01-02T03:04:05.006Z', timestamp: date.getTime() });
  });

  it('gives an invalid date without a timestamp, which JSON could not carry', () => {
    expect(serializeValue(new Date('nope'))).toEqual({ type: 'Date', value: 'Invalid Date' });
  });

  it('gives maps as serialized entries with their size', () => {
    const map = new Map<unknown, unknown>([['a', 1], [2, { b: true }]]);
    expect(serializeValue(map)).toEqual({
      type: 'Map',
      size: 2,
      entries: [
        [{ type: 'string', value: 'a' }, { type: 'number', value: 1 }],
        [{ type: 'number', value: 2 }, { type: 'object', value: { b: { type: 'boolean', value: true } } }],
      ],
    });
  });

  it('cuts maps at 50 entries and says so', () => {
    const map = new Map(Array.from({ length: 51 }, (_, i) => [i, i] as const));
    const out = serializeValue(map) as Extract<SerializedValue, { type: 'Map' }>;
    expect(out.size).toBe(51);
    expect(out.entries).toHaveLength(50);
    expect(out.truncated).toBe(true);
    expect(out.entries[49]).toEqual([{ type: 'number', value: 49 }, { type: 'number', value: 49 }]);
    const full = serializeValue(new Map(Array.from({ length: 50 }, (_, i) => [i, i] as const)));
    expect(full).not.toHaveProperty('truncated');
  });

  it('gives sets as serialized values, cut at 50', () => {
    expect(serializeValue(new Set(['x', 1]))).toEqual({
      type: 'Set', size: 2, values: [{ type: 'string', value: 'x' }, { type: 'number', value: 1 }],
    });
    const out = serializeValue(new Set(Array.from({ length: 60 }, (_, i) => i))) as Extract<SerializedValue, { type: 'Set' }>;
    expect(out.size).toBe(60);
    expect(out.values).toHaveLength(50);
    expect(out.truncated).toBe(true);
    expect(serializeValue(new Set(Array.from({ length: 50 }, (_, i) => i)))).not.toHaveProperty('truncated');
  });

  it('gives regular expressions as their literal', () => {
    expect(serializeValue(/a+b/gi)).toEqual({ type: 'RegExp', value: '/a+b/gi' });
    expect(serializeValue(new RegExp('x/y'))).toEqual({ type: 'RegExp', value: '/x\\/y/' });
  });

  it('gives errors as name, message and a stack cut to 500 characters', () => {
    const err = new TypeError('bad thing');
    err.stack = `TypeError: bad thing\n${'    at somewhere (file.js:1:1)\n'.repeat(40)}`;
    const out = serializeValue(err) as Extract<SerializedValue, { type: 'Error' }>;
    expect(out.type).toBe('Error');
    expect(out.name).toBe('TypeError');
    expect(out.message).toBe('bad thing');
    expect(out.stack).toHaveLength(500);
    expect(out.stack?.startsWith('TypeError: bad thing\n')).toBe(true);
  });

  it('serializes an error without a stack, and subclasses by their name', () => {
    class QuotaError extends Error { override name = 'QuotaError'; }
    const err = new QuotaError('full');
    err.stack = undefined;
    expect(serializeValue(err)).toEqual({ type: 'Error', name: 'QuotaError', message: 'full' });
  });

  it('does not take a look-alike for a Map, Set or Date', () => {
    const fake = { [Symbol.toStringTag]: 'Map', size: 3 };
    expect(serializeValue(fake)).toEqual({ type: 'object', value: { size: { type: 'number', value: 3 } } });
    expect(serializeValue({ [Symbol.toStringTag]: 'Date' })).toEqual({ type: 'object', value: {} });
  });
});

describe('serializeValue: arrays and objects', () => {
  it('serializes arrays recursively, with their length', () => {
    expect(serializeValue([1, 'a', [null]])).toEqual({
      type: 'array',
      length: 3,
      value: [
        { type: 'number', value: 1 },
        { type: 'string', value: 'a' },
        { type: 'array', length: 1, value: [{ type: 'null', value: null }] },
      ],
    });
  });

  it('serializes holes of sparse arrays as undefined', () => {
    // eslint-disable-next-line no-sparse-arrays
    expect(serializeValue([1, , 3])).toEqual({
      type: 'array', length: 3,
      value: [{ type: 'number', value: 1 }, { type: 'undefined' }, { type: 'number', value: 3 }],
    });
  });

  it('cuts arrays at 100 items and keeps the full length', () => {
    const out = serializeValue(Array.from({ length: 250 }, (_, i) => i)) as Extract<SerializedValue, { type: 'array' }>;
    expect(out.length).toBe(250);
    expect(out.value).toHaveLength(100);
    expect(out.truncated).toBe(true);
    expect(serializeValue(new Array(100).fill(0))).not.toHaveProperty('truncated');
  });

  it('serializes plain objects recursively, special values included', () => {
    expect(serializeValue({ a: 1, b: { c: NaN }, d: undefined, e: 2n })).toEqual({
      type: 'object',
      value: {
        a: { type: 'number', value: 1 },
        b: { type: 'object', value: { c: { type: 'number', value: 'NaN' } } },
        d: { type: 'undefined' },
        e: { type: 'bigint', value: '2' },
      },
    });
  });

  it('cuts objects at 50 keys', () => {
    const big = Object.fromEntries(Array.from({ length: 75 }, (_, i) => [`k${i}`, i]));
    const out = serializeValue(big) as Extract<SerializedValue, { type: 'object' }>;
    expect(Object.keys(out.value)).toHaveLength(50);
    expect(out.value.k0).toEqual({ type: 'number', value: 0 });
    expect(out.value.k50).toBeUndefined();
    expect(out.truncated).toBe(true);
    const exact = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect(serializeValue(exact)).not.toHaveProperty('truncated');
  });

  it('keeps a "__proto__" key as a key', () => {
    const obj = JSON.parse('{"__proto__": 1}') as object;
    const out = serializeValue(obj) as Extract<SerializedValue, { type: 'object' }>;
    expect(Object.getOwnPropertyNames(out.value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out.value)).toBe(Object.prototype);
  });

  it('spoils only the slot of a getter that throws', () => {
    const obj = { ok: 1, get bad(): number { throw new RangeError('no'); } };
    expect(serializeValue(obj)).toEqual({
      type: 'object',
      value: { ok: { type: 'number', value: 1 }, bad: { type: 'unserializable', value: 'RangeError: no' } },
    });
  });

  it('reports a revoked proxy as unserializable instead of throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(serializeValue(proxy)).toMatchObject({ type: 'unserializable' });
  });
});

describe('serializeValue: cycles and depth', () => {
  it('marks a container met inside itself as circular', () => {
    const obj: Record<string, unknown> = { name: 'root' };
    obj.self = obj;
    expect(serializeValue(obj)).toEqual({
      type: 'object',
      value: { name: { type: 'string', value: 'root' }, self: { type: 'circular' } },
    });
    const arr: unknown[] = [];
    arr.push([arr]);
    expect(serializeValue(arr)).toEqual({
      type: 'array', length: 1, value: [{ type: 'array', length: 1, value: [{ type: 'circular' }] }],
    });
  });

  it('finds cycles through maps and sets', () => {
    const map = new Map<string, unknown>();
    map.set('me', map);
    expect(serializeValue(map)).toEqual({ type: 'Map', size: 1, entries: [[{ type: 'string', value: 'me' }, { type: 'circular' }]] });
    const set = new Set<unknown>();
    set.add(set);
    expect(serializeValue(set)).toEqual({ type: 'Set', size: 1, values: [{ type: 'circular' }] });
  });

  it('serializes a value shared by siblings twice, since that is not a cycle', () => {
    const shared = { x: 1 };
    const out = serializeValue([shared, shared]) as Extract<SerializedValue, { type: 'array' }>;
    expect(out.value[0]).toEqual(out.value[1]);
    expect(out.value[1]).toEqual({ type: 'object', value: { x: { type: 'number', value: 1 } } });
  });

  it('stops at depth 6 by default', () => {
    const nested = { l1: { l2: { l3: { l4: { l5: { l6: { l7: 1 } } } } } } };
    let node = serializeValue(nested) as SerializedValue;
    for (const key of ['l1', 'l2', 'l3', 'l4', 'l5']) {
      expect(node.type).toBe('object');
      node = (node as Extract<SerializedValue, { type: 'object' }>).value[key]!;
    }
    expect(node).toEqual({ type: 'object', value: { l6: { type: 'maxDepth', kind: 'object' } } });
  });

  it('takes another depth limit, and names the kind of container it did not expand', () => {
    expect(serializeValue([[1]], 1)).toEqual({ type: 'array', length: 1, value: [{ type: 'maxDepth', kind: 'array' }] });
    expect(serializeValue({ m: new Map(), s: new Set(), d: new Date(0) }, 1)).toEqual({
      type: 'object',
      value: {
        m: { type: 'maxDepth', kind: 'Map' },
        s: { type: 'maxDepth', kind: 'Set' },
        d: { type: 'Date', value: '1970-01-01T00:00:00.000Z', timestamp: 0 },
      },
    });
    expect(serializeValue({}, 0)).toEqual({ type: 'maxDepth', kind: 'object' });
    expect(serializeValue('leaf', 0)).toEqual({ type: 'string', value: 'leaf' });
  });

  it('returns plain JSON that survives a round trip unchanged', () => {
    const value = { n: [NaN, -0, 1], d: new Date(0), m: new Map([[1, 2]]), f: () => 1, u: undefined };
    const out = serializeValue(value);
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
  });
});

describe('serialize.ts as page code', () => {
  it('works when its functions are joined by source into one scope, as the runtime does', () => {
    const sources = Object.values(serialize).filter((v) => typeof v === 'function').map(String);
    const rt = new Function(`'use strict';\n${sources.join('\n')}\nreturn { serializeValue };`)() as typeof serialize;
    const obj: Record<string, unknown> = { a: [1, NaN], m: new Map([['k', new Set([1])]]), e: new Error('x') };
    obj.self = obj;
    expect(rt.serializeValue(obj)).toEqual(serializeValue(obj));
  });
});
