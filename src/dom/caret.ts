// The caret in an editor, placed as a person places it: a trusted click at the edge of the text's
// own character boxes (before or after an occurrence), or a click at its start then a shift+click
// at its end (a selection), so the editor's own model follows. Then where the caret really is, read
// back from the page: the DOM selection, or the caret the editor draws (Monaco, Ace).

import { ElementNotFoundError, ExecutionError, type Deadline } from '../common/index.js';
import type { Page, Scope } from '../page/index.js';
import type { CaretFound, CaretPosition, CaretRequest } from '../injected/index.js';
import { revealFramePoint } from './frame-point.js';
import { locate, type RefHolder, type TargetSpec } from './locate.js';
import { clickAt, moveMouse, wheel, type Point } from './mouse.js';

const SHIFT = 8;
const SHIFT_KEY = { key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16, nativeVirtualKeyCode: 16 };

export interface CaretOptions {
  text: string;
  position: CaretPosition;
  occurrence?: number;
  in?: TargetSpec;
}

export interface CaretResult {
  /** Where the caret is now: the line with `|` at the caret or the selection in [brackets]. */
  at: string;
  selected?: string;
  occurrence: number;
  of: number;
  editor: string;
  /** How `at` was read: the DOM selection, or the caret the editor draws. */
  readFrom: 'selection' | 'editor';
  warnings: string[];
}

async function toTop(scope: Scope, p: Point, deadline: Deadline): Promise<Point> {
  return scope.frame ? revealFramePoint(scope.page, scope.frameId, p, deadline) : p;
}

async function shiftClick(page: Page, at: Point, deadline: Deadline): Promise<void> {
  const key = (type: 'rawKeyDown' | 'keyUp'): Promise<unknown> =>
    page.guard(
      deadline.race(
        page.session.send('Input.dispatchKeyEvent', { type, modifiers: type === 'keyUp' ? 0 : SHIFT, ...SHIFT_KEY }),
        'the shift+click to land',
      ),
    );
  await key('rawKeyDown');
  try {
    await clickAt(page, at, deadline, 1, { modifiers: SHIFT });
  } finally {
    await key('keyUp');
  }
}

/** Wheel turns an editor that renders only the lines in view gets, each way, to find the text. */
const MAX_WHEEL_TURNS = 150;
/** Time kept back from the step's deadline to answer when the search runs long. */
const ANSWER_RESERVE_MS = 1_500;
/** Time a wheel turn's smooth scroll gets before the editor is taken to be at its end. */
const SCROLL_SETTLE_MS = 150;

/**
 * Finds the text; in an editor that renders only the lines near the view (Monaco, CodeMirror), turns
 * the wheel over it as a person scrolls, down to the end then up to the start, until it shows.
 */
async function findScrolling(scope: Scope, req: CaretRequest, deadline: Deadline): Promise<CaretFound> {
  const look = (afterWheel: boolean): Promise<CaretFound> =>
    scope.call(
      (rt, a) => rt.caret.find(a.req, a.afterWheel),
      { req, afterWheel },
      {
        deadline,
        what: `${JSON.stringify(req.text)} in an editor`,
      },
    );
  let found = await look(false);
  for (const direction of [1, -1]) {
    for (let turn = 0; turn < MAX_WHEEL_TURNS * (direction < 0 ? 2 : 1); turn++) {
      if (found.ok || !found.scroll || deadline.remainingMs() < ANSWER_RESERVE_MS) return found;
      const { x, y, step, shows } = found.scroll;
      await wheel(scope.page, await toTop(scope, { x, y }, deadline), 0, direction * step, deadline);
      found = await look(true);
      if (found.ok || found.scroll?.shows !== shows) continue;
      // Nothing new yet: a smooth scroll may still be under way; still nothing, the end (or start) is reached.
      await deadline.sleep(SCROLL_SETTLE_MS);
      found = await look(true);
      if (!found.ok && found.scroll?.shows === shows) break;
    }
  }
  return found;
}

export async function placeCaret(
  scope: Scope,
  opts: CaretOptions,
  refs: RefHolder,
  deadline: Deadline,
): Promise<CaretResult> {
  const handle = opts.in ? (await locate(scope, opts.in, refs, {}, deadline)).handle : undefined;
  const req: CaretRequest = {
    text: opts.text,
    position: opts.position,
    ...(opts.occurrence !== undefined ? { occurrence: opts.occurrence } : {}),
    ...(handle !== undefined ? { handle } : {}),
  };
  const found = await findScrolling(scope, req, deadline);
  if (!found.ok) {
    const Err = found.reason === 'not-found' || found.reason === 'no-editable' ? ElementNotFoundError : ExecutionError;
    throw new Err(found.message, {
      category: found.reason === 'ambiguous' ? 'ambiguous' : found.reason === 'covered' ? 'covered' : 'not-found',
      ...(found.reason === 'ambiguous' ? {} : { nextStep: { snapshot: true } }),
    });
  }
  const from = await toTop(scope, found.from, deadline);
  await moveMouse(scope.page, from, deadline, { steps: 2 });
  await clickAt(scope.page, from, deadline);
  if (opts.position === 'select') {
    const to = await toTop(scope, found.to, deadline);
    await moveMouse(scope.page, to, deadline, { steps: 3 });
    await shiftClick(scope.page, to, deadline);
  }
  const back = await scope.call(
    (rt, r) => rt.caret.readBack(r),
    { ...req, occurrence: found.occurrence },
    {
      deadline,
      what: 'where the caret is',
    },
  );
  const want =
    opts.position === 'select'
      ? `${JSON.stringify(opts.text)} selected`
      : `the caret ${opts.position} ${JSON.stringify(opts.text)}`;
  if (!back.ok) {
    return {
      at: 'unknown',
      occurrence: found.occurrence,
      of: found.of,
      editor: found.editor,
      readFrom: 'selection',
      warnings: [`clicked for ${want} but ${back.message}: check it before typing`],
    };
  }
  if (!back.matches) {
    throw new ExecutionError(
      `Clicked for ${want} in ${found.editor}, but the ${back.selected ? `selection is ${JSON.stringify(back.selected)}` : 'caret is'} at ${JSON.stringify(back.at)}: the editor put it elsewhere`,
      { category: 'no-effect', nextStep: { snapshot: true } },
    );
  }
  return {
    at: back.at,
    ...(back.selected !== undefined ? { selected: back.selected } : {}),
    occurrence: found.occurrence,
    of: found.of,
    editor: found.editor,
    readFrom: back.how,
    warnings: [],
  };
}
