// Runs one validated command: attach, run the steps in order (optional steps, stop on error,
// a deadline per step), capture the page afterwards, and assemble the answer.

import { CdpSkillError, ConnectionError, Deadline } from '../common/index.js';
import { patchTab } from '../cdp/index.js';
import { ConsoleCollector, type ConsoleReport } from '../capture/index.js';
import { isReadOnlyStep, type AttachedTab, type StepContext } from '../steps/index.js';
import type { FailedRequest } from '../page/index.js';
import { lookupSiteProfile, type ProfileLookup } from '../profiles/index.js';
import { captureAfter, captureBefore, startBefore, type BeforeCapture } from './capture.js';
import { CommandSession } from './command-session.js';
import { gatherFailureContext, type StepFailureContext } from './diagnostics.js';
import { classify, type ClassifiedError, type FailureCategory } from './failure.js';
import { nextStep, type SuggestedStep } from './next-step.js';
import { observe, waitReady, waitSettled } from './hooks.js';
import { assemble } from './output.js';
import type { Command, ValidatedStep } from './validate.js';

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

export interface CommandResult {
  output: Record<string, unknown>;
  ok: boolean;
  tab?: string;
}

/** Time a step may overrun its deadline before the runner stops waiting on it regardless. */
const STEP_GRACE_MS = 2_000;

interface TabWatch {
  tab: AttachedTab;
  console: ConsoleCollector;
  startUrl: string;
  /** Per-tab state as the registry had it, to write back only what changed. */
  startEntry: string;
}

interface StepRun { output: unknown; warning?: string; observation?: { value: unknown } }

/** The step's hooks around its action, in the order of SPEC §10.1, all within the step deadline. */
async function runAction(step: ValidatedStep, ctx: StepContext, session: CommandSession): Promise<StepRun> {
  const { hooks } = step;
  if (hooks?.readyWhen) await waitReady(session.requireTab().page, hooks.readyWhen, ctx.deadline);
  const { output, warning } = splitWarnings(await step.def.run(ctx, step.params));
  const warnings = warning ? [warning] : [];
  let observation: StepRun['observation'];
  if (hooks?.settledWhen || hooks?.observe) {
    const { page } = session.requireTab();
    const unsettled = hooks.settledWhen ? await waitSettled(page, hooks.settledWhen, ctx.deadline, !!hooks.observe) : undefined;
    if (unsettled) warnings.push(unsettled);
    const seen = hooks.observe ? await observe(page, hooks.observe, ctx.deadline) : undefined;
    if (seen && 'warning' in seen) warnings.push(seen.warning);
    else if (seen) observation = seen;
  }
  return { output, ...(warnings.length ? { warning: warnings.join('; ') } : {}), ...(observation ? { observation } : {}) };
}

async function runStep(step: ValidatedStep, session: CommandSession): Promise<StepRun> {
  const deadline = Deadline.after(step.timeoutMs);
  const ctx: StepContext = { deadline, index: step.index, command: session };
  // Belt and braces: every wait inside a step takes the deadline, but should one not, the
  // runner still never waits past it.
  const hardStop = Deadline.after(step.timeoutMs + STEP_GRACE_MS);
  return hardStop.race(runAction(step, ctx, session), `step ${step.index} (${step.action})`);
}

/** Requests reported per command: an agent otherwise never sees a failing API call. */
const MAX_NETWORK_FAILURES = 10;

/** Failed requests and HTTP errors during the command (SPEC §17.4), capped, with the rest counted. */
export function networkReport(failed: FailedRequest[]): { failed: FailedRequest[]; more?: number } | undefined {
  if (!failed.length) return undefined;
  const shown = failed.slice(0, MAX_NETWORK_FAILURES).map((f) => ({ ...f, url: f.url.length > 150 ? `${f.url.slice(0, 149)}…` : f.url }));
  return { failed: shown, ...(failed.length > shown.length ? { more: failed.length - shown.length } : {}) };
}

/** A step reports non-fatal issues as `warnings` in its output; the result carries them as `warning` (SPEC §10.5). */
export function splitWarnings(raw: unknown): { output: unknown; warning?: string } {
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { warnings?: unknown }).warnings)) return { output: raw };
  const { warnings, ...output } = raw as { warnings: string[] };
  return { output: Object.keys(output).length ? output : undefined, ...(warnings.length ? { warning: warnings.join('; ') } : {}) };
}

/** Steps after which the page's site profile is looked up (SPEC §15.3, DECISIONS). */
const PROFILE_LOOKUP_STEPS = new Set(['goto', 'openTab', 'connectTab']);

/** The URL a lookup step landed on: its output's `url` (openTab without a URL has none). */
function landedUrl(action: string, output: unknown): string | undefined {
  if (!PROFILE_LOOKUP_STEPS.has(action) || !output || typeof output !== 'object') return undefined;
  const { url } = output as { url?: unknown };
  return typeof url === 'string' ? url : undefined;
}

/** The profile of the page the command's last navigation landed on; a broken profile never fails the command. */
async function profileFor(url: string | undefined): Promise<ProfileLookup> {
  if (!url) return {};
  try {
    return await lookupSiteProfile(url);
  } catch {
    return {}; // an unreadable profiles folder only costs the hint, not the command
  }
}

/** Dialogs that opened during a step say which (SPEC §19.2: none goes unreported). */
function tagDialogs(watch: TabWatch | undefined, step: number): void {
  for (const d of watch?.tab.page.dialogs ?? []) if (d.step === undefined && !d.betweenCommands) d.step = step;
}

/** A dialog step whose answer no dialog used: say so on it rather than pretend it mattered. */
function warnUnusedAnswer(steps: StepResult[]): void {
  const armed = [...steps].reverse().find((s) => s.action === 'dialog' && s.status === 'ok');
  if (!armed) return;
  const note = 'no dialog opened after it in this command; the answer is kept for one that opens before the next command';
  armed.warning = armed.warning ? `${armed.warning}; ${note}` : note;
}

/** A failed step's result; a non-optional one also gets its params, the failure context and a next step. */
async function failedStep(step: ValidatedStep, c: ClassifiedError, session: CommandSession, err: unknown): Promise<StepResult> {
  // A step that got partway (pipeline, poll) keeps what it has in the error's details.
  const partial = err instanceof CdpSkillError ? err.details.output : undefined;
  const result: StepResult = {
    action: step.action, status: step.optional ? 'skipped' : 'error', ...(partial !== undefined ? { output: partial } : {}),
    error: c.message, ...(c.name ? { errorType: c.name } : {}), category: c.category,
  };
  if (step.optional) return result;
  result.params = step.raw;
  const context = session.tab && !session.closedOwnTab ? await gatherFailureContext(session.tab, c) : undefined;
  const next = await nextStep({ action: step.action, raw: step.raw, failure: c, context, timeoutMs: step.timeoutMs, ...(step.hooks ? { hooks: step.hooks } : {}) });
  if (next) result.nextStep = next;
  if (context) result.context = context;
  return result;
}

/**
 * A command never returns the same YAML twice (issue 13): a whole-page `snapshot` taken after the
 * last step that could change the page already shows the screen, so `viewportSnapshot` goes.
 */
function dropRepeatedView<T extends { viewportSnapshot?: string; truncated?: true }>(captured: T, cmd: Command, results: StepResult[]): T {
  if (!captured.viewportSnapshot) return captured;
  let lastAction = -1;
  cmd.steps.forEach((s, i) => { if (!isReadOnlyStep(s.def, s.params)) lastAction = i; });
  const shown = results.some((r, i) => i > lastAction && r.status === 'ok' && isWholeSnapshot(r.output, cmd.steps[i]?.params));
  if (!shown) return captured;
  const { viewportSnapshot: _same, truncated: _cut, ...rest } = captured;
  return rest as T;
}

function isWholeSnapshot(output: unknown, params: unknown): boolean {
  const o = output as { yaml?: unknown; snapshotId?: unknown } | undefined;
  const p = params as { root?: string; detail?: string; viewportOnly?: boolean } | undefined;
  return typeof o?.yaml === 'string' && typeof o.snapshotId === 'string' && !p?.root && p?.detail !== 'summary';
}

/** Writes per-tab state (ref counters, snapshot hashes) back to the registry when it changed. */
async function saveTabState(watch: TabWatch): Promise<void> {
  const { entry, alias, page } = watch.tab;
  // The chosen frame stays with the tab (SPEC §19.12); a new top document reset it to the top.
  entry.frame = page.frame ? { frameId: page.frame.frameId, url: page.frame.url } : undefined;
  if (JSON.stringify([entry.counters, entry.snapshotHashes, entry.frame]) === watch.startEntry) return;
  try {
    await patchTab(alias, { counters: entry.counters, snapshotHashes: entry.snapshotHashes, frame: entry.frame });
  } catch {
    // Refs still work in this document; only the cross-document counter floor is lost.
  }
}

export async function runCommand(cmd: Command): Promise<CommandResult> {
  const startedMs = Date.now();
  let watch: TabWatch | undefined;
  const visual = cmd.steps.some((s) => !isReadOnlyStep(s.def, s.params));
  const first = cmd.steps[0]!;
  const attachesFirst = cmd.tab !== undefined && !first.def.providesTab;
  // A command that starts by loading a new document has nothing to diff against: no look before.
  const maybeLeaves = first.def.replacesDocument !== undefined;
  let early: ReturnType<typeof startBefore>;
  const session = new CommandSession(cmd.timeoutMs, (tab) => {
    watch = {
      tab, console: new ConsoleCollector(tab.page.session, startedMs), startUrl: tab.page.lifecycle.url,
      startEntry: JSON.stringify([tab.entry.counters, tab.entry.snapshotHashes, tab.entry.frame]),
    };
  }, visual && attachesFirst && !maybeLeaves ? (s, entry) => { early ??= startBefore(s, entry); } : undefined);
  const steps: StepResult[] = [];
  const errors: { step: number; action: string; error: string; type?: string }[] = [];
  let fatal: ClassifiedError | undefined;
  let before: BeforeCapture | undefined;
  let navigatedTo: string | undefined;
  try {
    if (attachesFirst) {
      try {
        const tab = await session.attachExisting(cmd.tab!);
        if (visual && !first.def.replacesDocument?.(first.params, tab.page.lifecycle.url)) before = await captureBefore(tab, early);
      } catch (err) {
        fatal = classify(err);
      }
    }
    for (const step of fatal ? [] : cmd.steps) {
      try {
        const { output, warning, observation } = await runStep(step, session).finally(() => tagDialogs(watch, step.index));
        navigatedTo = landedUrl(step.action, output) ?? navigatedTo;
        steps.push({
          action: step.action, status: 'ok', ...(output !== undefined ? { output } : {}), ...(warning ? { warning } : {}),
          ...(observation ? { observation: observation.value } : {}),
        });
      } catch (err) {
        const c = classify(err);
        const stop = !step.optional && cmd.stopOnError;
        steps.push(await failedStep(step, c, session, err));
        if (!step.optional) errors.push({ step: step.index, action: step.action, error: c.message, ...(c.name ? { type: c.name } : {}) });
        if (c.type === 'CONNECTION' || err instanceof ConnectionError) { fatal = c; break; }
        if (stop) break;
      }
    }
    if (watch?.tab.page.armedDialog) warnUnusedAnswer(steps);
    const alive = watch && !session.closedOwnTab && !watch.tab.page.fatalError && !fatal;
    // The steps are done: the dialog guard and the profile lookup go alongside the capture.
    const guarded = watch && !session.closedOwnTab && !fatal ? watch.tab.page.guardDialogsUntilNextCommand() : undefined;
    const profileP = profileFor(navigatedTo);
    const captured = alive
      ? dropRepeatedView(await captureAfter(watch!.tab, { visual, startUrl: watch!.startUrl, before, actions: cmd.steps.map((s) => s.action) }), cmd, steps)
      : {};
    // Tells the entry point (scripts/cli-loader.cjs) that this run took the common path, worth caching compiled.
    if (alive && visual) (globalThis as Record<symbol, unknown>)[Symbol.for('cdp-skill.capturedPage')] = true;
    if (watch && !session.closedOwnTab) await Promise.all([saveTabState(watch), guarded]);
    const consoleReport: ConsoleReport | undefined = watch?.console.report();
    const ok = !fatal && errors.length === 0;
    const profile = await profileP;
    const output = assemble({
      status: ok ? 'ok' : 'error',
      tab: session.closedOwnTab ? undefined : session.tab?.alias,
      ...captured,
      console: consoleReport,
      dialogs: watch?.tab.page.dialogs,
      network: watch ? networkReport(watch.tab.page.network.failed) : undefined,
      steps,
      errors,
      error: fatal && (fatal.type === 'CONNECTION' || !errors.length) ? { type: fatal.type, message: fatal.message, category: fatal.category } : undefined,
      warning: watch?.tab.page.attachNotes.join(' ') || undefined,
      ...profile,
    });
    return { output, ok, tab: session.tab?.alias };
  } finally {
    await session.close();
  }
}
