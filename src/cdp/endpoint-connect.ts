// Reaching a browser by endpoint (farms, issue 24): a wsEndpoint as given, a browser a service keeps
// for us (lasting-browser.ts), or a Selenium Grid session (grid.ts) — created here for a new tab,
// deleted with its last tab. A refusal is told by what the farm itself says: a session the Grid
// reaped, a browser the service closed.

import { ConnectionError, markEndpointSecrets, PROBE_TIMEOUT_MS } from '../common/index.js';
import { Connection } from './connection.js';
import { shownUrl } from './farm-http.js';
import { createGridSession, deleteGridSession, gridSessionGone, type GridTarget } from './grid.js';
import { checkBrowserOutlivesConnection, isLaunchEndpoint, keepBrowser } from './lasting-browser.js';
import { forgetTabs, readRegistry, type GridSession, type TabEntry } from './tab-registry.js';

/** How a farm address looks to this file (browser.ts's BrowserAddress, without the cycle). */
export interface EndpointAddress {
  host: string;
  port: number;
  wsEndpoint?: string;
  grid?: GridTarget;
  keep?: 'reconnect';
}

/** The address a new tab's entry names when the connection made it (a new Grid session, a kept browser). */
const madeAddresses = new WeakMap<Connection, EndpointAddress>();
/** Connections whose Grid session this process created: deleted again if no tab comes of it. */
const createdHere = new WeakSet<Connection>();

export const madeAddressOf = (conn: Connection): EndpointAddress | undefined => madeAddresses.get(conn);

const isGridSession = (g: GridTarget | undefined): g is GridSession => typeof g?.sessionId === 'string';

/** Connects to an endpoint address; `forNewTab` first makes sure the browser will outlive this call. */
export async function connectEndpoint(
  addr: EndpointAddress,
  timeoutMs: number,
  forNewTab: boolean,
): Promise<Connection> {
  if (addr.grid && !addr.grid.sessionId) return openNewGridSession(addr, addr.grid, timeoutMs);
  const endpoint = addr.wsEndpoint!;
  let conn: Connection;
  try {
    conn = await Connection.open(endpoint, timeoutMs);
  } catch (err) {
    throw await explainRefusal(addr, err as Error);
  }
  if (addr.keep === 'reconnect')
    await keepBrowser(conn, endpoint); // renews the service's keep time
  else if (forNewTab && !addr.grid && isLaunchEndpoint(endpoint)) await keepOrCheck(conn, addr, timeoutMs);
  return conn;
}

async function keepOrCheck(conn: Connection, addr: EndpointAddress, timeoutMs: number): Promise<void> {
  const kept = await keepBrowser(conn, addr.wsEndpoint!);
  if (kept) {
    markEndpointSecrets(kept);
    madeAddresses.set(conn, { ...addr, wsEndpoint: kept, keep: 'reconnect' });
    return;
  }
  try {
    await checkBrowserOutlivesConnection(conn, addr.wsEndpoint!, timeoutMs);
  } catch (err) {
    conn.close();
    throw err;
  }
}

async function openNewGridSession(addr: EndpointAddress, target: GridTarget, timeoutMs: number): Promise<Connection> {
  const endsAt = Date.now() + timeoutMs;
  const { sessionId, wsEndpoint } = await createGridSession(target, timeoutMs);
  markEndpointSecrets(wsEndpoint);
  const grid: GridSession = { url: target.url, sessionId, created: true };
  let conn: Connection;
  try {
    conn = await Connection.open(wsEndpoint, Math.max(PROBE_TIMEOUT_MS, endsAt - Date.now()));
  } catch (err) {
    await deleteGridSession(grid, PROBE_TIMEOUT_MS).catch(() => undefined); // best effort: it ends by its idle timeout otherwise
    throw new ConnectionError(
      `The Selenium Grid created session ${sessionId}, but its CDP endpoint (se:cdp) did not answer: ${(err as Error).message}. The session was deleted.`,
    );
  }
  madeAddresses.set(conn, { host: addr.host, port: addr.port, wsEndpoint, grid });
  createdHere.add(conn);
  return conn;
}

/** Deletes the Grid session this connection created, when no tab came of it (openTab failed). */
export async function discardNewBrowser(conn: Connection): Promise<void> {
  const grid = madeAddresses.get(conn)?.grid;
  if (!createdHere.has(conn) || !isGridSession(grid)) return;
  createdHere.delete(conn);
  await deleteGridSession(grid, PROBE_TIMEOUT_MS).catch(() => undefined); // best effort: it ends by its idle timeout otherwise
}

const sameSession = (a: GridSession) => (e: TabEntry) => e.grid?.url === a.url && e.grid.sessionId === a.sessionId;

/**
 * Whether a new tab of Grid session `grid` shares it with a tab that created it (another agent's):
 * then the session is deleted with the last tab of either.
 */
export function sessionCreatedByUs(grid: GridSession): boolean {
  return grid.created || Object.values(readRegistry().tabs).some((e) => sameSession(grid)(e) && e.grid?.created);
}

/** After a tab is forgotten: deletes its Grid session when cdp-skill created it and no tab of it is left. */
export async function releaseIfLast(addr: EndpointAddress, timeoutMs: number): Promise<Record<string, unknown>> {
  const grid = addr.grid;
  if (!isGridSession(grid) || !grid.created) return {};
  if (Object.values(readRegistry().tabs).some(sameSession(grid))) return {};
  try {
    return { gridSession: await deleteGridSession(grid, timeoutMs) };
  } catch (err) {
    // The tab is closed either way; only the session's end is not confirmed (a loaded Grid).
    const why = (err as Error).message;
    return {
      warnings: [`The Grid did not confirm deleting session ${grid.sessionId} (${why}); it ends by its idle timeout.`],
    };
  }
}

/** A refused connection, explained by the farm: a reaped Grid session or a closed service browser forgets its tabs. */
async function explainRefusal(addr: EndpointAddress, err: Error): Promise<Error> {
  const grid = addr.grid;
  if (isGridSession(grid)) {
    let gone: string | undefined;
    try {
      gone = await gridSessionGone(grid, PROBE_TIMEOUT_MS);
    } catch (why) {
      return new ConnectionError(
        `${err.message}; and the Selenium Grid could not be asked about the session: ${(why as Error).message}`,
      );
    }
    if (gone === undefined) return err;
    const tabs = await forgetTabs(sameSession(grid));
    return new ConnectionError(
      `The Selenium Grid session ${grid.sessionId} is gone: the Grid at ${shownUrl(new URL(grid.url))} says "${gone}". ` +
        'A Grid ends a session that gets no command for its --session-timeout (300 s by default); every cdp-skill call on one of its tabs counts, the time between calls does not. ' +
        `Its tabs are gone${tabs.length ? ` and forgotten (${tabs.join(', ')})` : ''}: open a new one with {"openTab": {"url": "…", "grid": "…"}}, and raise the Grid's --session-timeout if agents pause longer.`,
      { browserGone: true },
    );
  }
  const endpoint = addr.wsEndpoint;
  if (endpoint && !isLaunchEndpoint(endpoint) && /refused the WebSocket upgrade: 404\b/.test(err.message)) {
    const tabs = await forgetTabs((e) => e.wsEndpoint === endpoint);
    return new ConnectionError(
      `The browser at ${shownUrl(new URL(endpoint))} is gone (${err.message.replace(/^Cannot connect to \S+: /, '')}): a browser service closes a browser when its last connection ends or its keep time runs out. ` +
        `Its tabs are gone${tabs.length ? ` and forgotten (${tabs.join(', ')})` : ''}: open a new tab.`,
      { browserGone: true },
    );
  }
  return err;
}
