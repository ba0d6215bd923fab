// What followed one action (a click, its fallback, keys, a drag): focus, DOM mutations, scrolling,
// and what the capture's effect probe counts as a change (effect-probe.ts: animations and
// transitions starting, popovers toggling, input, a control's state), watched with the same eyes so
// a step never says "nothing followed" while the answer's changes show something. Runs in the page.
import { shadowOf } from './closed-shadow.js';
import { deepActiveElement } from './dom-describe.js';
import { EFFECT_EVENTS, controlStates, effectEvent, effectRoots } from './effect-probe.js';
import { heldElement, targetName } from './locate.js';
import { state } from './state.js';

/** What followed an action the page could have ignored. */
export interface EffectReport {
  armed: boolean;
  mutations: number;
  scrolled: boolean;
  /** The element that has focus now, when focus moved since the watch began. */
  focus?: string;
  /** Focus is on the watched element or inside it. */
  focusInTarget: boolean;
  /** Focus rests on the document (body, html or nothing). */
  focusOnBody: boolean;
  /** Another change the capture would count: an event (`transitionrun`, `toggle`…) or a control's state. */
  other?: string;
  /**
   * Something followed beyond the watched element's own look: a change outside it, a state of its
   * own (aria-expanded…), an event elsewhere, focus or scrolling. A press that only restyled the
   * element (moved it, a ripple inside it) did not act.
   */
  beyond: boolean;
}

export interface EffectWatch {
  target?: Element;
  before: Element | null;
  mutations: number;
  scrolled: boolean;
  other?: string;
  beyond: boolean;
  roots: Array<Document | ShadowRoot>;
  controls: string;
  off: () => void;
}

/** The focused element, through open shadow roots and same-origin frames. */
function focusedDeep(): Element | null {
  let el = deepActiveElement();
  for (let i = 0; i < 10 && el && (el.localName === 'iframe' || el.localName === 'frame'); i++) {
    let doc: Document | null = null;
    try {
      doc = (el as HTMLIFrameElement).contentDocument;
    } catch {
      doc = null;
    }
    const inner = doc?.activeElement;
    if (!doc || !inner || onBody(inner)) break;
    el = inner;
    for (let root = el && shadowOf(el); root?.activeElement; root = shadowOf(el!)) el = root.activeElement;
  }
  return el;
}

/**
 * Focus rests on the document, not on something that takes keys: no element, <html>, or a <body>
 * that is not itself an editor (TinyMCE's and CKEditor's iframes edit a contenteditable body).
 */
function onBody(el: Element | null): boolean {
  if (!el) return true;
  if (el.localName === 'html') return el.ownerDocument.designMode !== 'on';
  return el.localName === 'body' && !(el as HTMLElement).isContentEditable && el.ownerDocument.designMode !== 'on';
}

/** Starts watching for effects of the next action (on `handle`'s element when given). */
export function watchEffects(handle: number | undefined): void {
  const target = handle === undefined ? undefined : heldElement(handle);
  watchFrom(target);
}

/**
 * Starts the watch now, on `target` when given: the click probe calls it at the press of a trusted
 * click, so what the page does on pointerdown (Radix opens its menus there) is the click's effect.
 */
export function watchFrom(target: Element | undefined): void {
  stopEffects();
  const roots: Array<Document | ShadowRoot> = [];
  effectRoots(document, roots, 0);
  const w: EffectWatch = {
    ...(target ? { target } : {}),
    before: focusedDeep(),
    mutations: 0,
    scrolled: false,
    beyond: false,
    roots,
    controls: controlStates(roots),
    off: () => {},
  };
  const observers = roots.map((root) => {
    const o = new MutationObserver((records) => {
      w.mutations += records.length;
      w.beyond ||= records.some((r) => beyondTarget(target, r.target, r.attributeName));
    });
    o.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    return o;
  });
  const onEvent = (e: Event): void => {
    if (e.type === 'scroll') w.scrolled = w.beyond = true;
    else if (e.type !== 'mouseover') {
      const what = effectEvent(e);
      w.other ??= what;
      if (what) w.beyond ||= beyondTarget(target, e.composedPath()[0] as Node | undefined);
    }
  };
  for (const type of EFFECT_EVENTS) window.addEventListener(type, onEvent, { capture: true, passive: true });
  w.off = () => {
    for (const o of observers) {
      const rest = o.takeRecords();
      w.mutations += rest.length;
      w.beyond ||= rest.some((r) => beyondTarget(target, r.target, r.attributeName));
      o.disconnect();
    }
    for (const type of EFFECT_EVENTS) window.removeEventListener(type, onEvent, { capture: true });
  };
  state.effectWatch = w;
}

/** The states a press may set on its own element that are an effect (a menu button's aria-expanded). */
const STATE_ATTRIBUTES = new Set(['aria-expanded', 'aria-checked', 'aria-pressed', 'aria-selected', 'open']);

/** A change (or event) at `node` is beyond the watched element: outside it, or a state attribute of its own. */
function beyondTarget(target: Element | undefined, node: Node | undefined, attribute?: string | null): boolean {
  if (!target || !node || !composedContains(target, node)) return true;
  return node === target && !!attribute && STATE_ATTRIBUTES.has(attribute);
}

/** Ends the watch without reading it (the click reached its target: its effect is the capture's to tell). */
export function stopEffects(): void {
  state.effectWatch?.off();
  state.effectWatch = undefined;
}

/** Reads (and ends) the watch; when nothing showed yet, gives the page up to `waitMs` to react. */
export async function readEffects(waitMs: number): Promise<EffectReport> {
  const w = state.effectWatch;
  const quiet = (): boolean => !!w && w.mutations === 0 && !w.scrolled && !w.other && focusedDeep() === w.before;
  const until = Date.now() + waitMs;
  while (quiet() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  w?.off();
  state.effectWatch = undefined;
  // A script that set `checked` or `value` changes what the page shows without a mutation or an event.
  if (w && !w.other && controlStates(w.roots) !== w.controls) {
    w.other = "a control's state";
    w.beyond = true;
  }
  const now = focusedDeep();
  const focusInTarget = !!(w?.target && now && composedContains(w.target, now));
  const moved = !!w && !!now && now !== w.before;
  return {
    beyond: !!w && (w.beyond || (moved && !focusInTarget)),
    armed: !!w,
    mutations: w?.mutations ?? 0,
    scrolled: w?.scrolled ?? false,
    focusInTarget,
    focusOnBody: onBody(now),
    ...(moved ? { focus: targetName(now!) } : {}),
    ...(w?.other ? { other: w.other } : {}),
  };
}

/** `outer` contains `inner` across shadow boundaries (a host's shadow input counts as the host). */
export function composedContains(outer: Element, inner: Node): boolean {
  for (let n: Node | null = inner; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) if (n === outer) return true;
  return false;
}

/**
 * Where typed keys would go now: the focused element, named, whether it is only the document, and
 * whether it takes text (a text field, an editable region, or a frame whose inside we do not see).
 */
export function keyReceiver(): { target: string; onBody: boolean; takesText: boolean } {
  const el = focusedDeep();
  if (onBody(el)) return { target: 'the page body (no element has focus)', onBody: true, takesText: false };
  return { target: targetName(el!), onBody: false, takesText: takesText(el!) };
}

const NO_TEXT_INPUTS = /^(button|checkbox|color|file|hidden|image|radio|range|reset|submit)$/;

function takesText(el: Element): boolean {
  if ((el as HTMLElement).isContentEditable || el.ownerDocument.designMode === 'on') return true;
  if (el.localName === 'input') return !NO_TEXT_INPUTS.test((el as HTMLInputElement).type);
  return /^(textarea|select|iframe|frame|object|embed)$/.test(el.localName);
}
