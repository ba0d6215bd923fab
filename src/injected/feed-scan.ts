// An infinite feed (issue 22 item 11): the page loads more when scrolled to its end. A snapshotSearch
// that finds nothing, with no virtualised list on the page, scrolls to the end, waits for more to load
// and looks again, as a person scrolling the feed would. Runs in the page.
import type { ScanReport } from './virtual-scan.js';

/** How long the end of the page is watched for more to load (a feed's fetch and render). */
const LOAD_WAIT_MS = 1_000;
/** Loads looked through at most (each at least a page of posts). */
const MAX_LOADS = 40;

/** Whether the page grew taller within `ms` of being scrolled to its end. */
function grew(sc: Element, height: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (v: boolean): void => {
      mo.disconnect();
      clearTimeout(timer);
      resolve(v);
    };
    const mo = new MutationObserver(() => {
      if (sc.scrollHeight > height + 1) done(true);
    });
    mo.observe(document.body ?? document.documentElement, { subtree: true, childList: true, characterData: true });
    const timer = setTimeout(() => done(sc.scrollHeight > height + 1), ms);
  });
}

/**
 * Scrolls the page to its end until `hit()` or nothing more loads. Undefined when the page does not
 * scroll or loaded nothing at its end (not a feed: put back where it was, nothing to report).
 */
export async function loadMoreToFind(
  hit: () => boolean,
  budgetMs: number,
): Promise<{ sc: Element; found: boolean; report: ScanReport } | undefined> {
  const sc = document.scrollingElement;
  if (!sc || sc.scrollHeight <= innerHeight + 1) return undefined;
  const ends = performance.now() + budgetMs;
  const start = scrollY;
  const report: ScanReport = { in: 'the page', fromY: Math.round(start), toY: Math.round(start), steps: 0 };
  let loads = 0;
  while (loads < MAX_LOADS) {
    const wait = Math.min(LOAD_WAIT_MS, ends - performance.now());
    if (wait <= 0) break;
    const height = sc.scrollHeight;
    scrollTo({ top: height, behavior: 'instant' });
    report.steps++;
    report.toY = Math.round(scrollY);
    if (!(await grew(sc, height, wait))) {
      // Nothing more within the whole wait: the feed ended (or is slower than we wait), said as such.
      if (wait >= LOAD_WAIT_MS && loads) report.stoppedLoading = true;
      break;
    }
    loads++;
    report.loaded = loads;
    if (hit()) return { sc, found: true, report };
  }
  if (loads && !report.stoppedLoading) report.unseen = 'time';
  scrollTo({ top: start, behavior: 'instant' });
  if (!loads) return undefined;
  report.restored = true;
  report.toY = Math.round(scrollY);
  return { sc, found: false, report };
}
