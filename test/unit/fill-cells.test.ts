// fill's grid-cell form (issue 23 item 2): `cell`/`cells` are read as cells of a grid, before the
// map form could take them for field names; each malformed part is named.
import { describe, expect, it } from 'vitest';
import { getStep } from '../../src/steps/index.js';

const parse = (v: unknown): any => getStep('fill')!.parse(v);

describe('fill {cell|cells}', () => {
  it('reads one cell, its value beside it or inside it', () => {
    expect(parse({ cell: { row: 'CC-4127', column: 'Jul' }, value: 18400 })).toMatchObject({
      kind: 'cells',
      cells: [{ row: 'CC-4127', column: 'Jul', value: '18400' }],
    });
    expect(parse({ cell: { row: 3, column: 'Jan', value: '5' } }).cells).toEqual([
      { row: 3, column: 'Jan', value: '5' },
    ]);
  });

  it('reads several cells, rows by text, by a column value and by index', () => {
    const p = parse({
      cells: [
        { row: 'CC-4127', column: 'Jul', value: '1' },
        { row: { column: 'Code', equals: 'CC-4128' }, column: 'Aug', value: '2' },
        { row: 0, column: 'Sep', value: '' },
      ],
      withinSelector: '#sheet',
    });
    expect(p.kind).toBe('cells');
    expect(p.cells.map((c: any) => c.row)).toEqual(['CC-4127', { column: 'Code', equals: 'CC-4128' }, 0]);
    expect(p.opts.within).toBe('#sheet');
  });

  it('takes precedence over the map form, which would read "cells" as a field name', () => {
    expect(parse({ cells: [{ row: 'a', column: 'b', value: 'c' }] }).kind).toBe('cells');
    expect(parse({ '#cells': 'x' })).toMatchObject({ kind: 'fields', batch: true });
  });

  it('names what is wrong', () => {
    expect(() => parse({ cell: { row: 'a' }, value: '1' })).toThrow(/"cell".column must be a string/);
    expect(() => parse({ cell: { row: 'a', column: 'b' } })).toThrow(/needs a "value"/);
    expect(() => parse({ cell: { row: -1, column: 'b' }, value: '1' })).toThrow(/row index from 0/);
    expect(() => parse({ cell: { row: { column: 'Code' }, column: 'b' }, value: '1' })).toThrow(/"equals"/);
    expect(() => parse({ cells: [] })).toThrow(/non-empty array/);
    expect(() => parse({ cells: [{ row: 'a', column: 'b', value: 'c' }], value: 'x' })).toThrow(/own values/);
    expect(() => parse({ cell: { row: 'a', column: 'b' }, cells: [], value: '1' })).toThrow(/not both/);
    expect(() => parse({ cell: { row: 'a', column: 'b' }, value: '1', label: 'x' })).toThrow(/unknown key "label"/);
  });
});
