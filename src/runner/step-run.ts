// One step of a command: its hooks around its action within the step deadline, and its result
// when it fails (params, failure context, a next step). run-command.ts strings these together.

import {
  CdpSkillError,
  Deadline,
  pendingNow,
  StaleElementError,
  StepValidationError,
  TimeoutError,
} from '../common/index.js';
import { FRAME_REF, splitFrameRef } from '../aria/index.js';
import type { FrameTarget, Scope } from '../page/index.js';
import type { AttachedTab, StepContext } from '../steps/index.js';
import type { CommandSession } from './command-session.js';
import { gatherFailureContext, type StepFailureContext } from './diagnostics.js';
import type { ClassifiedError, FailureCategory } from './failure.js';
import { nextStep, type SuggestedStep } from './next-step.js';
import { observe, waitReady, waitSettled } from './hooks.js';
import { settleView } from './settle-view.js';
import type { ValidatedStep } from './validate.js';

export interface StepResult {
  action: string;
  status: 'ok' | 'error' | 'skipped';
  output?: unknown;
  warning?: string;
  /** The observe hook's value (SPEC §10.5). */
  observation?: unknown;
  error?: string;
  errorType?: string;
  category?: FailureCategory;
  params?: unknown;
  /** One step the agent could run next (runner/next-step.ts). */
  nextStep?: SuggestedStep;
  /** SPEC §16.3 failure context: the page as the failed step left it. */
  context?: StepFailureContext;
}

export interface StepRun {
  output: unknown;
  warning?: string;
  observation?: { value: unknown };
}

/** Time a step may overrun its deadline before the runner stops waiting on it regardless (the CLI's watchdog answers 500 ms after). */
const STEP_GRACE_MS = 200;
/** How long a step that clicked a download link waits for its download to begin. */
const DOWNLOAD_LINK_MS = 5_000;
/** Of a step's time, what a running download's wait leaves for the look after the steps (at most a quarter). */
const LOOK_RESERVE_MS = 1_000;

/** A step reports non-fatal issues as `warnings` in its output; the result carries them as `warning` (SPEC §10.5). */
export function splitWarnings(raw: unknown): { output: unknown; warning?: string } {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { warnings?: unknown }).warnings))
    return { output: raw };
  const { warnings, ...output } = raw as { warnings: string[] };
  return {
    output: Object.keys(output).length ? output : undefined,
    ...(warnings.length ? { warning: warnings.join('; ') } : {}),
  };
}

/** What the step is lent: `scope` is where it acts (undefined before the command has a tab). */
function stepContext(step: ValidatedStep, deadline: Deadline, session: CommandSession, scope?: Scope): StepContext {
  return {
    deadline,
    index: step.index,
    command: session,
    get scope(): Scope {
      if (!scope) return session.requireTab().page.scope(deadline); // a tab opened by this very step
      return scope;
    },
  };
}

/**
 * Issue 22 item 6: a step after an acting step starts once the page settled from it (the capture's
 * settle, bounded): a popup still fading out is not read as the one just opened. Answers a warning
 * when the page was still changing.
 */
async function settleFirst(scope: Scope, networkMark: number, after: number): Promise<string | undefined> {
  try {
    const { pending, waitedMs } = await settleView(scope, networkMark, true);
    return pending
      ? `the page was still changing after step ${after} (${pending}, for ${waitedMs}ms); this step ran on it as it was`
      : undefined;
  } catch {
    return undefined; // a page that does not answer: the step itself will say so
  }
}

/** The step's hooks around its action, in the order of SPEC §10.1, all within the step deadline. */
async function runAction(
  step: ValidatedStep,
  deadline: Deadline,
  session: CommandSession,
  settleFrom?: number,
): Promise<StepRun> {
  const { hooks } = step;
  const tab = session.tab;
  // The hooks look where the steps run (the tab's chosen frame), the action where its target is.
  const chosen = tab?.page.scope(deadline);
  const unsettled =
    chosen && settleFrom !== undefined ? await settleFirst(chosen, settleFrom, step.index - 1) : undefined;
  if (hooks?.readyWhen) await waitReady(chosen ?? session.requireTab().page.scope(deadline), hooks.readyWhen);
  const raw = await withDownloads(step, deadline, session, () =>
    tab && chosen
      ? inRefFrame(step, tab, chosen, (scope) => step.def.run(stepContext(step, deadline, session, scope), step.params))
      : step.def.run(stepContext(step, deadline, session), step.params),
  );
  const split = splitWarnings(raw);
  const { warning } = split;
  // Facts a lower layer noted on the deadline (the list it scrolled to find the target) join the output.
  const notes = deadline.notes();
  const output =
    Object.keys(notes).length && (split.output === undefined || (split.output && typeof split.output === 'object'))
      ? { ...(split.output as object | undefined), ...notes }
      : split.output;
  const warnings = [unsettled, warning].filter((w): w is string => !!w);
  let observation: StepRun['observation'];
  if (hooks?.settledWhen || hooks?.observe) {
    // Where the steps run now: a frame step just chose one, openTab just made the tab.
    const scope = session.requireTab().page.scope(deadline);
    const unsettled = hooks.settledWhen ? await waitSettled(scope, hooks.settledWhen, !!hooks.observe) : undefined;
    if (unsettled) warnings.push(unsettled);
    const seen = hooks.observe ? await observe(scope, hooks.observe) : undefined;
    if (seen && 'warning' in seen) warnings.push(seen.warning);
    else if (seen) observation = seen;
  }
  return {
    output,
    ...(warnings.length ? { warning: warnings.join('; ') } : {}),
    ...(observation ? { observation } : {}),
  };
}

/**
 * The downloads a step starts are waited for within its deadline (issue 21.3); with `download`
 * the step also waits for one to begin, and saves it at the path given.
 */
async function withDownloads<T>(
  step: ValidatedStep,
  deadline: Deadline,
  session: CommandSession,
  run: () => Promise<T>,
): Promise<T> {
  if (step.download && session.tab && !session.downloads)
    throw new StepValidationError(
      '"download" needs a Chrome on this machine (downloads of a remote browser land on its machine)',
    );
  const mark = session.downloads?.expect(step.download?.path) ?? 0;
  session.downloadsUntil = deadline;
  const page = session.tab?.page;
  if (page) page.downloadLinksClicked = 0;
  try {
    const result = await run();
    const links = session.tab?.page.downloadLinksClicked ?? 0;
    // Download links were clicked: their downloads begin when the server answers (a bounded wait, no error).
    if (step.download === undefined && links)
      await session.downloads?.settle(mark, deadline.cap(DOWNLOAD_LINK_MS), links).catch(() => 0);
    // A download still running is waited for short of the deadline: the look after the steps gets
    // its time (else the answer would come from the deadline, with no screenshot).
    const finishBy = deadline.cap(deadline.remainingMs() - Math.min(LOOK_RESERVE_MS, deadline.totalMs / 4));
    await session.downloads?.settle(mark, deadline, step.download !== undefined ? 1 : 0, finishBy);
    return result;
  } finally {
    session.downloads?.expect(undefined);
  }
}

/** The target objects ({by: 'ref', ref}) a step's parsed params hold. */
function refTargets(v: unknown, out: { by: string; ref: string }[] = [], depth = 0): { by: string; ref: string }[] {
  if (!v || typeof v !== 'object' || depth > 4) return out;
  const o = v as Record<string, unknown>;
  if (o.by === 'ref' && typeof o.ref === 'string') out.push(o as { by: string; ref: string });
  else for (const x of Object.values(o)) refTargets(x, out, depth + 1);
  return out;
}

/**
 * A frame ref (`f2s3e7`, a cross-origin frame's element in the snapshot): the step runs in the
 * scope of that frame, with the frame's own ref, as after a `frame` step; else in `chosen`.
 */
async function inRefFrame<T>(
  step: ValidatedStep,
  tab: AttachedTab,
  chosen: Scope,
  run: (scope: Scope) => Promise<T>,
): Promise<T> {
  const all = refTargets(step.params);
  const framed = all.filter((t) => FRAME_REF.test(t.ref));
  if (!framed.length) return run(chosen);
  const { page } = tab;
  const parts = framed.map((t) => ({ t, given: t.ref, ...splitFrameRef(tab.entry, t.ref)! }));
  const frameId = parts[0]!.frameId;
  if (!frameId || parts.some((p) => p.frameId !== frameId) || all.length > framed.length)
    throw new StaleElementError(
      frameId
        ? `Refs of two frames in one step (${all.map((t) => t.ref).join(', ')}): one frame per step.`
        : `Ref ${framed[0]!.ref} names a frame this tab no longer knows; take a new snapshot.`,
      { category: 'stale-ref' },
    );
  let target: FrameTarget;
  try {
    target = await page.frames.target(frameId, chosen.deadline);
  } catch {
    throw new StaleElementError(
      `Ref ${framed[0]!.ref} is in a frame that is gone (the page navigated or removed it); take a new snapshot.`,
      { category: 'stale-ref' },
    );
  }
  for (const p of parts) p.t.ref = p.ref;
  try {
    return await run(chosen.at(target));
  } catch (err) {
    // Told with the ref the agent gave, and without the hint to leave a frame it never chose.
    if (err instanceof Error) {
      for (const p of parts) err.message = err.message.replace(new RegExp(`\\b${p.ref}\\b`, 'g'), p.given);
      err.message = err.message.replace(
        / \(searched the frame .*goes back to the page\)/,
        ` (in the frame ${target.url})`,
      );
    }
    throw err;
  } finally {
    // The agent's ref stays as given (a retry of the same step routes again).
    for (const p of parts) p.t.ref = p.given;
  }
}

/**
 * Runs a step whose time counts from `from` (the first step's includes the attach before it). After
 * an acting step, `settleFrom` is the network mark from before it: the page settles first.
 */
export async function runStep(
  step: ValidatedStep,
  session: CommandSession,
  from = Date.now(),
  settleFrom?: number,
): Promise<StepRun> {
  const deadline = Deadline.after(step.timeoutMs, from);
  // Belt and braces: every wait inside a step takes the deadline, but should one not, the
  // runner still never waits past it, and says what was still pending.
  let timer: NodeJS.Timeout | undefined;
  const hardStop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const waiting = pendingNow();
      const log = deadline.callLog();
      reject(
        new TimeoutError(
          `Step ${step.index} (${step.action}) did not finish within its ${step.timeoutMs}ms timeout (${Date.now() - from}ms passed)` +
            `${waiting.length ? `; it was waiting for ${waiting.join('; ')}` : ''}. Chrome may be frozen or overloaded: check with {"chromeStatus": true}.` +
            `${log ? ` Call log: ${log}` : ''}`,
        ),
      );
    }, deadline.remainingMs() + STEP_GRACE_MS);
  });
  const action = runAction(step, deadline, session, settleFrom);
  action.catch(() => {
    /* after a hard stop nobody awaits the action; its late failure is moot */
  });
  return Promise.race([action, hardStop]).finally(() => clearTimeout(timer));
}

/** A step that ran: its result. */
export function okStep(step: ValidatedStep, run: StepRun): StepResult {
  const { output, warning, observation } = run;
  return {
    action: step.action,
    status: 'ok',
    ...(output !== undefined ? { output } : {}),
    ...(warning ? { warning } : {}),
    ...(observation ? { observation: observation.value } : {}),
  };
}

/** A failed step's result; a non-optional one also gets its params, the failure context and a next step. */
export async function failedStep(
  step: ValidatedStep,
  c: ClassifiedError,
  session: CommandSession,
  err: unknown,
): Promise<StepResult> {
  // A step that got partway (pipeline, poll) keeps what it has in the error's details.
  const partial = err instanceof CdpSkillError ? err.details.output : undefined;
  const result: StepResult = {
    action: step.action,
    status: step.optional ? 'skipped' : 'error',
    ...(partial !== undefined ? { output: partial } : {}),
    error: c.message,
    ...(c.name ? { errorType: c.name } : {}),
    category: c.category,
  };
  if (step.optional) return result;
  result.params = step.raw;
  const context = session.tab && !session.closedOwnTab ? await gatherFailureContext(session.tab, c) : undefined;
  const next = await nextStep({
    action: step.action,
    raw: step.raw,
    failure: c,
    context,
    timeoutMs: step.timeoutMs,
    ...(step.hooks ? { hooks: step.hooks } : {}),
  });
  if (next) result.nextStep = next;
  if (context) result.context = context;
  return result;
}
