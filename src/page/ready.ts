// Ready before the first look (issue 13, DECISIONS): after a navigation, the capture waits — in
// rounds, event-driven in the page (injected/page-ready.ts) and on the network tracker here — until
// custom elements are defined, fonts loaded, no dialog animating and the network quiet; at most
// READY_MAX_MS and never past the caller's deadline. Answers what was still pending, in words.

import { Deadline } from '../common/index.js';
import type { Page } from './tab.js';

/** The longest the first look waits for a page to be ready. */
export const READY_MAX_MS = 1_500;
/** One round: the page waits this long on its promises while the network is watched. */
const ROUND_MS = 250;
/** No request for this long counts as a quiet network. */
const QUIET_MS = 100;

/** Waits until the page is ready to be looked at; `[]` when it is, else what was still pending. */
export async function waitPageReady(page: Page, deadline: Deadline): Promise<string[]> {
  const bound = deadline.cap(READY_MAX_MS);
  const top = page.scopeAt(undefined, deadline);
  let last: string[] = [];
  let closedPending = false;
  for (;;) {
    const roundMs = Math.max(0, Math.min(ROUND_MS, bound.remainingMs()));
    // The page answers after its round and a frame: its call may run a little past the bound, not past the caller's deadline.
    const [pending, quiet] = await Promise.all([
      top
        .call(
          // Asked in the same call: custom elements not looked at yet may hold closed shadow roots.
          async (rt, ms) => [await rt.pageReady.awaitReady(ms), rt.closedShadow.closedRootsPending()] as const,
          roundMs,
          { deadline: deadline.cap(roundMs + 1_000), what: 'the page to be ready' },
        )
        .then(([p, closed]) => {
          closedPending = closed;
          return p;
        })
        .catch(() => last), // a page that does not answer is not held up further: what it said last stands
      page.network.waitForIdle(QUIET_MS, Deadline.after(roundMs), 'a quiet network').then(
        () => true,
        () => false,
      ),
    ]);
    last = pending;
    const all = quiet
      ? pending
      : [...pending, `network busy (${page.network.pending} request${page.network.pending === 1 ? '' : 's'})`];
    // A definition may come from a timer as well as a request: undefined elements are waited for to the bound.
    if (!all.length || bound.remainingMs() <= 0) {
      // The first look shows closed shadow roots' content too: fetched once per host (closed-shadow.ts).
      if (closedPending) await top.revealClosedRoots().catch(() => 0);
      return all;
    }
  }
}
