// Finding the element a step means and waiting until it can take the action (SPEC §6, §8): one
// resolution for every targeting form, retried at 0/50/100/200 ms within the actionability
// timeout; a failure that waiting can't fix fails at once; auto-force when only checks fail.

import {
  ElementNotEditableError,
  ElementNotFoundError,
  ExecutionError,
  StaleElementError,
  StepValidationError,
  TimeoutError,
  type Deadline,
} from '../common/index.js';
import type { Scope } from '../page/index.js';
import type {
  ActionFailure,
  ActionKind,
  ActionOutcome,
  Counters,
  LocateFailure,
  ScanReport,
  ToggleState,
  TargetSpec,
} from '../injected/index.js';
import { revealFramePoint } from './frame-point.js';

export type { TargetSpec } from '../injected/index.js';
export type { ActionKind } from '../injected/index.js';

type ActionReady = Extract<ActionOutcome, { ok: true }>;

/** SPEC §8.9 default actionability timeout. */
export const DEFAULT_ACTION_TIMEOUT_MS = 5_000;
const RETRY_DELAYS_MS = [0, 50, 100, 200];
/** Pause after a scrollUntilVisible step for lazy-loaded content to render. */
const SCROLL_SETTLE_MS = 50;

/** Where ref counters live between calls (the tab's registry entry). */
export interface RefHolder {
  counters?: Counters;
}

export interface TargetOptions {
  within?: string;
  /** Actionability timeout (SPEC §8.9), capped by the step deadline. */
  timeoutMs?: number;
  force?: boolean;
  stable?: boolean;
  /** Scrolls the page (or its main scroller) between attempts while the element is missing. */
  scrollUntilVisible?: { direction: 'down' | 'up'; distance?: number; maxAttempts: number };
  /** Never auto-force past a covering element (a trusted click there would hit the cover). */
  keepCoverCheck?: boolean;
}

export interface Located {
  handle: number;
  desc: string;
  /** Role and accessible name, as the answer names the element (`button "Save"`). */
  name: string;
  reResolved?: true;
  selectorIndex?: number;
}

export interface Actionable extends Located {
  /** The element the pointer goes to: the target, or the visible label of a hidden checkbox. */
  pointerHandle: number;
  /** The point in top-viewport coordinates, for Input events. */
  x: number;
  y: number;
  /** The same point in the element's own frame, for checks made in the page. */
  local: { x: number; y: number };
  viaLabel?: true;
  checked?: boolean;
  /** The point is the box a ::before/::after marker draws (a checklist item's box). */
  marker?: true;
  /** The state a click toggles, as it was before (injected/toggle-state.ts). */
  toggle?: ToggleState;
  autoForced?: true;
  /** Why auto-force was needed (the check that kept failing). */
  forcedBecause?: ActionFailure;
}

export function describeTarget(t: TargetSpec, within?: string): string {
  const base =
    t.by === 'css'
      ? `"${t.selector}"`
      : t.by === 'ref'
        ? t.ref
        : t.by === 'text'
          ? `text "${t.text}"`
          : t.by === 'label'
            ? `label "${t.label}"`
            : t.by === 'field'
              ? `"${t.key}" (as CSS or label)`
              : t.by === 'selectors'
                ? `any of ${JSON.stringify(t.selectors)}`
                : `(${t.x}, ${t.y})`;
  return within ? `${base} within "${within}"` : base;
}

export function targetValue(t: TargetSpec): string {
  return t.by === 'css'
    ? t.selector
    : t.by === 'ref'
      ? t.ref
      : t.by === 'text'
        ? t.text
        : t.by === 'label'
          ? t.label
          : t.by === 'field'
            ? t.key
            : t.by === 'selectors'
              ? t.selectors.join(', ')
              : `${t.x},${t.y}`;
}

function locateError(t: TargetSpec, f: LocateFailure, waitedMs: number, within?: string, frameUrl?: string): Error {
  const err = locateErrorAtTop(t, f, waitedMs, within);
  // Refs and selectors are per document: say where the search ran when it was not the top one.
  if (frameUrl && f.reason !== 'invalid-selector')
    err.message += ` (searched the frame ${frameUrl}; {"frame": "top"} goes back to the page)`;
  return err;
}

function locateErrorAtTop(t: TargetSpec, f: LocateFailure, waitedMs: number, within?: string): Error {
  const details = { target: { by: t.by, value: targetValue(t) } };
  switch (f.reason) {
    case 'invalid-selector':
      return new StepValidationError(
        `Invalid CSS selector ${f.message?.replace(/\.$/, '')}. For text use {"text": "…"}, for refs "s1e4".`,
        { ...details, category: 'invalid-selector' },
      );
    case 'within-not-found':
      return new ElementNotFoundError(
        `No element matches withinSelector "${f.message}" (waited ${waitedMs}ms)`,
        details,
      );
    case 'earlier-page':
    case 'stale':
    case 'recycled':
    case 'malformed':
      return new StaleElementError(f.message ?? `Ref ${targetValue(t)} is ${f.reason}`, {
        ...details,
        category: 'stale-ref',
        ...(f.name ? { name: f.name } : {}),
        ...(f.now !== undefined ? { was: f.name, now: f.now } : {}),
        ...(f.at !== undefined ? { wasAt: f.at, nowAt: f.nowAt } : {}),
      });
    case 'unknown':
      return new ElementNotFoundError(f.message ?? `Ref ${targetValue(t)} is unknown`, {
        ...details,
        category: 'stale-ref',
      });
    default:
      return new ElementNotFoundError(
        `No element matches ${describeTarget(t, within)} (waited ${waitedMs}ms)`,
        details,
      );
  }
}

async function scrollStep(
  scope: Scope,
  s: NonNullable<TargetOptions['scrollUntilVisible']>,
  deadline: Deadline,
): Promise<boolean> {
  return scope.call(
    (rt, a) => rt.scrolling.scrollMainBy(a.dy),
    { dy: (s.direction === 'up' ? -1 : 1) * (s.distance ?? 0) },
    { deadline, what: 'scrolling to find the element' },
  );
}

/** Time kept back from the step's deadline so the last look still ends in a precise error. */
const FINAL_LOOK_MS = 250;

/**
 * How long to wait for the element: the action timeout (5 s unless `timeout`), ending a little
 * before the step's own deadline so a missing element fails as not found, not as a step timeout.
 */
function actionWindow(deadline: Deadline, opts: TargetOptions): Deadline {
  return deadline.cap(
    Math.min(opts.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS, Math.max(0, deadline.remainingMs() - FINAL_LOOK_MS)),
  );
}

/** Looks (0, 50, 100, 200 ms apart) before a virtualised list is scrolled: content on its way shows first. */
const SCAN_AFTER_ATTEMPTS = 3;
/** Time kept for the action itself after a scan of a virtualised list. */
const AFTER_SCAN_MS = 1_500;

/** Why a scan that found nothing did not see the whole list, as the answer says it. */
const UNSEEN_WORDS: Record<NonNullable<ScanReport['unseen']>, string> = {
  time: 'before time ran out',
  columns: 'through every row, but only the columns in view (the grid renders the others when scrolled sideways)',
  gaps: 'but it jumped past rows it did not render',
  stuck: 'until it stopped moving (the list would not scroll further)',
};

/** How the answer says a list was scrolled to find the target. */
export function scanNote(r: ScanReport): string {
  const span = `${r.in} from ${r.fromY} to ${r.toY}px in ${r.steps} step${r.steps === 1 ? '' : 's'}`;
  return r.restored
    ? `scrolled ${span.replace(/ to \d+px/, '')} ${r.whole ? 'through the whole list' : UNSEEN_WORDS[r.unseen ?? 'time']} without finding it, and scrolled it back`
    : `scrolled ${span} to find it (a virtualised list)`;
}

/**
 * A text target the page has not rendered: scroll the virtualised list it would be in (if there is
 * one) until it appears, within the step's deadline. `undefined` when there is no such list.
 */
async function locateByScrolling(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<{ located?: Located; report: ScanReport } | undefined> {
  const budgetMs = deadline.remainingMs() - AFTER_SCAN_MS;
  if (budgetMs <= 0) return undefined;
  deadline.log(`scrolling a virtualised list to find ${describeTarget(target)}`);
  const r = await scope.call(
    (rt, a) => rt.virtualScan.locateByScrolling(a.req, a.budgetMs),
    { req: { target, within: opts.within, counters: refs.counters }, budgetMs },
    { deadline, what: `scrolling a virtualised list to find ${describeTarget(target)}` },
  );
  if ('none' in r) return undefined;
  deadline.note('scrolledToFind', r.report);
  if (!r.outcome.ok) return { report: r.report };
  refs.counters = r.outcome.counters;
  return {
    report: r.report,
    located: { handle: r.outcome.handle, desc: r.outcome.desc, name: r.outcome.name },
  };
}

/** Resolves the target to one element, waiting (bounded) for it to appear. */
export async function locate(
  scope: Scope,
  target: TargetSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<Located> {
  const started = Date.now();
  const until = actionWindow(deadline, opts);
  let scrolls = 0;
  let scanned = false;
  let closedRootsLooked = false;
  for (let attempt = 0; ; attempt++) {
    const r = await scope.call(
      (rt, a) => {
        const found = rt.locate.locateElement(a.locate);
        // Not found: it may be inside a closed shadow root not looked at yet (asked in the same call).
        return !found.ok && found.reason === 'not-found' && a.closed
          ? { ...found, closedPending: rt.closedShadow.closedRootsPending() }
          : found;
      },
      { locate: { target, within: opts.within, counters: refs.counters }, closed: !closedRootsLooked },
      { deadline, what: `the element ${describeTarget(target)}` },
    );
    if (r.ok) {
      refs.counters = r.counters;
      return {
        handle: r.handle,
        desc: r.desc,
        name: r.name,
        ...(r.reResolved ? { reResolved: true } : {}),
        ...(r.selectorIndex !== undefined ? { selectorIndex: r.selectorIndex } : {}),
      };
    }
    // Closed shadow roots not looked at yet: fetched once, then the search runs again.
    if ('closedPending' in r && r.closedPending) {
      closedRootsLooked = true;
      if ((await scope.revealClosedRoots(deadline)) > 0) continue;
    }
    const final =
      r.reason === 'invalid-selector' ||
      r.reason === 'earlier-page' ||
      r.reason === 'malformed' ||
      r.reason === 'recycled';
    // Text not rendered after a first look again: it may be in a virtualised list, further down.
    if (
      !final &&
      !scanned &&
      attempt >= SCAN_AFTER_ATTEMPTS &&
      r.reason === 'not-found' &&
      target.by === 'text' &&
      !opts.scrollUntilVisible
    ) {
      scanned = true;
      const found = await locateByScrolling(scope, target, refs, opts, deadline);
      if (found?.located) return found.located;
      if (found) {
        const err = locateError(target, r, Date.now() - started, opts.within, scope.frame?.url);
        err.message += `; ${scanNote(found.report)}`;
        throw err;
      }
    }
    if (final || until.expired()) throw locateError(target, r, Date.now() - started, opts.within, scope.frame?.url);
    const s = opts.scrollUntilVisible;
    let moved = false;
    if (s && scrolls < s.maxAttempts && r.reason === 'not-found') {
      scrolls++;
      moved = await scrollStep(scope, s, deadline);
    }
    // After a scroll, only give lazy content a moment; otherwise back off as SPEC §8.9 says.
    await until.sleep(moved ? SCROLL_SETTLE_MS : RETRY_DELAYS_MS[Math.min(attempt + 1, RETRY_DELAYS_MS.length - 1)]!);
  }
}

function actionError(
  f: ActionFailure,
  desc: string,
  action: ActionKind,
  waitedMs: number,
  t: TargetSpec,
  deadline: Deadline,
): Error {
  const details: Record<string, unknown> = {
    target: { by: t.by, value: targetValue(t) },
    category:
      f.reason === 'not-select'
        ? 'not-editable'
        : f.reason === 'pointer-events' || f.reason === 'unstable'
          ? 'not-visible'
          : f.reason,
    element: desc,
  };
  if (f.interceptor) details.interceptor = f.interceptor;
  if (f.control) details.control = f.control;
  const message = `${desc} ${f.message}${f.final ? '' : ` (waited ${waitedMs}ms)`}`;
  if (f.reason === 'not-editable' || f.reason === 'not-select' || (f.reason === 'disabled' && action === 'fill'))
    return new ElementNotEditableError(message, details);
  if (f.reason === 'detached')
    return new StaleElementError(
      `${desc} was removed from the page before the ${action}; take a new snapshot or retry`,
      {
        ...details,
        category: 'stale-ref',
      },
    );
  return f.final ? new ExecutionError(message, details) : new TimeoutError(deadline.withCallLog(message), details);
}

/** Checks that can be forced past: the element is there, a check about its looks keeps failing. */
const FORCEABLE = new Set(['not-visible', 'covered', 'pointer-events', 'unstable']);

/**
 * Resolves the target and waits until it can take `action`. Re-resolves when the element is
 * replaced while waiting (a re-render), never acting on anything but what the target names.
 */
export async function prepareAction(
  scope: Scope,
  target: TargetSpec,
  action: ActionKind,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<Actionable> {
  const started = Date.now();
  const until = actionWindow(deadline, opts);
  // Mostly the element is there and ready: find it and check it in one evaluation. Anything else
  // takes the path below (waits, retries, re-resolving, forcing), from the start.
  const quick = await scope.call(
    async (rt, a) => {
      const found = rt.locate.locateElement(a.locate);
      return found.ok
        ? { found, check: await rt.actionability.checkActionable({ ...a.check, handle: found.handle }) }
        : undefined;
    },
    {
      locate: { target, within: opts.within, counters: refs.counters },
      check: { action, force: !!opts.force, stable: opts.stable },
    },
    { deadline, what: `the element ${describeTarget(target)}` },
  );
  if (quick?.check.ok) {
    refs.counters = quick.found.counters;
    const located: Located = {
      handle: quick.found.handle,
      desc: quick.found.desc,
      name: quick.found.name,
      ...(quick.found.reResolved ? { reResolved: true } : {}),
      ...(quick.found.selectorIndex !== undefined ? { selectorIndex: quick.found.selectorIndex } : {}),
    };
    return actionable(scope, located, quick.check, action, deadline, false, undefined);
  }
  deadline.log(`waiting for ${describeTarget(target)} to be ready for ${action}`);
  let located = await locate(scope, target, refs, opts, deadline);
  let last: ActionFailure | undefined;
  for (let attempt = 0; ; attempt++) {
    const forceable = (f: ActionFailure): boolean =>
      FORCEABLE.has(f.reason) && !(opts.keepCoverCheck && (f.reason === 'covered' || f.reason === 'pointer-events'));
    const force = !!opts.force || (until.expired() && !!last && forceable(last));
    const r = await scope.call(
      (rt, a) => rt.actionability.checkActionable(a),
      { handle: located.handle, action, force, stable: opts.stable },
      { deadline, what: `${located.desc} to be ready for ${action}` },
    );
    if (r.ok) return actionable(scope, located, r, action, deadline, force && !opts.force, last);
    if (r.reason === 'detached' && !until.expired()) {
      located = await locate(scope, target, refs, opts, deadline); // re-rendered: find it again
      continue;
    }
    last = r;
    const giveUp = r.final || (until.expired() && (force || !forceable(r)));
    deadline.log(`${located.desc} ${r.message}${giveUp ? '' : ' — retrying'}`);
    if (giveUp) throw actionError(r, located.desc, action, Date.now() - started, target, deadline);
    if (!until.expired()) await until.sleep(RETRY_DELAYS_MS[Math.min(attempt + 1, RETRY_DELAYS_MS.length - 1)]!);
  }
}

/** The element, ready: its pointer point in top-viewport coordinates (a frame's offset added). */
async function actionable(
  scope: Scope,
  located: Located,
  r: ActionReady,
  action: ActionKind,
  deadline: Deadline,
  autoForced: boolean,
  because: ActionFailure | undefined,
): Promise<Actionable> {
  // Inside a frame the page reports frame coordinates; Input events take the top viewport's, and
  // the frame itself may need scrolling into view by the documents above it.
  const top =
    scope.frame && action !== 'select' && action !== 'upload'
      ? await revealFramePoint(scope.page, scope.frameId, r, deadline)
      : { x: r.x, y: r.y };
  return {
    // A web component's delegated control: keys and values go to it (the answer still names the host).
    ...located,
    ...(r.delegated ? { handle: r.handle } : {}),
    pointerHandle: r.handle,
    x: top.x,
    y: top.y,
    local: { x: r.x, y: r.y },
    ...(r.viaLabel ? { viaLabel: true } : {}),
    ...(r.checked !== undefined ? { checked: r.checked } : {}),
    ...(r.marker ? { marker: true } : {}),
    ...(r.toggle ? { toggle: r.toggle } : {}),
    ...(autoForced ? { autoForced: true, forcedBecause: because } : {}),
  };
}
