// The answer's `network` field, gathered alongside the capture after the steps: the failed
// requests with the start of their bodies, what routes intercepted, the HAR files asked for; and the
// page's own request log kept watching until the next command (the CLI is not there between them).

import { ANSWER_MARGIN_MS, Deadline, progress } from '../common/index.js';
import { failedRequests, writeAskedHars, type FailedRequest, type RouteHits } from '../page/index.js';
import type { AttachedTab } from '../steps/index.js';
import type { StepResult } from './step-run.js';

/** The answer's `network` field: failed requests with the start of their bodies, and what routes intercepted. */
export interface NetworkField {
  failed?: FailedRequest[];
  more?: number;
  routed?: RouteHits[];
}

/**
 * Alongside the capture: the failed requests' bodies read (while the session still has them), the
 * HAR files asked for written, and the page's request log kept watching until the next command.
 * Within the command's time; a command where nothing failed and no HAR was asked waits for nothing.
 */
export async function networkPhase(
  tab: AttachedTab,
  steps: StepResult[],
  alive: boolean,
): Promise<NetworkField | undefined> {
  const { page } = tab;
  const left = alive ? Math.min(MAX_PHASE_MS, Math.max(0, progress.deadlineAt - ANSWER_MARGIN_MS - Date.now())) : 0;
  const deadline = Deadline.after(left);
  const [failed, hars] = await Promise.all([
    failedRequests(page.requests, deadline),
    writeAskedHars(page.requests, deadline),
    alive ? keepRequestLog(tab, deadline.cap(REQUEST_LOG_MS)) : undefined,
  ]);
  // Each asking step's output becomes what was written (its index is the validated step's).
  for (const { step, output } of hars) {
    const result = steps[step - 1];
    if (result) result.output = output;
  }
  const routed = page.routes.report();
  // The command's own rules end with it (a warm host keeps the session, and with it Fetch).
  if (alive) await deadline.race(page.routes.endCommand(), 'the routes').catch(() => undefined);
  return failed || routed.length ? { ...failed, ...(routed.length ? { routed } : {}) } : undefined;
}

/** The phase never outlives the command's time; this bounds it should no step have opened a window. */
const MAX_PHASE_MS = 60_000;

/** Bounds installing the page's request log at the end of a command: it is a courtesy for the next one. */
const REQUEST_LOG_MS = 1_000;

/** The page's own record of its requests, kept while no command runs (injected/request-log.ts). */
async function keepRequestLog(tab: AttachedTab, deadline: Deadline): Promise<void> {
  try {
    await tab.page
      .scopeAt(undefined, deadline)
      .call((rt) => rt.requestLog.watchRequests(), null, { what: 'the request log' });
  } catch {
    // A document that is going or busy: the next command reads its timing buffer instead.
  }
}
