// Attaching to a tab for a command: the domain enables and per-tab emulation sent at once, a
// crashed renderer found and reloaded first (with a note for the answer), a page that never answers
// failed fast, and the dialogs the page-side guard answered between commands read back.

import {
  ConnectionError,
  Deadline,
  EvaluationError,
  firstStepStart,
  MIN_FIRST_WINDOW_MS,
  PageCrashedError,
  progress,
  TimeoutError,
} from '../common/index.js';
import type { GuardedDialog } from '../injected/index.js';
import type { CdpSession, Connection, GeolocationSetting, ViewportMetrics } from '../cdp/index.js';
import { callIfInstalled } from './evaluate.js';
import { FrameContexts } from './frames.js';
import { IsolatedWorlds } from './worlds.js';
import { applyViewport } from './viewport.js';
import { applyGeolocation, grantGeolocation } from './geolocation.js';

/**
 * Records of the dialog guard of the previous command (restoring the page's own functions). The
 * guard was armed through the page world's runtime: a world without it has no guard to take.
 */
export async function takeGuardedDialogs(session: CdpSession, contextId?: number): Promise<GuardedDialog[]> {
  const seen = await callIfInstalled(
    { session, ...(contextId !== undefined ? { contextId } : {}) },
    (rt) => rt.dialogGuard.takeGuardedDialogs(),
    undefined,
  ).catch((err) => {
    // A page that broke its own dialog functions costs the records, never the attach.
    if (err instanceof EvaluationError) return undefined;
    throw err;
  });
  return Array.isArray(seen) ? seen : [];
}

/** What attaching set up: the top frame, the context trackers, notes on what had to be repaired, and the dialogs answered between commands. */
export interface Attached {
  frame: { id: string; url: string; loaderId: string };
  contexts: FrameContexts;
  worlds: IsolatedWorlds;
  /** What attaching had to repair first (a crashed tab reloaded). */
  notes: string[];
  guarded: GuardedDialog[];
}

/**
 * Enables what a command needs, all at once, and re-applies per-tab emulation. A crashed tab is
 * reloaded first; a page that never answers (its own endless script) fails fast (see answered()).
 */
export async function attach(
  conn: Connection,
  session: CdpSession,
  targetId: string,
  emulation: { viewport: ViewportMetrics | undefined; geolocation: GeolocationSetting | undefined },
  timeoutMs: number,
): Promise<Attached> {
  const notes: string[] = [];
  // The crash check and the enables go out together: one round trip instead of two. A crashed
  // tab leaves the enables unanswered; they are abandoned and sent again after the reload.
  const crashed = watchCrash(session);
  let setup = enable(conn, session, targetId, emulation.viewport, emulation.geolocation);
  let wasCrashed: boolean;
  try {
    wasCrashed = await crashed;
  } catch (err) {
    setup.enabling.catch(() => {
      /* the session failed: the error above says why */
    });
    throw err;
  }
  if (wasCrashed) {
    setup.enabling.catch(() => {
      /* sent to the dead renderer: never needed */
    });
    await reloadCrashed(session);
    notes.push('The tab had crashed; it was reloaded before this command ran (page state was lost).');
    setup = enable(conn, session, targetId, emulation.viewport, emulation.geolocation);
  }
  const [, , , tree, , , , , guarded] = await answered(setup.enabling, timeoutMs);
  const f = tree.frameTree.frame;
  const frame = { id: f.id, url: f.url + (f.urlFragment ?? ''), loaderId: f.loaderId };
  return { frame, contexts: setup.contexts, worlds: setup.worlds, notes, guarded };
}

/** Reloading a crashed tab may take this long before its new renderer answers. */
const REVIVE_TIMEOUT_MS = 10_000;

/** Sends the domain enables and per-tab emulation a command needs, without waiting for them. */
function enable(
  conn: Connection,
  session: CdpSession,
  targetId: string,
  viewport: ViewportMetrics | undefined,
  geolocation: GeolocationSetting | undefined,
) {
  const contexts = new FrameContexts();
  const worlds = new IsolatedWorlds();
  contexts.track(session); // before Runtime.enable, which reports the existing contexts
  worlds.track(session);
  const enabling = Promise.all([
    session.send('Page.enable'),
    session.send('Page.setLifecycleEventsEnabled', { enabled: true }),
    session.send('Runtime.enable'),
    session.send('Page.getFrameTree'),
    session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
    // Headless Chrome stops rendering a tab hidden behind another one in its window (a popup
    // the page opened, say): screenshots and animation frames would stall. Show ours.
    session.send('Page.bringToFront'),
    viewport ? applyViewport(session, viewport) : undefined,
    // Chrome drops granted permissions with the client that granted them: grant again.
    geolocation ? Promise.all([applyGeolocation(session, geolocation), grantGeolocation(conn, targetId)]) : undefined,
    // Last, once Page.enable answers dialogs again: what the guard answered between commands.
    takeGuardedDialogs(session),
  ]);
  return { contexts, worlds, enabling };
}

/**
 * Whether the tab's renderer had crashed. A tab that crashed earlier answers none of the page
 * domains (Page.enable would hang until the command's timeout); Chrome tells a new session at
 * once, before it answers Inspector.enable.
 */
async function watchCrash(session: CdpSession): Promise<boolean> {
  const crashed = session.waitFor('Inspector.targetCrashed');
  let wasCrashed = false;
  void crashed.promise.then(() => {
    wasCrashed = true;
  });
  try {
    await session.send('Inspector.enable');
    await Promise.resolve(); // let the event, which arrived before the answer, settle `wasCrashed`
  } finally {
    crashed.cancel();
  }
  return wasCrashed;
}

/** Reloads a crashed tab, as a user would from the "Aw, Snap!" page. */
async function reloadCrashed(session: CdpSession): Promise<void> {
  const reloaded = session.waitFor('Inspector.targetReloadedAfterCrash');
  try {
    await session.send('Page.reload');
    await Deadline.after(REVIVE_TIMEOUT_MS).race(reloaded.promise, 'the crashed tab to reload');
  } catch (err) {
    throw new PageCrashedError(
      `The tab had crashed and could not be reloaded (${(err as Error).message}). Open a new tab with openTab.`,
    );
  } finally {
    reloaded.cancel();
  }
}

/** A healthy page answers the enables in milliseconds, a loaded machine's in seconds. */
const UNRESPONSIVE_MS = 10_000;

/**
 * Waits for the page to answer. A page's own endless loop blocks its renderer's main thread, and
 * with it every page domain — and a new session cannot even interrupt it (Runtime.terminateExecution
 * needs the session set up on that thread; a same-site navigation stays in the hung process). So
 * the command fails at once, classified, instead of waiting out its timeout on each call.
 */
async function answered<T>(enabling: Promise<T>, timeoutMs: number): Promise<T> {
  const waitMs = Math.min(UNRESPONSIVE_MS, timeoutMs);
  // A wait of the command's whole timeout counts from the command's start, like its first step.
  const from = waitMs === timeoutMs ? firstStepStart(timeoutMs) : Date.now();
  const asked = Date.now();
  try {
    return await Deadline.after(waitMs, from).race(enabling, 'the page to answer');
  } catch (err) {
    if (!(err instanceof TimeoutError)) throw err;
    // Start-up ate most of a short window: the page had too little time for its silence to mean a block.
    const gaveMs = Date.now() - asked;
    if (gaveMs < MIN_FIRST_WINDOW_MS)
      throw new ConnectionError(
        `The tab did not answer within the ${gaveMs}ms left of the ${timeoutMs}ms timeout after starting and connecting ` +
          `(${Date.now() - progress.startedAt}ms since the command started): nothing was done, and nothing is known about the page. ` +
          'Chrome or this machine is slow: retry with a longer "timeout"; if the tab stays silent, it may be blocked by a JavaScript dialog or its own script.',
        { category: 'timeout' },
      );
    throw new ConnectionError(
      `The tab did not answer within ${waitMs}ms: it is blocked, most likely by a JavaScript dialog ` +
        '(alert/confirm/prompt/beforeunload) that opened while no command was attached, or by its own script stuck in a loop. ' +
        'Nothing was done, and CDP cannot unblock it: close the tab with {"steps":[{"closeTab":"<alias>"}]} (no "tab" key) and open the page again.',
      { category: 'dialog-open' },
    );
  }
}
