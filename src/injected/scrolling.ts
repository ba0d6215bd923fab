// Scrolling the page or a scrollable container (SPEC §9.7, §8.10): instant, whatever the page's
// scroll-behavior, and reporting where it ended up. Runs in the page.
import { isVisible } from './dom-describe.js';
import { heldElement } from './locate.js';
import { countOwnWork, markWork, pageWorkSince, type WorkMark } from './page-work.js';
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
  /** The scroll moved: a scroll event is due (the page's loader runs on it). */
  scrollDue: boolean;
  /** When the scroll event came. */
  scrolledAt?: number;
  /** The page's timers are counted from here (page-work.ts). */
  mark: WorkMark;
  /** The extra wait for the page's timers was given (once per scroll). */
  timersWaited?: true;
}

/** Scrolls the page (or the held container) to the bottom, watching for content an infinite feed appends. */
export function scrollToBottomWatched(
  containerHandle?: number,
): { scrollX: number; scrollY: number } | { error: string } {
  const container = containerHandle !== undefined ? heldElement(containerHandle) : undefined;
  if (containerHandle !== undefined && !container) return { error: 'the container is gone' };
  const el = container ?? document.scrollingElement ?? document.documentElement;
  state.feed?.mo.disconnect();
  countOwnWork();
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
    scrollDue: false,
    mark: markWork(),
  };
  watch.mo.observe(container ?? document.documentElement, { childList: true, subtree: true });
  state.feed = watch;
  const before = el.scrollTop;
  el.scrollTo({ top: el.scrollHeight, left: el.scrollLeft, behavior: 'instant' });
  watch.scrollDue = el.scrollTop !== before;
  // The scroll event comes with the next frame, never during scrollTo: listened for only when it will come.
  if (watch.scrollDue)
    (container ?? document).addEventListener(
      'scroll',
      () => {
        watch.scrolledAt = performance.now();
      },
      { once: true, capture: true },
    );
  return scrollPosition(container);
}

/** How long the scroll event may take to come (it comes with a frame; a loaded machine's are late). */
const SCROLL_EVENT_MS = 1_000;
/** The extra wait when the page set timers after the scroll and nothing came yet (a loader behind a timer). */
const FEED_TIMERS_MS = 1_200;

/**
 * Waits up to `waitMs` (counted from the scroll event) for the content to grow after
 * scrollToBottomWatched — longer, within `boundMs`, when the page set timers since the scroll —
 * then for the additions to stop (150 ms quiet, at most 1 s more). `loaded`: the elements added to
 * the one parent that got the most (the feed's new items).
 */
export async function feedGrowth(
  waitMs: number,
  done: boolean,
  boundMs: number,
): Promise<{ grew: boolean; loaded: number; scrollX: number; scrollY: number }> {
  const w = state.feed;
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  if (!w) return { grew: false, loaded: 0, ...scrollPosition(undefined) };
  const grown = (): boolean => w.el.scrollHeight > w.height + 1;
  const bound = performance.now() + boundMs;
  const until = async (at: number, more: () => boolean = () => true): Promise<void> => {
    while (!grown() && more() && performance.now() < Math.min(at, bound)) await sleep(20);
  };
  // The page's handler runs on the scroll event: the quiet window starts there.
  if (w.scrollDue) await until(performance.now() + SCROLL_EVENT_MS, () => w.scrolledAt === undefined);
  await until(Math.max(performance.now(), (w.scrolledAt ?? 0) + waitMs));
  // Timers the page set since (a loader behind a timer, a debounce): they get their time, once.
  if (!grown() && !w.timersWaited && (pageWorkSince(w.mark)?.timers ?? 0) > 0) {
    w.timersWaited = true;
    await until(performance.now() + FEED_TIMERS_MS);
  }
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
