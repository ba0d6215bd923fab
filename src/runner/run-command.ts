// Runs one validated command, in phases: attach to the tab, run the steps (optional steps, stop on
// error, a deadline each), then alongside each other the dialog guard, the site profile lookup and
// the capture of the page, the tab's state written back, and the answer assembled.

import {
  CAPTURE_PHASE,
  ConnectionError,
  fieldSecretsMark,
  firstStepStart,
  openWindow,
  progress,
} from '../common/index.js';
import { patchTab } from '../cdp/index.js';
import { exchangeSecrets } from './page-secrets.js';
import { ConsoleCollector } from '../capture/index.js';
import { isReadOnlyStep, type AttachedTab } from '../steps/index.js';
import type { DownloadReport } from '../page/index.js';
import { lookupSiteProfile, type ProfileLookup } from '../profiles/index.js';
import {
  captureAfter,
  captureBefore,
  lookAgain,
  startBefore,
  type AfterCapture,
  type BeforeCapture,
} from './capture.js';
import { CommandSession } from './command-session.js';
import type { TabHost } from './tab-host.js';
import { classify, type ClassifiedError } from './failure.js';
import { assemble } from './output.js';
import { summarizeDialogs } from './answer-bound.js';
import { networkPhase, type NetworkField } from './network-phase.js';
import { failedStep, okStep, runStep, type StepResult } from './step-run.js';
import { stepVerbs, type Command, type ValidatedStep } from './validate.js';
import type { StepVerb } from '../diff/index.js';

export type { StepResult } from './step-run.js';

export interface CommandResult {
  output: Record<string, unknown>;
  ok: boolean;
  tab?: string;
  /**
   * The command acted on a page and captured it afterwards: the common path, the one worth keeping
   * compiled in V8's code cache (cli.ts tells scripts/cli-loader.cjs).
   */
  capturedPage: boolean;
}

interface TabWatch {
  tab: AttachedTab;
  console: ConsoleCollector;
  startUrl: string;
  /** Per-tab state as the registry had it, to write back only what changed. */
  startEntry: string;
  /** What the warm host saw on the tab since the previous call (the answer's `betweenCommands`). */
  between?: Record<string, unknown>;
}

/** What a command builds up as it runs, phase by phase. */
interface Run {
  readonly cmd: Command;
  readonly session: CommandSession;
  /** Some step may change what the page shows: capture before and after. */
  readonly visual: boolean;
  watch?: TabWatch;
  /** The look at the page before the steps, sent during the attach. */
  early?: ReturnType<typeof startBefore>;
  before?: BeforeCapture;
  readonly steps: StepResult[];
  readonly errors: { step: number; action: string; error: string; type?: string }[];
  /** A failure that ends the command (attach failed, the connection was lost). */
  fatal?: ClassifiedError;
  /** The URL the command's last navigation landed on, for the site profile. */
  navigatedTo?: string;
  /** Where this command's secret field values begin (a warm process answers many commands). */
  readonly secretsMark: number;
  /** The first failed step, as the top-level error (docs/behaviour.md, Errors: a failed step also gives the top-level error). */
  firstFailure?: { type: string; step: number; message: string; category: string };
}

const tabState = (tab: AttachedTab): string =>
  JSON.stringify([tab.entry.counters, tab.entry.snapshotHashes, tab.entry.frame, tab.entry.world, tab.entry.frameRefs]);

/** The run's state and its session, which starts watching the tab (console, state) when one is attached. */
function startRun(cmd: Command, host: TabHost | undefined): Run {
  const startedMs = Date.now();
  const visual = cmd.steps.some((s) => !isReadOnlyStep(s.def, s.params));
  const first = cmd.steps[0]!;
  // A command that starts by loading a new document has nothing to diff against: no early look.
  const earlyLook =
    visual && cmd.tab !== undefined && !first.def.providesTab && first.def.replacesDocument === undefined;
  const onAttach = (tab: AttachedTab, between?: Record<string, unknown>): void => {
    progress.tab = tab.alias;
    const { downloads } = run.session;
    progress.downloads = downloads && (() => downloads.known());
    run.watch?.console.stop(); // a second tab (openTab after a tab was attached): its console is the one told
    run.watch = {
      tab,
      console: new ConsoleCollector(tab.page.session, startedMs),
      startUrl: tab.page.lifecycle.url,
      startEntry: tabState(tab),
      ...(between ? { between } : {}),
    };
  };
  const session = new CommandSession(
    cmd.timeoutMs,
    onAttach,
    earlyLook
      ? (s, entry) => {
          run.early ??= startBefore(s, entry);
        }
      : undefined,
    host,
  );
  const run: Run = { cmd, session, visual, steps: [], errors: [], secretsMark: fieldSecretsMark() };
  return run;
}

/** Phase 1: attach to the command's tab (unless its first step opens one) and look at the page. */
async function attach(run: Run): Promise<void> {
  const { cmd } = run;
  const first = cmd.steps[0]!;
  if (cmd.tab === undefined || first.def.providesTab) return;
  try {
    const tab = await run.session.attachExisting(cmd.tab);
    if (run.visual && !first.def.replacesDocument?.(first.params, tab.page.lifecycle.url))
      run.before = await captureBefore(tab, run.early);
  } catch (err) {
    run.fatal = classify(err);
  }
}

/** Phase 2: the steps in order; a failure stops the command unless the step is optional or stopOnError is off. */
async function runSteps(run: Run): Promise<void> {
  progress.steps = run.steps;
  const first = run.cmd.steps[0];
  // The network mark from before the last acting step: the next step starts once the page settled from it.
  let settleFrom: number | undefined;
  for (const step of run.cmd.steps) {
    // The first step's time includes the attach before it: the command answers within its timeout.
    const from = step === first ? firstStepStart(step.timeoutMs) : Date.now();
    openWindow(step.timeoutMs, `step ${step.index} (${step.action})`, from);
    const settle = settleFrom;
    settleFrom = isReadOnlyStep(step.def, step.params) ? undefined : (run.session.tab?.page.network.mark ?? 0);
    try {
      const done = await runStep(step, run.session, from, settle).finally(() => tagDialogs(run.watch, step.index));
      run.navigatedTo = landedUrl(step, done.output) ?? run.navigatedTo;
      run.steps.push(okStep(step, done));
      await lookAgainAfterFrameStep(run, step);
    } catch (err) {
      const c = classify(err);
      if (!step.optional)
        progress.failed = {
          action: step.action,
          status: 'error',
          error: c.message,
          ...(c.name ? { errorType: c.name } : {}),
          category: c.category,
          type: c.type,
        };
      run.steps.push(await failedStep(step, c, run.session, err));
      if (!step.optional)
        run.errors.push({
          step: step.index,
          action: step.action,
          error: c.message,
          ...(c.name ? { type: c.name } : {}),
        });
      if (!step.optional)
        run.firstFailure ??= { type: c.type, step: step.index, message: c.message, category: c.category };
      if (c.type === 'CONNECTION' || err instanceof ConnectionError) {
        run.fatal = c;
        return;
      }
      if (!step.optional && run.cmd.stopOnError) return;
    }
  }
}

/**
 * A step that chose a frame, before anything acted: the steps that follow act in that frame, so the
 * look to diff against is taken there (keys typed into a framed editor then answer with their changes).
 */
async function lookAgainAfterFrameStep(run: Run, step: ValidatedStep): Promise<void> {
  if (!run.visual || !step.def.choosesFrame || !run.session.tab) return;
  const upTo = run.cmd.steps.slice(0, run.cmd.steps.indexOf(step) + 1);
  if (!upTo.every((s) => s.def.choosesFrame || s.def.readOnly)) return;
  // A command that chooses another frame later (back to the top) keeps the look it has.
  if (run.cmd.steps.slice(upTo.length).some((s) => s.def.choosesFrame)) return;
  run.before = await lookAgain(run.session.tab, run.before);
}

/** Dialogs that opened during a step say which (SPEC §19.2: none goes unreported). */
function tagDialogs(watch: TabWatch | undefined, step: number): void {
  for (const d of watch?.tab.page.dialogs ?? []) if (d.step === undefined && !d.betweenCommands) d.step = step;
}

/** The URL a step that lands on one (SPEC §15.3) landed on: its output's `url` (openTab without a URL has none). */
function landedUrl(step: ValidatedStep, output: unknown): string | undefined {
  if (!step.def.landsOnUrl || !output || typeof output !== 'object') return undefined;
  const { url } = output as { url?: unknown };
  return typeof url === 'string' ? url : undefined;
}

/** A dialog answer armed in this command that no dialog used: say so on its step rather than pretend it mattered. */
function warnUnusedAnswer(run: Run): void {
  if (!run.watch?.tab.page.armedDialog) return;
  const arming = new Set(run.cmd.steps.filter((s) => s.def.armsDialog).map((s) => s.action));
  const armed = [...run.steps].reverse().find((s) => s.status === 'ok' && arming.has(s.action));
  if (!armed) return;
  const note =
    'no dialog opened after it in this command; the answer is kept for one that opens before the next command';
  armed.warning = armed.warning ? `${armed.warning}; ${note}` : note;
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

/**
 * A command never returns the same YAML twice (issue 13): a whole-page snapshot step taken after the
 * last step that could change the page already shows the screen, so `viewportSnapshot` goes.
 */
function dropRepeatedView<T extends { viewportSnapshot?: string; truncated?: true }>(
  captured: T,
  cmd: Command,
  results: StepResult[],
): T {
  if (!captured.viewportSnapshot) return captured;
  let lastAction = -1;
  cmd.steps.forEach((s, i) => {
    if (!isReadOnlyStep(s.def, s.params)) lastAction = i;
  });
  const shown = results.some((r, i) => {
    const step = cmd.steps[i];
    return i > lastAction && r.status === 'ok' && !!step?.def.showsPage?.(step.params, r.output);
  });
  if (!shown) return captured;
  const { viewportSnapshot: _same, truncated: _cut, ...rest } = captured;
  return rest as T;
}

/** Writes per-tab state (ref counters, snapshot hashes) back to the registry when it changed. */
async function saveTabState(watch: TabWatch): Promise<void> {
  const { entry, alias, page } = watch.tab;
  // The chosen frame stays with the tab (SPEC §19.12); a new top document reset it to the top.
  entry.frame = page.chosenFrameEntry();
  // Our world in the top document, for the next command's early before-look (capture.ts startBefore).
  const uniqueId = page.worlds.uniqueIdOf(page.frameRef(undefined));
  const loaderId = page.lifecycle.loaderId;
  entry.world = uniqueId && loaderId ? { uniqueId, loaderId } : undefined;
  if (tabState(watch.tab) === watch.startEntry) return;
  try {
    await patchTab(alias, {
      counters: entry.counters,
      snapshotHashes: entry.snapshotHashes,
      frame: entry.frame,
      world: entry.world,
      frameRefs: entry.frameRefs,
    });
  } catch {
    // Refs still work in this document; only the cross-document counter floor is lost.
  }
}

/**
 * Phase 3, after the steps: the dialog guard, the profile lookup and the capture go alongside each
 * other; then the tab's state is written back. Nothing here runs on a tab that is closed or lost.
 */
async function capturePhase(run: Run): Promise<{
  captured: AfterCapture | Record<string, never>;
  profile: ProfileLookup;
  network: NetworkField | undefined;
  capturedPage: boolean;
}> {
  const { watch, session, fatal } = run;
  const usable = watch && !session.closedOwnTab && !fatal ? watch : undefined;
  const alive = usable && !usable.tab.page.fatalError ? usable : undefined;
  // A warm host answers dialogs itself between calls; the CLI leaves the page-side guard behind.
  const guarded = session.host.keepsWatching ? undefined : usable?.tab.page.guardDialogsUntilNextCommand();
  const profile = profileFor(run.navigatedTo);
  const network = watch ? networkPhase(watch.tab, run.steps, alive !== undefined) : undefined;
  const secrets = alive ? exchangeSecrets(alive.tab, run.secretsMark) : undefined;
  progress.phase = CAPTURE_PHASE;
  const captured = alive
    ? dropRepeatedView(
        await captureAfter(alive.tab, {
          visual: run.visual,
          startUrl: alive.startUrl,
          whole: run.cmd.steps[0]!.def.providesTab === true,
          before: run.before,
          actions: actedVerbs(run),
        }),
        run.cmd,
        run.steps,
      )
    : {};
  if (watch && !session.closedOwnTab) await Promise.all([saveTabState(watch), guarded]);
  await secrets;
  return { captured, profile: await profile, network: await network, capturedPage: Boolean(alive && run.visual) };
}

/**
 * The verbs `changes.summary` may open with: only steps that did what they say (a click that failed
 * never says "Clicked."); a failure with no acting step before it opens with "After the error".
 */
function actedVerbs(run: Run): StepVerb[] {
  const acted = stepVerbs(run.cmd.steps.filter((_, i) => run.steps[i]?.status === 'ok').map((s) => s.def));
  return run.errors.length ? [...acted, { verb: 'After the error', supporting: true }] : acted;
}

/** Phase 4: the answer, in the documented field order. */
function answer(
  run: Run,
  captured: AfterCapture | Record<string, never>,
  profile: ProfileLookup,
  network: NetworkField | undefined,
  downloads: DownloadReport[] | undefined,
): { output: Record<string, unknown>; ok: boolean } {
  const { watch, session, fatal, errors } = run;
  const ok = !fatal && errors.length === 0;
  const output = assemble({
    status: ok ? 'ok' : 'error',
    tab: session.closedOwnTab ? undefined : session.tab?.alias,
    ...captured,
    console: watch?.console.report(),
    dialogs: summarizeDialogs(watch?.tab.page.dialogs),
    network,
    downloads,
    betweenCommands: watch?.between,
    steps: run.steps,
    errors,
    error:
      fatal && (fatal.type === 'CONNECTION' || !errors.length)
        ? { type: fatal.type, message: fatal.message, category: fatal.category }
        : run.firstFailure,
    warning:
      [...(watch?.tab.page.attachNotes ?? []), (captured as { warning?: string }).warning].filter(Boolean).join(' ') ||
      undefined,
    ...profile,
  });
  return { output, ok };
}

/**
 * Runs `cmd` on tabs reached through `host`: the CLI's cold host by default, the MCP server's warm
 * one. `abandon` (a front that answered without waiting: its deadline ran out, the client
 * cancelled) lets the tabs go at once: their locks released, a warm host's sessions detached.
 */
export async function runCommand(cmd: Command, host?: TabHost, abandon?: AbortSignal): Promise<CommandResult> {
  const run = startRun(cmd, host);
  const letGo = (): void => void run.session.close(true);
  abandon?.addEventListener('abort', letGo, { once: true });
  try {
    await attach(run);
    if (!run.fatal) await runSteps(run);
    warnUnusedAnswer(run);
    const { captured, profile, network, capturedPage } = await capturePhase(run);
    // What this command downloaded, and what landed since the last command (issue 21.3).
    const downloads = await run.session.downloads?.finish(run.session.downloadsUntil).catch(() => undefined);
    return { ...answer(run, captured, profile, network, downloads), tab: run.session.tab?.alias, capturedPage };
  } finally {
    abandon?.removeEventListener('abort', letGo);
    run.watch?.console.stop();
    await run.session.close();
  }
}
