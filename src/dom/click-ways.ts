// The two ways a click is made (SPEC §9.1): a trusted click (trusted-click.ts) whose probe says
// whether its events reached the element, judged over the whole gesture (a press that acted is the
// click), and element.click() — asked for, or only when the trusted click never reached it (never both).

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { Actionable, RefHolder, TargetSpec } from './locate.js';
import type { ActionMark } from './settle.js';
import { readEffects, watchEffects } from './effects.js';
import { trustedClick, type ClickOptions, type ClickPlan } from './trusted-click.js';
import type { ProbeReport } from '../injected/index.js';

export type { ClickOptions } from './trusted-click.js';

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
  plan: ClickPlan,
  opts: ClickOptions,
  deadline: Deadline,
): Promise<ClickOutcome> {
  await watchEffects(scope, a.pointerHandle, deadline);
  await jsClick(scope, a.pointerHandle, plan.count, deadline);
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
  plan: ClickPlan,
  before: { mark: ActionMark; dialogsBefore: number },
  deadline: Deadline,
): Promise<ClickOutcome> {
  const { a, probe } = await trustedClick(scope, target, refs, opts, first, plan, deadline);
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
  if (opts.nativeOnly || plan.special) {
    throw new ExecutionError(
      `The trusted ${plan.special ?? 'click'} on ${a.desc} was intercepted${probe.other ? ` by ${probe.other}` : ''} (swallowed, nothing was clicked); ` +
        (plan.special ? 'element.click() cannot make it, so there is no fallback' : 'nativeOnly allows no fallback'),
      { category: 'covered' },
    );
  }
  await watchEffects(scope, a.pointerHandle, deadline);
  await jsClick(scope, a.pointerHandle, plan.count, deadline);
  return { ...o, method: 'jsClick-auto', cdpAttempted: true, fallback: fallbackReason(a, probe) };
}
