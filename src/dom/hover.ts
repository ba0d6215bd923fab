// Hover (SPEC §9.5): the pointer moved onto the element through intermediate points, held there
// for `duration`, and optionally what appeared because of it (menus, tooltips) with refs.

import type { Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { AppearedElement } from '../injected/index.js';
import { mousePosition, moveMouse } from './mouse.js';
import { prepareAction, type Actionable, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';

export interface HoverOptions extends TargetOptions {
  durationMs?: number;
  captureResult?: boolean;
}

export interface HoverResult {
  hovered: true;
  target: string;
  autoForced?: true;
  reResolved?: true;
  capturedResult?: { visibleElements: AppearedElement[] };
  warnings: string[];
}

/** Time for a hover-triggered menu or tooltip to show when captureResult asks and no duration is given. */
const CAPTURE_SETTLE_MS = 150;
/** Longest captureResult waits for a layer that opens after a delay (tooltips: 300–500 ms). */
const CAPTURE_WAIT_MS = 1_000;
const CAPTURE_POLL_MS = 50;
const MAX_HOVER_ATTEMPTS = 3;

/**
 * A pointer already resting on the element (left there by an earlier command) sends no new
 * mouseenter when it "moves" onto it: move it off first, so the page sees the hover begin.
 */
async function moveOff(scope: Scope, a: Actionable, deadline: Deadline): Promise<void> {
  if (mousePosition(scope.page)) return; // moved in this command already: its path is real
  const off = await scope.call((rt, h) => rt.clickProbe.pointOff(h), a.pointerHandle, {
    deadline,
    what: 'a point off the element',
  });
  if (off)
    await moveMouse(scope.page, { x: off.x + a.x - a.local.x, y: off.y + a.y - a.local.y }, deadline, { steps: 1 });
}

/** Waits, bounded, for a menu or tooltip that opens after a delay; returns at once when one is there. */
async function waitForLayer(scope: Scope, deadline: Deadline): Promise<void> {
  const until = deadline.cap(CAPTURE_WAIT_MS - CAPTURE_SETTLE_MS);
  while (!until.expired()) {
    const n = await scope.call((rt) => rt.overlays.countAppeared(), undefined, {
      deadline,
      what: 'a layer the hover opens',
    });
    if (n > 0) return;
    await until.sleep(CAPTURE_POLL_MS);
  }
}

export async function hover(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: HoverOptions,
  deadline: Deadline,
): Promise<HoverResult> {
  // Mark before anything moves: scrolling the target into view can itself hover it under a pointer left there.
  if (opts.captureResult)
    await scope.call((rt) => rt.overlays.markOverlays(), undefined, {
      deadline,
      what: 'the page before hovering',
    });
  let a = await prepareAction(scope, target, 'hover', refs, opts, deadline);
  await moveOff(scope, a, deadline);
  for (let attempt = 1; ; attempt++) {
    await moveMouse(scope.page, a, deadline, { steps: 3 });
    // The layout may have shifted under the pointer while it moved: make sure it rests on the target.
    const over = await scope.call(
      (rt, p) => rt.actionability.pointReaches(rt.locate.heldElement(p.handle)!, p.x, p.y) === true,
      { handle: a.pointerHandle, x: a.local.x, y: a.local.y },
      { deadline, what: 'the pointer to rest on the element' },
    );
    if (over || a.autoForced || attempt >= MAX_HOVER_ATTEMPTS) break;
    a = await prepareAction(scope, target, 'hover', refs, opts, deadline);
  }
  const hold = opts.durationMs ?? (opts.captureResult ? CAPTURE_SETTLE_MS : 0);
  if (hold) await deadline.sleep(hold);
  if (opts.captureResult && opts.durationMs === undefined) await waitForLayer(scope, deadline);
  const warnings = a.autoForced ? [`auto-forced: ${a.desc} ${a.forcedBecause?.message ?? 'failed its checks'}`] : [];
  const out: HoverResult = {
    hovered: true,
    target: a.name,
    ...(a.autoForced ? { autoForced: true } : {}),
    ...(a.reResolved ? { reResolved: true } : {}),
    warnings,
  };
  if (opts.captureResult) {
    const r = await scope.call((rt, c) => rt.overlays.appearedOverlays(c), refs.counters, {
      deadline,
      what: 'what the hover showed',
    });
    refs.counters = r.counters;
    out.capturedResult = { visibleElements: r.visibleElements };
  }
  return out;
}
