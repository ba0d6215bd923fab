// A command's clock, the same for both fronts: its first window opened once it is validated, and
// the answer it gives when the clock runs out (a frozen Chrome, a flood of dialogs, a page that
// never answers) — within the running step's timeout plus a margin, with the steps done so far and
// what was still pending. The CLI answers that and exits; the MCP server answers the call with it.

import {
  CAPTURE_PHASE,
  firstWindowMs,
  MIN_FIRST_WINDOW_MS,
  openWindow,
  pendingNow,
  progress,
} from '../common/index.js';
import { assemble } from './output.js';
import type { Command } from './validate.js';

/** Opens a validated command's first window: the first step's timeout, counted from the command's start. */
export function startClock(command: Command): void {
  const first = command.steps[0]!;
  progress.firstStep = { action: first.action, timeoutMs: first.timeoutMs };
  openWindow(
    firstWindowMs(first.timeoutMs),
    command.tab ? `attaching to ${command.tab}` : 'step 1',
    progress.startedAt,
  );
}

export function deadlineAnswer(): { output: Record<string, unknown>; code: number } {
  const elapsed = Date.now() - progress.startedAt;
  const waiting = pendingNow();
  const chrome = waiting.some((w) => /Chrome|WebSocket|HTTP/.test(w));
  const still = waiting.length ? `; still waiting for ${waiting.join('; ')}` : '';
  const first = progress.firstStep;
  // Time that ran out before step 1 started went to starting the CLI and attaching, not to the
  // step: say so, with the step's own timeout, so that it is not read as news about the page.
  const message = progress.phase.startsWith('attaching')
    ? `No answer within the ${first?.timeoutMs}ms timeout of step 1 (${first?.action}), counted from the command's start ` +
      `(at least ${MIN_FIRST_WINDOW_MS}ms): it ran out while ${progress.phase}, before the step started — ${elapsed}ms have passed${still}. ` +
      'Nothing was done, and nothing is known about the page. Chrome or this machine is slow to answer ' +
      '(overloaded, or Chrome frozen or blocked by a page): retry with a longer "timeout"; if that fails too, check Chrome with {"chromeStatus": true}.'
    : `No answer within the ${progress.windowMs}ms timeout of ${progress.phase}: ${elapsed}ms have passed since the command started${still}. ` +
      (chrome
        ? 'Chrome is not answering (frozen, overloaded, or blocked by a page): check it with {"chromeStatus": true}, or open a new tab.'
        : 'Retry with a longer "timeout", or split the command.');
  // A step that failed before the deadline is the answer; only its failure context was cut short.
  const { failed } = progress;
  const done = progress.steps ?? [];
  // What the download watch knows is told even so: a file that began (or landed) is not left unsaid.
  const known = progress.downloads?.() ?? [];
  const downloads = known.length ? known : undefined;
  if (failed) {
    const { type, ...step } = failed;
    const steps = done.some((s) => (s as { error?: string }).error === failed.error) ? done : [...done, step];
    return failedAnswer(steps, { type, message: failed.error, category: failed.category }, downloads);
  }
  if (progress.phase === CAPTURE_PHASE && done.every((s) => (s as { status?: string }).status !== 'error')) {
    const warning =
      `The steps are done, but the look at the page afterwards did not finish within the ${progress.windowMs}ms timeout` +
      `${waiting.length ? ` (waiting for ${waiting.join('; ')})` : ''}: no screenshot or snapshot this time.`;
    return { code: 0, output: assemble({ status: 'ok', tab: progress.tab, downloads, steps: done, warning }) };
  }
  return failedAnswer(
    done,
    { type: chrome ? 'CONNECTION' : 'EXECUTION', message, category: chrome ? 'connection' : 'timeout' },
    downloads,
  );
}

/** The answer of a command that failed: the steps so far and the error. */
function failedAnswer(
  steps: unknown[],
  error: Record<string, unknown>,
  downloads: unknown[] | undefined,
): { output: Record<string, unknown>; code: number } {
  return { code: 1, output: assemble({ status: 'error', tab: progress.tab, downloads, steps, error }) };
}
