// Did the pointer events reach the element? Listeners armed on window (capture phase, so the page's
// own handlers can't hide the event from us) before a trusted click and read right after it, so
// the fallback runs only when the click truly missed — a click never happens twice. Runs in the page.

import { closedHitAt } from './closed-shadow.js';
import { deepElementFromPoint } from './element-search.js';
import { pointReaches } from './actionability.js';
import { isHtml } from './dom-describe.js';
import { composedContains, stopEffects, watchFrom } from './effect-watch.js';
import { describeElement, heldElement } from './locate.js';
// The runtime's state object, by another name: `state` here is a probe's own.
import { state as runtimeState } from './state.js';
import { startReactionTurn } from './view-settle.js';

export interface ProbeState {
  target: Element;
  /** The checkbox/radio whose state the click should change (the element itself or its label's control). */
  control?: HTMLInputElement;
  checkedBefore?: boolean;
  seen: string[];
  reached: string[];
  /** What received the events instead (they were swallowed). */
  other?: string;
  /** The last trusted pointer move: did it reach the target, and what did it hit. */
  move?: { on: boolean; hit?: string };
  /** Clicks (the page's own `a.click()` too) that reached a link with `download` in this document. */
  downloadLinks: number;
  off: () => void;
}

export interface ProbeReport {
  /** False when no probe was armed in this document (it navigated): the click evidently landed. */
  armed: boolean;
  reached: string[];
  seen: string[];
  checked?: boolean;
  toggled?: boolean;
  /** What received the events instead. */
  other?: string;
  /** A trusted click (a dblclick too, for a double click) reached the target: what targetReceived means. */
  clicked: boolean;
  /** The press reached the target but no click followed on it (the release went elsewhere). */
  pressedOnly?: true;
  /** The target left the document during the click (the page replaced it on the press). */
  detached?: true;
  /**
   * Clicks that reached a link with `download` (the page's own `a.click()` included): a download
   * begins only when the server answers, with no event before (measured, Chromium 156).
   */
  downloadLinks?: number;
}

/** The event that completes a click of each button: click (left), contextmenu (right), auxclick (middle). */
export type ClickEvent = 'click' | 'contextmenu' | 'auxclick';

/** Where a click is pressed: the element under the pointer, the checkbox it toggles, the point, the closing event. */
export interface ProbeArm {
  pointer: number;
  control: number;
  x: number;
  y: number;
  expect: ClickEvent;
}

/** The link a click on the element would follow (its own or an ancestor's href), for a Control+click that opens a tab. */
export function linkHref(handle: number): string | undefined {
  const link = heldElement(handle)?.closest('a[href], area[href]');
  return link ? (link as HTMLAnchorElement).href.slice(0, 500) : undefined;
}

/**
 * Arms the probe for a click at (x, y). The first event of the click decides: if it reaches the
 * target, nothing interferes; if it lands elsewhere (the layout shifted since the point was
 * chosen), it and the rest of that click are swallowed, so nothing else gets clicked, and the
 * caller retries. Returns false when the point no longer reaches the target (retry at once).
 */
export function armClickProbe(at: ProbeArm): boolean {
  const { x, y, expect } = at;
  const target = heldElement(at.pointer);
  if (!target || pointReaches(target, x, y) !== true) return false;
  disarmClickProbe();
  const controlEl = heldElement(at.control);
  const control =
    controlEl && isHtml(controlEl, 'input') && /^(checkbox|radio)$/.test(controlEl.type) ? controlEl : undefined;
  // A right click ends in contextmenu (on the press, on Linux) and auxclick, a middle click in auxclick.
  const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'contextmenu', 'auxclick'];
  const state: ProbeState = {
    target,
    seen: [],
    reached: [],
    downloadLinks: 0,
    off: () => {},
    ...(control ? { control, checkedBefore: control.checked } : {}),
  };
  let verdict: 'reached' | 'missed' | undefined;
  const onTarget = (e: Event): boolean =>
    e.isTrusted &&
    (e.composedPath().includes(target) ||
      (isHtml(e.target, 'label') && (e.target as HTMLLabelElement).control === target) ||
      closedHitAt(target, e));
  const listener = (e: Event): void => {
    state.seen.push(e.type);
    const reached = onTarget(e);
    // A click begins with its press: a release (or click) seen first in this document belongs to a
    // press that went elsewhere (the host page of a frame, under stale hit-testing), so it is a miss.
    if (verdict === undefined) {
      verdict = reached && (e.type === 'pointerdown' || e.type === 'mousedown') ? 'reached' : 'missed';
      // The click's effect is measured over the whole gesture, from its press (issue 22 item 3).
      if (verdict === 'reached') watchFrom(target);
    }
    if (reached && verdict === 'reached') state.reached.push(e.type);
    else if (verdict === 'reached' && !state.other && e.target instanceof Element)
      state.other = describeElement(e.target);
    if (verdict === 'missed' && !state.other && !/down$/.test(e.type))
      state.other = 'something outside this document (only the release arrived here)';
    if (verdict === 'missed') {
      if (!state.other && e.target instanceof Element) state.other = describeElement(e.target);
      e.stopImmediatePropagation();
      e.preventDefault();
      if (e.type === expect || e.type === 'dblclick') verdict = undefined; // the next click decides afresh
    }
  };
  // Moves are only watched (never swallowed): they tell whether the pointer reaches the target here.
  const onMove = (e: Event): void => {
    if (!e.isTrusted) return;
    const on = onTarget(e);
    state.move = { on, ...(!on && e.target instanceof Element ? { hit: describeElement(e.target) } : {}) };
  };
  // A click on a same-origin <iframe> goes to the document inside it (TinyMCE's editing area):
  // every trusted event there is on the target, and nothing there is swallowed.
  const inner = frameWindow(target);
  const innerListener = (e: Event): void => {
    if (!e.isTrusted) return;
    state.seen.push(e.type);
    if (verdict === undefined) verdict = /down$/.test(e.type) ? 'reached' : 'missed';
    if (verdict === 'reached') state.reached.push(e.type);
  };
  const innerMove = (e: Event): void => {
    if (e.isTrusted) state.move = { on: true };
  };
  state.off = listenAll([
    ...types.map((t): Listening => [window, t, listener]),
    [window, 'pointermove', onMove],
    [window, 'click', (e) => countDownloadLink(state, e)],
    ...(inner ? types.map((t): Listening => [inner, t, innerListener]) : []),
    ...(inner ? [[inner, 'pointermove', innerMove] as Listening] : []),
  ]);
  runtimeState.clickProbe = state;
  return true;
}

type Listening = [EventTarget, string, (e: Event) => void];

/** Adds the capture-phase listeners; returns what removes them all. */
function listenAll(all: Listening[]): () => void {
  for (const [on, type, fn] of all) on.addEventListener(type, fn, { capture: true });
  return () => {
    for (const [on, type, fn] of all) on.removeEventListener(type, fn, { capture: true });
  };
}

/** Counts a click (the page's own `a.click()` too) that reached a link with `download`. */
function countDownloadLink(state: ProbeState, e: Event): void {
  const isLink = (n: EventTarget): boolean =>
    n instanceof Element && /^(a|area)$/.test(n.localName) && n.hasAttribute('download');
  if (e.composedPath().some(isLink)) state.downloadLinks++;
}

/** The window inside a same-origin <iframe>/<frame>, if `el` is one. */
function frameWindow(el: Element): Window | undefined {
  if (el.localName !== 'iframe' && el.localName !== 'frame') return undefined;
  try {
    const w = (el as HTMLIFrameElement).contentWindow;
    return w?.document ? w : undefined;
  } catch {
    return undefined; // cross-origin
  }
}

function disarmClickProbe(): void {
  runtimeState.clickProbe?.off();
  runtimeState.clickProbe = undefined;
}

/**
 * Waits (bounded) until a trusted pointer move reached the armed target in this document. Before a
 * press in an out-of-process frame: the browser routes input by hit-test data the compositor
 * updates a frame after a scroll, so a press sent too early lands on the host page. Undefined
 * `hit`: no move arrived in this document at all.
 */
export async function awaitPointerOn(timeoutMs: number): Promise<{ on: boolean; hit?: string }> {
  const state = runtimeState.clickProbe;
  if (!state) return { on: false };
  const until = Date.now() + timeoutMs;
  while (!state.move?.on && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  return state.move ?? { on: false };
}

/**
 * What the click's events did. The watch of what followed (effect-watch.ts, armed at the press) is
 * kept only for a press with no click on the target: the Node side then reads whether the press
 * itself acted before it considers a fallback.
 */
export function readClickProbe(clickCount = 1, expect: ClickEvent = 'click'): ProbeReport {
  const state = runtimeState.clickProbe;
  if (!state) return { armed: false, reached: [], seen: [], clicked: false };
  disarmClickProbe();
  const clicked =
    state.reached.includes(expect) && (expect !== 'click' || clickCount < 2 || state.reached.includes('dblclick'));
  const pressed = state.reached.includes('pointerdown') || state.reached.includes('mousedown');
  if (clicked || !pressed) stopEffects();
  startReactionTurn(); // the page's turn runs while the Node side finishes the step
  const report: ProbeReport = {
    armed: true,
    reached: state.reached,
    seen: state.seen,
    clicked,
    ...(state.other ? { other: state.other } : {}),
    ...(pressed && !clicked ? { pressedOnly: true as const } : {}),
    ...(!state.target.isConnected ? { detached: true as const } : {}),
    ...(state.downloadLinks ? { downloadLinks: state.downloadLinks } : {}),
  };
  if (state.control) {
    report.checked = state.control.checked;
    // A radio clicked when already on stays on: that is the expected effect.
    report.toggled =
      state.control.type === 'radio' ? state.control.checked : state.control.checked !== state.checkedBefore;
  }
  return report;
}

/** The JavaScript fallback: element.click(), for a target the trusted click could not reach. */
export function jsClick(handle: number, count: number): { ok: boolean; checked?: boolean } {
  const el = heldElement(handle) as HTMLElement | undefined;
  if (!el || !el.isConnected) return { ok: false };
  el.click();
  if (count > 1) {
    el.click();
    el.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, cancelable: true, composed: true, detail: 2 }));
  }
  const checked = isHtml(el, 'input') && /^(checkbox|radio)$/.test(el.type) ? el.checked : undefined;
  return { ok: true, ...(checked !== undefined ? { checked } : {}) };
}

/**
 * A point just outside the element (viewport coordinates of its frame) whose topmost element is not
 * inside it: where a pointer resting on it moves off to, so moving back on is a fresh mouseenter.
 */
export function pointOff(handle: number): { x: number; y: number } | undefined {
  const el = heldElement(handle);
  if (!el) return undefined;
  const r = el.getBoundingClientRect();
  const gap = 6;
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const candidates = [
    { x: cx, y: r.top - gap },
    { x: r.left - gap, y: cy },
    { x: cx, y: r.bottom + gap },
    { x: r.right + gap, y: cy },
  ];
  for (const p of candidates) {
    if (p.x < 0 || p.y < 0 || p.x >= innerWidth || p.y >= innerHeight) continue;
    const hit = deepElementFromPoint(p.x, p.y);
    if (!hit || !composedContains(el, hit)) return p;
  }
  return { x: 0, y: 0 };
}
