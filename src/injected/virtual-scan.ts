// Finding what a virtualised list has not rendered yet: scroll its scroller a rendered window at a
// time (setting scrollTop, which fires the scroll event the library renders on), let the library
// render, and look again — until it appears, the list was scanned end to end, or the budget is
// spent. Not found: the scroller goes back where it was. Runs in the page.
import type { Counters } from './ref-map.js';
import type { LocateOutcome, LocateRequest } from './locate.js';
import type { SearchOutcome } from './element-search.js';
import type { SearchCriteria } from '../shared/index.js';
import { snapshotSearch } from './element-search.js';
import { cssMatches, findInScope, locateElement, preferVisible } from './locate.js';
import { describeScroller, renderedSpan, scrollTopOf, viewHeight, virtualScrollers } from './virtual-scroll.js';

export interface ScanReport {
  /** The scroller that was scrolled. */
  in: string;
  fromY: number;
  toY: number;
  /** Scroll positions looked at. */
  steps: number;
  /** Not found: every position from top to bottom was looked at (else the budget ran out first). */
  whole?: true;
  /** Not found: the scroller was put back where it was. */
  restored?: true;
}

/** Frames a render may take to settle after a scroll (AG Grid renders rows over a few frames). */
const MAX_RENDER_FRAMES = 8;

function frame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100); // a hidden page runs no frames
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Waits until the library has rendered for the new position: a frame with no DOM change, bounded. */
async function rendered(sc: Element): Promise<void> {
  let changed = true;
  const mo = new MutationObserver(() => {
    changed = true;
  });
  mo.observe(sc === document.scrollingElement ? document.documentElement : sc, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  });
  try {
    await frame();
    for (let i = 0; changed && i < MAX_RENDER_FRAMES; i++) {
      changed = false;
      await frame();
    }
  } finally {
    mo.disconnect();
  }
}

function setTop(sc: Element, y: number): void {
  if (sc === document.scrollingElement) window.scrollTo({ top: y, left: scrollX, behavior: 'instant' });
  else sc.scrollTo({ top: y, left: sc.scrollLeft, behavior: 'instant' });
}

/**
 * Scrolls `sc` down from where it is to the bottom, then from the top back to the start, a rendered
 * window at a time, until `hit()` is true. Returns whether it was, and what was scrolled.
 */
async function scan(
  sc: Element,
  hit: () => boolean,
  budgetMs: number,
): Promise<{ found: boolean; report: ScanReport }> {
  const ends = performance.now() + budgetMs;
  const start = scrollTopOf(sc);
  const report: ScanReport = { in: describeScroller(sc), fromY: Math.round(start), toY: Math.round(start), steps: 0 };
  let y = start;
  let wrapped = false;
  while (performance.now() < ends) {
    const view = viewHeight(sc);
    const max = sc.scrollHeight - view;
    const span = renderedSpan(sc);
    // Next: just above the bottom of what is rendered (rows below the view are searched too),
    // at least half a screen on, at most three.
    const ahead = span.texts && span.bottom > y ? span.bottom - y - 8 : view * 0.8;
    let next = y + Math.min(Math.max(ahead, view * 0.5), view * 3);
    if (y >= max - 1) {
      if (wrapped || start <= 1) {
        report.whole = true;
        break;
      }
      wrapped = true;
      next = 0;
    }
    setTop(sc, Math.min(next, max));
    report.steps++;
    await rendered(sc);
    const now = scrollTopOf(sc);
    if (Math.abs(now - y) < 1 && !(wrapped && next === 0)) break; // it does not move
    y = now;
    report.toY = Math.round(y);
    if (hit()) return { found: true, report };
    if (wrapped && y >= start) {
      report.whole = true;
      break;
    }
  }
  setTop(sc, start);
  await rendered(sc);
  report.restored = true;
  report.toY = Math.round(start);
  return { found: false, report };
}

/** Centres `el` in its scrollers and lets the library render around it. */
async function centre(el: Element, sc: Element): Promise<void> {
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  await rendered(sc);
}

function scopeOf(within: string | undefined): Document | Element | undefined {
  return within ? preferVisible(cssMatches(document, within)) : document;
}

/**
 * A target (by text) not in the DOM: scroll the virtualised scroller until it renders. `none`
 * when there is no virtualised scroller to scroll.
 */
export async function locateByScrolling(
  req: LocateRequest,
  budgetMs: number,
): Promise<{ none: true } | { outcome: LocateOutcome; report: ScanReport }> {
  const root = scopeOf(req.within);
  if (!root) return { none: true };
  const sc = virtualScrollers(root)[0];
  if (!sc) return { none: true };
  let el: Element | undefined;
  const { found, report } = await scan(
    sc,
    () => {
      el = findInScope(root, req.target);
      return !!el;
    },
    budgetMs,
  );
  if (!found || !el) return { outcome: { ok: false, reason: 'not-found' }, report };
  if (!sc.contains(el)) {
    // It appeared elsewhere meanwhile (a toast, a dialog): the list goes back where it was.
    setTop(sc, report.fromY);
    await rendered(sc);
    report.toY = report.fromY;
    report.restored = true;
    return { outcome: locateElement(req), report };
  }
  await centre(el, sc);
  report.toY = Math.round(scrollTopOf(sc));
  // Found again after centring: the library may have rendered the row into another element.
  return { outcome: locateElement(req), report };
}

/** The first text node under `root` whose text includes `needle` (lower case), or matches `regex`. */
function textNodeWith(root: Node, needle: string | undefined, regex: RegExp | undefined): Text | undefined {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent ?? '';
    if (needle !== undefined ? text.toLowerCase().includes(needle) : regex?.test(text)) return n as Text;
  }
  return undefined;
}

/** snapshotSearch found nothing: scroll the virtualised scroller until a match renders (text or pattern). */
export async function searchByScrolling(
  c: SearchCriteria,
  counters: Counters | undefined,
  budgetMs: number,
): Promise<{ none: true } | { outcome: SearchOutcome; report: ScanReport }> {
  if (c.text === undefined && c.pattern === undefined) return { none: true };
  let regex: RegExp | undefined;
  try {
    if (c.pattern !== undefined) regex = new RegExp(c.pattern, 'i');
  } catch {
    return { none: true };
  }
  const sc = virtualScrollers(document)[0];
  if (!sc) return { none: true };
  const needle = c.text?.toLowerCase();
  const root = sc === document.scrollingElement ? document.body : sc;
  let node: Text | undefined;
  const { found, report } = await scan(
    sc,
    () => {
      node = textNodeWith(root, needle, regex);
      if (!node) return false;
      const o = snapshotSearch(c, counters);
      return o.ok && o.matchCount > 0;
    },
    budgetMs,
  );
  if (found && node?.parentElement) {
    await centre(node.parentElement, sc);
    report.toY = Math.round(scrollTopOf(sc));
  }
  return { outcome: snapshotSearch(c, counters), report };
}
