// The two ways a click is made (SPEC §9.1): a trusted click whose probe says whether its events
// reached the element, judged over the whole gesture (a press that acted is the click), and
// element.click() — asked for, or only when the trusted click never reached it (never both).

import { isContextDestroyed } from '../cdp/index.js';
import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import { clickAt, moveMouse } from './mouse.js';
import { prepareAction, type Actionable, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import type { ActionMark } from './settle.js';
import { readEffects, watchEffects } from './effects.js';
import type { ProbeReport } from '../injected/index.js';

export interface ClickOptions extends TargetOptions {
  jsClick?: boolean;
  nativeOnly?: boolean;
  doubleClick?: boolean;
}

/** Reads the probe; a document that navigated away has no probe, and the click evidently landed. */
async function readProbe(scope: Scope, count: number, deadline: Deadline): Promise<ProbeReport> {
  try {
    return await scope.call((rt, n) => rt.clickProbe.readClickProbe(n), count, {
      deadline,
      what: 'the click to be confirmed',
    });
  } catch (err) {
    if (isContextDestroyed(err)) return { armed: false, reached: [], seen: [], clicked: false };
    throw err;
  }
}

async function jsClick(
  scope: Scope,
  handle: number,
  count: number,
  deadline: Deadline,
): Promise<{ ok: boolean; checked?: boolean }> {
  return scope.call(
    (rt, a) => rt.clickProbe.jsClick(a.handle, a.count),
    { handle, count },
    { deadline, what: 'element.click()' },
  );
}

async function arm(scope: Scope, a: Actionable, deadline: Deadline): Promise<boolean> {
  return scope.call(
    (rt, h) => rt.clickProbe.armClickProbe(h.pointer, h.control, h.x, h.y),
    { pointer: a.pointerHandle, control: a.handle, x: a.local.x, y: a.local.y },
    { deadline, what: 'the click probe' },
  );
}

/** Trusted clicks that landed elsewhere (a layout shift) were swallowed; this many are retried. */
const MAX_MISSED_CLICKS = 3;
/** How long a pointer move may take to show up in an out-of-process frame's document. */
const MOVE_ARRIVAL_MS = 150;
/** Moves tried before giving up on reaching an out-of-process frame's target. */
const MOVE_TRIES = 4;

/**
 * In an out-of-process frame the browser, not the page, decides where input goes, by hit-test data
 * the compositor refreshes a frame after the page scrolled or moved the <iframe>: a press sent
 * before that lands on the host page. So the pointer is moved onto the point until the frame's own
 * document sees a trusted move reach the target (wiggled a pixel between tries, so each is a real
 * move), and only then pressed. Answers what the last move hit when it never got there.
 */
async function pointerReachesInFrame(
  scope: Scope,
  a: Actionable,
  deadline: Deadline,
): Promise<{ on: boolean; hit?: string }> {
  let seen: { on: boolean; hit?: string } = { on: false };
  for (let i = 0; i < MOVE_TRIES && !deadline.expired(); i++) {
    if (i > 0) {
      await moveMouse(scope.page, { x: a.x + (i % 2 ? 1 : -1), y: a.y }, deadline, { steps: 1 });
      await moveMouse(scope.page, a, deadline, { steps: 1 });
    }
    seen = await scope.call((rt, ms) => rt.clickProbe.awaitPointerOn(ms), MOVE_ARRIVAL_MS, {
      deadline,
      what: 'the pointer to reach the frame',
    });
    if (seen.on) return seen;
  }
  return seen;
}

/**
 * Trusted click attempts: each re-checks the point right before pressing, and a click whose first
 * event lands elsewhere is swallowed by the probe and retried. Returns the last report.
 */
async function trustedClick(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: ClickOptions,
  first: Actionable,
  count: number,
  deadline: Deadline,
): Promise<{ a: Actionable; probe: ProbeReport }> {
  let a = first;
  let probe: ProbeReport = { armed: true, reached: [], seen: [], clicked: false };
  const { outOfProcess } = scope;
  for (let attempt = 1; attempt <= MAX_MISSED_CLICKS; attempt++) {
    if (await arm(scope, a, deadline)) {
      await moveMouse(scope.page, a, deadline);
      const reach = outOfProcess ? await pointerReachesInFrame(scope, a, deadline) : { on: true }; // after the move above
      if (!reach.on) {
        // Not pressed: a press now would land on whatever the browser routes this point to.
        probe = await readProbe(scope, count, deadline);
        probe.other ??=
          reach.hit ??
          `the page around the frame (a pointer at (${Math.round(a.x)}, ${Math.round(a.y)}) does not reach into the frame there)`;
      } else {
        await clickAt(scope.page, a, deadline, count);
        probe = await readProbe(scope, count, deadline);
        // Reached (or pressed on it, after which a second press would be a second click): done.
        if (!probe.armed || probe.clicked || probe.pressedOnly) return { a, probe };
      }
    }
    if (attempt < MAX_MISSED_CLICKS) a = await prepareAction(scope, target, 'click', refs, opts, deadline);
  }
  return { a, probe };
}

/** Why the trusted click was not used: the cover it would hit, or where the trusted clicks went. */
function fallbackReason(a: Actionable, probe: ProbeReport | undefined): string {
  if (!probe) return `it ${a.forcedBecause?.message ?? 'failed its checks'}, so a trusted click would hit that instead`;
  if (probe.pressedOnly)
    return `the trusted press reached it but the release landed ${probe.other ? `on ${probe.other}` : 'elsewhere'}, so no click followed`;
  return probe.other
    ? `trusted clicks at (${Math.round(a.x)}, ${Math.round(a.y)}) landed on ${probe.other}`
    : 'no point of it could be reached by a trusted click';
}

/** What the click itself came to, before the page settled. */
export interface ClickOutcome {
  a: Actionable;
  method: 'cdp' | 'jsClick' | 'jsClick-auto';
  targetReceived?: boolean;
  cdpAttempted?: true;
  fallback?: string;
  /** What the page did on a press whose release went elsewhere (it acted on pointerdown). */
  pressEffect?: string;
  warnings: string[];
}

/** element.click(), asked for (jsClick) or chosen because a cover would take a trusted click. */
export async function clickByScript(
  scope: Scope,
  a: Actionable,
  count: number,
  opts: ClickOptions,
  deadline: Deadline,
): Promise<ClickOutcome> {
  await watchEffects(scope, a.pointerHandle, deadline);
  await jsClick(scope, a.pointerHandle, count, deadline);
  return {
    a,
    method: opts.jsClick ? 'jsClick' : 'jsClick-auto',
    ...(opts.jsClick ? {} : { fallback: fallbackReason(a, undefined) }),
    warnings: [],
  };
}

/**
 * The trusted click, and element.click() only when it never reached the target (never both). A
 * press that reached the target with its release elsewhere is judged by what followed it, over the
 * whole gesture (issue 22 item 3): a Radix menu opens on pointerdown and its layer takes the release.
 */
export async function clickTrusted(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: ClickOptions,
  first: Actionable,
  count: number,
  before: { mark: ActionMark; dialogsBefore: number },
  deadline: Deadline,
): Promise<ClickOutcome> {
  const { a, probe } = await trustedClick(scope, target, refs, opts, first, count, deadline);
  // True only when the target's own listeners got the trusted click (a navigation took the probe with it).
  const targetReceived = !probe.armed || probe.clicked;
  const o: ClickOutcome = { a, method: 'cdp', targetReceived, warnings: [] };
  if (targetReceived) return o;
  if (probe.pressedOnly) {
    const e = await readEffects(scope, before.mark, {}, before.dialogsBefore, deadline);
    // A press that only restyled its element (moved it away, a ripple inside) did not act: the click is still to make.
    if (e.observable && e.beyond) {
      o.pressEffect = `the page acted on the press (the release went to ${probe.other ?? 'something else'}): ${e.summary}`;
      return o;
    }
  }
  if (probe.detached) {
    // The page replaced the element on the press (its handler ran): nothing is left to click.
    o.warnings.push(
      `the press reached ${a.desc}, which the page then replaced; the release and click went to ${probe.other ?? 'the element in its place'}`,
    );
    return o;
  }
  if (opts.nativeOnly) {
    throw new ExecutionError(
      `The trusted click on ${a.desc} was intercepted${probe.other ? ` by ${probe.other}` : ''} (swallowed, nothing was clicked); nativeOnly allows no fallback`,
      { category: 'covered' },
    );
  }
  await watchEffects(scope, a.pointerHandle, deadline);
  await jsClick(scope, a.pointerHandle, count, deadline);
  return { ...o, method: 'jsClick-auto', cdpAttempted: true, fallback: fallbackReason(a, probe) };
}
