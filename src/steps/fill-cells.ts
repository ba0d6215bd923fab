// fill's grid-cell form (issue 23 item 2): {cell: {row, column}, value} and {cells: [{row, column,
// value}, …]} — parsed here, run by dom/grid-fill.ts. The fill step (forms.ts) picks this form
// whenever `cell` or `cells` is given, before reading its object as a map of fields.

import { fillCells, type CellValue, type TargetOptions } from '../dom/index.js';
import { describe, isObj, obj, optString, ParamError, type Obj } from './params.js';
import { actionOptions } from './targets.js';
import { settledOutput } from './interaction.js';
import type { AttachedTab } from './registry.js';
import type { Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';

export interface CellsParams {
  cells: CellValue[];
  opts: TargetOptions & { within?: string };
}

export const CELL_KEYS = ['cell', 'cells'] as const;

/** Whether a fill object is the grid-cell form. */
export function isCellForm(v: Obj): boolean {
  return v.cell !== undefined || v.cells !== undefined;
}

function text(v: unknown, what: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ParamError(`${what} must be a string, got ${describe(v)}`);
}

/** `row`: a whole cell's text, {column, equals}, or the data row's index from 0. */
function rowOf(v: unknown, what: string): CellValue['row'] {
  if (typeof v === 'string' && v.trim()) return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (isObj(v)) {
    const o = obj(v, ['column', 'equals'], `${what}.row`);
    const column = text(o.column, `${what}.row.column`);
    if (!column.trim() || o.equals === undefined)
      throw new ParamError(`${what}.row needs "column" and "equals": {"column": "Code", "equals": "CC-4127"}`);
    return { column, equals: text(o.equals, `${what}.row.equals`) };
  }
  throw new ParamError(
    `${what}.row must be a cell's text ("CC-4127"), {"column", "equals"}, or a row index from 0; got ${describe(v)}`,
  );
}

function cellOf(v: unknown, what: string, value: unknown): CellValue {
  if (!isObj(v)) throw new ParamError(`${what} must be {"row", "column"}, got ${describe(v)}`);
  const o = obj(v, ['row', 'column', 'value'], what);
  const column = text(o.column, `${what}.column`);
  if (!column.trim()) throw new ParamError(`${what}.column must name a column by its header`);
  const given = o.value ?? value;
  if (given === undefined) throw new ParamError(`${what} needs a "value"`);
  return { row: rowOf(o.row, what), column, value: text(given, `${what}.value`) };
}

export function parseCells(v: Obj): CellsParams {
  const o = obj(v, ['cell', 'cells', 'value', 'withinSelector', 'timeout'], 'fill');
  if (o.cell !== undefined && o.cells !== undefined) throw new ParamError('fill takes "cell" or "cells", not both');
  let cells: CellValue[];
  if (o.cell !== undefined) cells = [cellOf(o.cell, '"cell"', o.value)];
  else {
    if (o.value !== undefined) throw new ParamError('"cells" carry their own values: [{"row", "column", "value"}, …]');
    if (!Array.isArray(o.cells) || !o.cells.length)
      throw new ParamError(`"cells" must be a non-empty array of {"row", "column", "value"}, got ${describe(o.cells)}`);
    cells = o.cells.map((c, i) => cellOf(c, `"cells"[${i}]`, undefined));
  }
  const within = optString(o, 'withinSelector');
  return { cells, opts: { ...actionOptions(o), ...(within ? { within } : {}) } };
}

export async function runCells(
  tab: AttachedTab,
  scope: Scope,
  p: CellsParams,
  deadline: Deadline,
): Promise<Record<string, unknown>> {
  const r = await fillCells(scope, p.cells, tab.entry, p.opts, deadline);
  return {
    filled: r.filled,
    ...(r.wheels ? { wheels: r.wheels } : {}),
    ...(await settledOutput(tab, r)),
    ...(r.warnings.length ? { warnings: r.warnings } : {}),
  };
}
