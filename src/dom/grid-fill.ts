// Filling grid cells as a person does (issue 23 item 2, DECISIONS "grid-cell fill acts like a
// person"): find the cell (grid-find.ts), open the grid's editor (double-click, else Enter) or click
// the cell's own input, type, commit (Enter in a grid's editor, Tab out of an input), then read the
// rendered cell back and every other rendered cell: the value must be in the cell, and nowhere else.

import { ElementNotEditableError, ExecutionError, errorMessage, markSecret, type Deadline } from '../common/index.js';
import { REDACTED } from '../shared/index.js';
import type { Scope } from '../page/index.js';
import { sameSignificant } from './fill.js';
import { describeCell, findCell, type CellSpec, type FoundCell } from './grid-find.js';
import { parseCombo } from './key-combo.js';
import { pressCombo } from './keyboard.js';
import { prepareAction, type RefHolder, type TargetOptions } from './locate.js';
import { clickAt, moveMouse } from './mouse.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export interface CellValue extends CellSpec {
  value: string;
}

export interface CellFilled {
  row: CellSpec['row'];
  column: string;
  /** What the cell shows once the grid took the edit. */
  shows: string;
}

export interface GridFillResult extends SettleResult {
  filled: CellFilled[];
  /** Wheel turns it took to bring the cells into view (0: all were rendered). */
  wheels: number;
  warnings: string[];
}

/** How long the grid gets to open its editor after the double-click, and to close it after the commit key. */
const EDITOR_WAIT_MS = 1_500;
/** After Enter, when the double-click opened nothing: a busy machine renders the editor late. */
const EDITOR_ENTER_WAIT_MS = 3_000;
const POLL_MS = 50;

async function press(scope: Scope, key: string, deadline: Deadline): Promise<void> {
  const parsed = parseCombo(key);
  if (parsed.ok) await scope.page.guard(pressCombo(scope.page.session, parsed.combo, deadline));
}

/** Types the value over the selected text (an empty value: Backspace deletes it). */
async function typeText(scope: Scope, value: string, deadline: Deadline): Promise<void> {
  if (!value) return press(scope, 'Backspace', deadline);
  await scope.page.guard(deadline.race(scope.page.session.send('Input.insertText', { text: value }), 'typing'));
}

/** Polls (bounded) until `look` answers something. */
async function waitFor<T>(look: () => Promise<T | undefined>, ms: number, deadline: Deadline): Promise<T | undefined> {
  const until = deadline.cap(ms);
  for (;;) {
    const r = await look();
    if (r !== undefined || until.expired()) return r;
    await until.sleep(POLL_MS);
  }
}

/** The double-click did not reach the cell found: the grid moved it under the pointer. */
class CellMoved extends Error {}

/** Whether the cell is still where it was double-clicked (`local`: the point in its frame). */
function cellStillThere(
  scope: Scope,
  cell: string,
  local: { x: number; y: number },
  deadline: Deadline,
): Promise<boolean> {
  return scope.call(
    (rt, a) => rt.gridEdit.cellAt(a.cell, a.x, a.y),
    { cell, ...local },
    { deadline, what: 'the cell' },
  );
}

/** Double-clicks the cell (Enter if that opened nothing), types into the editor the grid opened, commits with Enter. */
async function editInGrid(
  scope: Scope,
  found: FoundCell,
  value: string,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<boolean> {
  const at = await prepareAction(scope, { by: 'ref', ref: found.cell }, 'click', refs, opts, deadline);
  await moveMouse(scope.page, at, deadline);
  await clickAt(scope.page, at, deadline, 2);
  const editorOver = () =>
    scope.call((rt, ref) => rt.gridEdit.editorOver(ref), found.cell, { deadline, what: "the grid's editor" });
  let editor = await waitFor(editorOver, EDITOR_WAIT_MS, deadline);
  if (!editor && !(await cellStillThere(scope, found.cell, at.local, deadline))) {
    // The grid re-rendered under the pointer (a late scroll): the double-click went to another
    // cell. Its editor, if any, is cancelled unchanged; the cell is found again (fillCell).
    await press(scope, 'Escape', deadline);
    throw new CellMoved();
  }
  if (!editor) {
    await press(scope, 'Enter', deadline);
    editor = await waitFor(editorOver, EDITOR_ENTER_WAIT_MS, deadline);
  }
  if (!editor)
    throw new ElementNotEditableError(
      `the cell did not open an editor on a double-click or Enter (a read-only column?)`,
      { category: 'not-editable' },
    );
  if (editor.secret) markSecret(value);
  await scope.call((rt, h) => rt.formInput.prepareField(h, true), editor.handle, { deadline });
  await typeText(scope, value, deadline);
  await press(scope, 'Enter', deadline);
  const handle = editor.handle;
  const open = () =>
    scope
      .call((rt, h) => rt.gridEdit.editorStillOpen(h), handle, { deadline, what: 'the editor to close' })
      .then((still) => (still ? undefined : true));
  if (!(await waitFor(open, EDITOR_WAIT_MS, deadline)))
    throw new ExecutionError('the grid kept its editor open after Enter: the edit was not committed', {
      category: 'not-editable',
    });
  return editor.secret;
}

/** Clicks the cell's own input as a person would, selects what it holds, types, and leaves it with Tab. */
async function editInControl(
  scope: Scope,
  control: string,
  value: string,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<boolean> {
  const at = await prepareAction(scope, { by: 'ref', ref: control }, 'fill', refs, opts, deadline);
  await moveMouse(scope.page, at, deadline);
  await clickAt(scope.page, at, deadline);
  const prep = await scope.call(
    (rt, h) => ({ ...rt.formInput.prepareField(h, true), secret: rt.formInput.isSecretHeld(h) }),
    at.handle,
    { deadline, what: "the cell's input" },
  );
  if (prep.secret) markSecret(value);
  if (!prep.ok)
    throw new ElementNotEditableError(`the cell's input could not take focus`, { category: 'not-editable' });
  await typeText(scope, value, deadline);
  await press(scope, 'Tab', deadline);
  return prep.secret;
}

type Cells = Record<string, string>;
type CellOptions = TargetOptions & { within?: string; rowKeys: Map<string, string>; wheels: number };

/** The other cells whose text changed between two reads of the rendered grid. */
function changedElsewhere(before: Cells, after: Cells, target: string): string[] {
  return Object.keys(after).filter((k) => k !== target && k in before && before[k] !== after[k]);
}

/** Says what else changed, in row and column words: `row "CC-4128", column "Jul": "" → "18400"`. */
async function describeChanges(
  scope: Scope,
  grid: number,
  keys: string[],
  before: Cells,
  after: Cells,
  deadline: Deadline,
): Promise<string> {
  const words = await scope.call(
    (rt, a) => rt.gridEdit.describeCells(a.grid, a.keys),
    { grid, keys: keys.slice(0, 5) },
    { deadline },
  );
  const list = keys.slice(0, 5).map((k) => `${words[k] ?? k}: "${before[k]}" → "${after[k]}"`);
  return `${list.join('; ')}${keys.length > 5 ? `; and ${keys.length - 5} more` : ''}`;
}

/** Finds the cell and edits it; once more from the finding when the grid moved it under the pointer. */
async function findAndEdit(scope: Scope, c: CellValue, refs: RefHolder, opts: CellOptions, deadline: Deadline) {
  for (let attempt = 1; ; attempt++) {
    // The same row named again (three months of one row): its key from the last cell finds it at once.
    const rowSpec = JSON.stringify(c.row);
    const found = await findCell(scope, c, refs, opts.within, deadline, opts.rowKeys.get(rowSpec));
    if (found.rowKey) opts.rowKeys.set(rowSpec, found.rowKey);
    opts.wheels += found.wheels;
    const read = () =>
      scope.call((rt, a) => ({ cells: rt.gridEdit.renderedCells(a.grid), cell: rt.gridEdit.readCell(a.cell) }), found, {
        deadline,
        what: 'the grid',
      });
    const before = await read();
    try {
      const secret = found.control
        ? await editInControl(scope, found.control, c.value, refs, opts, deadline)
        : await editInGrid(scope, found, c.value, refs, opts, deadline);
      return { found, before, secret, read };
    } catch (err) {
      if (!(err instanceof CellMoved)) throw err;
      if (attempt >= 2)
        throw new ExecutionError(
          `${describeCell(c)}: the grid moved the cell from under the pointer twice (it kept scrolling); nothing was typed`,
          { category: 'stale-ref' },
        );
    }
  }
}

/** Fills one cell and proves it: the cell shows the value (or its formatting of it); no other cell took it. */
async function fillCell(
  scope: Scope,
  c: CellValue,
  refs: RefHolder,
  opts: CellOptions,
  deadline: Deadline,
): Promise<CellFilled & { warning?: string }> {
  const { found, before, secret, read } = await findAndEdit(scope, c, refs, opts, deadline);
  const after = await read();
  const key = before.cell?.key ?? '';
  const shows = after.cell?.shows ?? after.cells[key] ?? '';
  const took = shows === c.value || sameSignificant(shows, c.value);
  const elsewhere = changedElsewhere(before.cells, after.cells, key);
  const misplaced = elsewhere.filter(
    (k) => after.cells[k] === c.value || sameSignificant(after.cells[k] ?? '', c.value),
  );
  const where = describeCell(c);
  if (!took || misplaced.length) {
    const others = elsewhere.length
      ? `; other cells changed: ${await describeChanges(scope, found.grid, misplaced.length ? misplaced : elsewhere, before.cells, after.cells, deadline)}`
      : '';
    const what = secret ? 'the value' : `"${c.value}"`;
    throw new ExecutionError(`${where}: the cell shows "${secret ? REDACTED : shows}" after typing ${what}${others}`, {
      category: misplaced.length ? 'wrong-cell' : 'not-editable',
    });
  }
  const out: CellFilled & { warning?: string } = { row: c.row, column: found.column, shows: secret ? REDACTED : shows };
  // A computed cell (a row total) may follow the edit: said, not hidden, and not a failure.
  if (elsewhere.length)
    out.warning = `${where}: other cells changed with it: ${await describeChanges(scope, found.grid, elsewhere, before.cells, after.cells, deadline)}`;
  return out;
}

/** Fills the cells in order; a failure says which cells did land, so the agent retries only the rest. */
export async function fillCells(
  scope: Scope,
  cells: CellValue[],
  refs: RefHolder,
  opts: TargetOptions & { within?: string },
  deadline: Deadline,
): Promise<GridFillResult> {
  const mark = markBeforeAction(scope.page);
  const cellOpts: CellOptions = { ...opts, rowKeys: new Map(), wheels: 0 };
  const filled: CellFilled[] = [];
  const warnings: string[] = [];
  for (const c of cells) {
    try {
      const { warning, ...done } = await fillCell(scope, c, refs, cellOpts, deadline);
      filled.push(done);
      if (warning) warnings.push(warning);
    } catch (err) {
      mark.stopListening();
      if (!filled.length) throw err;
      const landed = filled.map((f) => describeCell(f)).join('; ');
      throw new ExecutionError(
        `Filled ${filled.length} of ${cells.length} cells (${landed}); ${describeCell(c)} failed: ${errorMessage(err)}`,
        { ...(err as { details?: Record<string, unknown> }).details, filled },
        { cause: err },
      );
    }
  }
  const settled = await settleAfterAction(scope.page, mark, deadline);
  if (settled.warning) warnings.push(settled.warning);
  return { filled, wheels: cellOpts.wheels, ...settled, warnings };
}
