// Finding what a virtualised list has not rendered yet: scroll its scroller a rendered window at a
// time (setting scrollTop, which fires the scroll event the library renders on), let the library
// render, and look again — until it appears, the list was scanned end to end, or the budget is
// spent. Not found: the scroller goes back where it was. Runs in the page.
import type { Counters } from './ref-map.js';
import type { LocateOutcome, LocateRequest } from './locate.js';
import type { SearchOutcome } from './element-search.js';
import type { SearchCriteria } from '../shared/index.js';
import { snapshotSearch } from './element-search.js';
import { loadMoreToFind } from './feed-scan.js';
import { cssMatches, findInScope, locateElement, preferVisible } from './locate.js';
import { describeScroller, scrollTopOf, viewHeight, virtualScrollers } from './virtual-scroll.js';

export interface ScanReport {
  /** The scroller that was scrolled. */
  in: string;
  fromY: number;
  toY: number;
  /** Scroll positions looked at. */
  steps: number;
  /** Not found: every position from top to bottom was looked at, its rows rendered and seen (else see `unseen`). */
  whole?: true;
  /** Not found and not whole: why not — the time ran out, columns off to the side were never rendered, the scroller skipped rows, or it stopped moving. */
  unseen?: 'time' | 'columns' | 'gaps' | 'stuck';
  /** Not found: the scroller was put back where it was. */
  restored?: true;
  /** Scrollers that moved but whose rows did not change (not the list's own scroller), passed over. */
  skipped?: string[];
  /** An infinite feed: times more was loaded at the page's end (feed-scan.ts). */
  loaded?: number;
  /** An infinite feed, not found: nothing more loaded at its end within the wait. */
  stoppedLoading?: true;
}

/** Frames a render may take to settle after a scroll (AG Grid renders rows over a few frames). */
const MAX_RENDER_FRAMES = 8;
/** Rendered text is compared by this many characters to tell that a scroll showed other rows. */
const SIGNATURE_CHARS = 20_000;
/** Kept from a scan's budget to scroll the list back, see its rows again (RESTORE_RENDER_MS) and answer. */
const RESTORE_MS = 700;

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

/** What the scroller shows, as text: a scroll that shows other rows changes it. */
function signature(sc: Element): string {
  const root = sc === document.scrollingElement ? document.body : sc;
  return (root?.textContent ?? '').slice(0, SIGNATURE_CHARS);
}

/**
 * Columns the grid renders only near the view: it scrolls sideways and its rendered text spans
 * less than half its width. A vertical scan never sees the others.
 */
function hidesColumns(sc: Element): boolean {
  if (sc === document.scrollingElement || sc.scrollWidth <= sc.clientWidth + 1) return false;
  const box = sc.getBoundingClientRect();
  let right = 0;
  for (const el of Array.from(sc.querySelectorAll('td, [role=gridcell], [role=cell]')).slice(0, 2000))
    right = Math.max(right, el.getBoundingClientRect().right - box.left + sc.scrollLeft);
  return right > 0 && right < sc.scrollWidth / 2;
}

/** Rows further apart than this (px) leave a gap between them that was not seen. */
const ROW_GAP_PX = 48;

/**
 * How far down (content px) the rows rendered now join up with the view `y` is at: the view
 * itself, then each rendered line that starts within a row's gap of what was seen.
 */
function seenBottom(sc: Element, y: number): number {
  const doc = sc === document.scrollingElement;
  const origin = doc ? -scrollY : sc.getBoundingClientRect().top - sc.scrollTop;
  const root = doc ? document.body : sc;
  const boxes: [number, number][] = [];
  const walker = document.createTreeWalker(root ?? document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), i = 0; n && i < 3000; n = walker.nextNode(), i++) {
    const r = n.parentElement?.getBoundingClientRect();
    if (r && r.height && (n.textContent ?? '').trim()) boxes.push([r.top - origin, r.bottom - origin]);
  }
  boxes.sort((a, b) => a[0] - b[0]);
  let bottom = y + viewHeight(sc);
  for (const [top, end] of boxes) if (top <= bottom + ROW_GAP_PX) bottom = Math.max(bottom, end);
  return bottom;
}

/** One scan's progress: where it is, how far down rows were seen without a gap. */
interface ScanState {
  sc: Element;
  start: number;
  y: number;
  /** Content y down to which rows were seen, from where the pass began. */
  seenTo: number;
  wrapped: boolean;
  /** The scroller jumped past rows not seen (it moved further than asked). */
  gap?: true;
  report: ScanReport;
}

/** Where to look next: a rendered window on (at least half a screen, at most three), never past what was seen. */
function nextTop(st: ScanState, max: number): number {
  const view = viewHeight(st.sc);
  const ahead = Math.min(Math.max(st.seenTo - st.y - 8, view * 0.5), view * 3);
  return Math.min(st.y + ahead, Math.max(st.seenTo - 8, st.y + 1), max);
}

type StepOutcome = 'found' | 'whole' | 'stuck' | 'not-rows' | 'on';

/** One scroll of the scan and a look: found, the whole range seen, stuck, not the rows' scroller, or on. */
async function scanStep(st: ScanState, hit: (sc: Element) => boolean): Promise<StepOutcome> {
  const { sc, report } = st;
  const max = sc.scrollHeight - viewHeight(sc);
  let target: number;
  if (st.y >= max - 1) {
    if (st.wrapped || st.start <= 1) return 'whole';
    st.wrapped = true; // from the top down to where it began
    target = 0;
  } else target = nextTop(st, max);
  const before = report.steps === 0 ? signature(sc) : undefined;
  setTop(sc, target);
  report.steps++;
  await rendered(sc);
  let now = scrollTopOf(sc);
  if (Math.abs(now - st.y) < 1 && target !== 0) {
    // A library that syncs its scrollers may put a late position back (AG Grid under load): once more.
    setTop(sc, target);
    await rendered(sc);
    now = scrollTopOf(sc);
    if (Math.abs(now - st.y) < 1) return 'stuck';
  }
  // It moved, yet shows the same rows: not the element that scrolls them (a synced clone, a spacer).
  if (before !== undefined && signature(sc) === before) return 'not-rows';
  if (target === 0) st.seenTo = 0;
  st.y = now;
  report.toY = Math.round(now);
  if (st.y > st.seenTo + ROW_GAP_PX) st.gap = true;
  st.seenTo = Math.max(st.seenTo, seenBottom(sc, st.y));
  if (hit(sc)) return 'found';
  if (st.wrapped && st.y + viewHeight(sc) >= st.start) return 'whole';
  return 'on';
}

/**
 * Scrolls `sc` down from where it is to the bottom, then from the top back to the start, a rendered
 * window at a time, until `hit()` is true. `whole` only when every row from top to bottom was
 * rendered and looked at (columns too); `notRows` when scrolling it showed no other rows.
 */
async function scan(
  sc: Element,
  hit: (sc: Element) => boolean,
  ends: number,
): Promise<{ found: boolean; notRows?: true; report: ScanReport }> {
  const start = scrollTopOf(sc);
  const shown = signature(sc);
  const report: ScanReport = { in: describeScroller(sc), fromY: Math.round(start), toY: Math.round(start), steps: 0 };
  const st: ScanState = { sc, start, y: start, seenTo: seenBottom(sc, start), wrapped: false, report };
  let outcome: StepOutcome = 'on';
  while (outcome === 'on' && performance.now() < ends) outcome = await scanStep(st, hit);
  if (outcome === 'found') return { found: true, report };
  if (outcome === 'whole') {
    const unseen = st.gap ? 'gaps' : hidesColumns(sc) ? 'columns' : undefined;
    if (unseen) report.unseen = unseen;
    else report.whole = true;
  } else if (outcome === 'on') report.unseen = 'time';
  else if (outcome === 'stuck') report.unseen = 'stuck';
  await restore(sc, start, shown);
  report.restored = true;
  report.toY = Math.round(start);
  return { found: false, report, ...(outcome === 'not-rows' ? { notRows: true as const } : {}) };
}

/** How long a scroller put back may take to show again the rows it showed (a loaded page renders late). */
const RESTORE_RENDER_MS = 300;

/** Puts the scroller back at `top` and waits, bounded, until it shows what it showed (`shown`) again. */
async function restore(sc: Element, top: number, shown: string): Promise<void> {
  setTop(sc, top);
  await rendered(sc);
  const until = performance.now() + RESTORE_RENDER_MS;
  while ((signature(sc) !== shown || Math.abs(scrollTopOf(sc) - top) >= 1) && performance.now() < until) {
    if (Math.abs(scrollTopOf(sc) - top) >= 1) setTop(sc, top); // put back again if the library moved it
    await rendered(sc);
  }
}

/** Scans the first of `scrollers` that scrolls rows; ones that move without showing other rows are passed over. */
async function scanRows(
  scrollers: Element[],
  hit: (sc: Element) => boolean,
  budgetMs: number,
): Promise<{ sc: Element; found: boolean; report: ScanReport } | undefined> {
  const ends = performance.now() + budgetMs - RESTORE_MS;
  const skipped: string[] = [];
  for (const sc of scrollers) {
    const r = await scan(sc, hit, ends);
    if (!r.notRows) return { sc, found: r.found, report: skipped.length ? { ...r.report, skipped } : r.report };
    skipped.push(r.report.in);
    if (performance.now() >= ends) break;
  }
  return undefined;
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
  let el: Element | undefined;
  const scanned = await scanRows(
    virtualScrollers(root),
    () => {
      el = findInScope(root, req.target);
      return !!el;
    },
    budgetMs,
  );
  if (!scanned) return { none: true };
  const { sc, found, report } = scanned;
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
  const needle = c.text?.toLowerCase();
  let node: Text | undefined;
  const hit = (sc: Element): boolean => {
    node = textNodeWith(sc === document.scrollingElement ? document.body : sc, needle, regex);
    if (!node) return false;
    const o = snapshotSearch(c, counters);
    return o.ok && o.matchCount > 0;
  };
  // No virtualised list: the page may be a feed that loads more at its end.
  const scanned =
    (await scanRows(virtualScrollers(document), hit, budgetMs)) ??
    (await loadMoreToFind(() => hit(document.scrollingElement ?? document.documentElement), budgetMs));
  if (!scanned) return { none: true };
  const { sc, found, report } = scanned;
  if (found && node?.parentElement) {
    await centre(node.parentElement, sc);
    report.toY = Math.round(scrollTopOf(sc));
  }
  return { outcome: snapshotSearch(c, counters), report };
}
