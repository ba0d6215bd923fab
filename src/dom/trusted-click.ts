// Trusted click attempts (SPEC §9.1): how a click is pressed (button, modifiers, count), the probe
// armed on the target before each press and read after it, and the retries when a layout shift
// sent the press elsewhere (the probe swallowed it). click.ts decides what follows.

import { isContextDestroyed } from '../cdp/index.js';
import type { Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { ClickEvent, ProbeReport } from '../injected/index.js';
import { clickAt, moveMouse, type MouseButton, type Press } from './mouse.js';
import { modifierBit, type ModifierName } from './key-definitions.js';
import { prepareAction, type Actionable, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';

export interface ClickOptions extends TargetOptions {
  jsClick?: boolean;
  nativeOnly?: boolean;
  /** 2 for a double click, 3 for a triple click (default 1). */
  clickCount?: number;
  button?: MouseButton;
  /** Keys held during the click, pressed in this order. */
  modifiers?: readonly ModifierName[];
}

/** How one click is made: presses, button and modifiers, the event that completes it, and its name in messages. */
export interface ClickPlan {
  count: number;
  press: Press;
  modifiers: readonly ModifierName[];
  expect: ClickEvent;
  /** 'right click', 'Control+click': element.click() can make neither, so such a click has no fallback. */
  special?: string;
}

export function planClick(opts: ClickOptions): ClickPlan {
  const button = opts.button ?? 'left';
  const modifiers = opts.modifiers ?? [];
  const expect: ClickEvent = button === 'right' ? 'contextmenu' : button === 'middle' ? 'auxclick' : 'click';
  const named = button === 'left' ? 'click' : `${button} click`;
  return {
    count: opts.clickCount ?? 1,
    press: { button, modifiers: modifiers.reduce((bits, m) => bits | modifierBit(m), 0) },
    modifiers,
    expect,
    ...(button !== 'left' || modifiers.length
      ? { special: modifiers.length ? `${modifiers.join('+')}+${named}` : named }
      : {}),
  };
}

/** Reads the probe; a document that navigated away has no probe, and the click evidently landed. */
async function readProbe(scope: Scope, plan: ClickPlan, deadline: Deadline): Promise<ProbeReport> {
  try {
    const probe = await scope.call(
      (rt, p) => rt.clickProbe.readClickProbe(p.count, p.expect),
      { count: plan.count, expect: plan.expect },
      {
        deadline,
        what: 'the click to be confirmed',
      },
    );
    scope.page.downloadLinksClicked += probe.downloadLinks ?? 0;
    return probe;
  } catch (err) {
    if (isContextDestroyed(err)) return { armed: false, reached: [], seen: [], clicked: false };
    throw err;
  }
}

async function arm(scope: Scope, a: Actionable, plan: ClickPlan, deadline: Deadline): Promise<boolean> {
  return scope.call(
    (rt, h) => rt.clickProbe.armClickProbe(h),
    // Only a left click toggles a checkbox: no control is watched for the others.
    {
      pointer: a.pointerHandle,
      control: plan.expect === 'click' ? a.handle : -1,
      x: a.local.x,
      y: a.local.y,
      expect: plan.expect,
    },
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
export async function trustedClick(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: ClickOptions,
  first: Actionable,
  plan: ClickPlan,
  deadline: Deadline,
): Promise<{ a: Actionable; probe: ProbeReport }> {
  let a = first;
  let probe: ProbeReport = { armed: true, reached: [], seen: [], clicked: false };
  const { outOfProcess } = scope;
  for (let attempt = 1; attempt <= MAX_MISSED_CLICKS; attempt++) {
    if (await arm(scope, a, plan, deadline)) {
      await moveMouse(scope.page, a, deadline, { modifiers: plan.press.modifiers ?? 0 });
      const reach = outOfProcess ? await pointerReachesInFrame(scope, a, deadline) : { on: true }; // after the move above
      if (!reach.on) {
        // Not pressed: a press now would land on whatever the browser routes this point to.
        probe = await readProbe(scope, plan, deadline);
        probe.other ??=
          reach.hit ??
          `the page around the frame (a pointer at (${Math.round(a.x)}, ${Math.round(a.y)}) does not reach into the frame there)`;
      } else {
        await clickAt(scope.page, a, deadline, plan.count, plan.press);
        probe = await readProbe(scope, plan, deadline);
        // Reached (or pressed on it, after which a second press would be a second click): done.
        if (!probe.armed || probe.clicked || probe.pressedOnly) return { a, probe };
      }
    }
    if (attempt < MAX_MISSED_CLICKS) a = await prepareAction(scope, target, 'click', refs, opts, deadline);
  }
  return { a, probe };
}
