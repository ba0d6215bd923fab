// Scrolling the page or a scrollable container (SPEC §9.7, §8.10): instant, whatever the page's
// scroll-behavior, and reporting where it ended up. Runs in the page.
import { isVisible } from './dom-describe.js';
import { heldElement } from './locate.js';
import { deepElements } from './ref-map.js';
import { state } from './state.js';

export type ScrollMove =
  | { to: 'top' | 'bottom' }
  | { by: { x: number; y: number } }
  | { at: { x?: number; y?: number } };

function isScrollable(el: Element): boolean {
  const style = getComputedStyle(el);
  const y = /(auto|scroll|overlay)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
  const x = /(auto|scroll|overlay)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
  return y || x;
}

/** The document's scroller, or — when the document itself does not scroll — the largest visible scrolling container. */
export function mainScroller(): Element {
  const doc = document.scrollingElement ?? document.documentElement;
  if (doc.scrollHeight > innerHeight + 1) return doc;
  let best: Element | undefined;
  let bestArea = 0;
  for (const el of deepElements(document)) {
    if (!isScrollable(el)) continue;
    const r = el.getBoundingClientRect();
    const area = r.width * r.height;
    if (area > bestArea && isVisible(el)) {
      best = el;
      bestArea = area;
    }
  }
  return best ?? doc;
}

/** Scrolls the main scroller by `dy` (0 → most of a screen); false when it could not move. */
export function scrollMainBy(dy: number): boolean {
  const el = mainScroller();
  const before = el.scrollTop;
  const step = dy || Math.round((el === document.scrollingElement ? innerHeight : el.clientHeight) * 0.8);
  el.scrollBy({ top: step, behavior: 'instant' });
  return el.scrollTop !== before;
}

function scrollPosition(el: Element | undefined): { scrollX: number; scrollY: number } {
  if (!el || el === document.scrollingElement) return { scrollX: Math.round(scrollX), scrollY: Math.round(scrollY) };
  return { scrollX: Math.round(el.scrollLeft), scrollY: Math.round(el.scrollTop) };
}

/** Moves the page, or the held container, and reports the final position of what moved. */
export function scrollBy(
  move: ScrollMove,
  containerHandle?: number,
): { scrollX: number; scrollY: number } | { error: string } {
  const container = containerHandle !== undefined ? heldElement(containerHandle) : undefined;
  if (containerHandle !== undefined && !container) return { error: 'the container is gone' };
  const el = container ?? document.scrollingElement ?? document.documentElement;
  if ('to' in move)
    el.scrollTo({ top: move.to === 'top' ? 0 : el.scrollHeight, left: el.scrollLeft, behavior: 'instant' });
  else if ('by' in move) el.scrollBy({ left: move.by.x, top: move.by.y, behavior: 'instant' });
  else el.scrollTo({ left: move.at.x ?? el.scrollLeft, top: move.at.y ?? el.scrollTop, behavior: 'instant' });
  return scrollPosition(container);
}

/** Brings a held element to the middle of its scrolling containers and the viewport. */
export function scrollElementIntoView(handle: number): { scrollX: number; scrollY: number } | { error: string } {
  const el = heldElement(handle);
  if (!el || !el.isConnected) return { error: 'was removed from the page' };
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  return scrollPosition(undefined);
}

/** What a scroll to the bottom set going: the content's height then, and the elements added since. */
export interface FeedWatch {
  el: Element;
  height: number;
  added: Element[];
  lastChange: number;
  mo: MutationObserver;
}

/** Scrolls the page (or the held container) to the bottom, watching for content an infinite feed appends. */
export function scrollToBottomWatched(
  containerHandle?: number,
): { scrollX: number; scrollY: number } | { error: string } {
  const container = containerHandle !== undefined ? heldElement(containerHandle) : undefined;
  if (containerHandle !== undefined && !container) return { error: 'the container is gone' };
  const el = container ?? document.scrollingElement ?? document.documentElement;
  state.feed?.mo.disconnect();
  const watch: FeedWatch = {
    el,
    height: el.scrollHeight,
    added: [],
    lastChange: performance.now(),
    mo: new MutationObserver((records) => {
      watch.lastChange = performance.now();
      for (const r of records)
        for (const n of Array.from(r.addedNodes)) if (n.nodeType === 1) watch.added.push(n as Element);
    }),
  };
  watch.mo.observe(container ?? document.documentElement, { childList: true, subtree: true });
  state.feed = watch;
  el.scrollTo({ top: el.scrollHeight, left: el.scrollLeft, behavior: 'instant' });
  return scrollPosition(container);
}

/**
 * Waits up to `waitMs` for the content to grow after scrollToBottomWatched, then for the additions
 * to stop (150 ms quiet, at most 1 s more). `loaded`: the elements added to the one parent that got
 * the most (the feed's new items).
 */
export async function feedGrowth(
  waitMs: number,
  done: boolean,
): Promise<{ grew: boolean; loaded: number; scrollX: number; scrollY: number }> {
  const w = state.feed;
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  if (!w) return { grew: false, loaded: 0, ...scrollPosition(undefined) };
  const grown = (): boolean => w.el.scrollHeight > w.height + 1;
  const ends = performance.now() + waitMs;
  while (!grown() && performance.now() < ends) await sleep(50);
  const grew = grown();
  if (grew) {
    const cap = performance.now() + 1000;
    while (performance.now() - w.lastChange < 150 && performance.now() < cap) await sleep(50);
  }
  const perParent = new Map<Node, number>();
  for (const el of w.added)
    if (el.isConnected && el.parentNode) perParent.set(el.parentNode, (perParent.get(el.parentNode) ?? 0) + 1);
  const loaded = Math.max(0, ...perParent.values());
  const position = scrollPosition(w.el === document.scrollingElement ? undefined : w.el);
  if (grew || done) {
    w.mo.disconnect();
    state.feed = undefined;
  }
  return { grew, loaded, ...position };
}
