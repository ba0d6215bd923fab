// Runs one validated command: attach, run the steps in order (optional steps, stop on error,
// a deadline per step), capture the page afterwards, and assemble the answer.

import { join } from 'node:path';
import { AUTO_SCREENSHOT_TIMEOUT_MS, ConnectionError, Deadline, stateDir } from '../common/index.js';
import { ConsoleCollector, captureScreenshot, type ConsoleReport } from '../capture/index.js';
import { evaluateInPage } from '../page/index.js';
import type { AttachedTab, StepContext } from '../steps/index.js';
import { CommandSession } from './command-session.js';
import { classify, type ClassifiedError } from './failure.js';
import { assemble } from './output.js';
import type { Command, ValidatedStep } from './validate.js';

export interface StepResult {
  action: string;
  status: 'ok' | 'error' | 'skipped';
  output?: unknown;
  warning?: string;
  error?: string;
  errorType?: string;
  params?: unknown;
}

export interface CommandResult {
  output: Record<string, unknown>;
  ok: boolean;
  tab?: string;
}

/** Time a step may overrun its deadline before the runner stops waiting on it regardless. */
const STEP_GRACE_MS = 2_000;
const stripHash = (url: string): string => url.split('#')[0]!;

interface TabWatch {
  tab: AttachedTab;
  console: ConsoleCollector;
  startUrl: string;
}

async function runStep(step: ValidatedStep, session: CommandSession): Promise<unknown> {
  const deadline = Deadline.after(step.timeoutMs);
  const ctx: StepContext = { deadline, index: step.index, command: session };
  // Belt and braces: every wait inside a step takes the deadline, but should one not, the
  // runner still never waits past it.
  const hardStop = Deadline.after(step.timeoutMs + STEP_GRACE_MS);
  return hardStop.race(step.def.run(ctx, step.params), `step ${step.index} (${step.action})`);
}

async function captureAfter(watch: TabWatch, visual: boolean): Promise<Record<string, unknown>> {
  const { page, alias } = watch.tab;
  const deadline = Deadline.after(AUTO_SCREENSHOT_TIMEOUT_MS);
  const contextP = evaluateInPage(page.session, (rt) => rt.pageContext(), undefined, { deadline, what: 'the page context' });
  const shotP = visual
    ? captureScreenshot(page.session, { path: join(stateDir(), `${alias}.after.png`), format: 'png' }, deadline,
      (fn, arg) => evaluateInPage(page.session, fn, arg, { deadline }))
    : undefined;
  const [context, shot] = await Promise.allSettled([page.guard(contextP), shotP && page.guard(shotP)]);
  const out: Record<string, unknown> = {};
  if (context.status === 'fulfilled') {
    out.context = context.value;
    const before = stripHash(watch.startUrl);
    if (stripHash(context.value.url) !== before || page.lifecycle.documentCount > 0) out.navigated = true;
  } else {
    out.navigated = true; // SPEC §14.3: an unknown URL after the command counts as navigation
  }
  // Screenshot failure is non-fatal (SPEC §17.1): the field is simply absent.
  if (shot.status === 'fulfilled' && shot.value) out.screenshot = shot.value.path;
  return out;
}

export async function runCommand(cmd: Command): Promise<CommandResult> {
  const startedMs = Date.now();
  let watch: TabWatch | undefined;
  const session = new CommandSession(cmd.timeoutMs, (tab) => {
    watch = { tab, console: new ConsoleCollector(tab.page.session, startedMs), startUrl: tab.page.lifecycle.url };
  });
  const steps: StepResult[] = [];
  const errors: { step: number; action: string; error: string; type?: string }[] = [];
  let fatal: ClassifiedError | undefined;
  try {
    if (cmd.tab && !cmd.steps[0]!.def.providesTab) {
      try {
        await session.attachExisting(cmd.tab);
      } catch (err) {
        fatal = classify(err);
      }
    }
    for (const step of fatal ? [] : cmd.steps) {
      try {
        const output = await runStep(step, session);
        steps.push({ action: step.action, status: 'ok', ...(output !== undefined ? { output } : {}) });
      } catch (err) {
        const c = classify(err);
        const stop = !step.optional && cmd.stopOnError;
        steps.push({
          action: step.action,
          status: step.optional ? 'skipped' : 'error',
          error: c.message,
          ...(c.name ? { errorType: c.name } : {}),
          ...(step.optional ? {} : { params: step.raw }),
        });
        if (!step.optional) errors.push({ step: step.index, action: step.action, error: c.message, ...(c.name ? { type: c.name } : {}) });
        if (c.type === 'CONNECTION' || err instanceof ConnectionError) { fatal = c; break; }
        if (stop) break;
      }
    }
    const visual = cmd.steps.some((s) => !s.def.readOnly);
    const alive = watch && !session.closedOwnTab && !watch.tab.page.fatalError && !fatal;
    const captured = alive ? await captureAfter(watch!, visual) : {};
    const consoleReport: ConsoleReport | undefined = watch?.console.report();
    const ok = !fatal && errors.length === 0;
    const output = assemble({
      status: ok ? 'ok' : 'error',
      tab: session.closedOwnTab ? undefined : session.tab?.alias,
      ...captured,
      console: consoleReport,
      dialogs: watch?.tab.page.dialogs,
      steps,
      errors,
      error: fatal && (fatal.type === 'CONNECTION' || !errors.length) ? { type: fatal.type, message: fatal.message } : undefined,
    });
    return { output, ok, tab: session.tab?.alias };
  } finally {
    await session.close();
  }
}
