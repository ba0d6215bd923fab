// Where an element stands in a table or grid: the identity of its row and of its column, so a ref
// remembers the cell it was handed out for and a <td> the grid reused for another row or column is
// never taken for the old one (issue 22 item 1). Finding cells by row and column is grid-cells.ts's.
import { collapseSpace } from './aria-name.js';
import { isHtml } from './dom-describe.js';
import { virtualScrollerOf } from './virtual-scroll.js';

export const ROW_SELECTOR = 'tr, [role=row]';
export const CELL_SELECTOR = 'td, th, [role=gridcell], [role=cell], [role=columnheader], [role=rowheader]';
const HEADER_CELL = 'th, [role=columnheader]';
const GRID_ROOT = 'table, [role=grid], [role=treegrid], [role=table]';

/** Attributes virtualised lists and grids mark their rows with, most stable first. */
const ROW_KEY_ATTRS = [
  'row-id',
  'data-key',
  'data-index',
  'data-row-index',
  'data-rowindex',
  'row-index',
  'aria-rowindex',
  'aria-posinset',
];
const ROW_KEY_SELECTOR = ROW_KEY_ATTRS.map((a) => `[${a}]`).join(',');
/** Attributes grids mark their cells' columns with (AG Grid col-id, MUI data-field, ARIA). */
export const COL_KEY_ATTRS = ['col-id', 'data-field', 'aria-colindex', 'data-colindex', 'data-col', 'data-column-id'];
/** Other cells of a row kept as its identity when nothing marks the row, and how many must still match. */
const ROW_CELLS_KEPT = 4;
const CELL_TEXT_MAX = 60;

export interface Place {
  /** The row's key: `row-id=ORD-7`, `aria-rowindex=12`, or its header cell `header=12`. */
  row?: string;
  /** No key: other cells of the row as [column position, text]; most must still show it. */
  rowCells?: [number, string][];
  /** The column's key: `col-id=amount`, `aria-colindex=9`, `header=Jul`, `at=4`. */
  col?: string;
  /** In words, for then-and-now messages: `row "CC-4127", column "Jul"`. */
  label: string;
}

function keyIn(el: Element, attrs: string[]): string | undefined {
  for (const a of attrs) {
    const v = el.getAttribute(a);
    if (v !== null) return `${a}=${v}`;
  }
  return undefined;
}

/** The row the element sits in, as `attr=value`, when a list or grid marks it. */
export function rowKeyOf(el: Element): string | undefined {
  const row = el.closest(ROW_KEY_SELECTOR);
  return row ? keyIn(row, ROW_KEY_ATTRS) : undefined;
}

/** The cells of a row, in order (a nested table's cells excluded). */
export function cellsOf(row: Element): Element[] {
  if (isHtml(row, 'tr')) return Array.from(row.cells);
  return Array.from(row.querySelectorAll(CELL_SELECTOR)).filter((c) => c.closest(ROW_SELECTOR) === row);
}

/** What a cell shows: its one form control's value, else its text. */
export function cellText(cell: Element): string {
  const controls = cell.querySelectorAll('input:not([type=hidden]), textarea, select');
  const only = controls.length === 1 ? controls[0] : undefined;
  if (only && (isHtml(only, 'input') || isHtml(only, 'textarea') || isHtml(only, 'select')))
    return only.type === 'checkbox' || only.type === 'radio' ? String((only as HTMLInputElement).checked) : only.value;
  return collapseSpace(cell.textContent ?? '').trim();
}

/** The row's header cell (`<th scope=row>`, role=rowheader, a body row's first `<th>`), not `own`. */
function rowHeaderOf(row: Element, own: Element | undefined): Element | undefined {
  const header = cellsOf(row).find(
    (c) =>
      c.getAttribute('role') === 'rowheader' ||
      (c.localName === 'th' && c.getAttribute('role') !== 'columnheader' && !c.closest('thead')),
  );
  return header && header !== own && cellText(header) ? header : undefined;
}

/** A cell's column position: the column spans before it (`<td colspan>` counted), else its index. */
export function columnPosition(cell: Element, row: Element): number {
  if (!isHtml(cell, 'td') && !isHtml(cell, 'th')) return cellsOf(row).indexOf(cell);
  let at = 0;
  for (const c of cellsOf(row)) {
    if (c === cell) return at;
    at += (c as HTMLTableCellElement).colSpan || 1;
  }
  return -1;
}

export function gridRootOf(el: Element): Element | undefined {
  return el.closest(GRID_ROOT) ?? undefined;
}

/** Whether the cell stands under the header, as a person reads a column down from its header. */
export function standsUnder(cell: Element, head: Element): boolean {
  const c = cell.getBoundingClientRect();
  const h = head.getBoundingClientRect();
  const mid = (c.left + c.right) / 2;
  return c.width > 0 && h.width > 0 && mid >= h.left - 1 && mid <= h.right + 1;
}

/** The header cells that carry the cell's column key (col-id, data-field, aria-colindex). */
function headersKeyed(cell: Element, root: Element): Element[] {
  const key = keyIn(cell, COL_KEY_ATTRS);
  if (!key) return [];
  const [attr, value] = [key.slice(0, key.indexOf('=')), key.slice(key.indexOf('=') + 1)];
  const sel = `[${attr}="${value.replace(/["\\]/g, '\\$&')}"]`;
  return Array.from(root.querySelectorAll(sel)).filter((h) => h !== cell && h.matches(HEADER_CELL));
}

/**
 * The header cell of the cell's column: the header row's cell at its position, or one carrying its
 * column key — the one it stands under when it is shown (a library's attributes and rendered
 * positions can disagree once it scrolls sideways; what lines up on screen is what a person reads).
 */
export function columnHeaderOf(cell: Element, row: Element): Element | undefined {
  const root = gridRootOf(row);
  if (!root) return undefined;
  const headerRow = headerRowOf(root);
  const at = columnPosition(cell, row);
  const byPosition =
    headerRow && headerRow !== row ? cellsOf(headerRow).find((h) => columnPosition(h, headerRow) === at) : undefined;
  const candidates = [...(byPosition ? [byPosition] : []), ...headersKeyed(cell, root)];
  return candidates.find((h) => standsUnder(cell, h)) ?? candidates[0];
}

/** The last row of column headers of a table or grid. */
export function headerRowOf(root: Element): Element | undefined {
  if (isHtml(root, 'table') && root.tHead?.rows.length) return root.tHead.rows[root.tHead.rows.length - 1];
  const heads = Array.from(root.querySelectorAll('[role=columnheader], thead th'));
  return heads.length ? (heads[heads.length - 1]!.closest(ROW_SELECTOR) ?? undefined) : undefined;
}

function clip(s: string): string {
  return s.length > CELL_TEXT_MAX ? `${s.slice(0, CELL_TEXT_MAX - 1)}…` : s;
}

/** Other cells of the row, with text, as its identity where nothing marks it (a virtualised or ARIA grid only). */
function rowCellsOf(row: Element, own: Element | undefined): [number, string][] | undefined {
  const gridlike = row.closest('[role=grid], [role=treegrid]') || virtualScrollerOf(row);
  if (!gridlike) return undefined;
  const out: [number, string][] = [];
  for (const c of cellsOf(row)) {
    if (c === own || out.length >= ROW_CELLS_KEPT) continue;
    const text = clip(cellText(c));
    if (text) out.push([columnPosition(c, row), text]);
  }
  return out.length ? out : undefined;
}

/** Where the element stands in a list or grid, or undefined outside one. */
export function placeOf(el: Element): Place | undefined {
  const row = el.closest(ROW_SELECTOR);
  const keyed = rowKeyOf(el);
  if (!row) return keyed ? { row: keyed, label: `row ${keyed}` } : undefined;
  const found = el.closest(CELL_SELECTOR);
  const cell = found && row.contains(found) && found !== row ? found : undefined;
  const header = rowHeaderOf(row, cell);
  const place: Place = { label: '' };
  if (keyed) place.row = keyed;
  else if (header) place.row = `header=${clip(cellText(header))}`;
  else {
    const cells = rowCellsOf(row, cell);
    if (cells) place.rowCells = cells;
  }
  const rowWords = header
    ? cellText(header)
    : (place.rowCells?.[0]?.[1] ?? (keyed ? keyed.slice(keyed.indexOf('=') + 1) : undefined));
  let colWords: string | undefined;
  if (cell) {
    const head = columnHeaderOf(cell, row);
    const headText = head ? clip(cellText(head)) : '';
    colWords = headText || undefined;
    place.col = keyIn(cell, COL_KEY_ATTRS) ?? (headText ? `header=${headText}` : `at=${columnPosition(cell, row)}`);
  }
  const words = [rowWords !== undefined ? `row "${clip(rowWords)}"` : '', colWords ? `column "${colWords}"` : ''];
  place.label = words.filter(Boolean).join(', ') || (place.col ? `column ${place.col}` : 'its row');
  return place.row || place.rowCells || place.col ? place : undefined;
}

/** Whether the element still stands where `then` was: the same row (its key, or most of its cells) and column. */
export function stillAt(el: Element, then: Place): boolean {
  const now = placeOf(el);
  if (!now) return false;
  if ((then.col ?? '') !== (now.col ?? '')) return false;
  if (then.row !== undefined || now.row !== undefined) return then.row === now.row;
  if (!then.rowCells) return true;
  const row = el.closest(ROW_SELECTOR);
  if (!row) return false;
  const texts = new Map(cellsOf(row).map((c) => [columnPosition(c, row), clip(cellText(c))] as const));
  const same = then.rowCells.filter(([at, text]) => texts.get(at) === text).length;
  return same * 2 > then.rowCells.length;
}

/**
 * The one element standing at `place` that `fits` (the ref's role and, outside cells, its name): in
 * `old`'s grid when `old` is still there, else anywhere under `root`. Undefined when none or several.
 */
export function elementAt(
  root: Document | ShadowRoot,
  place: Place,
  fits: (el: Element) => boolean,
  old?: Element,
): Element | undefined {
  const grid = old?.isConnected ? gridRootOf(old) : undefined;
  const hits: Element[] = [];
  for (const el of Array.from((grid ?? root).querySelectorAll('*'))) {
    if (el === old || !fits(el) || !stillAt(el, place)) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    hits.push(el);
    if (hits.length > 1) return undefined;
  }
  return hits[0];
}

/** Header rows above the body, where aria-rowindex counts them. */
export function headerRowCount(grid: Element): number {
  const idx = Array.from(grid.querySelectorAll(`${ROW_SELECTOR}`))
    .filter((r) => r.querySelector('[role=columnheader]') || r.closest('thead'))
    .map((r) => Number(r.getAttribute('aria-rowindex')))
    .filter((n) => n > 0);
  return idx.length ? Math.max(...idx) : 0;
}

/** The data row's index from 0, as the grid marks it (AG Grid row-index, MUI data-rowindex, aria-rowindex). */
export function rowIndexOf(row: Element, headers: number, rows: Element[]): number | undefined {
  for (const attr of ['row-index', 'data-rowindex', 'data-row-index', 'data-index']) {
    const v = row.closest(`[${attr}]`)?.getAttribute(attr);
    if (v != null && /^\d+$/.test(v)) return Number(v);
  }
  const aria = Number(row.getAttribute('aria-rowindex'));
  if (aria > 0) return aria - 1 - headers;
  // A plain table renders every row: its position among the body rows.
  return rows.indexOf(row);
}
