// chromeStatus and listTabs for a browser farm (issue 24): a Selenium Grid's own status and the tabs
// of the sessions cdp-skill holds there; a wsEndpoint's browser as it is — nothing launched, no
// tab opened, and a warning when its browsers last only as long as a connection.

import { ConnectionError } from '../common/index.js';
import {
  checkBrowserOutlivesConnection,
  gridStatus,
  isLaunchEndpoint,
  loadRegistry,
  normaliseAddress,
  type BrowserAddress,
  type Connection,
  type TabEntry,
} from '../cdp/index.js';
import type { StepContext } from './registry.js';

interface TabRow {
  tab?: string;
  targetId: string;
  url: string;
  title: string;
}
type TabLister = (conn: Connection, address: BrowserAddress) => Promise<TabRow[]>;

/** Bound on a status look at a farm (the step's deadline bounds it too). */
const STATUS_TIMEOUT_MS = 10_000;

export const isFarmAddress = (a: Partial<BrowserAddress>): boolean =>
  a.grid !== undefined || a.wsEndpoint !== undefined;

const sameGrid = (a: string, b: string): boolean =>
  new URL(a).href.replace(/\/$/, '') === new URL(b).href.replace(/\/$/, '');

const gone = (err: unknown): err is ConnectionError =>
  err instanceof ConnectionError && err.details.browserGone === true;

/** The tabs of every session cdp-skill holds on a Grid (each with its session id); sessions found gone are warnings. */
export async function gridTabs(
  ctx: StepContext,
  gridUrl: string,
  list: TabLister,
): Promise<{ tabs: (TabRow & { session: string })[]; warnings?: string[] }> {
  const sessions = new Map<string, TabEntry>();
  for (const entry of Object.values((await loadRegistry()).tabs))
    if (entry.grid && sameGrid(entry.grid.url, gridUrl)) sessions.set(entry.grid.sessionId, entry);
  const tabs: (TabRow & { session: string })[] = [];
  const warnings: string[] = [];
  for (const [session, entry] of sessions) {
    const address = normaliseAddress(entry);
    try {
      const conn = await ctx.command.browser(address);
      for (const t of await list(conn, address)) tabs.push({ ...t, session });
    } catch (err) {
      if (!gone(err)) throw err;
      warnings.push(err.message);
    }
  }
  return { tabs, ...(warnings.length ? { warnings } : {}) };
}

/** chromeStatus {grid} or {wsEndpoint}. */
export async function farmStatus(
  ctx: StepContext,
  given: Partial<BrowserAddress>,
  list: TabLister,
): Promise<Record<string, unknown>> {
  const timeoutMs = Math.min(STATUS_TIMEOUT_MS, ctx.deadline.remainingMs());
  if (given.grid) {
    let status: Awaited<ReturnType<typeof gridStatus>>;
    try {
      status = await gridStatus(given.grid.url, timeoutMs);
    } catch (err) {
      if (!(err instanceof ConnectionError)) throw err;
      return { running: false, error: err.message };
    }
    const { ready, version, ...grid } = status;
    return { running: ready, ...(version ? { version } : {}), grid, ...(await gridTabs(ctx, given.grid.url, list)) };
  }
  const address = normaliseAddress(given);
  let conn: Connection;
  try {
    conn = await ctx.command.browser(address);
  } catch (err) {
    if (!(err instanceof ConnectionError)) throw err;
    return { running: false, error: err.message };
  }
  const { product } = await conn.browser().send('Browser.getVersion');
  const tabs = await list(conn, address);
  const warnings: string[] = [];
  if (address.wsEndpoint && isLaunchEndpoint(address.wsEndpoint)) {
    try {
      await checkBrowserOutlivesConnection(conn, address.wsEndpoint, timeoutMs);
    } catch (err) {
      if (!(err instanceof ConnectionError) || !err.details.perConnection) throw err;
      warnings.push(err.message);
    }
  }
  return { running: true, version: product, tabs, ...(warnings.length ? { warnings } : {}) };
}
