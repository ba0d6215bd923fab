// The runner's side of CommandState: browser connections of this command (one per browser),
// the tab it works on, and attaching to tabs by alias, by target, or by opening a new one.

import { ANSWER_MARGIN_MS, ConnectionError, Deadline, progress } from '../common/index.js';
import {
  attachToTarget,
  canLaunchAt,
  connectBrowser,
  forgetTab,
  inContext,
  isLoopbackHost,
  isTargetClosed,
  lockTab,
  lookupTab,
  normaliseAddress,
  loadRegistry,
  probe,
  registerTab,
  resolvedAddress,
  type BrowserAddress,
  type CdpSession,
  type Connection,
  type ReleaseLock,
  type TabEntry,
} from '../cdp/index.js';
import { DownloadWatch, Page } from '../page/index.js';
import type { AttachedTab, CommandState } from '../steps/index.js';

/** A new tab's window: a common laptop viewport, the same on every machine. */
const DEFAULT_WINDOW = { width: 1280, height: 800 };
/** Finding the tab's chosen frame again at attach (out-of-process frames need an attach). */
const FRAME_RESTORE_MS = 5_000;
/** How long openTab waits for a closing Chrome to be gone before launching a new one. */
const SHUTDOWN_WAIT_MS = 5_000;
/** A browser on this machine: the files it downloads land where we can move them. */
const isLocal = (e: TabEntry): boolean => e.own === true || isLoopbackHost(normaliseAddress(e).host);
/** One connection per browser in a command: our own Chrome and each named profile's are different browsers. */
const addressKey = (a: BrowserAddress): string =>
  a.own ? (a.profile ? `profile ${a.profile}` : 'own') : (a.wsEndpoint ?? `${a.host}:${a.port}`);

/** How a new tab entry names its browser: our own Chrome at its current port, or the address as given. */
function entryFor(targetId: string, address: BrowserAddress, conn: Connection, context?: string): TabEntry {
  const a = resolvedAddress(address, conn);
  return {
    targetId,
    host: a.host,
    port: a.port,
    ...(a.wsEndpoint ? { wsEndpoint: a.wsEndpoint } : {}),
    ...(a.own ? { own: true } : {}),
    ...(a.profile ? { profile: a.profile } : {}),
    ...(context ? { context } : {}),
  };
}

export class CommandSession implements CommandState {
  readonly #connections = new Map<string, Promise<Connection>>();
  readonly #timeoutMs: number;
  readonly #onAttach: (tab: AttachedTab) => void;
  readonly #whileEnabling: ((session: CdpSession, entry: TabEntry) => void) | undefined;
  /** Per-target locks held until the command ends (another command on the tab waits). */
  readonly #locks: ReleaseLock[] = [];
  tab: AttachedTab | undefined;
  /** Downloads of the tab's browser context during this command (a local Chrome only: files land on this machine). */
  downloads: DownloadWatch | undefined;
  /** The last step's deadline: a download still running at the end is waited for until then. */
  downloadsUntil: Deadline | undefined;
  closedOwnTab = false;
  launched = false;

  /**
   * `whileEnabling` may send its own work on a tab's session right behind the domain enables (they
   * are on the wire when Page.open first waits), so the page does it while Chrome answers them.
   */
  constructor(
    timeoutMs: number,
    onAttach: (tab: AttachedTab) => void,
    whileEnabling?: (session: CdpSession, entry: TabEntry) => void,
  ) {
    this.#timeoutMs = timeoutMs;
    this.#onAttach = onAttach;
    this.#whileEnabling = whileEnabling;
  }

  /** A busy tab is waited for within the running step's time window, so the answer still comes in time. */
  #lockWaitMs(): number {
    return Math.max(0, Math.min(this.#timeoutMs, progress.deadlineAt - ANSWER_MARGIN_MS - Date.now()));
  }

  requireTab(): AttachedTab {
    if (!this.tab)
      throw new ConnectionError('This step needs a tab: pass "tab": "t1", or start the command with openTab.');
    return this.tab;
  }

  #connect(address: BrowserAddress, autoLaunch: boolean, headless?: boolean): Promise<Connection> {
    const key = addressKey(address);
    let conn = this.#connections.get(key);
    if (!conn) {
      conn = connectBrowser(address, { autoLaunch, headless, timeoutMs: this.#timeoutMs }).then((r) => {
        if (r.launched) this.launched = true;
        return r.conn;
      });
      conn.catch(() => this.#connections.delete(key));
      this.#connections.set(key, conn);
    }
    return conn;
  }

  /** Whether the browser at `address` stops answering within a few seconds (it was closing). */
  async #goneSoon(address: BrowserAddress): Promise<boolean> {
    const until = Deadline.after(Math.min(SHUTDOWN_WAIT_MS, this.#timeoutMs));
    while (!until.expired()) {
      if (!(await probe(address.host, address.port, 500))) return true;
      await until.sleep(100);
    }
    return false;
  }

  browser(address?: BrowserAddress): Promise<Connection> {
    if (!address && this.tab) return Promise.resolve(this.tab.conn);
    return this.#connect(address ?? normaliseAddress({}), false);
  }

  async #attach(conn: Connection, alias: string, entry: TabEntry): Promise<AttachedTab> {
    // Two commands on one tab would interleave their input: the second waits for the first,
    // at most its own timeout.
    this.#locks.push(await lockTab(alias, entry.targetId, this.#lockWaitMs()));
    const session = await attachToTarget(conn, entry.targetId);
    const opening = Page.open(conn, session, entry.targetId, entry.viewport, entry.geolocation, this.#timeoutMs);
    this.#whileEnabling?.(session, entry);
    const watching = isLocal(entry)
      ? DownloadWatch.start(conn, session, entry.targetId).catch(() => undefined) // no downloads beats no command
      : undefined;
    const page = await opening;
    this.downloads = await watching;
    if (entry.frame) {
      try {
        page.frame = await page.frames.target(entry.frame.frameId, Deadline.after(FRAME_RESTORE_MS));
      } catch {
        entry.frame = undefined; // the frame is gone (the page navigated): steps run at the top again
      }
    }
    await page.takeFrameGuardedDialogs();
    const tab = { alias, entry, conn, page };
    this.tab = tab;
    this.#onAttach(tab);
    return tab;
  }

  async openTab(address: BrowserAddress, headless: boolean | undefined, context?: string): Promise<AttachedTab> {
    const autoLaunch = address.own === true || (!address.wsEndpoint && canLaunchAt(address.host));
    let conn = await this.#connect(address, autoLaunch, headless);
    // Each tab gets its own window: headless Chrome stops painting background tabs of a window,
    // and a screenshot of such a tab would stall.
    const inWindow = (c: Connection, browserContextId?: string) =>
      c.browser().send('Target.createTarget', {
        url: 'about:blank',
        newWindow: true,
        ...DEFAULT_WINDOW,
        ...(browserContextId ? { browserContextId } : {}),
      });
    const create = (c: Connection) => (context ? inContext(c, context, (id) => inWindow(c, id)) : inWindow(c));
    let created: { targetId: string };
    try {
      created = await create(conn);
    } catch (err) {
      // A local Chrome that is shutting down (closed by its user a moment ago) still answers but
      // opens no tabs: once it is gone, launch a new one and try once more.
      if (!autoLaunch || !(await this.#goneSoon(resolvedAddress(address, conn)))) throw err;
      conn.close();
      this.#connections.delete(addressKey(address));
      conn = await this.#connect(address, true, headless);
      created = await create(conn);
    }
    const entry = entryFor(created.targetId, address, conn, context);
    const alias = await registerTab(entry);
    return this.#attach(conn, alias, entry);
  }

  async connectTab(address: BrowserAddress, targetId: string): Promise<AttachedTab> {
    const conn = await this.#connect(address, false);
    const registry = await loadRegistry();
    const known = Object.entries(registry.tabs).find(([, e]) => e.targetId === targetId);
    const entry = known?.[1] ?? entryFor(targetId, address, conn);
    const alias = known?.[0] ?? (await registerTab(entry));
    return this.#attach(conn, alias, entry);
  }

  /** Attaches the command's `tab` (an alias, or a raw target id on the default browser). */
  async attachExisting(tab: string): Promise<AttachedTab> {
    let alias = tab;
    let entry = await lookupTab(tab);
    const registry = await loadRegistry();
    if (!entry) {
      const byTarget = Object.entries(registry.tabs).find(([, e]) => e.targetId === tab);
      if (byTarget) [alias, entry] = byTarget;
    }
    if (!entry) {
      if (!/^[0-9A-F]{32}$/i.test(tab)) {
        const known = Object.keys(registry.tabs);
        throw new ConnectionError(
          `Unknown tab "${tab}".${known.length ? ` Known tabs: ${known.join(', ')}.` : ''} Open one with {"openTab": "https://…"} or find it with listTabs.`,
        );
      }
      return this.connectTab(normaliseAddress({}), tab.toUpperCase());
    }
    const address = normaliseAddress(entry);
    let conn: Connection;
    try {
      conn = await this.#connect(address, false);
    } catch (err) {
      throw new ConnectionError(
        `Tab ${alias} is unreachable: ${(err as Error).message}. If Chrome was restarted, its tabs are gone: open a new one with openTab.`,
      );
    }
    try {
      return await this.#attach(conn, alias, entry);
    } catch (err) {
      // Chrome's "no target", whether as it said it or wrapped by the connection ("The tab is gone (…)").
      if (err instanceof ConnectionError && isTargetClosed(err)) {
        await forgetTab(alias);
        throw new ConnectionError(
          `Tab ${alias} no longer exists (closed outside cdp-skill, or Chrome restarted). Open a new one with openTab.`,
        );
      }
      throw err;
    }
  }

  /** Closes connections and releases locks; a connection still being opened is closed when it opens, not waited for. */
  async close(): Promise<void> {
    for (const release of this.#locks.splice(0)) release();
    for (const conn of this.#connections.values())
      conn.then(
        (c) => c.close(),
        () => {
          /* never opened: nothing to close */
        },
      );
  }
}
