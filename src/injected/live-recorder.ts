// Transient feedback (issue 3): a toast or live-region message that appears and vanishes while a
// command runs would be missed by the before/after snapshots, so its text is recorded as it is
// added, from the before-capture to the after-capture. Runs in the page.
import { collapseSpace } from './aria-name.js';
import { state } from './state.js';

export interface LiveRecorder {
  observer: MutationObserver;
  texts: string[];
  /** The region each text was read from. */
  regions: Element[];
  handle: (records: MutationRecord[]) => void;
}

/** Where messages show: live regions, and the toasts and snackbars of the usual libraries. */
const LIVE_SELECTOR =
  '[role=alert], [role=status], [role=log], [aria-live]:not([aria-live=off]), output, ' +
  '[class*=toast], [class*=snackbar], [class*=notification], [class*=flash]';

/** The live region a changed node belongs to, if any. */
export function liveRegionOf(node: Node): Element | null {
  const el = node.nodeType === 1 ? (node as Element) : node.parentElement;
  return el?.closest(LIVE_SELECTOR) ?? null;
}

export function armLiveRecorder(): void {
  state.liveRecorder?.observer.disconnect();
  const texts: string[] = [];
  const regions: Element[] = [];
  const seen = new Set<Element>();
  const handle = (records: MutationRecord[]): void => {
    seen.clear();
    for (const r of records) {
      const nodes = r.type === 'characterData' ? [r.target] : [r.target, ...Array.from(r.addedNodes)];
      for (const n of nodes) {
        const region = liveRegionOf(n) ?? (n.nodeType === 1 ? (n as Element).querySelector(LIVE_SELECTOR) : null);
        if (!region || seen.has(region)) continue;
        seen.add(region);
        const text = collapseSpace((region as HTMLElement).innerText ?? region.textContent ?? '').slice(0, 150);
        if (text && !texts.includes(text) && texts.length < 10) {
          texts.push(text);
          regions.push(region);
        }
      }
    }
  };
  const observer = new MutationObserver(handle);
  observer.observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['hidden', 'class', 'style'],
  });
  state.liveRecorder = { observer, texts, regions, handle };
}

/** Texts recorded since arming (the recorder stops). */
export function takeLiveRecords(): string[] {
  const rec = state.liveRecorder;
  if (!rec) return [];
  rec.handle(rec.observer.takeRecords());
  rec.observer.disconnect();
  state.liveRecorder = undefined;
  return rec.texts.filter((t, i) => !superseded(t, rec.regions[i]!));
}

/**
 * A region's earlier message that its message now rewrites from the same template ("6 results
 * available. Use Up and Down…" before "1 result available for search term zea. Use Up and Down…")
 * is chatter, not a message shown and gone: the diff tells the region's text now.
 */
function superseded(text: string, region: Element): boolean {
  if (!region.isConnected) return false;
  const now = collapseSpace((region as HTMLElement).innerText ?? region.textContent ?? '').slice(0, 150);
  return !!now && now !== text && sharesRun(text, now, 24);
}

/** Whether `a` and `b` share a run of at least `n` characters (longest common substring; texts are ≤ 150). */
function sharesRun(a: string, b: string, n: number): boolean {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] !== b[j - 1]) continue;
      row[j] = prev[j - 1]! + 1;
      if (row[j]! >= n) return true;
    }
    prev = row;
  }
  return false;
}
