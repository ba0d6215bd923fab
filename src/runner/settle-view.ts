// The settle the capture waits for before its after-look, and a step waits for after an acting step
// before it (issue 22 item 6): the requests the steps started, then no finite animation or
// transition running on a shown element and the DOM quiet a moment (injected/view-settle.ts).
// Bounded, driven by the page's own events; cheap when nothing is pending.

import type { Scope } from '../page/index.js';

/** Longest a settle waits for animations, requests and re-renders the steps set going. */
export const SETTLE_MAX_MS = 1_500;
/** DOM quiet this long (after the last mutation) counts as settled. */
const SETTLE_QUIET_MS = 50;

/**
 * Waits until the page settled from what began since `networkMark`, at most SETTLE_MAX_MS (and the
 * scope's deadline). Answers how long it waited, and what was still pending when the bound ran out. `keepClock`: the
 * mutation clock stays armed for a later settle (the capture's, after the last step).
 */
export async function settleView(
  scope: Scope,
  networkMark: number,
  keepClock = false,
): Promise<{ pending?: string; waitedMs: number }> {
  const started = Date.now();
  const bound = scope.deadline.cap(SETTLE_MAX_MS);
  const quiet = await scope.page.network.settleSince(networkMark, bound);
  const leftMs = Math.max(0, Math.min(bound.remainingMs(), SETTLE_MAX_MS - (Date.now() - started)));
  const r = await scope.call(
    (rt, a) => rt.viewSettle.viewSettle(a.maxMs, a.quietMs, a.keepClock),
    { maxMs: leftMs, quietMs: SETTLE_QUIET_MS, keepClock },
    { what: 'the page to settle' },
  );
  const pending = r.pending ?? (quiet ? undefined : 'requests');
  return { waitedMs: Date.now() - started, ...(pending ? { pending } : {}) };
}
