// The runner's side of CommandState: the tab a command works on, its lock, and attaching to tabs
// by alias, by target, or by opening a new one. Connections and attached pages come from the
// command's host (tab-host.ts): made for this command (CLI) or kept between calls (MCP).

import { ANSWER_MARGIN_MS, ConnectionError, Deadline, progress } from '../common/index.js';
import {
  canLaunchAt,
  discardNewBrowser,
  entryFor,
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
import { DownloadWatch, type Page } from '../page/index.js';
import type { AttachedTab, CommandState } from '../steps/index.js';
import { ColdHost, type TabHost, type WhileEnabling } from './tab-host.js';

/** A new tab's window: a common laptop viewport, the same on every machine. */
const DEFAULT_WINDOW = { width: 1280, height: 800 };
/** Finding the tab's chosen frame again at attach (out-of-process frames need an attach). */
const FRAME_RESTORE_MS = 5_000;
/** How long openTab waits for a closing Chrome to be gone before launching a new one. */
const SHUTDOWN_WAIT_MS = 5_000;
/** A browser on this machine: the files it downloads land where we can move them. */
const isLocal = (e: TabEntry): boolean => e.own === true || isLoopbackHost(normaliseAddress(e).host);

export class CommandSession implements CommandState {
  readonly host: TabHost;
  readonly #timeoutMs: number;
  readonly #onAttach: (tab: AttachedTab, between?: Record<string, unknown>) => void;
  readonly #whileEnabling: WhileEnabling | undefined;
  /** Per-target locks held until the command ends (another command on the tab waits). */
  readonly #locks: ReleaseLock[] = [];
  /** The tabs this command attached, handed back to the host at the end. */
  readonly #attached: { page: Page; entry: TabEntry }[] = [];
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
    onAttach: (tab: AttachedTab, between?: Record<string, unknown>) => void,
    whileEnabling?: WhileEnabling,
    host: TabHost = new ColdHost(),
  ) {
    this.host = host;
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

  async #connect(
    address: BrowserAddress,
    autoLaunch: boolean,
    headless?: boolean,
    forNewTab = false,
  ): Promise<Connection> {
    const r = await this.host.connect(address, { autoLaunch, headless, timeoutMs: this.#timeoutMs, forNewTab });
    if (r.launched) this.launched = true;
    return r.conn;
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
    // Downloads are watched from the session's first moment (local browsers only: the files land here).
    let watching: Promise<DownloadWatch | undefined> | undefined;
    const whileEnabling = (session: CdpSession, e: TabEntry): void => {
      this.#whileEnabling?.(session, e);
      if (isLocal(e)) watching = DownloadWatch.start(conn, session, e.targetId).catch(() => undefined); // no downloads beats no command
    };
    const { page, between } = await this.host.attach(conn, entry, this.#timeoutMs, whileEnabling);
    // A warm host's kept session was enabled by an earlier call: its downloads are watched from here.
    this.downloads = watching
      ? await watching
      : isLocal(entry)
        ? await DownloadWatch.start(conn, page.session, entry.targetId).catch(() => undefined)
        : undefined;
    this.#attached.push({ page, entry });
    await chooseFrame(page, entry);
    await page.takeFrameGuardedDialogs();
    const tab = { alias, entry, conn, page };
    this.tab = tab;
    this.#onAttach(tab, between);
    return tab;
  }

  async openTab(address: BrowserAddress, headless: boolean | undefined, context?: string): Promise<AttachedTab> {
    const autoLaunch = address.own === true || (!address.wsEndpoint && !address.grid && canLaunchAt(address.host));
    let conn = await this.#connect(address, autoLaunch, headless, true);
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
      await discardNewBrowser(conn); // a farm session made for this tab is not left behind
      // A local Chrome that is shutting down (closed by its user a moment ago) still answers but
      // opens no tabs: once it is gone, launch a new one and try once more.
      if (!autoLaunch || !(await this.#goneSoon(resolvedAddress(address, conn)))) throw err;
      this.host.discard(address);
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
      if (err instanceof ConnectionError && err.details.browserGone) throw err; // the farm said why, in full
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

  /** Hands the command's pages and connections back to its host (abandoned: still in use), and releases the tab locks. */
  async close(abandoned = false): Promise<void> {
    this.host.endCommand(this.#attached.splice(0), abandoned);
    for (const release of this.#locks.splice(0)) release();
  }
}

/**
 * Steps run in the frame the tab's entry names (SPEC §19.12, chosen by an earlier command); a kept
 * page already in that frame stays there.
 */
async function chooseFrame(page: Page, entry: TabEntry): Promise<void> {
  if (!entry.frame) {
    page.chooseFrame(undefined);
    return;
  }
  if (page.chosenFrameEntry()?.frameId === entry.frame.frameId) return;
  try {
    page.chooseFrame(await page.frames.target(entry.frame.frameId, Deadline.after(FRAME_RESTORE_MS)));
  } catch {
    entry.frame = undefined; // the frame is gone (the page navigated): steps run at the top again
  }
}
