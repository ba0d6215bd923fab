// Parameters of the observation steps, and console argument formatting: pure logic, no browser.
import { describe, expect, it } from 'vitest';
import { getStep } from '../../src/steps/index.js';
import { formatConsoleArgs } from '../../src/capture/index.js';
import type { Protocol } from '../../src/cdp/index.js';

const parse = (name: string, v: unknown) => getStep(name)!.parse(v);
const str = (value: string): Protocol.Runtime.RemoteObject => ({ type: 'string', value });
const num = (value: number): Protocol.Runtime.RemoteObject => ({ type: 'number', value, description: String(value) });

describe('assert params', () => {
  it('reads every form DECISIONS names', () => {
    expect(parse('assert', { url: { contains: 'a', matches: '^h' } })).toEqual([
      { kind: 'url', op: 'contains', expected: 'a' },
      { kind: 'url', op: 'matches', expected: '^h' },
    ]);
    expect(parse('assert', { urlContains: '/x', urlMatches: 'y$' })).toEqual([
      { kind: 'url', op: 'contains', expected: '/x' },
      { kind: 'url', op: 'matches', expected: 'y$' },
    ]);
    expect(parse('assert', [{ text: 'Hi' }, { text: 'a', selector: ' h1 ', caseSensitive: false }])).toEqual([
      { kind: 'text', expected: 'Hi', caseSensitive: true },
      { kind: 'text', expected: 'a', selector: 'h1', caseSensitive: false },
    ]);
  });

  it('names the mistake', () => {
    expect(() => parse('assert', { url: {} })).toThrow(/"url" needs one of contains, equals/);
    expect(() => parse('assert', { urlMatches: '[' })).toThrow(/not a valid regular expression/);
    expect(() => parse('assert', { selector: 'h1' })).toThrow(/go with "text"/);
    expect(() => parse('assert', { title: 'x' })).toThrow(/unknown key "title"/);
    expect(() => parse('assert', [])).toThrow(/at least one/);
  });
});

describe('extract, getDom, inspect, console params', () => {
  it('read strings, true and objects with defaults', () => {
    expect(parse('extract', '#t')).toEqual({ target: { by: 'css', selector: '#t' }, limit: 100 });
    expect(parse('extract', 's2e7')).toEqual({ target: { by: 'ref', ref: 's2e7' }, limit: 100 });
    expect(parse('extract', { selector: 'ul', type: 'list', limit: 5 })).toEqual({
      target: { by: 'css', selector: 'ul' },
      type: 'list',
      limit: 5,
    });
    expect(() => parse('extract', { type: 'grid' })).toThrow(/"type" must be one of table, list/);
    expect(parse('getDom', true)).toEqual({ outer: true, maxLength: 20_000 });
    expect(parse('getDom', { selector: 'main', outer: false })).toEqual({
      target: { by: 'css', selector: 'main' },
      outer: false,
      maxLength: 20_000,
    });
    expect(parse('inspect', { selectors: [' .a '], limit: 3 })).toEqual({ selectors: ['.a'], limit: 3 });
    expect(parse('console', { level: 'warn', since: '2024-01-01T00:00:00Z' })).toEqual({
      limit: 50,
      levels: ['warning'],
      since: Date.parse('2024-01-01T00:00:00Z'),
      stackTrace: false,
      clear: false,
    });
    expect(() => parse('console', { since: 'yesterday' })).toThrow(/"since" is a timestamp/);
  });
});

describe('console argument formatting', () => {
  it('substitutes format specifiers and joins the rest with spaces', () => {
    expect(formatConsoleArgs([str('%s has %d items (%i%%)'), str('cart'), num(3.7), num(50)])).toBe(
      'cart has 3 items (50%)',
    );
    expect(formatConsoleArgs([str('%cStyled'), str('color: red'), str('tail')])).toBe('Styled tail');
    expect(
      formatConsoleArgs([
        str('plain'),
        num(1),
        { type: 'undefined' },
        { type: 'object', subtype: 'null', value: null },
      ]),
    ).toBe('plain 1 undefined null');
    expect(
      formatConsoleArgs([
        {
          type: 'object',
          className: 'Object',
          description: 'Object',
          preview: {
            type: 'object',
            overflow: false,
            properties: [
              { name: 'a', type: 'number', value: '1' },
              { name: 'b', type: 'string', value: 'x' },
            ],
          },
        },
      ]),
    ).toBe('{a: 1, b: "x"}');
  });
});
