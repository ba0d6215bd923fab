// Document lifecycle of one tab's main frame: which loader is current, which lifecycle events
// each loader reached, and same-document navigations. Waits are event-driven and take a Deadline.

import type { Deadline } from '../common/index.js';
import type { CdpSession } from '../cdp/index.js';

export type WaitUntil = 'commit' | 'domcontentloaded' | 'load' | 'networkidle';

const EVENT_FOR: Record<Exclude<WaitUntil, 'commit'>, string> = {
  domcontentloaded: 'DOMContentLoaded',
  load: 'load',
  networkidle: 'networkIdle',
};

export class LifecycleTracker {
  readonly #reached = new Map<string, Set<string>>(); // loaderId → lifecycle event names
  readonly #waiters = new Set<() => void>();
  readonly #committed = new Set<string>();
  #mainFrameId: string;
  #loaderId: string | undefined;
  /** Bumped on every main-frame commit (new document) and same-document navigation. */
  documentCount = 0;
  sameDocumentCount = 0;
  /** Bumped when the main frame asks for, or starts, a navigation, and when it stops loading. */
  requestedCount = 0;
  stoppedCount = 0;
  url: string;

  constructor(session: CdpSession, mainFrameId: string, url: string, loaderId?: string) {
    this.#mainFrameId = mainFrameId;
    this.#loaderId = loaderId;
    this.url = url;
    session.on('Page.lifecycleEvent', (e) => {
      if (e.frameId !== this.#mainFrameId) return;
      if (e.name === 'init') this.#reached.set(e.loaderId, new Set());
      let set = this.#reached.get(e.loaderId);
      if (!set) this.#reached.set(e.loaderId, (set = new Set()));
      set.add(e.name);
      this.#notify();
    });
    session.on('Page.frameNavigated', (e) => {
      if (e.frame.parentId) return;
      this.#mainFrameId = e.frame.id;
      this.#loaderId = e.frame.loaderId;
      this.#committed.add(e.frame.loaderId);
      this.url = e.frame.url + (e.frame.urlFragment ?? '');
      this.documentCount++;
      if (e.type === 'BackForwardCacheRestore') {
        // A restored page fires no lifecycle events again: it is already fully loaded.
        this.#reached.set(e.frame.loaderId, new Set(['DOMContentLoaded', 'load', 'networkIdle']));
      }
      this.#notify();
    });
    const requested = (e: { frameId: string }): void => {
      if (e.frameId !== this.#mainFrameId) return;
      this.requestedCount++;
      this.#notify();
    };
    // A Control+click or middle click on a link asks for a navigation in a new tab: not this one's.
    session.on('Page.frameRequestedNavigation', (e) => {
      if (e.disposition === 'currentTab') requested(e);
    });
    session.on('Page.frameStartedLoading', requested);
    session.on('Page.frameStoppedLoading', (e) => {
      if (e.frameId !== this.#mainFrameId) return;
      this.stoppedCount++;
      this.#notify();
    });
    session.on('Page.navigatedWithinDocument', (e) => {
      if (e.frameId !== this.#mainFrameId) return;
      this.url = e.url;
      this.sameDocumentCount++;
      this.#notify();
    });
  }

  get mainFrameId(): string {
    return this.#mainFrameId;
  }
  get loaderId(): string | undefined {
    return this.#loaderId;
  }

  #notify(): void {
    for (const w of [...this.#waiters]) w();
  }

  /** For the call log of a timeout: how far the current document got. */
  #progress(): string {
    if (this.#loaderId === undefined) return 'no document committed yet';
    const events = [...(this.#reached.get(this.#loaderId) ?? [])].filter(
      (e) => e === 'DOMContentLoaded' || e === 'load',
    );
    return `the document at ${this.url.slice(0, 100)} reached ${events.join(' and ') || 'no load event yet'}`;
  }

  /** Resolves once `check` holds, re-checked on every lifecycle change; `pending` adds to a timeout's call log. */
  #until(check: () => boolean, deadline: Deadline, what: string, pending?: () => string | undefined): Promise<void> {
    if (check()) return Promise.resolve();
    let waiter: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      waiter = () => {
        if (check()) resolve();
      };
      this.#waiters.add(waiter);
    });
    const progress = (): string => [this.#progress(), pending?.()].filter(Boolean).join('; ');
    return deadline.race(done, what, progress).finally(() => this.#waiters.delete(waiter));
  }

  reached(loaderId: string, waitUntil: WaitUntil): boolean {
    if (waitUntil === 'commit') return this.#loaderId === loaderId;
    return this.#reached.get(loaderId)?.has(EVENT_FOR[waitUntil]) ?? false;
  }

  /**
   * Waits until the current document reaches `waitUntil`. Follows the page when a committed
   * document is replaced by another (a JavaScript redirect): agents want where it ended up.
   */
  waitForCurrent(
    waitUntil: WaitUntil,
    deadline: Deadline,
    what: string,
    pending?: () => string | undefined,
  ): Promise<void> {
    return this.#until(
      () => this.#loaderId !== undefined && this.reached(this.#loaderId, waitUntil),
      deadline,
      what,
      pending,
    );
  }

  /**
   * Waits until the document of `loaderId` has committed and the current document (it, or one
   * that replaced it) reached `waitUntil`.
   */
  waitForLoader(
    loaderId: string,
    waitUntil: WaitUntil,
    deadline: Deadline,
    what: string,
    pending?: () => string | undefined,
  ): Promise<void> {
    return this.#until(
      () => this.#committed.has(loaderId) && this.#loaderId !== undefined && this.reached(this.#loaderId, waitUntil),
      deadline,
      what,
      pending,
    );
  }

  /** Waits for a new document (count above `after`) or a same-document navigation. */
  waitForNavigation(
    after: { documents: number; sameDocument: number },
    deadline: Deadline,
    what: string,
  ): Promise<void> {
    return this.#until(
      () => this.documentCount > after.documents || this.sameDocumentCount > after.sameDocument,
      deadline,
      what,
    );
  }

  snapshotCounts(): { documents: number; sameDocument: number } {
    return { documents: this.documentCount, sameDocument: this.sameDocumentCount };
  }

  /** Resolves when `check` holds (re-checked on every lifecycle event) or at the deadline, never rejecting. */
  async settle(check: () => boolean, deadline: Deadline): Promise<boolean> {
    try {
      await this.#until(check, deadline, 'the page to settle');
      return true;
    } catch {
      return false; // best effort: the caller reports what it saw
    }
  }
}
