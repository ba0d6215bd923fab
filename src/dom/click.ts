// Click (SPEC §9.1): a trusted mouse click at a visible point of the element, a check that the
// events reached it, and element.click() only when they did not — never both. A hidden checkbox
// or radio is clicked through its label and the state change is confirmed (SPEC §19.16).

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Page, Scope } from '../page/index.js';
import { clickAt, moveMouse, type Point } from './mouse.js';
import { withModifiersHeld } from './keyboard.js';
import { prepareAction, targetValue, type Actionable, type RefHolder, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';
import { toggledState, unchangedError, type ToggleOutcome } from './toggle.js';
import { noteFallback, readEffects } from './effects.js';
import { clickByScript, clickTrusted, type ClickOptions, type ClickOutcome } from './click-ways.js';
import { planClick } from './trusted-click.js';

export type { ClickOptions } from './click-ways.js';

export interface ClickResult extends SettleResult {
  clicked: true;
  method: 'cdp' | 'jsClick' | 'jsClick-auto';
  cdpAttempted?: true;
  targetReceived?: boolean;
  reResolved?: true;
  autoForced?: true;
  selectorIndex?: number;
  viaLabel?: true;
  /** The state the click toggles, after it (checked, pressed, selected or expanded). */
  checked?: boolean | 'mixed';
  pressed?: boolean | 'mixed';
  selected?: boolean | 'mixed';
  expanded?: boolean | 'mixed';
  element?: string;
  /** The element acted on, as role and name. */
  target: string;
  /** How element.click() came to be used, when it was a fallback. */
  fallback?: string;
  /** What followed a click made through element.click(). */
  effect?: string;
  /** The link under a Control+click or middle click: it may open in a new tab. */
  link?: string;
  warnings: string[];
}

export async function clickCoordinates(
  page: Page,
  at: Point,
  opts: Pick<ClickOptions, 'clickCount' | 'button' | 'modifiers'>,
  deadline: Deadline,
): Promise<SettleResult> {
  const plan = planClick(opts);
  const mark = markBeforeAction(page);
  await withModifiersHeld(page.session, plan.modifiers, deadline, async (modifiers) => {
    await moveMouse(page, at, deadline, { modifiers });
    await clickAt(page, at, deadline, plan.count, plan.press);
  });
  return settleAfterAction(page, mark, deadline);
}

export async function click(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: ClickOptions,
  deadline: Deadline,
): Promise<ClickResult> {
  const plan = planClick(opts);
  // element.click() can make neither a right click nor a Control+click: no fallback, and a cover is an error.
  if (opts.nativeOnly || plan.special) opts = { ...opts, keepCoverCheck: true };
  noteFallback(scope.page, undefined);
  const a = await prepareAction(scope, target, 'click', refs, opts, deadline);
  const count = plan.count;
  // Auto-forced past a covering element: a trusted click would land on the cover, so go straight to element.click().
  const coveredForce =
    a.autoForced && (a.forcedBecause?.reason === 'covered' || a.forcedBecause?.reason === 'pointer-events');
  const useJs = opts.jsClick || (coveredForce && !opts.nativeOnly && !plan.special);
  // A Control+click or middle click on a link opens a tab: the step waits for it only then.
  const link = plan.special && !useJs ? await linkOf(scope, a, deadline) : undefined;
  const mark = markBeforeAction(scope.page);
  const dialogsBefore = scope.page.dialogs.length;
  const o: ClickOutcome = useJs
    ? await clickByScript(scope, a, plan, opts, deadline)
    : await withModifiersHeld(scope.page.session, plan.modifiers, deadline, () =>
        clickTrusted(scope, target, refs, opts, a, plan, { mark, dialogsBefore }, deadline),
      );
  if (o.a.autoForced && !o.fallback)
    o.warnings.push(`auto-forced: ${o.a.desc} ${o.a.forcedBecause?.message ?? 'failed its checks'}`);
  const settled = await settleAfterAction(scope.page, mark, deadline);
  if (settled.warning) o.warnings.push(settled.warning);
  const state = await toggledState(scope, o.a, count, deadline);
  let effect = o.pressEffect;
  if (o.method !== 'cdp') {
    const e = await readEffects(scope, mark, settled, dialogsBefore, deadline);
    const toggled = state?.changed === true;
    if (o.fallback && !e.observable && !toggled) throw noEffectError(o.a, target, o.fallback);
    effect = toggled && !e.observable ? `it is now ${state!.word}` : e.summary;
    if (!e.focusInTarget && !settled.navigated)
      noteFallback(scope.page, {
        target: o.a.name,
        focus: e.focusOnBody ? 'the page body' : (e.focus ?? 'another element'),
      });
  }
  // Issue 22 item 4: a click that left a checkbox, a toggle button, a tab or a disclosure as it was is not ok.
  if (state && !state.asExpected && !settled.navigated) throw unchangedError(o, state);
  return { ...clickResult(o, settled, effect, state), ...(link ? { link } : {}) };
}

async function linkOf(scope: Scope, a: Actionable, deadline: Deadline): Promise<string | undefined> {
  return scope.call((rt, h) => rt.clickProbe.linkHref(h), a.pointerHandle, {
    deadline,
    what: 'the link under the pointer',
  });
}

function clickResult(
  o: ClickOutcome,
  settled: SettleResult,
  effect: string | undefined,
  state: ToggleOutcome | undefined,
): ClickResult {
  const { a } = o;
  return {
    clicked: true,
    method: o.method,
    ...settled,
    ...(o.cdpAttempted ? { cdpAttempted: true } : {}),
    ...(o.targetReceived !== undefined ? { targetReceived: o.targetReceived } : {}),
    ...(a.reResolved ? { reResolved: true } : {}),
    ...(a.autoForced ? { autoForced: true } : {}),
    ...(a.selectorIndex !== undefined ? { selectorIndex: a.selectorIndex } : {}),
    ...(a.viaLabel ? { viaLabel: true } : {}),
    ...(state ? { [state.field]: state.value } : {}),
    ...(o.fallback ? { fallback: `element.click() (untrusted) on ${a.name}: ${o.fallback}` } : {}),
    ...(effect ? { effect } : {}),
    element: a.desc,
    target: a.name,
    warnings: o.warnings,
  };
}

/** A fallback click after which nothing happened: a failure, with a look at what a person would hit. */
function noEffectError(a: Actionable, target: TargetSpec, why: string): ExecutionError {
  const at = { x: Math.round(a.x), y: Math.round(a.y) };
  return new ExecutionError(
    `${a.name} was clicked only through element.click() (untrusted), because ${why}; nothing followed: no focus, no change on the page. ` +
      'The page ignores untrusted clicks here: act on what a person would click there (nextStep lists it), or dismiss what covers it',
    {
      category: 'no-effect',
      element: a.desc,
      target: { by: target.by, value: targetValue(target) },
      ...(a.forcedBecause?.interceptor ? { interceptor: a.forcedBecause.interceptor } : {}),
      nextStep: { elementsAt: at },
    },
  );
}
