// The drag gesture as a person makes it: press on the source, a few pixels to pass drag
// thresholds, `steps` moves with the button held, a pause over the target, a last move, release.
// With drag interception on, a native HTML5 drag the page starts on the way is handed to us
// (Input.dragIntercepted) and finished with trusted Input.dispatchDragEvent — as Puppeteer does —
// instead of running an OS drag loop that headful Chrome would block in.

import type { Deadline } from '../common/index.js';
import { isMethodUnavailable, type Protocol } from '../cdp/index.js';
import type { Page } from '../page/index.js';
import { mouseDown, mouseUp, moveMouse, type Point } from './mouse.js';

/** Past the start thresholds of drag libraries (SortableJS 0–5 px, jQuery UI 1 px) and Chrome's own (4 px). */
const THRESHOLD_PX = 6;
/** A person's pause over the drop target: libraries hit-test and animate on timers. */
export const HOVER_PAUSE_MS = 80;
/** How long a source that Chrome drags natively gets to start its drag after the threshold. */
const NATIVE_START_MS = 250;
const NATIVE_START_POLL_MS = 10;
/** Clean-up after a failure runs past the step deadline, briefly. */
const CLEANUP_TIMEOUT_MS = 1_000;

export interface GestureOptions {
  steps: number;
  delayMs: number;
  /** Hand native drags to us (Input.setInterceptDrags was enabled). */
  intercept: boolean;
  /** The source is draggable: wait for its native drag to start before moving on. */
  expectNative: boolean;
}

export interface GestureResult {
  /** A native HTML5 drag started and was finished with trusted drag events. */
  native: boolean;
}

type DragEventType = 'dragEnter' | 'dragOver' | 'drop' | 'dragCancel';

const lerp = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

/** Enables drag interception; false when this Chrome lacks it (the caller picks another way). */
export async function interceptDrags(page: Page, enabled: boolean, deadline: Deadline): Promise<boolean> {
  try {
    await page.guard(deadline.race(page.session.send('Input.setInterceptDrags', { enabled }), 'drag interception'));
    return true;
  } catch (err) {
    // Turning it off only tidies up (the session ends with the command anyway); turning it on
    // fails in a browser without it, and the caller then drags another way.
    if (!enabled || isMethodUnavailable(err)) return false;
    throw err;
  }
}

export async function dragGesture(
  page: Page,
  from: Point,
  to: Point,
  o: GestureOptions,
  deadline: Deadline,
): Promise<GestureResult> {
  let data: Protocol.Input.DragData | undefined;
  const stop = o.intercept
    ? page.session.on('Input.dragIntercepted', (e) => {
        data ??= e.data;
      })
    : () => {};
  const drag = (type: DragEventType, p: Point): Promise<unknown> =>
    page.guard(
      deadline.race(
        page.session.send('Input.dispatchDragEvent', { type, x: p.x, y: p.y, data: data! }),
        `the ${type} drag event`,
      ),
    );
  let entered = false;
  let finished = false;
  const enter = async (p: Point): Promise<void> => {
    if (!entered) {
      entered = true;
      await drag('dragEnter', p);
    }
  };
  try {
    await moveMouse(page, from, deadline, { steps: 3 });
    await mouseDown(page, from, deadline);
    const d = Math.hypot(to.x - from.x, to.y - from.y);
    const start = d > THRESHOLD_PX ? lerp(from, to, THRESHOLD_PX / d) : { x: from.x + THRESHOLD_PX, y: from.y };
    await moveMouse(page, start, deadline, { steps: 2, buttons: 1 });
    if (o.intercept && o.expectNative) {
      const until = deadline.cap(NATIVE_START_MS);
      while (!data && !until.expired()) await until.sleep(NATIVE_START_POLL_MS);
    }
    let at = start;
    for (let i = 1; i <= o.steps; i++) {
      const p = lerp(start, to, i / o.steps);
      if (data) {
        await enter(at);
        await drag('dragOver', p);
      } else await moveMouse(page, p, deadline, { steps: 1, buttons: 1 });
      at = p;
      if (o.delayMs && i < o.steps) await deadline.sleep(o.delayMs);
    }
    await deadline.sleep(HOVER_PAUSE_MS);
    // The last move, after the pause (a drag that started late is entered here).
    if (data) {
      await enter(to);
      await drag('dragOver', to);
      await drag('drop', to);
    } else await moveMouse(page, to, deadline, { steps: 1, buttons: 1 });
    finished = true;
    await mouseUp(page, to, deadline);
    return { native: !!data };
  } finally {
    stop();
    // A drag handed to us and never answered would leave the renderer swallowing input until the
    // page navigates: cancel it, and let the button up, whatever went wrong.
    if (data && !finished) {
      await page.session
        .sendWith(
          'Input.dispatchDragEvent',
          { type: 'dragCancel', x: to.x, y: to.y, data },
          { timeoutMs: CLEANUP_TIMEOUT_MS },
        )
        .catch(() => {
          /* the tab is gone or already idle */
        });
    }
    if (!finished) {
      await page.session
        .sendWith(
          'Input.dispatchMouseEvent',
          { type: 'mouseReleased', x: to.x, y: to.y, button: 'left', buttons: 0, clickCount: 1 },
          { timeoutMs: CLEANUP_TIMEOUT_MS },
        )
        .catch(() => {
          /* nothing to release on a dead tab */
        });
    }
  }
}
