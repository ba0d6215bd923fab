// Click (SPEC §9.1): a trusted mouse click at a visible point of the element, a check that the
// events reached it, and element.click() only when they did not — never both. A hidden checkbox
// or radio is clicked through its label and the state change is confirmed (SPEC §19.16).

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Page, Scope } from '../page/index.js';
import { clickAt, moveMouse, type MouseButton, type Point } from './mouse.js';
import { withModifiersHeld } from './keyboard.js';
import type { ModifierName } from './key-definitions.js';
import {
  prepareAction,
  targetValue,
  type Actionable,
  type RefHolder,
  type TargetOptions,
  type TargetSpec,
} from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';
import { noteFallback, readEffects, watchEffects } from './effects.js';
import { planClick, trustedClick, type ClickPlan } from './trusted-click.js';
import type { ProbeReport } from '../injected/index.js';

export interface ClickOptions extends TargetOptions {
  jsClick?: boolean;
  nativeOnly?: boolean;
  /** 2 for a double click, 3 for a triple click (default 1). */
  clickCount?: number;
  button?: MouseButton;
  /** Keys held during the click, pressed in this order. */
  modifiers?: readonly ModifierName[];
}

export interface ClickResult extends SettleResult {
  clicked: true;
  method: 'cdp' | 'jsClick' | 'jsClick-auto';
  cdpAttempted?: true;
  targetReceived?: boolean;
  reResolved?: true;
  autoForced?: true;
  selectorIndex?: number;
  viaLabel?: true;
  checked?: boolean;
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
interface ClickOutcome {
  a: Actionable;
  method: ClickResult['method'];
  checked?: boolean;
  targetReceived?: boolean;
  cdpAttempted?: true;
  fallback?: string;
  warnings: string[];
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
        clickTrusted(scope, target, refs, opts, a, plan, deadline),
      );
  if (o.a.autoForced && !o.fallback)
    o.warnings.push(`auto-forced: ${o.a.desc} ${o.a.forcedBecause?.message ?? 'failed its checks'}`);
  const settled = await settleAfterAction(scope.page, mark, deadline);
  if (settled.warning) o.warnings.push(settled.warning);
  let effect: string | undefined;
  if (o.method !== 'cdp') {
    const e = await readEffects(scope, mark, settled, dialogsBefore, deadline);
    const toggled = o.checked !== undefined && o.checked !== o.a.checked;
    if (o.fallback && !e.observable && !toggled) throw noEffectError(o.a, target, o.fallback);
    effect = toggled && !e.observable ? `it is now ${o.checked ? 'checked' : 'unchecked'}` : e.summary;
    if (!e.focusInTarget && !settled.navigated)
      noteFallback(scope.page, {
        target: o.a.name,
        focus: e.focusOnBody ? 'the page body' : (e.focus ?? 'another element'),
      });
  }
  return clickResult(o, settled, effect, link);
}

async function linkOf(scope: Scope, a: Actionable, deadline: Deadline): Promise<string | undefined> {
  return scope.call((rt, h) => rt.clickProbe.linkHref(h), a.pointerHandle, {
    deadline,
    what: 'the link under the pointer',
  });
}

/** element.click(), asked for (jsClick) or chosen because a cover would take a trusted click. */
async function clickByScript(
  scope: Scope,
  a: Actionable,
  plan: ClickPlan,
  opts: ClickOptions,
  deadline: Deadline,
): Promise<ClickOutcome> {
  await watchEffects(scope, a.pointerHandle, deadline);
  const r = await jsClick(scope, a.pointerHandle, plan.count, deadline);
  return {
    a,
    method: opts.jsClick ? 'jsClick' : 'jsClick-auto',
    checked: r.checked ?? a.checked,
    ...(opts.jsClick ? {} : { fallback: fallbackReason(a, undefined) }),
    warnings: [],
  };
}

/** The trusted click, and element.click() only when it never reached the target (never both). */
async function clickTrusted(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: ClickOptions,
  first: Actionable,
  plan: ClickPlan,
  deadline: Deadline,
): Promise<ClickOutcome> {
  const { a, probe } = await trustedClick(scope, target, refs, opts, first, plan, deadline);
  // True only when the target's own listeners got the trusted click (a navigation took the probe with it).
  const targetReceived = !probe.armed || probe.clicked;
  const o: ClickOutcome = { a, method: 'cdp', checked: probe.checked ?? a.checked, targetReceived, warnings: [] };
  if (!targetReceived && probe.detached) {
    // The page replaced the element on the press (its handler ran): nothing is left to click.
    o.warnings.push(
      `the press reached ${a.desc}, which the page then replaced; the release and click went to ${probe.other ?? 'the element in its place'}`,
    );
  } else if (!targetReceived) {
    if (opts.nativeOnly || plan.special) {
      throw new ExecutionError(
        `The trusted ${plan.special ?? 'click'} on ${a.desc} was intercepted${probe.other ? ` by ${probe.other}` : ''} (swallowed, nothing was clicked); ` +
          (plan.special ? 'element.click() cannot make it, so there is no fallback' : 'nativeOnly allows no fallback'),
        { category: 'covered' },
      );
    }
    await watchEffects(scope, a.pointerHandle, deadline);
    const r = await jsClick(scope, a.pointerHandle, plan.count, deadline);
    Object.assign(o, { method: 'jsClick-auto', cdpAttempted: true, fallback: fallbackReason(a, probe) });
    if (r.checked !== undefined) o.checked = r.checked;
  } else if (probe.toggled === false) {
    o.warnings.push(
      `the click reached ${a.desc} but its checked state did not change (still ${probe.checked ? 'checked' : 'unchecked'})`,
    );
  }
  return o;
}

function clickResult(o: ClickOutcome, settled: SettleResult, effect: string | undefined, link?: string): ClickResult {
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
    ...(o.checked !== undefined ? { checked: o.checked } : {}),
    ...(o.fallback ? { fallback: `element.click() (untrusted) on ${a.name}: ${o.fallback}` } : {}),
    ...(effect ? { effect } : {}),
    ...(link ? { link } : {}),
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
