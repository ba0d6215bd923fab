// Capture by effect (issue 13, DECISIONS): did the steps change anything on the page between the
// before-look and the after-capture? Armed at the before-look, it watches the document, its open
// shadow roots and same-origin frames for DOM mutations, and for input, scrolls, animations or
// transitions starting, popovers toggling, the viewport resizing, the pointer entering an element
// (CSS :hover) and presses on content no observer sees (canvas, video, embeds, frames). Runs in the page.
import { deepElements, syncCounters } from './ref-map.js';
import type { Counters } from './ref-map.js';
import { shadowOf } from './closed-shadow.js';
import { state } from './state.js';
import { giveReactionTurn, reactionDueAt } from './view-settle.js';
import { hoverMayShow } from './hover-style.js';
import { POINTER_ONLY } from '../shared/index.js';

export interface EffectProbe {
  observers: MutationObserver[];
  off: Array<() => void>;
  seen: string | undefined;
  url: string;
  scroll: string;
  controls: string;
  /** The viewport's size and pixel ratio at arming: a resize re-lays the page out without a mutation. */
  view: string;
  /** Elements scrolled from their origin at arming, with their offsets. */
  offsets: Map<Element, string>;
  /** Animations and transitions running at arming. */
  animations: Set<Animation>;
  /** Something other than the pointer entering an element was seen (a mutation, another event). */
  beyondHover?: true;
  /** Taken with only a hover seen: it goes on watching until the after-look asks (stillOnlyHover). */
  hoverTaken?: true;
  /** The element the pointer left at its first move (null: it came from outside the page). */
  hoverFrom?: { el: Element | null };
}

interface Effects {
  changed: boolean;
  /** The first effect seen, for the record (e.g. 'mutation', 'scroll'). */
  why?: string;
  counters: Counters;
}

/** The events that may change what the page shows. */
export const EFFECT_EVENTS = [
  'input',
  'change',
  'scroll',
  'animationstart',
  'transitionrun',
  'toggle',
  'mouseover',
  'pointerdown',
];

/**
 * The state of the page's form controls as one string: a script that sets `checked`, `value` or
 * `selectedIndex` changes what the page shows without a mutation or an event.
 */
export function controlStates(roots: Array<Document | ShadowRoot>): string {
  const parts: string[] = [];
  for (const root of roots) {
    for (const el of Array.from(root.querySelectorAll('input, select, textarea'))) {
      const c = el as HTMLInputElement & HTMLSelectElement;
      parts.push(
        el.localName === 'select'
          ? String(c.selectedIndex)
          : `${c.checked ? 1 : 0}${c.value.length}:${c.value.slice(0, 64)}`,
      );
    }
  }
  return parts.join('|');
}

/**
 * Where the page can change unseen by a document-wide observer: open shadow roots and same-origin
 * frame documents. With `offsets`, also notes each element scrolled from its origin (walk order).
 */
export function effectRoots(
  doc: Document,
  out: Array<Document | ShadowRoot>,
  depth: number,
  offsets?: Map<Element, string>,
): void {
  out.push(doc);
  for (const el of deepElements(doc)) {
    if (offsets && (el.scrollTop || el.scrollLeft)) offsets.set(el, `${el.scrollLeft},${el.scrollTop}`);
    const root = shadowOf(el);
    if (root) out.push(root);
    if (depth < 3 && el.localName === 'iframe') {
      try {
        const inner = (el as HTMLIFrameElement).contentDocument;
        if (inner) effectRoots(inner, out, depth + 1, offsets);
      } catch {
        // A cross-origin frame: a press into it counts instead (see effectEvent).
      }
    }
  }
}

/** An event that may have changed what the page shows; a pointer press only on content we cannot watch. */
export function effectEvent(e: Event): string | undefined {
  if (e.type !== 'pointerdown') return e.type;
  const t = e.target as Element | null;
  return t && /^(canvas|video|iframe|embed|object)$/.test(t.localName ?? '')
    ? 'pointerdown on <' + t.localName + '>'
    : undefined;
}

/** The viewport as the page lays out to it: CSS size and device pixel ratio. */
function viewSize(): string {
  return `${innerWidth}x${innerHeight}@${devicePixelRatio}`;
}

export function armEffectProbe(): void {
  if (state.effectProbe) disarmEffectProbe(state.effectProbe);
  state.scroller = undefined;
  const roots: Array<Document | ShadowRoot> = [];
  const offsets = new Map<Element, string>();
  effectRoots(document, roots, 0, offsets);
  const probe: EffectProbe = {
    observers: [],
    off: [],
    seen: undefined,
    url: location.href,
    scroll: `${window.scrollX},${window.scrollY}`,
    controls: controlStates(roots),
    view: viewSize(),
    offsets,
    animations: new Set(document.getAnimations()),
  };
  for (const root of roots) {
    const observer = new MutationObserver(() => {
      probe.seen ??= 'mutation';
      probe.beyondHover = true;
    });
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    probe.observers.push(observer);
    if (root.nodeType !== 9) continue;
    const listener = (e: Event): void => {
      const effect = effectEvent(e);
      probe.seen ??= effect;
      if (e.type === 'mouseover') probe.hoverFrom ??= { el: (e as MouseEvent).relatedTarget as Element | null };
      if (effect && effect !== 'mouseover') probe.beyondHover = true;
      // The element that scrolled, for context.scroll (page-context.ts); the document's own scroll is window's.
      if (e.type === 'scroll' && (e.target as Node | null)?.nodeType === 1) state.scroller = e.target as Element;
    };
    for (const type of EFFECT_EVENTS) root.addEventListener(type, listener, { capture: true, passive: true });
    probe.off.push(() => {
      for (const type of EFFECT_EVENTS) root.removeEventListener(type, listener, { capture: true });
    });
  }
  state.effectProbe = probe;
}

function disarmEffectProbe(probe: EffectProbe): void {
  flushMutations(probe);
  for (const o of probe.observers) o.disconnect();
  for (const off of probe.off) off();
}

/** Mutations observed but not yet delivered to the observers' callbacks count as seen. */
function flushMutations(probe: EffectProbe): void {
  for (const o of probe.observers)
    if (o.takeRecords().length) {
      probe.seen ??= 'mutation';
      probe.beyondHover = true;
    }
}

/**
 * What the probe saw since it was armed (it stops). Not armed in this document: a new document, so
 * changed. When nothing was seen yet, the page first gets its turn to answer the agent's last click
 * or key, and the grace when it left a timer pending (view-settle.ts: a Copy button shows "Copied!"
 * only after its clipboard write resolves). Effects whose events only fire with the next frame (a
 * container's scroll, an animation or transition starting) are read directly instead of waiting for
 * that frame: the scroll offsets and the running animations, against those at arming.
 *
 * When the pointer entering an element is all it saw (`why`: POINTER_ONLY; a CSS :hover may have
 * changed what shows), it goes on watching: the after-look asks stillOnlyPointer().
 */
export async function takeEffects(): Promise<Effects> {
  const probe = state.effectProbe;
  if (probe && !probe.seen) await giveReactionTurn();
  const dueAt = reactionDueAt();
  while (probe && !probe.seen && performance.now() < dueAt) await new Promise((r) => setTimeout(r, 10));
  const counters = syncCounters(undefined);
  if (!probe) return { changed: true, why: 'new document', counters };
  flushMutations(probe);
  // The rest is looked for once, when the after-look asks (stillOnlyPointer).
  if (probe.seen === 'mouseover' && !probe.beyondHover) {
    probe.hoverTaken = true;
    return { changed: true, why: POINTER_ONLY, counters };
  }
  state.effectProbe = undefined;
  disarmEffectProbe(probe);
  const seen = unseenEffect(probe, probe.seen);
  return seen ? { changed: true, why: seen, counters } : { changed: false, counters };
}

/**
 * `seen`, or an effect no event told: another URL, a scroll, a resize, focus in a frame, a control's
 * state, a container scrolled, an animation started. The container that scrolled is looked for
 * whatever was seen first: context.scroll (page-context.ts) names it.
 */
function unseenEffect(probe: EffectProbe, seenFirst: string | undefined): string | undefined {
  let seen = seenFirst;
  if (!seen && location.href !== probe.url) seen = 'url';
  if (!seen && `${window.scrollX},${window.scrollY}` !== probe.scroll) seen = 'scroll';
  if (!seen && viewSize() !== probe.view) seen = 'viewport';
  if (!seen && document.activeElement?.localName === 'iframe') seen = 'focus in a frame';
  if (seen && state.scroller) return seen;
  // A container's scroll event comes with the next frame: the element that scrolled is found by its offsets.
  const roots: Array<Document | ShadowRoot> = [];
  const offsets = new Map<Element, string>();
  effectRoots(document, roots, 0, offsets);
  const scrolled = scrolledSince(probe.offsets, offsets);
  if (scrolled && !state.scroller) state.scroller = scrolled;
  if (seen) return seen;
  if (controlStates(roots) !== probe.controls) return "a control's state";
  if (scrolled) return 'scroll in a container';
  if (document.getAnimations().some((a) => !probe.animations.has(a) && a.playState === 'running')) return 'animation';
  return undefined;
}

/**
 * After a hover-only take: whether still nothing but the hover happened (no mutation, no other
 * event, no animation started) up to now, and no :hover rule styles an element the pointer entered
 * or left (hover-style.ts) — the after-look asks once the page settled. It stops.
 */
export function stillOnlyPointer(): boolean {
  const probe = state.effectProbe;
  if (!probe?.hoverTaken) return false;
  state.effectProbe = undefined;
  disarmEffectProbe(probe);
  return (
    !probe.beyondHover && unseenEffect(probe, undefined) === undefined && !hoverMayShow(probe.hoverFrom?.el ?? null)
  );
}

/** The first element whose scroll offsets differ between two walks (one absent counts as at its origin). */
function scrolledSince(before: Map<Element, string>, now: Map<Element, string>): Element | undefined {
  for (const [el, at] of now) if (before.get(el) !== at) return el;
  for (const [el] of before) if (!now.has(el) && el.isConnected) return el;
  return undefined;
}
