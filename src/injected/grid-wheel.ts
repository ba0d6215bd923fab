// Wheeling a grid as a person does to bring rows or columns in: which element scrolls it along an
// axis, where to put the pointer, and how far one turn goes (a view's worth, or a jump toward an
// index far from the rendered rows). Runs in the page; the wheel events are sent from Node.
import { isVisible } from './dom-describe.js';
import { headerRowCount, rowIndexOf } from './grid-place.js';
import { heldElement } from './locate.js';

/** Of a scroller's visible height or width, how far one wheel turn goes: what was seen stays partly in view. */
const WHEEL_SHARE = 0.8;
/** How long a scroller gets to start moving after a wheel turn (smooth scrolling, a busy page). */
const MOVE_WAIT_MS = 600;
const FRAME_WAIT_MS = 50;
/** Share of the rendered rows that must agree for a guess about where a row lies. */
const MOSTLY = 0.75;

export interface Wheel {
  x: number;
  y: number;
  dx: number;
  dy: number;
  /** The scroll position wheeled from. */
  at: number;
}

/** The element that scrolls the grid along an axis: inside it (the widest range), the grid itself, or a scroller around it. */
export function scrollerOf(grid: Element, axis: 'x' | 'y'): Element | undefined {
  const range = (e: Element): number =>
    axis === 'y' ? e.scrollHeight - e.clientHeight : e.scrollWidth - e.clientWidth;
  const scrolls = (e: Element): boolean => {
    if (range(e) <= 1) return false;
    if (e === document.scrollingElement) return true;
    const o = getComputedStyle(e)[axis === 'y' ? 'overflowY' : 'overflowX'];
    return /(auto|scroll|overlay)/.test(o) && isVisible(e);
  };
  const inside = [grid, ...Array.from(grid.querySelectorAll('*'))].filter(scrolls);
  if (inside.length) return inside.sort((a, b) => range(b) - range(a))[0];
  for (let a = grid.parentElement; a; a = a.parentElement) if (scrolls(a)) return a;
  const doc = document.scrollingElement;
  return doc && scrolls(doc) ? doc : undefined;
}

/** Where a scroller stands along an axis: position, end, and the visible length. */
function extent(sc: Element, axis: 'x' | 'y'): { pos: number; max: number; view: number; rect: DOMRect } {
  const doc = sc === document.scrollingElement;
  const view = axis === 'y' ? (doc ? innerHeight : sc.clientHeight) : doc ? innerWidth : sc.clientWidth;
  const pos = axis === 'y' ? (doc ? scrollY : sc.scrollTop) : doc ? scrollX : sc.scrollLeft;
  const max = (axis === 'y' ? sc.scrollHeight : sc.scrollWidth) - view;
  return { pos, max, view, rect: doc ? new DOMRect(0, 0, innerWidth, innerHeight) : sc.getBoundingClientRect() };
}

/**
 * How far one turn goes: most of a view, or — when the grid renders rows beyond the view (its
 * overscan) — up to the last rendered row, so every row passes through the rendered window once.
 */
function stepOf(e: ReturnType<typeof extent>, dir: 1 | -1, rows: Element[] | undefined): number {
  let step = Math.max(20, Math.round(e.view * WHEEL_SHARE));
  if (rows?.length) {
    const boxes = rows.map((r) => r.getBoundingClientRect()).filter((b) => b.height > 0);
    const last = boxes.reduce((a, b) => (b.top > a.top ? b : a), boxes[0]!);
    const first = boxes.reduce((a, b) => (b.bottom < a.bottom ? b : a), boxes[0]!);
    const ahead = dir > 0 ? last.top - e.rect.top : e.rect.bottom - first.bottom;
    if (boxes.length && ahead > step) step = Math.round(ahead);
  }
  return dir * step;
}

/**
 * A wheel turn over the scroller's visible middle: `jump` px, else a step on (or back); none at the
 * end. `rows` (the rendered rows) lets a vertical step reach as far as they do.
 */
export function wheelFor(
  grid: Element,
  axis: 'x' | 'y',
  sweep: 'on' | 'back',
  jump?: number,
  rows?: Element[],
): Wheel | undefined {
  const sc = scrollerOf(grid, axis);
  if (!sc) return undefined;
  const e = extent(sc, axis);
  const delta = jump ?? stepOf(e, sweep === 'on' ? 1 : -1, axis === 'y' ? rows : undefined);
  if ((delta > 0 && e.pos >= e.max - 1) || (delta < 0 && e.pos <= 0)) return undefined;
  const x = Math.round((Math.max(e.rect.left, 0) + Math.min(e.rect.right, innerWidth)) / 2);
  const y = Math.round((Math.max(e.rect.top, 0) + Math.min(e.rect.bottom, innerHeight)) / 2);
  return axis === 'y' ? { x, y, dx: 0, dy: delta, at: e.pos } : { x, y, dx: delta, dy: 0, at: e.pos };
}

export interface Heading {
  dir: 'on' | 'back';
  /** Rows between the nearest rendered one and the target, when the rendered ones number evenly. */
  rowsAway?: number;
}

const lastNumber = (t: string): number => Number(t.match(/\d+/g)?.at(-1) ?? Number.NaN);

/**
 * Which way a row showing `text` likely lies, when the rendered cells of the same shape ("CC-4127":
 * letters, then digits) mostly run in order down the grid (`rows` top to bottom): CC-4002 is above
 * CC-4127. When they mostly step evenly (one number per row), how many rows away it is. "Mostly":
 * a grid keeps its focused row rendered wherever it scrolls (AG Grid), out of the run.
 */
export function headingTo(text: string, rows: Element[], cellTexts: (row: Element) => string[]): Heading | undefined {
  const shape = (t: string): string => t.replace(/\d+/g, '#');
  const want = shape(text);
  const target = lastNumber(text);
  if (!want.includes('#') || !Number.isFinite(target)) return undefined;
  const nums = rows
    .flatMap((r) =>
      cellTexts(r)
        .filter((t) => shape(t) === want)
        .slice(0, 1),
    )
    .map(lastNumber);
  if (nums.length < 3) return undefined;
  const diffs = nums.slice(1).map((n, k) => n - nums[k]!);
  const rising = diffs.filter((d) => d > 0).length >= diffs.length * MOSTLY;
  const falling = diffs.filter((d) => d < 0).length >= diffs.length * MOSTLY;
  if (!rising && !falling) return undefined;
  const nearest = nums.reduce((a, b) => (Math.abs(target - b) < Math.abs(target - a) ? b : a));
  if (nearest === target) return undefined;
  const dir = target > nearest === rising ? 'on' : 'back';
  const counts = new Map<number, number>();
  for (const d of diffs) counts.set(d, (counts.get(d) ?? 0) + 1);
  const [step, n] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
  const even = step !== 0 && n >= diffs.length * MOSTLY;
  return even ? { dir, rowsAway: Math.round(Math.abs((target - nearest) / step)) } : { dir };
}

/** A rendered row's height (the grid's row height), for turning rows into pixels. */
export function rowHeight(rows: Element[]): number {
  for (const r of rows) {
    const h = r.getBoundingClientRect().height;
    if (h > 0) return h;
  }
  return 24;
}

/**
 * After a wheel turn: waits (bounded) until the scroller left `from` — a busy page applies the
 * scroll late — then one frame for the grid to render the rows it brought in. Whether it moved.
 */
export async function afterWheel(grid: number | undefined, axis: 'x' | 'y', from: number): Promise<boolean> {
  const root = grid !== undefined ? heldElement(grid) : undefined;
  const sc = root ? scrollerOf(root, axis) : undefined;
  if (!sc) return false;
  const until = performance.now() + MOVE_WAIT_MS;
  while (extent(sc, axis).pos === from && performance.now() < until) await afterFrames(1);
  await afterFrames(1);
  // After a long jump a grid may render the rows of the new place a little later (AG Grid).
  while (axis === 'y' && !rowInView(root!, sc) && performance.now() < until + MOVE_WAIT_MS) await afterFrames(1);
  return extent(sc, axis).pos !== from;
}

/** Whether a rendered row of the grid shows in the scroller's visible part. */
function rowInView(root: Element, sc: Element): boolean {
  const view = extent(sc, 'y').rect;
  for (const r of Array.from(root.querySelectorAll('tr, [role=row]'))) {
    const b = r.getBoundingClientRect();
    if (
      b.height > 0 &&
      b.bottom > view.top + 1 &&
      b.top < view.bottom - 1 &&
      !r.querySelector('[role=columnheader], th[scope=col]')
    )
      return true;
  }
  return false;
}

/** For an index far from the rendered rows: how far to wheel to bring it near, from the rows' own height. */
export function jumpToIndex(grid: Element, index: number, rows: Element[]): number | undefined {
  const headers = headerRowCount(grid);
  const marked = rows
    .map((r) => ({ r, i: rowIndexOf(r, headers, rows) }))
    .filter((m): m is { r: Element; i: number } => m.i !== undefined && m.i >= 0);
  if (!marked.length) return undefined;
  const lo = marked.reduce((a, b) => (b.i < a.i ? b : a));
  const hi = marked.reduce((a, b) => (b.i > a.i ? b : a));
  if (index >= lo.i && index <= hi.i) return undefined;
  return Math.round((index < lo.i ? index - lo.i : index - hi.i) * rowHeight(rows));
}

/** Resolves after `n` animation frames (a frame is at most FRAME_WAIT_MS: a hidden tab paints none). */
export function afterFrames(n: number): Promise<number> {
  const frame = (): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, FRAME_WAIT_MS);
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return (async () => {
    for (let k = 0; k < n; k++) await frame();
    return n;
  })();
}
