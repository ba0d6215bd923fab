// The MCP server's host (tab-host.ts): browser connections and attached tabs kept between calls,
// so a call pays only for its steps and their capture, and watches (between-calls.ts) that record
// what happens on a kept tab while no call runs. A kept tab is let go when it dies (closed,
// crashed, the connection lost) or when its entry changed under it (another client set emulation).

import {
  connectBrowser,
  type BrowserAddress,
  type BrowserConnection,
  type Connection,
  type TabEntry,
} from '../cdp/index.js';
import type { Page } from '../page/index.js';
import {
  BETWEEN_CALLS_WATCHERS,
  takeBetweenCalls,
  type BetweenCallsWatch,
  type BetweenCallsWatcher,
} from './between-calls.js';
import { addressKey, openPage, type ConnectRequest, type HostedPage, type TabHost } from './tab-host.js';

interface KeptTab {
  conn: Connection;
  page: Page;
  watches: BetweenCallsWatch[];
  /** The entry's session-applied settings (emulation, …) as the page has them. */
  applied: string;
}

/** Entry fields a command reads and writes as it goes; every other field is applied to the session at attach. */
const PER_COMMAND = new Set(['counters', 'snapshotHashes', 'frameRefs', 'frame', 'world']);

/** What attaching applies to a session from the entry (viewport, geolocation, and whatever later fields add). */
function appliedOf(entry: TabEntry): string {
  return JSON.stringify(Object.entries(entry).filter(([k]) => !PER_COMMAND.has(k)));
}

export class WarmHost implements TabHost {
  readonly keepsWatching = true;
  readonly #connections = new Map<string, Promise<BrowserConnection>>();
  readonly #tabs = new Map<string, KeptTab>();
  readonly #watchers: readonly BetweenCallsWatcher[];

  constructor(watchers: readonly BetweenCallsWatcher[] = BETWEEN_CALLS_WATCHERS) {
    this.#watchers = watchers;
  }

  /** The kept connection to `address` while it is open; a new one (once) when it closed or never opened. */
  async connect(address: BrowserAddress, request: ConnectRequest): Promise<BrowserConnection> {
    const key = addressKey(address);
    const known = this.#connections.get(key);
    if (known) {
      const r = await known.catch(() => undefined);
      if (r && !r.conn.closed) return { conn: r.conn, launched: false };
      if (this.#connections.get(key) === known) this.#connections.delete(key);
    }
    let opening = this.#connections.get(key);
    if (!opening) {
      opening = connectBrowser(address, request);
      this.#connections.set(key, opening);
      const mine = opening;
      mine.catch(() => {
        if (this.#connections.get(key) === mine) this.#connections.delete(key);
      });
    }
    return opening;
  }

  discard(address: BrowserAddress): void {
    const key = addressKey(address);
    const known = this.#connections.get(key);
    this.#connections.delete(key);
    known?.then(
      (c) => c.conn.close(),
      () => {
        /* never opened */
      },
    );
  }

  async attach(conn: Connection, entry: TabEntry, timeoutMs: number): Promise<HostedPage> {
    const key = `${conn.url} ${entry.targetId}`;
    const kept = this.#tabs.get(key);
    if (kept && kept.conn === conn && !conn.closed && !kept.page.fatalError && kept.applied === appliedOf(entry)) {
      const between = await takeBetweenCalls(kept.watches);
      kept.page.beginCommand();
      return { page: kept.page, ...(between ? { between } : {}) };
    }
    if (kept) this.#letGo(key, kept);
    // The first attach of this tab (or one let go): enabled as the CLI does it, watched from now on.
    const page = await openPage(conn, entry, timeoutMs);
    this.#tabs.set(key, { conn, page, watches: this.#watchers.map((w) => w(page, conn)), applied: appliedOf(entry) });
    return { page };
  }

  /** The call ended: its tabs record again; tabs that died, or whose call was abandoned mid-way, are let go. */
  endCommand(tabs: readonly { page: Page; entry: TabEntry }[], abandoned: boolean): void {
    for (const [key, kept] of this.#tabs) {
      const used = tabs.find((t) => t.page === kept.page);
      if (kept.conn.closed || kept.page.fatalError || (used && abandoned)) this.#letGo(key, kept);
      else if (used) {
        kept.applied = appliedOf(used.entry); // the call's own steps set it on this session
        for (const w of kept.watches) w.resume();
      }
    }
  }

  /** Stops watching a tab and detaches its session (a closed tab's is gone already). */
  #letGo(key: string, kept: KeptTab): void {
    this.#tabs.delete(key);
    for (const w of kept.watches) w.stop();
    if (kept.conn.closed || !kept.page.session.id) return;
    kept.conn
      .browser()
      .send('Target.detachFromTarget', { sessionId: kept.page.session.id })
      .catch(() => {
        /* the tab or connection went first */
      });
  }

  /** The server exits: every connection closed (the browsers and their tabs stay). */
  close(): void {
    for (const [key, kept] of this.#tabs) this.#letGo(key, kept);
    for (const conn of this.#connections.values())
      conn.then(
        (c) => c.conn.close(),
        () => {
          /* never opened */
        },
      );
    this.#connections.clear();
  }
}
