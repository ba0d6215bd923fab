// One attached tab for the length of a command: main-frame lifecycle and network tracked, dialogs
// handled and recorded, the seams our page code and agents' code run through, each raced against the
// tab ending (tab-watch.ts) — never a hang. Attaching itself is attach.ts.

import { Deadline, NavigationAbortedError } from '../common/index.js';
import { callPageWorld, type EvalTarget } from './evaluate.js';
import { scopeOf, type Scope } from './scope.js';
import type { FrameRef, IsolatedWorlds } from './worlds.js';
import type { CdpSession, Connection, Protocol } from '../cdp/index.js';
import { Frames, type FrameContexts, type FrameTarget } from './frames.js';
import { LifecycleTracker } from './lifecycle.js';
import { NetworkTracker } from './network-idle.js';
import { RequestLog } from './network-record.js';
import { RouteTable, type RouteRule } from './network-route.js';
import { attach, takeGuardedDialogs, type TabEmulation } from './attach.js';
import { TabWatch } from './tab-watch.js';

/** A tab that does not answer the enabling commands in this time is blocked, not slow. */
const GUARD_TIMEOUT_MS = 1_000;

export interface DialogRecord {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed';
  /** The text a prompt was answered with, when not empty. */
  promptText?: string;
  /** The 1-based step during which it opened (set by the runner). */
  step?: number;
  /** Opened while no command was attached, and answered by the page-side guard (injected/dialog-guard.ts). */
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
  /** Every request of the command, with what Chrome keeps of its bodies (network-record.ts). */
  readonly requests: RequestLog;
  /** The `route` rules in force for this command (network-route.ts). */
  readonly routes: RouteTable;
  readonly dialogs: DialogRecord[] = [];
  readonly frames: Frames;
  /** Our isolated world's context in each frame (worlds.ts). */
  readonly worlds: IsolatedWorlds;
  /** The frame steps run in (SPEC §13.2); undefined is the top document. Steps see it only as their Scope. */
  #frame: FrameTarget | undefined;
  readonly #watch: TabWatch;
  #armed: DialogAnswer | undefined;
  readonly #leaveRefused = new Set<(err: Error) => void>();
  /** What attaching had to repair first (a crashed tab reloaded). */
  readonly attachNotes: string[] = [];
  /**
   * Clicks of this step that reached a link with `download` (click-probe.ts): a download begins
   * when the server answers, with no event before, so the step waits a while for them (step-run.ts).
   */
  downloadLinksClicked = 0;

  private constructor(
    conn: Connection,
    session: CdpSession,
    targetId: string,
    frame: { id: string; url: string; loaderId: string },
    contexts: FrameContexts,
    worlds: IsolatedWorlds,
    net: { network: NetworkTracker; requests: RequestLog; routes: RouteTable },
  ) {
    this.session = session;
    this.worlds = worlds;
    this.frames = new Frames(conn, session, contexts, worlds);
    // A new top document has new frames: steps go back to the top (SPEC §19.12).
    session.on('Page.frameNavigated', (e) => {
      if (!e.frame.parentId) this.#frame = undefined;
    });
    this.targetId = targetId;
    this.lifecycle = new LifecycleTracker(session, frame.id, frame.url, frame.loaderId);
    this.network = net.network;
    this.requests = net.requests;
    this.routes = net.routes;
    this.#watch = new TabWatch(conn, session, targetId);
    session.on('Page.javascriptDialogOpening', (e) => this.#answerDialog(e));
  }

  /**
   * A dialog blocks the page's JavaScript (and so every evaluation) until answered. Answered at
   * once — as the dialog step armed, else OK the way a user would (a prompt gets its default text)
   * — and recorded, so nothing happens silently.
   */
  #answerDialog(e: Protocol.Page.JavascriptDialogOpeningEvent): void {
    const answer = this.#armed ?? { accept: true };
    this.#armed = undefined;
    const promptText = e.type === 'prompt' && answer.accept ? (answer.promptText ?? e.defaultPrompt ?? '') : undefined;
    this.dialogs.push({
      type: e.type,
      message: e.message.slice(0, 300),
      action: answer.accept ? 'accepted' : 'dismissed',
      ...(promptText ? { promptText } : {}),
    });
    this.session
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
  }

  /**
   * Dialogs answered since the previous command on a page kept attached between calls (the MCP
   * server): by this page as they opened, or by the page-side guard a CLI command left (read once).
   */
  async dialogsSinceLastCommand(): Promise<DialogRecord[]> {
    const guarded = await Deadline.after(GUARD_TIMEOUT_MS)
      .race(takeGuardedDialogs(this.session), 'the dialog guard')
      .catch(() => []); // a page that cannot answer now: the guard's records wait for the next look
    return [...this.dialogs.splice(0), ...guarded].map((d) => ({ ...d, betweenCommands: true as const }));
  }

  /** A page kept attached starts another command: what the previous one recorded goes (dialogs: taken above). */
  beginCommand(): void {
    this.attachNotes.length = 0;
    this.requests.beginCommand();
    this.routes.beginCommand();
    this.lifecycle.documentCount = 0;
  }

  /** Arms the answer to the next dialog (one dialog; then back to accepting). */
  armDialog(answer: DialogAnswer): void {
    this.#armed = answer;
  }

  /** The armed answer no dialog has used yet. */
  get armedDialog(): DialogAnswer | undefined {
    return this.#armed;
  }

  /** Attaches for a command (attach.ts): enables, per-tab emulation and routes, a crashed tab reloaded first. */
  static async open(
    conn: Connection,
    session: CdpSession,
    targetId: string,
    emulation: TabEmulation,
    timeoutMs: number,
    routes?: readonly RouteRule[],
  ): Promise<Page> {
    // Listening before the enables: no request of the command goes unseen, none paused unanswered.
    const requests = new RequestLog(session);
    const net = {
      network: new NetworkTracker(session),
      requests,
      routes: new RouteTable(session, routes, (id, how) => requests.markRouted(id, how)),
    };
    const a = await attach(conn, session, targetId, { ...emulation, routes: net.routes }, timeoutMs);
    const page = new Page(conn, session, targetId, a.frame, a.contexts, a.worlds, net);
    page.attachNotes.push(...a.notes);
    page.dialogs.push(...a.guarded.map((d) => ({ ...d, betweenCommands: true as const })));
    return page;
  }

  /**
   * Hands dialogs to the page-side guard until the next command attaches (injected/dialog-guard.ts),
   * in the top document and the chosen frame, passing on an answer the dialog step armed and no
   * dialog used. Best effort, bounded.
   */
  async guardDialogsUntilNextCommand(): Promise<void> {
    if (this.#watch.error) return;
    const arm = (where: EvalTarget): Promise<void> =>
      this.guard(
        callPageWorld(where, (rt, a) => rt.dialogGuard.armDialogGuard(a ?? undefined), this.#armed ?? null, {
          deadline: Deadline.after(GUARD_TIMEOUT_MS),
          what: 'the dialog guard',
        }),
      );
    const targets: EvalTarget[] = [{ session: this.session }];
    try {
      if (this.#frame) targets.push(this.pageWorld(this.#frame));
    } catch {
      // The chosen frame has no document now: only the top is guarded.
    }
    await Promise.allSettled(targets.map(arm)); // a document that is going gets no guard, as before this feature
  }

  /** What the guard of the chosen frame answered between commands (the top's is read at attach). */
  async takeFrameGuardedDialogs(): Promise<void> {
    if (!this.#frame) return;
    try {
      const where = this.pageWorld(this.#frame);
      const seen = await Deadline.after(GUARD_TIMEOUT_MS).race(
        takeGuardedDialogs(where.session, where.contextId),
        "the frame's dialog guard",
      );
      this.dialogs.push(...seen.map((d) => ({ ...d, betweenCommands: true as const })));
    } catch {
      // A frame that can't answer: its guard's records are lost, the steps report the frame.
    }
  }

  /** The page's own world of `f` (undefined: the top document): a session and, for a same-process frame, its context. */
  pageWorld(f: FrameTarget | undefined): EvalTarget {
    if (!f) return { session: this.session };
    const contextId = this.frames.contextOf(f);
    return { session: f.session, ...(contextId !== undefined ? { contextId } : {}) };
  }

  /**
   * Where a step acts unless told otherwise (SPEC §13.2): the frame the `frame` step chose, or the
   * top document, bounded by `deadline`. The runner builds one per step; nothing reads the chosen
   * frame from the tab while a step runs.
   */
  scope(deadline: Deadline): Scope {
    return scopeOf(this, this.#frame, deadline);
  }

  /** The scope of `frame` (undefined: the top document) for work outside the steps' frame (the capture's frame looks). */
  scopeAt(frame: FrameTarget | undefined, deadline: Deadline): Scope {
    return scopeOf(this, frame, deadline);
  }

  /** The `frame` step's choice: later steps act in `frame` (undefined: back to the top document). */
  chooseFrame(frame: FrameTarget | undefined): void {
    this.#frame = frame;
  }

  /** The chosen frame as the tab's registry entry keeps it across commands (SPEC §19.12). */
  chosenFrameEntry(): { frameId: string; url: string } | undefined {
    return this.#frame ? { frameId: this.#frame.frameId, url: this.#frame.url } : undefined;
  }

  /** A frame by session and id; undefined is the top document. */
  frameRef(frame: FrameTarget | undefined): FrameRef {
    return frame
      ? { session: frame.session, frameId: frame.frameId }
      : { session: this.session, frameId: this.lifecycle.mainFrameId };
  }

  get fatalError(): Error | undefined {
    return this.#watch.error;
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
    return Promise.race([promise, this.#watch.fatal]);
  }
}
