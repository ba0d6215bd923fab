// Finding a grid's cell by row and column as a person reads the grid (issue 23 item 2): the column
// by its header's text, the row by a cell's whole text, a column's value or its index; where to
// wheel when they are not rendered yet; what the rendered cells show, to check no other one changed.
// Runs in the page; the wheel, clicks and keys are sent from Node (dom/grid-fill.ts).
import { accessibleName, capName, collapseSpace } from './aria-name.js';
import { roleOf } from './aria-role.js';
import { isVisible } from './dom-describe.js';
import {
  COL_KEY_ATTRS,
  ROW_SELECTOR,
  cellsOf,
  cellText,
  columnPosition,
  headerRowCount,
  rowIndexOf,
  rowKeyOf,
  standsUnder,
} from './grid-place.js';
import { afterWheel, headingTo, jumpToIndex, rowHeight, wheelFor, type Wheel } from './grid-wheel.js';
import { cssMatches, heldElement, holdElement } from './locate.js';
import { refFor, refState, syncCounters, type Counters } from './ref-map.js';

export type RowSpec = string | number | { column: string; equals: string };

export interface CellQuery {
  row: RowSpec;
  column: string;
  within?: string;
  /** The grid an earlier look found (a held element). */
  grid?: number;
  /** The row an earlier look found (`aria-rowindex=9`): kept while the grid is wheeled sideways. */
  rowKey?: string;
  /** Which way to wheel when the row or column is not rendered: the likelier way first (auto), then the other. */
  sweep: 'auto' | 'on' | 'back';
  counters?: Counters;
  /** Wheel turns so far: jumps on a guess are given up after a few (a plain sweep then). */
  hops?: number;
  /** Before looking for a row by text, wheel back to the grid's first columns (false: the grid will not). */
  sideways?: boolean;
  /** The last look wheeled this scroller from there: wait for it to move and render first. */
  wheeled?: { axis: 'x' | 'y'; from: number };
}

export type CellLook =
  | { ok: true; grid: number; cell: string; control?: string; column: string; rowKey?: string; counters: Counters }
  | {
      ok: false;
      reason: 'no-grid' | 'no-column' | 'no-row' | 'ambiguous';
      message: string;
      grid?: number;
      rowKey?: string;
      /** Where and how far to wheel to bring more rows (dy) or columns (dx) in; none: the end is reached. */
      wheel?: Wheel;
      /** The way this look would wheel (so the next pass can go the other way). */
      dir?: 'on' | 'back';
    };

const GRID_SELECTOR = '[role=grid], [role=treegrid], [role=table], table';
const HEADER_SELECTOR = 'th, [role=columnheader]';
/** Guessed jumps (rows numbered evenly) before a plain sweep takes over. */
const HINTED_JUMPS = 8;

const same = (a: string, b: string): boolean => a === b;
const sameCase = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The grids a query may mean: the `within` element's, else the outermost visible grids on the page. */
function gridsFor(q: CellQuery): Element[] {
  const held = q.grid !== undefined ? heldElement(q.grid) : undefined;
  if (held?.isConnected) return [held];
  const scope = q.within ? cssMatches(document, q.within).find(isVisible) : document;
  if (!scope) return [];
  const all = Array.from(scope.querySelectorAll(GRID_SELECTOR));
  if (scope !== document && (scope as Element).matches(GRID_SELECTOR)) all.unshift(scope as Element);
  return all.filter((g) => isVisible(g) && !all.some((o) => o !== g && o.contains(g)));
}

/** The header cells of a grid whose text is `name` (exactly, else ignoring case). */
function headersNamed(grid: Element, name: string): Element[] {
  const heads = Array.from(grid.querySelectorAll(HEADER_SELECTOR)).filter(isVisible);
  const text = (h: Element): string => collapseSpace(h.textContent ?? '').trim();
  for (const eq of [same, sameCase]) {
    const hits = heads.filter((h) => eq(text(h), name.trim()));
    if (hits.length) return hits;
  }
  return [];
}

/**
 * The row's cell under one of the headers: by the table model's position when header and row share
 * an HTML table, else by the column key they both carry (col-id, data-field, aria-colindex) — and
 * only when it also stands under the header: a library's attributes and rendered positions can
 * disagree (Handsontable numbers header cells by rendered position once scrolled sideways, and its
 * header and body rows render different column ranges), so the cell below the header decides.
 */
function cellUnder(row: Element, heads: Element[]): Element | undefined {
  const cells = cellsOf(row);
  for (const head of heads) {
    const headRow = head.closest(ROW_SELECTOR);
    const table = head.closest('table');
    const byPosition =
      headRow && table && table === row.closest('table')
        ? cells.find((c) => columnPosition(c, row) === columnPosition(head, headRow))
        : undefined;
    const attr = COL_KEY_ATTRS.find((a) => head.hasAttribute(a));
    const byKey = attr ? cells.find((c) => c.getAttribute(attr) === head.getAttribute(attr)) : undefined;
    // What lines up on screen decides; attributes and positions only pick it out first.
    for (const c of [byPosition, byKey, ...cells]) if (c && standsUnder(c, head)) return c;
  }
  return undefined;
}

/** The body rows of a grid, rendered and visible: rows with a cell that is not a column header. */
function bodyRows(grid: Element): Element[] {
  return Array.from(grid.querySelectorAll(ROW_SELECTOR)).filter(
    (r) => isVisible(r) && cellsOf(r).some((c) => !c.matches('[role=columnheader]') && !c.closest('thead')),
  );
}

/** What identifies a rendered row between looks: its key attribute, else the row element itself. */
function rowMatchesKey(row: Element, key: string): boolean {
  const cell = cellsOf(row)[0];
  return !!cell && rowKeyOf(cell) === key;
}

/** One row per key: a grid's frozen copies (Handsontable's overlays) repeat a row; the fullest copy is the row. */
function distinctRows(rows: Element[]): Element[] {
  const byKey = new Map<string, Element>();
  const out: Element[] = [];
  for (const r of rows) {
    const first = cellsOf(r)[0];
    const key = first ? rowKeyOf(first) : undefined;
    if (!key) {
      out.push(r);
      continue;
    }
    const had = byKey.get(key);
    if (!had || cellsOf(r).length > cellsOf(had).length) byKey.set(key, r);
  }
  return [...out, ...byKey.values()];
}

type RowMatch = { rows: Element[] } | { missingColumn: string };

/** The rendered rows the spec means: a whole cell's text, a column's value, or the data row's index. */
function rowsMatching(grid: Element, spec: RowSpec, rows: Element[]): RowMatch {
  if (typeof spec === 'number') {
    const headers = headerRowCount(grid);
    return { rows: distinctRows(rows.filter((r) => rowIndexOf(r, headers, rows) === spec)) };
  }
  if (typeof spec === 'string') {
    for (const eq of [same, sameCase]) {
      const hits = rows.filter((r) => cellsOf(r).some((c) => eq(cellText(c), spec.trim())));
      if (hits.length) return { rows: distinctRows(hits) };
    }
    return { rows: [] };
  }
  const heads = headersNamed(grid, spec.column);
  if (!heads.length) return { missingColumn: spec.column };
  const hits = rows.filter((r) => {
    const c = cellUnder(r, heads);
    return !!c && cellText(c) === spec.equals.trim();
  });
  return { rows: distinctRows(hits) };
}

function describeSpec(spec: RowSpec): string {
  if (typeof spec === 'number') return `row ${spec}`;
  if (typeof spec === 'string') return `the row showing "${spec}"`;
  return `the row whose ${spec.column} is "${spec.equals}"`;
}

/** A ref for the cell or control a step acts on: a ref remembers where it stood (grid-place.ts). */
function refOf(el: Element): string {
  const role = roleOf(el);
  return refFor(el, role, capName(accessibleName(el, role)), refState().snapshotId, 0);
}

/** The cell's own form control, when it holds exactly one (a table of inputs). */
function controlIn(cell: Element): Element | undefined {
  const found = cell.querySelectorAll(
    'input:not([type=hidden]), textarea, select, [contenteditable=""], [contenteditable=true]',
  );
  return found.length === 1 ? found[0] : undefined;
}

function headerTexts(grid: Element): string {
  const texts = Array.from(grid.querySelectorAll('thead th, [role=columnheader]'))
    .filter(isVisible)
    .map((h) => collapseSpace(h.textContent ?? '').trim())
    .filter(Boolean);
  const seen = [...new Set(texts)];
  return seen.length
    ? `columns seen: ${seen.slice(0, 12).join(', ')}${seen.length > 12 ? ', …' : ''}`
    : 'no column headers';
}

/** The row the query means, or why not (and where to wheel to bring more rows in). */
function rowLook(grid: Element, q: CellQuery, rows: Element[], handle: number): { row: Element } | CellLook {
  const keyed = q.rowKey ? distinctRows(rows.filter((r) => rowMatchesKey(r, q.rowKey!)))[0] : undefined;
  if (keyed) return { row: keyed };
  const m = rowsMatching(grid, q.row, rows);
  if ('missingColumn' in m) {
    const message = `no column headed "${m.missingColumn}" to find the row by (${headerTexts(grid)})`;
    // A column to find rows by is likely a key column on the left: back to the grid's start first.
    const dir = q.sweep === 'auto' ? 'on' : q.sweep;
    const wheel = (q.sideways !== false ? wheelFor(grid, 'x', 'back') : undefined) ?? wheelFor(grid, 'x', dir);
    return { ok: false, reason: 'no-row', grid: handle, message, dir, ...(wheel ? { wheel } : {}) };
  }
  if (m.rows.length > 1) {
    const shown = m.rows
      .slice(0, 5)
      .map((r) => `"${cellsOf(r).map(cellText).filter(Boolean).slice(0, 3).join(' · ')}"`);
    const message = `${m.rows.length} rows match ${describeSpec(q.row)} (${shown.join(', ')}): name it by one column's value, {"row": {"column": "…", "equals": "…"}}`;
    return { ok: false, reason: 'ambiguous', grid: handle, message };
  }
  if (m.rows.length === 1) return { row: m.rows[0]! };
  const text = typeof q.row === 'string' ? q.row : typeof q.row === 'number' ? undefined : q.row.equals;
  // The likelier way first (and a jump when the rows number evenly); the second pass sweeps plainly.
  const byTop = rows.slice().sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  const hint = q.sweep === 'auto' && text ? headingTo(text, byTop, (r) => cellsOf(r).map(cellText)) : undefined;
  const dir = q.sweep !== 'auto' ? q.sweep : (hint?.dir ?? 'on');
  const jump =
    typeof q.row === 'number'
      ? jumpToIndex(grid, q.row, rows)
      : hint?.rowsAway && (q.hops ?? 0) < HINTED_JUMPS
        ? (hint.dir === 'on' ? 1 : -1) * hint.rowsAway * rowHeight(rows)
        : undefined;
  // Rows are told by a cell's text: a grid wheeled sideways may not render that column, so back to its start first.
  const back = typeof q.row !== 'number' && q.sideways !== false ? wheelFor(grid, 'x', 'back') : undefined;
  const wheel = back ?? wheelFor(grid, 'y', dir, jump, rows);
  const message = `no row is ${describeSpec(q.row)}`;
  return { ok: false, reason: 'no-row', grid: handle, message, dir, ...(wheel ? { wheel } : {}) };
}

/** Looks for the cell once: found (with refs to act on), or what is missing and where to wheel for it. */
export async function findCell(q: CellQuery): Promise<CellLook> {
  if (q.wheeled && q.grid !== undefined) await afterWheel(q.grid, q.wheeled.axis, q.wheeled.from);
  syncCounters(q.counters);
  const grids = gridsFor(q);
  if (!grids.length)
    return { ok: false, reason: 'no-grid', message: `no table or grid${q.within ? ` in "${q.within}"` : ' is shown'}` };
  const grid =
    grids.find((g) => headersNamed(g, q.column).length) ??
    grids.find((g) => {
      const m = rowsMatching(g, q.row, bodyRows(g));
      return 'rows' in m && m.rows.length > 0;
    }) ??
    grids[0]!;
  const handle = holdElement(grid);
  const rows = bodyRows(grid);
  const found = rowLook(grid, q, rows, handle);
  if (!('row' in found)) return found;
  const first = cellsOf(found.row)[0];
  const rowKey = first ? rowKeyOf(first) : undefined;
  const heads = headersNamed(grid, q.column);
  const cell = cellUnder(found.row, heads);
  if (!cell) {
    const dir = q.sweep === 'auto' ? 'on' : q.sweep;
    const wheel = wheelFor(grid, 'x', dir);
    const message = `no column headed "${q.column}" (${headerTexts(grid)})`;
    return {
      ok: false,
      reason: 'no-column',
      grid: handle,
      message,
      dir,
      ...(rowKey ? { rowKey } : {}),
      ...(wheel ? { wheel } : {}),
    };
  }
  const control = controlIn(cell);
  const column = collapseSpace(heads.find((h) => standsUnder(cell, h))?.textContent ?? q.column).trim();
  return {
    ok: true,
    grid: handle,
    cell: refOf(cell),
    ...(control ? { control: refOf(control) } : {}),
    column,
    ...(rowKey ? { rowKey } : {}),
    counters: syncCounters(undefined),
  };
}
