// The mouse, as a person moves it: trusted Input.dispatchMouseEvent events, intermediate moves on
// the way to a point, and the pointer position remembered for the rest of the command.

import type { Deadline } from '../common/index.js';
import type { Page } from '../page/index.js';

export interface Point {
  x: number;
  y: number;
}

const positions = new WeakMap<Page, Point>();
/** Where a pointer enters from when the command has not moved it yet: just off the target. */
const APPROACH_OFFSET_PX = 12;

type MouseType = 'mouseMoved' | 'mousePressed' | 'mouseReleased' | 'mouseWheel';
export type MouseButton = 'left' | 'right' | 'middle';
/** The `buttons` bit of each button while it is held (MouseEvent.buttons). */
const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

/** Which button a press uses, and the modifier keys held with it (Alt=1, Control=2, Meta=4, Shift=8). */
export interface Press {
  button?: MouseButton;
  modifiers?: number;
}

function send(
  page: Page,
  type: MouseType,
  p: Point,
  extra: {
    button?: MouseButton | 'none';
    buttons?: number;
    clickCount?: number;
    deltaX?: number;
    deltaY?: number;
    modifiers?: number;
  } = {},
): Promise<unknown> {
  return page.session.send('Input.dispatchMouseEvent', {
    type,
    x: p.x,
    y: p.y,
    button: extra.button ?? 'none',
    buttons: extra.buttons ?? 0,
    ...(extra.modifiers ? { modifiers: extra.modifiers } : {}),
    ...(extra.clickCount !== undefined ? { clickCount: extra.clickCount } : {}),
    ...(extra.deltaX !== undefined ? { deltaX: extra.deltaX, deltaY: extra.deltaY ?? 0 } : {}),
  });
}

export function mousePosition(page: Page): Point | undefined {
  return positions.get(page);
}

/**
 * Moves to `to` through `steps` evenly spaced points (the last one is `to`), `delayMs` apart.
 * Without a delay the moves go out together, as a fast hand's do: Chrome still delivers each one
 * (pointermove, mousemove, mouseover), but the command does not wait an animation frame per move.
 */
export async function moveMouse(
  page: Page,
  to: Point,
  deadline: Deadline,
  opts: { steps?: number; delayMs?: number; buttons?: number; modifiers?: number } = {},
): Promise<void> {
  const from = positions.get(page) ?? {
    x: Math.max(0, to.x - APPROACH_OFFSET_PX),
    y: Math.max(0, to.y - APPROACH_OFFSET_PX),
  };
  const steps = Math.max(1, opts.steps ?? 2);
  const extra = {
    buttons: opts.buttons ?? 0,
    button: opts.buttons ? ('left' as const) : ('none' as const),
    modifiers: opts.modifiers ?? 0,
  };
  const points = Array.from({ length: steps }, (_, k) => ({
    x: from.x + ((to.x - from.x) * (k + 1)) / steps,
    y: from.y + ((to.y - from.y) * (k + 1)) / steps,
  }));
  if (!opts.delayMs) {
    await page.guard(
      deadline.race(Promise.all(points.map((p) => send(page, 'mouseMoved', p, extra))), 'the mouse to move'),
    );
    positions.set(page, to);
    return;
  }
  for (const [i, p] of points.entries()) {
    await page.guard(deadline.race(send(page, 'mouseMoved', p, extra), 'the mouse to move'));
    positions.set(page, p);
    if (i < steps - 1) await deadline.sleep(opts.delayMs);
  }
}

export function mouseDown(page: Page, at: Point, deadline: Deadline, clickCount = 1, press: Press = {}): Promise<void> {
  return pressOrRelease(page, 'mousePressed', at, deadline, clickCount, press);
}

export function mouseUp(page: Page, at: Point, deadline: Deadline, clickCount = 1, press: Press = {}): Promise<void> {
  return pressOrRelease(page, 'mouseReleased', at, deadline, clickCount, press);
}

/** A button going down (held in `buttons` from then on) or coming up, with the press's modifiers. */
async function pressOrRelease(
  page: Page,
  type: 'mousePressed' | 'mouseReleased',
  at: Point,
  deadline: Deadline,
  clickCount: number,
  press: Press,
): Promise<void> {
  const button = press.button ?? 'left';
  const buttons = type === 'mousePressed' ? BUTTON_BITS[button] : 0;
  await page.guard(
    deadline.race(
      send(page, type, at, { button, buttons, clickCount, modifiers: press.modifiers }),
      type === 'mousePressed' ? 'the mouse button to go down' : 'the mouse button to come up',
    ),
  );
}

/** Press and release at `at` `clickCount` times (click counts 1, 2, … as a double or triple click has). */
export async function clickAt(
  page: Page,
  at: Point,
  deadline: Deadline,
  clickCount = 1,
  press: Press = {},
): Promise<void> {
  for (let n = 1; n <= clickCount; n++) {
    await mouseDown(page, at, deadline, n, press);
    await mouseUp(page, at, deadline, n, press);
  }
}

export async function wheel(page: Page, at: Point, deltaX: number, deltaY: number, deadline: Deadline): Promise<void> {
  await page.guard(deadline.race(send(page, 'mouseWheel', at, { deltaX, deltaY }), 'the wheel to scroll'));
}
