// The looks before the steps (looks.ts): the scope the steps act in, and from the top each
// out-of-process frame it cannot read into (from a chosen frame, the top outside it), armed for the
// diff — sent early during the attach when it can be, taken again after a step that chose a frame.
// capture.ts reads them after the steps.

import { Deadline } from '../common/index.js';
import { IsolatedWorlds, callIsolated, callIsolatedByUniqueId, type Scope } from '../page/index.js';
import { isUnknownContext, type CdpSession, type TabEntry } from '../cdp/index.js';
import type { AttachedTab } from '../steps/index.js';
import { armInputWork } from './settle-work.js';
import { ARM, arm, CAPTURE_TIMEOUT_MS, frameLooks, outsideLook, type Armed, type Look } from './looks.js';

export interface BeforeCapture {
  /** The looks armed before the steps: the steps' own scope first, then the frames seen from the top. */
  looks: Look[];
  /** The steps' own scope's scroll. */
  scrollY: number;
  networkMark: number;
  /**
   * The frame the agent's picture of the page is of: where the steps acted when the command began.
   * A look taken again after a frame step keeps it (the agent has not seen that frame yet).
   */
  shownFrameId: string | undefined;
}

/** The before-look sent during the attach, and the document it was sent to when that was named. */
export interface EarlyLook {
  look: Promise<Armed>;
  /** The loaderId of the document whose world was addressed by id; undefined: the current top document. */
  loaderId?: string;
}

/**
 * Starts the before-look of the top document as soon as the tab's session exists: sent right
 * behind the domain enables, the page takes it while Chrome still answers them (~4 ms a call).
 * When the last command left our world's id in the tab's entry, the look goes to that world at
 * once, in the same batch as the enables; else the world is looked up (made) first, one round trip
 * later. Only for a tab whose steps run in the top document.
 */
export function startBefore(session: CdpSession, entry: TabEntry): EarlyLook | undefined {
  if (entry.frame) return undefined;
  const options = () => ({ deadline: Deadline.after(CAPTURE_TIMEOUT_MS), what: 'the before-look' });
  // Before the Page exists: the top frame's id is the tab's target id.
  const frame = { session, frameId: entry.targetId };
  const byLookup = (): Promise<Armed> => callIsolated(new IsolatedWorlds(), frame, ARM, true, options());
  const known = entry.world;
  const early: EarlyLook = known
    ? {
        loaderId: known.loaderId,
        // A world that is gone (the page navigated since) is found the usual way, for the current document.
        look: callIsolatedByUniqueId(session, known.uniqueId, ARM, true, options()).catch((err) => {
          if (!isUnknownContext(err)) throw err;
          early.loaderId = undefined;
          return byLookup();
        }),
      }
    : { look: byLookup() };
  early.look.catch(() => {
    /* awaited by captureBefore, or not needed: the attach failed */
  });
  return early;
}

/** Whether the early look stands for the steps' scope: the top document, nothing repaired at attach, the same document. */
async function earlyStands(scope: Scope, started: EarlyLook | undefined): Promise<boolean> {
  if (!started || scope.frame || scope.page.attachNotes.length) return false;
  if (started.loaderId === undefined) return true;
  // Settled before its document is judged: a failed lookup by id falls back (and clears loaderId).
  await started.look.catch(() => undefined);
  return started.loaderId === undefined || started.loaderId === scope.page.lifecycle.loaderId;
}

/**
 * The looks before the steps run, for the diff: the scope the steps act in (the chosen frame, else
 * the top) and, when the top holds frames it cannot read, each out-of-process frame. `started` is
 * the look startBefore sent during the attach. `shown` is the frame the agent's picture is of, when
 * not this scope's. Undefined when it can't be had.
 */
export async function captureBefore(
  tab: AttachedTab,
  started?: EarlyLook,
  shown?: { frameId: string | undefined },
): Promise<BeforeCapture | undefined> {
  try {
    const { page } = tab;
    const scope = page.scope(Deadline.after(CAPTURE_TIMEOUT_MS));
    const steps: Look = { scope };
    const tracking = armInputWork(scope);
    const armed = await page.guard((await earlyStands(scope, started)) ? started!.look : arm(steps));
    await tracking;
    const frames = armed.closedFrames && !scope.frame ? await frameLooks(scope) : [];
    const outside = await outsideLook(scope);
    return {
      looks: [steps, ...frames, ...(outside ? [outside] : [])],
      scrollY: armed.scrollY,
      networkMark: page.network.mark,
      shownFrameId: shown ? shown.frameId : scope.frameId,
    };
  } catch {
    return undefined; // no diff then; the command itself is unaffected
  }
}

/**
 * After a step that chose a frame, before anything acted: the look to diff against, taken again
 * where the steps act now (keys typed into a framed editor then answer with their changes). The
 * agent has not seen that frame yet: its view is shown.
 */
export async function lookAgain(
  tab: AttachedTab,
  before: BeforeCapture | undefined,
): Promise<BeforeCapture | undefined> {
  const now = tab.page.scope(Deadline.after(CAPTURE_TIMEOUT_MS));
  // No look yet counts as one at the top, as the steps' scope when the command began.
  if ((before?.looks[0]?.scope.frameId ?? now.at(undefined).frameId) === now.frameId) return before;
  return captureBefore(tab, undefined, { frameId: before?.shownFrameId });
}
