// The settle the capture waits for before its after-look, and a step waits for after an acting step
// before it (issue 22 item 6): the timers and fetches the steps' input set going (settle-work.ts),
// the requests the steps started, then no finite animation or transition running on a shown element
// and the DOM quiet a moment (injected/view-settle.ts).
// Bounded, driven by the page's own events; cheap when nothing is pending.

import type { Scope } from '../page/index.js';
import type { ViewSettle } from './looks.js';
import { settleInputWork } from './settle-work.js';

/** Longest a settle waits for animations, requests and re-renders the steps set going. */
export const SETTLE_MAX_MS = 1_500;
/** DOM quiet this long (after the last mutation) counts as settled. */
const SETTLE_QUIET_MS = 50;

/**
 * The requests begun since `networkMark`, waited for (within SETTLE_MAX_MS and the scope's
 * deadline); answers what is left of the bound for the page's own settle, and whether they finished.
 */
export async function settleRequests(
  scope: Scope,
  networkMark: number,
): Promise<{ view: ViewSettle; requestsDone: boolean; workPending?: string }> {
  const started = Date.now();
  const left = (): number =>
    Math.max(0, Math.min(scope.deadline.remainingMs(), SETTLE_MAX_MS - (Date.now() - started)));
  // Timers and fetches the input set going first: the requests they begin are then among those waited for.
  const workPending = await settleInputWork(scope, left());
  const requestsDone = await scope.page.network.settleSince(networkMark, scope.deadline.cap(Math.max(1, left())));
  return { view: { maxMs: left(), quietMs: SETTLE_QUIET_MS }, requestsDone, ...(workPending ? { workPending } : {}) };
}

/**
 * Waits until the page settled from what began since `networkMark`, at most SETTLE_MAX_MS. Answers
 * how long it waited, and what was still pending when the bound ran out. `keepClock`: the mutation
 * clock stays armed for a later settle (the capture's, after the last step).
 */
export async function settleView(
  scope: Scope,
  networkMark: number,
  keepClock = false,
): Promise<{ pending?: string; waitedMs: number }> {
  const started = Date.now();
  const { view, requestsDone, workPending } = await settleRequests(scope, networkMark);
  const r = await scope.call(
    (rt, a) => rt.viewSettle.viewSettle(a.maxMs, a.quietMs, a.keepClock),
    { ...view, keepClock },
    { what: 'the page to settle' },
  );
  const pending = workPending ?? r.pending ?? (requestsDone ? undefined : 'requests');
  return { waitedMs: Date.now() - started, ...(pending ? { pending } : {}) };
}
