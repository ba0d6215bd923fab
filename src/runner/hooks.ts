// Step hooks (SPEC §10.2, DECISIONS): readyWhen polled before the action (never true → the step
// fails), settledWhen polled after it (never true → a warning, the step stands), observe evaluated
// once at the end (its value is the step's `observation`). All in the chosen frame, all within the
// step's deadline; a document that navigates away mid-poll is polled again in the new one.

import {
  EvaluationError,
  POLL_INTERVAL_MS,
  StepValidationError,
  TimeoutError,
  type Deadline,
} from '../common/index.js';
import { isContextDestroyed } from '../cdp/index.js';
import { agentCall, type Scope } from '../page/index.js';
import { looksLikeFunction, malformationTip, preview } from '../steps/index.js';
import type { HookPoll } from '../injected/index.js';

export const HOOK_NAMES = ['readyWhen', 'settledWhen', 'observe'] as const;
export type HookName = (typeof HOOK_NAMES)[number];
export type StepHooks = Partial<Record<HookName, string>>;

/** Time kept back from settledWhen so that observe still runs when settling never happens. */
const OBSERVE_RESERVE_MS = 500;
/** settledWhen's share is never less than this (while the step has it): enough for one evaluation. */
const SETTLE_MIN_MS = 300;
const RETRY_AFTER_NAVIGATION_MS = 50;
/** The page's poll ends this much before the step deadline, to report its last value in time. */
const PAGE_MARGIN_MS = 150;

/** The agent's source as a function: "() => …" as given, a bare expression wrapped. */
function callable(source: string): string {
  return looksLikeFunction(source) ? `(\n${source}\n)` : `(() => (\n${source}\n))`;
}

async function evaluateHook(
  scope: Scope,
  hook: HookName,
  body: string,
  deadline: Deadline,
  source: string,
): Promise<unknown> {
  try {
    return await scope.callInPage(body, source, { deadline, what: `${hook} to return` });
  } catch (err) {
    if (!(err instanceof EvaluationError)) throw err;
    const tip = err.message.startsWith('SyntaxError') ? malformationTip(source) : undefined;
    const message = `${hook}: ${err.message} — in: ${preview(source)}${tip ? `. ${tip}` : ''}`;
    throw err.message.startsWith('SyntaxError') ? new StepValidationError(message) : new EvaluationError(message);
  }
}

/** Polls until truthy or the deadline; retried in the new document after a navigation. */
async function poll(scope: Scope, hook: HookName, source: string, deadline: Deadline): Promise<HookPoll> {
  const started = Date.now();
  for (;;) {
    // The page gives up a little before the deadline, so its answer (with the last value) arrives
    // in time; the deadline itself only guards a page that stops answering.
    const budget = Math.max(0, deadline.remainingMs() - PAGE_MARGIN_MS);
    const body = agentCall(
      callable(source),
      (rt, fn: () => unknown, a) => rt.hookValue.pollHook(fn, a.budget, a.intervalMs),
      { budget, intervalMs: POLL_INTERVAL_MS },
      { in: source },
    );
    try {
      const r = (await evaluateHook(scope, hook, body, deadline, source)) as HookPoll;
      return { ...r, elapsedMs: Date.now() - started };
    } catch (err) {
      if (!isContextDestroyed(err) || deadline.expired()) throw err;
      await deadline.sleep(RETRY_AFTER_NAVIGATION_MS);
    }
  }
}

const lastSeen = (r: HookPoll): string =>
  r.error
    ? `it threw ${r.error}`
    : `last value: ${'value' in r.value ? JSON.stringify(r.value.value)?.slice(0, 100) : r.value.type}`;

/** SPEC §10.1 step 2: the step fails unless readyWhen turns truthy in time. */
export async function waitReady(scope: Scope, source: string): Promise<void> {
  const r = await poll(scope, 'readyWhen', source, scope.deadline);
  if (!r.ok)
    throw new TimeoutError(
      `readyWhen was not truthy within ${r.elapsedMs}ms (${lastSeen(r)}) — in: ${preview(source)}`,
      {
        category: 'timeout',
        hook: 'readyWhen',
      },
    );
}

/**
 * SPEC §10.1 step 4: a warning, not a failure, when the page never settles. An action that
 * completed leaves settledWhen at least one evaluation while the step has time (observe's reserve
 * gives way); when the action used up the step's time, the warning says so instead of a verdict.
 */
export async function waitSettled(
  scope: Scope,
  source: string,
  reserveForObserve: boolean,
): Promise<string | undefined> {
  const { deadline } = scope;
  const left = deadline.remainingMs();
  const spent = (): string =>
    `${deadline.elapsedMs()}ms of the step's ${deadline.totalMs}ms timeout had passed when its action was done`;
  if (left === 0) return `settledWhen was not evaluated: ${spent()}; give the step a longer "timeout"`;
  const share = reserveForObserve ? Math.max(left - OBSERVE_RESERVE_MS, Math.min(left, SETTLE_MIN_MS)) : left;
  const budget = deadline.cap(share);
  try {
    const r = await poll(scope, 'settledWhen', source, budget);
    return r.ok ? undefined : `settledWhen was not truthy after ${r.elapsedMs}ms (${lastSeen(r)})`;
  } catch (err) {
    if (err instanceof TimeoutError)
      return `settledWhen gave no answer within the ${budget.totalMs}ms left to it (${spent()}; the page or Chrome was busy)`;
    throw err;
  }
}

/** SPEC §10.1 step 5: the observed value, or a warning when observe threw. */
export async function observe(scope: Scope, source: string): Promise<{ value: unknown } | { warning: string }> {
  try {
    return {
      value: await evaluateHook(
        scope,
        'observe',
        agentCall(callable(source), (rt, fn: () => unknown) => rt.hookValue.observeHook(fn), undefined, { in: source }),
        scope.deadline,
        source,
      ),
    };
  } catch (err) {
    if (err instanceof EvaluationError || err instanceof TimeoutError || isContextDestroyed(err))
      return { warning: `observe failed: ${err instanceof Error ? err.message : String(err)}` };
    throw err;
  }
}
