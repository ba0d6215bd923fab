// Editing a grid cell, seen from the page: whether the grid opened its editor over the cell, what
// the cell shows, and what every rendered cell of the grid shows (read before and after an edit, so
// the step can tell that no other cell changed). Runs in the page; keys and clicks come from Node.
import { isSecretInput } from './aria-name.js';
import { deepActiveElement, isHtml, isVisible } from './dom-describe.js';
import { COL_KEY_ATTRS, ROW_SELECTOR, cellText, cellsOf, columnPosition, placeOf, rowKeyOf } from './grid-place.js';
import { heldElement, holdElement } from './locate.js';
import { pointReaches } from './actionability.js';
import { resolveRef } from './ref-map.js';

/** Rendered cells read per look: a virtualised grid renders a few hundred. */
const CELLS_READ_MAX = 4000;
const TEXT_INPUT = /^(text|search|number|tel|email|url|)$/;

/** A cell's identity within one edit: its row's key (or position) and its column's key (or position). */
export function cellKey(cell: Element): string {
  const row = cell.closest(ROW_SELECTOR);
  const rowId =
    rowKeyOf(cell) ?? (row?.parentElement ? `at=${Array.prototype.indexOf.call(row.parentElement.children, row)}` : '');
  let colId: string | undefined;
  for (const a of COL_KEY_ATTRS) {
    const v = cell.getAttribute(a);
    if (v !== null) {
      colId = `${a}=${v}`;
      break;
    }
  }
  return `${rowId}|${colId ?? (row ? `at=${columnPosition(cell, row)}` : '')}`;
}

/** The grid's rendered body rows: header rows are not cells anyone edits (and shift as the grid scrolls sideways). */
function bodyRowsOf(root: Element): Element[] {
  return Array.from(root.querySelectorAll(ROW_SELECTOR)).filter(
    (r) => !r.closest('thead') && !r.querySelector('[role=columnheader]'),
  );
}

/** What the grid's rendered cells show, by cell key (a frozen copy of a row read once). */
export function renderedCells(grid: number): Record<string, string> {
  const root = heldElement(grid);
  const out: Record<string, string> = {};
  if (!root?.isConnected) return out;
  let n = 0;
  for (const row of bodyRowsOf(root)) {
    for (const cell of cellsOf(row)) {
      if (++n > CELLS_READ_MAX) return out;
      const key = cellKey(cell);
      if (!(key in out) || cellText(cell)) out[key] = cellText(cell);
    }
  }
  return out;
}

/** Row and column of cells by key, in words (`row "CC-4128", column "Jul"`), for what else changed. */
export function describeCells(grid: number, keys: string[]): Record<string, string> {
  const root = heldElement(grid);
  const out: Record<string, string> = {};
  if (!root) return out;
  for (const row of bodyRowsOf(root)) {
    for (const cell of cellsOf(row)) {
      const key = cellKey(cell);
      if (keys.includes(key) && !(key in out)) out[key] = placeOf(cell)?.label ?? key;
    }
  }
  return out;
}

/** The cell a ref names, as it stands now (re-found at its place if the grid re-rendered it). */
function cellNow(ref: string): Element | undefined {
  const r = resolveRef(ref);
  return r.ok ? r.el : undefined;
}

/** Whether the cell the ref names is still the one at (x, y) of its document (a late scroll moves it away). */
export function cellAt(ref: string, x: number, y: number): boolean {
  const cell = cellNow(ref);
  return !!cell && pointReaches(cell, x, y) === true;
}

/** What the cell shows and its key, or undefined when the grid no longer renders it. */
export function readCell(ref: string): { shows: string; key: string } | undefined {
  const cell = cellNow(ref);
  return cell ? { shows: cellText(cell), key: cellKey(cell) } : undefined;
}

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The grid's editor for the cell, once open: the focused text field or editable, inside the cell or
 * drawn over it (Handsontable's textarea, AG Grid's and MUI's inputs). Held for typing.
 */
export function editorOver(cellRef: string): { handle: number; secret: boolean } | undefined {
  const cell = cellNow(cellRef);
  const el = deepActiveElement();
  if (!cell || !el || el === cell) return undefined;
  const field =
    (isHtml(el, 'input') && TEXT_INPUT.test(el.type)) ||
    isHtml(el, 'textarea') ||
    (el as HTMLElement).isContentEditable;
  if (!field || !isVisible(el)) return undefined;
  if (!cell.contains(el) && !overlaps(el.getBoundingClientRect(), cell.getBoundingClientRect())) return undefined;
  return { handle: holdElement(el), secret: isHtml(el, 'input') && isSecretInput(el) };
}

/** Whether an editor the grid opened is still open (focused and shown). */
export function editorStillOpen(handle: number): boolean {
  const el = heldElement(handle);
  return !!el && el.isConnected && deepActiveElement() === el && isVisible(el);
}
