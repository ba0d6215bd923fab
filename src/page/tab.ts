// One attached tab for the length of a command: domains enabled, main-frame lifecycle and
// network tracked, dialogs handled and recorded, and a guard that turns a crash, a closed tab
// or a lost connection into an error for whatever is waiting — never a hang.

import {
  ConnectionError,
  Deadline,
  NavigationAbortedError,
  firstStepStart,
  PageCrashedError,
  TimeoutError,
} from '../common/index.js';
import type { GuardedDialog, PageRuntime } from '../injected/index.js';
import {
  callIsolated,
  callPageWorld,
  evaluateWithRefs,
  evaluateWithRuntime,
  heldElementObjectId,
  type EvalTarget,
  type EvaluateOptions,
} from './evaluate.js';
import { adoptRefs, handBackValueRefs } from './agent-refs.js';
import { IsolatedWorlds, type FrameRef } from './worlds.js';
import type { CdpSession, Connection, GeolocationSetting, ViewportMetrics } from '../cdp/index.js';
import { FrameContexts, Frames, type FrameTarget } from './frames.js';
import { LifecycleTracker } from './lifecycle.js';
import { NetworkTracker } from './network-idle.js';
import { applyViewport } from './viewport.js';
import { applyGeolocation, grantGeolocation } from './geolocation.js';

/** A tab that does not answer the enabling commands in this time is blocked, not slow. */
const GUARD_TIMEOUT_MS = 1_000;

/** Records of the dialog guard of the previous command (restoring the page's own functions). */
async function takeGuardedDialogs(session: CdpSession, contextId?: number): Promise<GuardedDialog[]> {
  const { result } = await session.send('Runtime.evaluate', {
    expression: 'globalThis.__cdpSkillDialogGuard?.restore() ?? []',
    returnByValue: true,
    ...(contextId !== undefined ? { contextId } : {}),
  });
  return Array.isArray(result.value) ? (result.value as GuardedDialog[]) : [];
}

export interface DialogRecord {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed';
  /** The text a prompt was answered with, when not empty. */
  promptText?: string;
  /** The 1-based step during which it opened (set by the runner). */
  step?: number;
  /** Opened while no command was attached, and answered by the page-side guard (page/dialogs.ts). */
  betweenCommands?: true;
}

/** How the next dialog is answered (the `dialog` step); unarmed, dialogs are accepted. */
export interface DialogAnswer {
  accept: boolean;
  promptText?: string;
}

export class Page {
  readonly session: CdpSession;
  readonly targetId: string;
  readonly lifecycle: LifecycleTracker;
  readonly network: NetworkTracker;
  readonly dialogs: DialogRecord[] = [];
  readonly frames: Frames;
  /** Our isolated world's context in each frame (worlds.ts). */
  readonly worlds: IsolatedWorlds;
  /** The frame steps run in (SPEC §13.2); undefined is the top document. */
  frame: FrameTarget | undefined;
  readonly #fatal: Promise<never>;
  #fatalError: Error | undefined;
  #armed: DialogAnswer | undefined;
  readonly #leaveRefused = new Set<(err: Error) => void>();
  /** What attaching had to repair first (a crashed tab reloaded). */
  readonly attachNotes: string[] = [];

  private constructor(
    conn: Connection,
    session: CdpSession,
    targetId: string,
    frame: { id: string; url: string; loaderId: string },
    contexts: FrameContexts,
    worlds: IsolatedWorlds,
  ) {
    this.session = session;
    this.worlds = worlds;
    this.frames = new Frames(conn, session, contexts, worlds);
    // A new top document has new frames: steps go back to the top (SPEC §19.12).
    session.on('Page.frameNavigated', (e) => {
      if (!e.frame.parentId) this.frame = undefined;
    });
    this.targetId = targetId;
    this.lifecycle = new LifecycleTracker(session, frame.id, frame.url, frame.loaderId);
    this.network = new NetworkTracker(session);
    let fail: (err: Error) => void = () => {};
    this.#fatal = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.#fatal.catch(() => {
      /* observed through guard(); an unobserved fatal is not an error by itself */
    });
    const die = (err: Error): void => {
      if (this.#fatalError) return;
      this.#fatalError = err;
      fail(err);
    };
    session.on('Inspector.targetCrashed', () =>
      die(
        new PageCrashedError(
          'The tab crashed (renderer process gone). Reload it with {"reload": true} or open a new tab.',
        ),
      ),
    );
    conn.browser().on('Target.targetDestroyed', (e) => {
      if (e.targetId === targetId) die(new ConnectionError('The tab was closed while the command ran.'));
    });
    conn.browser().on('Target.detachedFromTarget', (e) => {
      if (e.sessionId === session.id)
        die(new ConnectionError('The tab was detached (closed or taken over) while the command ran.'));
    });
    // A tab closed by another program also says "Render process gone": ask whether the target still exists.
    session.on('Inspector.detached', (e) => {
      const closed = (): void =>
        die(new ConnectionError('The tab was closed (by another program or agent) while the command ran.'));
      conn
        .browser()
        .sendWith('Target.getTargetInfo', { targetId }, { timeoutMs: 1_000 })
        .then(() => die(new ConnectionError(`The tab was detached: ${e.reason}.`)), closed);
    });
    conn.onClose((reason) => die(new ConnectionError(`Lost connection to Chrome: ${reason}`)));
    session.on('Page.javascriptDialogOpening', (e) => {
      // A dialog blocks the page's JavaScript (and so every evaluation) until answered. Answer it
      // at once — as the dialog step armed, else OK the way a user would (a prompt gets its
      // default text) — and record it, so nothing happens silently.
      const answer = this.#armed ?? { accept: true };
      this.#armed = undefined;
      const promptText =
        e.type === 'prompt' && answer.accept ? (answer.promptText ?? e.defaultPrompt ?? '') : undefined;
      this.dialogs.push({
        type: e.type,
        message: e.message.slice(0, 300),
        action: answer.accept ? 'accepted' : 'dismissed',
        ...(promptText ? { promptText } : {}),
      });
      session
        .send('Page.handleJavaScriptDialog', {
          accept: answer.accept,
          ...(promptText !== undefined ? { promptText } : {}),
        })
        .catch(() => {
          /* already closed by the page */
        });
      if (e.type === 'beforeunload' && !answer.accept) {
        const err = new NavigationAbortedError(
          'The page asked to confirm leaving (beforeunload) and the dialog was dismissed, so it stayed. ' +
            'Answer it with {"dialog": {"accept": true}} before the step to leave.',
          { category: 'navigation', beforeunload: true },
        );
        for (const refuse of this.#leaveRefused) refuse(err);
      }
    });
  }

  /** Arms the answer to the next dialog (one dialog; then back to accepting). */
  armDialog(answer: DialogAnswer): void {
    this.#armed = answer;
  }

  /** The armed answer no dialog has used yet. */
  get armedDialog(): DialogAnswer | undefined {
    return this.#armed;
  }

  /**
   * Enables what a command needs, all at once, and re-applies per-tab emulation. A crashed tab is
   * reloaded first; a page that never answers (its own endless script) fails fast (see answered()).
   */
  static async open(
    conn: Connection,
    session: CdpSession,
    targetId: string,
    viewport: ViewportMetrics | undefined,
    geolocation: GeolocationSetting | undefined,
    timeoutMs: number,
  ): Promise<Page> {
    const notes: string[] = [];
    // The crash check and the enables go out together: one round trip instead of two. A crashed
    // tab leaves the enables unanswered; they are abandoned and sent again after the reload.
    const crashed = watchCrash(session);
    let setup = enable(conn, session, targetId, viewport, geolocation);
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
      setup = enable(conn, session, targetId, viewport, geolocation);
    }
    const [, , , tree, , , , , guarded] = await answered(setup.enabling, timeoutMs);
    const f = tree.frameTree.frame;
    const page = new Page(
      conn,
      session,
      targetId,
      { id: f.id, url: f.url + (f.urlFragment ?? ''), loaderId: f.loaderId },
      setup.contexts,
      setup.worlds,
    );
    page.attachNotes.push(...notes);
    page.dialogs.push(...guarded.map((d) => ({ ...d, betweenCommands: true as const })));
    return page;
  }

  /**
   * Hands dialogs to the page-side guard until the next command attaches (injected/dialog-guard.ts),
   * in the top document and the chosen frame, passing on an answer the dialog step armed and no
   * dialog used. Best effort, bounded.
   */
  async guardDialogsUntilNextCommand(): Promise<void> {
    if (this.#fatalError) return;
    const arm = (where: EvalTarget): Promise<void> =>
      this.guard(
        callPageWorld(where, (rt, a) => rt.dialogGuard.armDialogGuard(a ?? undefined), this.#armed ?? null, {
          deadline: Deadline.after(GUARD_TIMEOUT_MS),
          what: 'the dialog guard',
        }),
      );
    const targets: EvalTarget[] = [{ session: this.session }];
    try {
      if (this.frame) targets.push(this.evalTarget());
    } catch {
      // The chosen frame has no document now: only the top is guarded.
    }
    await Promise.allSettled(targets.map(arm)); // a document that is going gets no guard, as before this feature
  }

  /** What the guard of the chosen frame answered between commands (the top's is read at attach). */
  async takeFrameGuardedDialogs(): Promise<void> {
    if (!this.frame) return;
    try {
      const where = this.evalTarget();
      const seen = await Deadline.after(GUARD_TIMEOUT_MS).race(
        takeGuardedDialogs(where.session, where.contextId),
        "the frame's dialog guard",
      );
      this.dialogs.push(...seen.map((d) => ({ ...d, betweenCommands: true as const })));
    } catch {
      // A frame that can't answer: its guard's records are lost, the steps report the frame.
    }
  }

  /** Where agents' code runs in the selected frame (the page's world): a session and, for a same-process frame, its context. */
  evalTarget(): EvalTarget {
    return this.pageWorld(this.frame);
  }

  /** The page's own world of `frame` (undefined: the top document): a session and, for a same-process frame, its context. */
  pageWorld(f: FrameTarget | undefined): EvalTarget {
    if (!f) return { session: this.session };
    const contextId = this.frames.contextOf(f);
    return { session: f.session, ...(contextId !== undefined ? { contextId } : {}) };
  }

  /**
   * The one seam for our page code: `fn` runs in our isolated world of `frame` (undefined: the top
   * document), which shares the DOM but not the page's JavaScript; raced against the tab dying.
   * `fn` must use only its parameters: it is sent as source.
   */
  call<A, R>(
    frame: FrameTarget | undefined,
    fn: (rt: PageRuntime, arg: A) => R,
    arg: A,
    options: EvaluateOptions,
  ): Promise<Awaited<R>> {
    return this.guard(callIsolated(this.worlds, this.frameRef(frame), fn, arg, options));
  }

  /**
   * Agents' code (pageFunction, hooks, poll, pipeline): `body` runs in the page's own world of
   * `frame` with that world's runtime as `rt`, after the refs `source` names were handed to it.
   */
  async runAgentCode(
    frame: FrameTarget | undefined,
    body: string,
    source: string,
    options: EvaluateOptions & { deadline: Deadline },
  ): Promise<unknown> {
    const where = this.pageWorld(frame);
    const refs = await this.guard(adoptRefs(this.worlds, this.frameRef(frame), where, source, options.deadline));
    try {
      return await this.guard(
        refs
          ? evaluateWithRefs(where.session, body, refs, options)
          : evaluateWithRuntime(where.session, body, {
              ...options,
              ...(where.contextId !== undefined ? { contextId: where.contextId } : {}),
            }),
      );
    } finally {
      if (refs)
        where.session.send('Runtime.releaseObjectGroup', { objectGroup: 'cdp-skill-refs' }).catch(() => {
          /* the document is gone with its objects */
        });
    }
  }

  /** Makes the refs agents' code gave elements in the page's world (`names`) usable by later steps. */
  handBackValueRefs(
    frame: FrameTarget | undefined,
    names: string[] | undefined,
    counters: unknown,
    deadline: Deadline,
  ): Promise<void> {
    if (!names?.length) return Promise.resolve();
    return this.guard(
      handBackValueRefs(this.worlds, this.frameRef(frame), this.pageWorld(frame), names, counters, deadline),
    );
  }

  /** A CDP object id, in our world of `frame`, for an element the runtime holds there (DOM.* commands take it). */
  heldElementObjectId(frame: FrameTarget | undefined, handle: number, deadline: Deadline): Promise<string> {
    return this.guard(heldElementObjectId(this.worlds, this.frameRef(frame), handle, deadline));
  }

  /**
   * This tab seen from `frame` (undefined: the top document): the same page, whose `frame` is that
   * one, for code that acts in a frame other than the steps' own (a cross-frame search) — the frame
   * passed along, never switched on the tab for the duration.
   */
  inFrame(frame: FrameTarget | undefined): Page {
    if (frame === this.frame) return this;
    return new Proxy(this, {
      get: (page, prop) => {
        if (prop === 'frame') return frame;
        const value: unknown = Reflect.get(page, prop, page);
        return typeof value === 'function' ? value.bind(page) : value;
      },
      set: () => false, // choosing where steps run is the tab's own business (the frame step)
    });
  }

  /** A frame by session and id; undefined is the top document. */
  frameRef(frame: FrameTarget | undefined): FrameRef {
    return frame
      ? { session: frame.session, frameId: frame.frameId }
      : { session: this.session, frameId: this.lifecycle.mainFrameId };
  }

  get fatalError(): Error | undefined {
    return this.#fatalError;
  }

  /** Races a navigation's wait against the tab dying and the page refusing to leave (beforeunload dismissed). */
  guardNavigation<T>(promise: Promise<T>): Promise<T> {
    let refuse: (err: Error) => void = () => {};
    const refused = new Promise<never>((_, reject) => {
      refuse = reject;
    });
    this.#leaveRefused.add(refuse);
    return Promise.race([this.guard(promise), refused]).finally(() => this.#leaveRefused.delete(refuse));
  }

  /** Races `promise` against the tab dying. */
  guard<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => {
      /* if the tab died first, this rejection is the expected echo of it */
    });
    return Promise.race([promise, this.#fatal]);
  }
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
  const from = waitMs === timeoutMs ? firstStepStart() : Date.now();
  try {
    return await Deadline.after(waitMs, from).race(enabling, 'the page to answer');
  } catch (err) {
    if (!(err instanceof TimeoutError)) throw err;
    throw new ConnectionError(
      `The tab did not answer within ${waitMs}ms: it is blocked, most likely by a JavaScript dialog ` +
        '(alert/confirm/prompt/beforeunload) that opened while no command was attached, or by its own script stuck in a loop. ' +
        'Nothing was done, and CDP cannot unblock it: close the tab with {"steps":[{"closeTab":"<alias>"}]} (no "tab" key) and open the page again.',
      { category: 'dialog-open' },
    );
  }
}
