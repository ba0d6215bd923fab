// The settle's first part (issue 22 item 9): the work the steps' input set going in the page —
// timers set while handling a trusted event (a debounced search), their chains, the fetches they
// began — armed at the before-look and waited for before requests and re-renders are
// (settle-view.ts). The tracking lives in the page's own world (injected/input-work.ts).

import type { Scope } from '../page/index.js';

/** Arms the tracking in the scope's page world before the steps run; a page that can't take it is settled as before. */
export async function armInputWork(scope: Scope): Promise<void> {
  try {
    await scope.callPageWorld((rt) => rt.inputWork.armInputWork(), undefined, { what: 'the input-work tracking' });
  } catch {
    // Best effort: without it the settle waits only for requests, animations and a quiet DOM.
  }
}

/**
 * Waits (at most `maxMs`) for the timers and fetches the input set going; answers what was still
 * pending when the bound ran out, in words ("1 timer the page started on the input").
 */
export async function settleInputWork(scope: Scope, maxMs: number): Promise<string | undefined> {
  if (maxMs <= 0) return undefined;
  try {
    const r = await scope.callPageWorld((rt, ms) => rt.inputWork.awaitInputWork(ms), maxMs, {
      what: 'the work the steps started',
    });
    return r.pending;
  } catch {
    return undefined; // the page could not answer: the rest of the settle still runs
  }
}
