// Finding a grid cell by row and column (issue 23 item 2): the page looks (injected/grid-cells.ts);
// when the row or column is not rendered, the grid is wheeled as a person would — on to the end,
// then back — with trusted wheel events, until it is, within the step's deadline.

import { ElementNotFoundError, TimeoutError, type Deadline } from '../common/index.js';
import type { CellLook, RowSpec, Wheel } from '../injected/index.js';
import type { Scope } from '../page/index.js';
import { revealFramePoint } from './frame-point.js';
import type { RefHolder } from './locate.js';
import { mousePosition, moveMouse, wheel } from './mouse.js';

export interface CellSpec {
  row: RowSpec;
  column: string;
}

export type FoundCell = Extract<CellLook, { ok: true }> & { wheels: number };

/** Wheel turns that did not move the grid before its end counts as reached. */
const STUCK_TURNS = 2;
/** Time kept back from the deadline for the edit itself. */
const EDIT_RESERVE_MS = 1_500;

export function describeCell(c: CellSpec): string {
  const row =
    typeof c.row === 'number'
      ? `row ${c.row}`
      : typeof c.row === 'string'
        ? `row "${c.row}"`
        : `the row whose ${c.row.column} is "${c.row.equals}"`;
  return `${row}, column "${c.column}"`;
}

/** One trusted wheel turn over the grid (the pointer moved there first when it is elsewhere). */
async function turnWheel(scope: Scope, w: Wheel, deadline: Deadline): Promise<void> {
  const at = scope.frame ? await revealFramePoint(scope.page, scope.frameId, w, deadline) : { x: w.x, y: w.y };
  const now = mousePosition(scope.page);
  if (!now || now.x !== at.x || now.y !== at.y) await moveMouse(scope.page, at, deadline);
  await wheel(scope.page, at, w.dx, w.dy, deadline);
}

interface Sweep {
  /** auto: the way the page thinks likelier (rows in order), then the other way. */
  dir: 'auto' | 'on' | 'back';
  grid?: number;
  rowKey?: string;
  wheels: number;
  /** Per axis: where the last turn started, and how many turns in a row did not move the grid. */
  last: { x?: number; y?: number };
  stuck: { x: number; y: number };
  /** Wheel sideways back to the grid's start before looking for a row (its key column may be off screen). */
  sideways: boolean;
  /** The last turn: the next look waits for the grid to move from there and render. */
  wheeled?: { axis: 'x' | 'y'; from: number };
}

/** Whether to look again after a look that missed: wheels the grid on, or turns the sweep round at its end. */
async function wheelOn(
  scope: Scope,
  r: Extract<CellLook, { ok: false }>,
  s: Sweep,
  deadline: Deadline,
): Promise<boolean> {
  if (r.wheel) {
    const axis = r.wheel.dy ? 'y' : 'x';
    s.stuck[axis] = r.wheel.at === s.last[axis] ? s.stuck[axis] + 1 : 0;
    if (s.stuck[axis] < STUCK_TURNS) {
      s.last[axis] = r.wheel.at;
      await turnWheel(scope, r.wheel, deadline);
      s.wheeled = { axis, from: r.wheel.at };
      s.wheels++;
      return true;
    }
    // A grid that will not scroll back sideways: look for the row where it stands.
    if (axis === 'x' && r.reason === 'no-row' && s.sideways) {
      s.sideways = false;
      return true;
    }
  }
  if (s.dir !== 'auto') return false;
  s.dir = r.dir === 'back' ? 'on' : 'back';
  s.stuck = { x: 0, y: 0 };
  s.last = {};
  s.wheeled = undefined;
  return true;
}

/** Finds the cell, wheeling the grid to bring its row and column in; fails saying what was missing. */
export async function findCell(
  scope: Scope,
  cell: CellSpec,
  refs: RefHolder,
  within: string | undefined,
  deadline: Deadline,
  rowKey?: string,
): Promise<FoundCell> {
  const s: Sweep = {
    dir: 'auto',
    wheels: 0,
    last: {},
    stuck: { x: 0, y: 0 },
    sideways: true,
    ...(rowKey ? { rowKey } : {}),
  };
  for (;;) {
    const q = {
      ...cell,
      within,
      grid: s.grid,
      rowKey: s.rowKey,
      sweep: s.dir,
      counters: refs.counters,
      hops: s.wheels,
      wheeled: s.wheeled,
      sideways: s.sideways,
    };
    s.wheeled = undefined;
    const r = await scope.call((rt, a) => rt.gridCells.findCell(a), q, {
      deadline,
      what: `the cell at ${describeCell(cell)}`,
    });
    if (r.ok) {
      refs.counters = r.counters;
      return { ...r, wheels: s.wheels };
    }
    s.grid = r.grid ?? s.grid;
    s.rowKey = r.rowKey ?? s.rowKey;
    const details = { category: 'cell-not-found', cell: describeCell(cell), reason: r.reason };
    if (r.reason === 'no-grid' || r.reason === 'ambiguous') throw new ElementNotFoundError(`${r.message}`, details);
    if (deadline.remainingMs() < EDIT_RESERVE_MS)
      throw new TimeoutError(`${r.message} after wheeling the grid ${s.wheels} times, before time ran out`, details);
    if (!(await wheelOn(scope, r, s, deadline))) {
      const swept = s.wheels ? `: wheeled the grid ${s.wheels} times through to both ends` : '';
      throw new ElementNotFoundError(`${r.message}${swept}`, details);
    }
  }
}
