// What the warm host (warm-host.ts) keeps watching on a tab between calls, which a stateless CLI
// process cannot: each watcher records while no call runs on the tab and hands what it saw to the
// next call's answer (`betweenCommands.<name>`). A new kind of watch is one more entry in
// BETWEEN_CALLS_WATCHERS: the network log, downloads and persisted routes (issue 21) plug in here.

import { isLoopbackHost, type Connection } from '../cdp/index.js';
import { ConsoleCollector } from '../capture/index.js';
import { DownloadWatch, failedRequests, hasFailed, type Page } from '../page/index.js';
import { Deadline } from '../common/index.js';

/** One tab's watch, made when the warm host first attaches the tab; it starts paused (a call runs). */
export interface BetweenCallsWatch {
  /** The key of what it saw in the answer's `betweenCommands`. */
  readonly name: string;
  /**
   * What it saw since the previous call on the tab ended, handed over once (undefined: nothing);
   * recording pauses until resume(), the call's own steps being the call's to report.
   */
  take(): Promise<unknown>;
  /** The call on the tab ended: record again. */
  resume(): void;
  /** The tab is let go (closed, crashed, the server exits). */
  stop(): void;
}

/** Makes a tab's watch; `conn` is the tab's browser connection (browser-wide events, e.g. downloads). */
export type BetweenCallsWatcher = (page: Page, conn: Connection) => BetweenCallsWatch;

/**
 * Dialogs: the kept page answers each as it opens (Page.javascriptDialogOpening, as the dialog
 * step armed, else OK) and records it; a page-side guard a CLI command left behind is read too.
 */
export const watchDialogs: BetweenCallsWatcher = (page) => ({
  name: 'dialogs',
  async take() {
    const seen = await page.dialogsSinceLastCommand();
    return seen.length ? seen : undefined;
  },
  resume() {
    page.dialogs.length = 0; // the call's own dialogs were in its answer
  },
  stop() {
    /* the page's own dialog handler goes with its session */
  },
});

/** Console errors and warnings (and uncaught exceptions) logged while no call ran. */
export const watchConsole: BetweenCallsWatcher = (page) => {
  let collector: ConsoleCollector | undefined;
  return {
    name: 'console',
    async take() {
      const report = collector?.report();
      collector?.stop();
      collector = undefined;
      return report;
    },
    resume() {
      collector?.stop();
      collector = new ConsoleCollector(page.session, Date.now());
    },
    stop() {
      collector?.stop();
      collector = undefined;
    },
  };
};

/** How long reading the bodies of requests that failed between calls may hold the next call. */
const BETWEEN_BODIES_MS = 1_000;

/**
 * The network: the kept session's request log goes on recording while no call runs; the next call
 * is told how many requests were made and which failed (with the start of their bodies, as a call's
 * own failures are), and its `network` step lists them with full detail.
 */
export const watchNetwork: BetweenCallsWatcher = (page) => ({
  name: 'network',
  async take() {
    const made = page.requests.betweenCalls();
    if (!made.length) return undefined;
    const failed = await failedRequests(page.requests, Deadline.after(BETWEEN_BODIES_MS), made);
    // One still waiting for its answer is not told as fine: it is counted as pending, and if it
    // fails during the call, the call's own `network.failed` tells it.
    for (const r of made) if (r.done || hasFailed(r)) r.told = true;
    const pending = made.filter((r) => !r.told).length;
    return { requests: made.length, ...(pending ? { pending } : {}), ...failed };
  },
  resume() {
    page.requests.endCommand();
  },
  stop() {
    /* the log goes with the page's session */
  },
});

/**
 * Downloads (local browsers only: the files land on this machine): the kept connection follows
 * Chrome's download events while no call runs, so a file the page sends later is put under its name
 * as soon as it is whole, and the next call lists it (`state: "inProgress"` when still coming: the
 * call after the one it finishes in finds it in the folder, as in the CLI).
 */
export const watchDownloads: BetweenCallsWatcher = (page, conn) => {
  let host: string;
  try {
    host = new URL(conn.url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    host = '';
  }
  const local = isLoopbackHost(host);
  let watch: Promise<DownloadWatch | undefined> | undefined;
  const end = async (): Promise<DownloadWatch | undefined> => {
    const w = await watch;
    watch = undefined;
    return w;
  };
  return {
    name: 'downloads',
    async take() {
      const reports = await (await end())?.finish().catch(() => undefined);
      return reports?.length ? reports : undefined;
    },
    resume() {
      if (local) watch = DownloadWatch.start(conn, page.session, page.targetId).catch(() => undefined);
    },
    stop() {
      void end().then((w) => w?.finish().catch(() => undefined));
    },
  };
};

/** The watches every kept tab gets, in answer order; persisted routes stay armed on the kept session. */
export const BETWEEN_CALLS_WATCHERS: readonly BetweenCallsWatcher[] = [
  watchDialogs,
  watchConsole,
  watchNetwork,
  watchDownloads,
];

/** What the watches saw since the previous call, keyed by name; undefined when nothing. */
export async function takeBetweenCalls(
  watches: readonly BetweenCallsWatch[],
): Promise<Record<string, unknown> | undefined> {
  const seen = await Promise.all(watches.map(async (w) => [w.name, await w.take()] as const));
  const between = Object.fromEntries(seen.filter(([, v]) => v !== undefined));
  return Object.keys(between).length ? between : undefined;
}
