// Did the pointer events reach the element? Listeners armed on window (capture phase, so the page's
// own handlers can't hide the event from us) before a trusted click and read right after it, so
// the fallback runs only when the click truly missed — a click never happens twice. Runs in the page.
import { pointReaches } from './actionability.js';
import { isHtml } from './dom-describe.js';
import { describeElement, heldElement } from './locate.js';

export interface ProbeState {
  target: Element;
  /** The checkbox/radio whose state the click should change (the element itself or its label's control). */
  control?: HTMLInputElement;
  checkedBefore?: boolean;
  seen: string[];
  reached: string[];
  /** What received the events instead (they were swallowed). */
  other?: string;
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
}

export function probeSlot(): { probe?: ProbeState } {
  const g = globalThis as unknown as { __cdpSkillProbe?: { probe?: ProbeState } };
  if (!g.__cdpSkillProbe) g.__cdpSkillProbe = {};
  return g.__cdpSkillProbe;
}

/**
 * Arms the probe for a click at (x, y). The first event of the click decides: if it reaches the
 * target, nothing interferes; if it lands elsewhere (the layout shifted since the point was
 * chosen), it and the rest of that click are swallowed, so nothing else gets clicked, and the
 * caller retries. Returns false when the point no longer reaches the target (retry at once).
 */
export function armClickProbe(handle: number, controlHandle: number, x: number, y: number): boolean {
  const target = heldElement(handle);
  if (!target || pointReaches(target, x, y) !== true) return false;
  disarmClickProbe();
  const controlEl = heldElement(controlHandle);
  const control = controlEl && isHtml(controlEl, 'input') && /^(checkbox|radio)$/.test(controlEl.type) ? controlEl : undefined;
  const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick'];
  const state: ProbeState = { target, seen: [], reached: [], off: () => {}, ...(control ? { control, checkedBefore: control.checked } : {}) };
  let verdict: 'reached' | 'missed' | undefined;
  const listener = (e: Event): void => {
    state.seen.push(e.type);
    const reached = e.composedPath().includes(target) || (isHtml(e.target, 'label') && (e.target as HTMLLabelElement).control === target);
    if (verdict === undefined) verdict = reached ? 'reached' : 'missed';
    if (reached) state.reached.push(e.type);
    if (verdict === 'missed') {
      if (!state.other && e.target instanceof Element) state.other = describeElement(e.target);
      e.stopImmediatePropagation();
      e.preventDefault();
      if (e.type === 'click' || e.type === 'dblclick') verdict = undefined; // the next click decides afresh
    }
  };
  for (const t of types) window.addEventListener(t, listener, { capture: true });
  state.off = () => { for (const t of types) window.removeEventListener(t, listener, { capture: true }); };
  probeSlot().probe = state;
  return true;
}

export function disarmClickProbe(): void {
  const slot = probeSlot();
  slot.probe?.off();
  slot.probe = undefined;
}

export function readClickProbe(): ProbeReport {
  const state = probeSlot().probe;
  if (!state) return { armed: false, reached: [], seen: [] };
  disarmClickProbe();
  const report: ProbeReport = { armed: true, reached: state.reached, seen: state.seen, ...(state.other ? { other: state.other } : {}) };
  if (state.control) {
    report.checked = state.control.checked;
    // A radio clicked when already on stays on: that is the expected effect.
    report.toggled = state.control.type === 'radio' ? state.control.checked : state.control.checked !== state.checkedBefore;
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
