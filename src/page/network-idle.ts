// In-flight request tracking for one tab: network idle (strict, for waitUntil/wait) and settling
// after an action. What each request was and how it ended is network-record.ts.

import type { Deadline } from '../common/index.js';
import type { CdpSession } from '../cdp/index.js';

const MAX_TRACKED = 10_000;

export class NetworkTracker {
  readonly #inflight = new Map<string, { url: string; method: string; seq: number }>();
  #seq = 0;
  readonly #waiters = new Set<() => void>();
  #lastActivity = Date.now();

  constructor(session: CdpSession) {
    session.on('Network.requestWillBeSent', (e) => {
      if (this.#inflight.size >= MAX_TRACKED) this.#inflight.delete(this.#inflight.keys().next().value as string);
      this.#inflight.set(e.requestId, { url: e.request.url.slice(0, 300), method: e.request.method, seq: ++this.#seq });
      this.#touch();
    });
    const finish = (id: string): void => {
      if (this.#inflight.delete(id)) this.#touch();
    };
    session.on('Network.loadingFinished', (e) => finish(e.requestId));
    session.on('Network.loadingFailed', (e) => finish(e.requestId));
  }

  get pending(): number {
    return this.#inflight.size;
  }

  /** For a timeout's call log: the requests still in flight, a few named. */
  inflightNote(): string | undefined {
    const reqs = [...this.#inflight.values()];
    if (!reqs.length) return undefined;
    const named = reqs
      .slice(0, 3)
      .map((r) => (r.url.length > 80 ? `${r.url.slice(0, 79)}…` : r.url))
      .join(', ');
    return `${reqs.length} request${reqs.length > 1 ? 's' : ''} in flight: ${named}${reqs.length > 3 ? ', …' : ''}`;
  }

  /** A mark for pendingSince: requests started after it are the ones an action caused. */
  get mark(): number {
    return this.#seq;
  }

  pendingSince(mark: number): number {
    let n = 0;
    for (const r of this.#inflight.values()) if (r.seq > mark) n++;
    return n;
  }

  /** Resolves when no request started after `mark` is in flight, or at the deadline (never rejects). */
  async settleSince(mark: number, deadline: Deadline): Promise<boolean> {
    if (this.pendingSince(mark) === 0) return true;
    let waiter: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      waiter = () => {
        if (this.pendingSince(mark) === 0) resolve();
      };
      this.#waiters.add(waiter);
    });
    try {
      await deadline.race(done, 'requests to finish');
      return true;
    } catch {
      return false; // best effort: long polls and slow APIs don't hold the answer
    } finally {
      this.#waiters.delete(waiter);
    }
  }

  #touch(): void {
    this.#lastActivity = Date.now();
    for (const w of [...this.#waiters]) w();
  }

  /** Resolves after `idleMs` with no request in flight; rejects with a TimeoutError at the deadline. */
  waitForIdle(idleMs: number, deadline: Deadline, what = 'network idle'): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let waiter: () => void = () => {};
    const idle = new Promise<void>((resolve) => {
      const arm = (): void => {
        clearTimeout(timer);
        if (this.#inflight.size > 0) return;
        const quietFor = Date.now() - this.#lastActivity;
        timer = setTimeout(
          () => {
            if (this.#inflight.size === 0) resolve();
            else arm();
          },
          Math.max(0, idleMs - quietFor),
        );
      };
      waiter = arm;
      this.#waiters.add(waiter);
      arm();
    });
    return deadline
      .race(idle, what, () => this.inflightNote())
      .finally(() => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      });
  }
}
