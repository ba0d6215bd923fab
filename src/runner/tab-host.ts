// How a command reaches browsers and tabs. The runner asks its host for a connection and for a
// tab's page; the CLI's cold host connects and attaches for one command and closes it all after,
// the MCP server's warm host (warm-host.ts) keeps both between calls. Locks, aliases and the
// registry stay the runner's (command-session.ts): both fronts share them.

import {
  attachToTarget,
  connectBrowser,
  type BrowserAddress,
  type BrowserConnection,
  type CdpSession,
  type Connection,
  type TabEntry,
} from '../cdp/index.js';
import { Page } from '../page/index.js';

export interface ConnectRequest {
  autoLaunch: boolean;
  headless?: boolean;
  timeoutMs: number;
}

/** A tab's page for this command, and what the host saw on it since the previous call (warm only). */
export interface HostedPage {
  page: Page;
  /** Keyed by watcher (dialogs, console, …): the answer's `betweenCommands`. */
  between?: Record<string, unknown>;
}

/** Sends work on a new tab session right behind the domain enables (the early before-look). */
export type WhileEnabling = (session: CdpSession, entry: TabEntry) => void;

export interface TabHost {
  /**
   * True when the host keeps the tabs attached and answers their dialogs between calls (warm): the
   * page-side dialog guard the CLI leaves behind is then not armed.
   */
  readonly keepsWatching: boolean;
  /** A connection to the browser at `address`, one per address for as long as the host keeps it. */
  connect(address: BrowserAddress, request: ConnectRequest): Promise<BrowserConnection>;
  /** Forgets a connection that proved useless (a Chrome that was closing) and closes it. */
  discard(address: BrowserAddress): void;
  /** The tab's page, attached and enabled for this command. The caller holds the tab's lock. */
  attach(conn: Connection, entry: TabEntry, timeoutMs: number, whileEnabling?: WhileEnabling): Promise<HostedPage>;
  /**
   * The command ended (its locks are released next): a cold host closes what it opened. Abandoned:
   * the front answered without it (its deadline ran out) while its steps may still be running.
   */
  endCommand(tabs: readonly { page: Page; entry: TabEntry }[], abandoned: boolean): void;
}

export const addressKey = (a: BrowserAddress): string => (a.own ? 'own' : (a.wsEndpoint ?? `${a.host}:${a.port}`));

/** Attaches a new session to the tab and enables what a command needs (shared by both hosts). */
export async function openPage(
  conn: Connection,
  entry: TabEntry,
  timeoutMs: number,
  whileEnabling?: WhileEnabling,
): Promise<Page> {
  const session = await attachToTarget(conn, entry.targetId);
  const opening = Page.open(conn, session, entry.targetId, entry.viewport, entry.geolocation, timeoutMs);
  whileEnabling?.(session, entry);
  return opening;
}

/** The CLI's host: everything is for one command, then closed. */
export class ColdHost implements TabHost {
  readonly keepsWatching = false;
  readonly #connections = new Map<string, Promise<BrowserConnection>>();

  connect(address: BrowserAddress, request: ConnectRequest): Promise<BrowserConnection> {
    const key = addressKey(address);
    let conn = this.#connections.get(key);
    if (!conn) {
      conn = connectBrowser(address, request);
      conn.catch(() => this.#connections.delete(key));
      this.#connections.set(key, conn);
    }
    return conn;
  }

  discard(address: BrowserAddress): void {
    const key = addressKey(address);
    this.#connections.get(key)?.then(
      (c) => c.conn.close(),
      () => {
        /* never opened */
      },
    );
    this.#connections.delete(key);
  }

  async attach(
    conn: Connection,
    entry: TabEntry,
    timeoutMs: number,
    whileEnabling?: WhileEnabling,
  ): Promise<HostedPage> {
    return { page: await openPage(conn, entry, timeoutMs, whileEnabling) };
  }

  /** Closes the connections; one still being opened is closed when it opens, not waited for. */
  endCommand(): void {
    for (const conn of this.#connections.values())
      conn.then(
        (c) => c.conn.close(),
        () => {
          /* never opened: nothing to close */
        },
      );
  }
}
