// After an action: did it navigate (a new document, or a pushState route — DECISIONS), did it open
// tabs, and let what it started finish — without fixed sleeps: a navigation is waited for only when
// one was asked for, requests only when the action started some.

import type { Deadline } from '../common/index.js';
import type { Page } from '../page/index.js';

/** Longest an action waits for the page it navigated to (not an error when exceeded). */
const NAVIGATION_WAIT_MS = 10_000;
/** Longest an action waits for requests it started (long polls must not hold the answer). */
const REQUEST_SETTLE_MS = 2_000;

export interface ActionMark {
  url: string;
  documents: number;
  sameDocument: number;
  requested: number;
  stopped: number;
  network: number;
  opened: { url: string }[];
  stopListening: () => void;
}

export interface SettleResult {
  navigated?: true;
  newUrl?: string;
  /** URLs the action opened in new tabs or windows (window.open, target=_blank). */
  opened?: string[];
  warning?: string;
}

/** Call right before the action. */
export function markBeforeAction(page: Page): ActionMark {
  const opened: { url: string }[] = [];
  const stopListening = page.session.on('Page.windowOpen', (e) => {
    opened.push({ url: e.url });
  });
  const l = page.lifecycle;
  return {
    url: l.url,
    documents: l.documentCount,
    sameDocument: l.sameDocumentCount,
    requested: l.requestedCount,
    stopped: l.stoppedCount,
    network: page.network.mark,
    opened,
    stopListening,
  };
}

const withoutHash = (u: string): string => u.split('#')[0]!;

/** Call right after the action: waits for what it set in motion, then says what changed. */
export async function settleAfterAction(page: Page, mark: ActionMark, deadline: Deadline): Promise<SettleResult> {
  const l = page.lifecycle;
  const out: SettleResult = {};
  try {
    if (l.requestedCount > mark.requested || l.documentCount > mark.documents) {
      // A navigation was asked for: wait for it to commit (or stop, for a download or a 204),
      // then for the new document's load event.
      const wait = deadline.cap(NAVIGATION_WAIT_MS);
      await l.settle(
        () =>
          l.documentCount > mark.documents || l.stoppedCount > mark.stopped || l.sameDocumentCount > mark.sameDocument,
        wait,
      );
      if (
        l.documentCount > mark.documents &&
        !(await l.settle(() => l.loaderId !== undefined && l.reached(l.loaderId, 'load'), wait))
      ) {
        out.warning = `the new page did not finish loading within ${NAVIGATION_WAIT_MS}ms`;
      }
    }
    await page.network.settleSince(mark.network, deadline.cap(REQUEST_SETTLE_MS));
  } finally {
    mark.stopListening();
  }
  const navigated =
    l.documentCount > mark.documents ||
    withoutHash(l.url) !== withoutHash(mark.url) ||
    (l.sameDocumentCount > mark.sameDocument && l.url !== mark.url);
  if (navigated) {
    out.navigated = true;
    out.newUrl = l.url;
  }
  if (mark.opened.length) out.opened = mark.opened.map((o) => o.url);
  return out;
}
