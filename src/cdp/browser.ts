// Reaching a browser: our own Chrome when no port is named (own-browser.ts); for a port the user
// named, a stored or given WebSocket endpoint first (no HTTP round trip), then HTTP discovery,
// then — for a local port only — auto-launch there. And attaching to one tab.

import { ConnectionError, DEFAULT_HOST, markEndpointSecrets, NAMED_PORT } from '../common/index.js';
import { Connection } from './connection.js';
import { getVersion, rehostWsUrl, type BrowserVersion } from './discovery.js';
import { connectEndpoint, madeAddressOf, sessionCreatedByUs } from './endpoint-connect.js';
import { gridCdpUrl, type GridTarget } from './grid.js';
import { defaultHeadless, ensureLocalChrome } from './launcher.js';
import { connectOwnBrowser, ownPort } from './own-browser.js';
import type { CdpSession } from './protocol.js';
import { readRegistry, updateRegistry, type TabEntry } from './tab-registry.js';

export interface BrowserAddress {
  host: string;
  port: number;
  /** A browser WebSocket URL (ws://…/devtools/browser/…); when set, host/port are not used. */
  wsEndpoint?: string;
  /** Our own Chrome (no port named): host/port are where it listened last, 0 before it is known. */
  own?: boolean;
  /** A Selenium Grid: a session to create (capabilities) or join (sessionId); wsEndpoint is then its se:cdp. */
  grid?: GridTarget;
  /** The endpoint's browser is kept by the service's reconnect command, renewed at every connect. */
  keep?: 'reconnect';
  /** With `own`: the Chrome of this named profile (`openTab {profile}`), not the default one. */
  profile?: string;
}

export interface ConnectOptions {
  autoLaunch: boolean;
  headless?: boolean;
  timeoutMs: number;
  /** For openTab: a farm endpoint must first show that its browser outlives this call. */
  forNewTab?: boolean;
}

export interface BrowserConnection {
  conn: Connection;
  launched: boolean;
}

/**
 * The browser a command or tab entry names: its wsEndpoint, its host/port, CDP_SKILL_PORT — each
 * used as given — or else our own Chrome.
 */
export function normaliseAddress(a: Partial<BrowserAddress>): BrowserAddress {
  if (a.grid) return gridAddress(a.grid, a.wsEndpoint);
  if (a.wsEndpoint) {
    markEndpointSecrets(a.wsEndpoint); // from the registry too: its credentials are never shown
    const url = new URL(a.wsEndpoint);
    return {
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'wss:' ? 443 : 80)),
      wsEndpoint: a.wsEndpoint,
      ...(a.keep ? { keep: a.keep } : {}),
    };
  }
  const profile = a.profile ? { profile: a.profile } : {};
  if (a.own || a.profile) return { host: DEFAULT_HOST, port: a.own ? (a.port ?? 0) : 0, own: true, ...profile };
  if (a.host !== undefined || a.port !== undefined || NAMED_PORT !== undefined) {
    return { host: a.host ?? DEFAULT_HOST, port: a.port ?? NAMED_PORT ?? 9222 };
  }
  return { host: DEFAULT_HOST, port: 0, own: true };
}

/** A Grid's address: the hub's host and port, and the session's se:cdp once it has one. */
function gridAddress(grid: GridTarget, wsEndpoint: string | undefined): BrowserAddress {
  markEndpointSecrets(grid.url);
  const url = new URL(grid.url);
  const ws = wsEndpoint ?? (grid.sessionId ? gridCdpUrl(grid.url, grid.sessionId) : undefined);
  if (ws) markEndpointSecrets(ws);
  return {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    grid,
    ...(ws ? { wsEndpoint: ws } : {}),
  };
}

/** The address with what connecting found filled in: our own Chrome's port, a new Grid session, a kept browser. */
export function resolvedAddress(a: BrowserAddress, conn: Connection): BrowserAddress {
  const made = madeAddressOf(conn);
  if (made) return made;
  return a.own
    ? { host: DEFAULT_HOST, port: ownPort(conn), own: true, ...(a.profile ? { profile: a.profile } : {}) }
    : a;
}

/** One connection per browser in a command: this names the browser (our own Chrome and each named profile's are different browsers). */
export function addressKey(a: BrowserAddress): string {
  if (a.own) return a.profile ? `profile ${a.profile}` : 'own';
  if (a.grid && !a.grid.sessionId) return `new session at ${a.grid.url}`;
  return a.wsEndpoint ?? `${a.host}:${a.port}`;
}

/** How a new tab's registry entry names its browser: as connecting resolved it. */
export function entryFor(targetId: string, address: BrowserAddress, conn: Connection, context?: string): TabEntry {
  const a = resolvedAddress(address, conn);
  const grid = a.grid?.sessionId
    ? { url: a.grid.url, sessionId: a.grid.sessionId, created: a.grid.created === true }
    : undefined;
  return {
    targetId,
    host: a.host,
    port: a.port,
    ...(a.wsEndpoint ? { wsEndpoint: a.wsEndpoint } : {}),
    ...(a.own ? { own: true } : {}),
    ...(grid ? { grid: { ...grid, created: sessionCreatedByUs(grid) } } : {}),
    ...(a.keep ? { keep: a.keep } : {}),
    ...(a.profile ? { profile: a.profile } : {}),
    ...(context ? { context } : {}),
  };
}

const browserKey = (a: BrowserAddress): string => `${a.host}:${a.port}`;

/**
 * Hosts an auto-launched Chrome answers on (it listens on 127.0.0.1 only): a launch for any other
 * host, even another loopback address, would leave a Chrome running that the caller cannot reach.
 */
export function canLaunchAt(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost';
}

async function discoverWsUrl(
  addr: BrowserAddress,
  options: ConnectOptions,
): Promise<{ url: string; launched: boolean }> {
  let version: BrowserVersion;
  try {
    version = await getVersion(addr.host, addr.port);
    return { url: rehostWsUrl(version.webSocketDebuggerUrl, addr.host, addr.port), launched: false };
  } catch (err) {
    // Something holds the port but does not answer (a frozen Chrome): launching another cannot help.
    const frozen = /no answer within/.test((err as Error).message);
    if (frozen)
      throw new ConnectionError(
        `${(err as Error).message}. Something holds the port but does not answer (a frozen or overloaded Chrome): restart it, or use another port.`,
      );
    if (!options.autoLaunch || !canLaunchAt(addr.host)) throw err;
  }
  const result = await ensureLocalChrome(addr.port, options.headless ?? defaultHeadless());
  // The launched Chrome listens on 127.0.0.1 (not ::1, which "localhost" may resolve to first).
  return { url: rehostWsUrl(result.version.webSocketDebuggerUrl, '127.0.0.1', addr.port), launched: result.launched };
}

export async function connectBrowser(addr: BrowserAddress, options: ConnectOptions): Promise<BrowserConnection> {
  if (addr.own) return connectOwnBrowser({ ...options, ...(addr.profile ? { profile: addr.profile } : {}) });
  if (addr.wsEndpoint || addr.grid) {
    return { conn: await connectEndpoint(addr, options.timeoutMs, options.forNewTab === true), launched: false };
  }
  const key = browserKey(addr);
  const cached = readRegistry().browsers[key];
  if (cached) {
    try {
      return { conn: await Connection.open(cached, options.timeoutMs), launched: false };
    } catch {
      // Chrome restarted (new browser id) or is gone: rediscover below.
    }
  }
  const { url, launched } = await discoverWsUrl(addr, options);
  const conn = await Connection.open(url, options.timeoutMs);
  await updateRegistry((data) => {
    data.browsers[key] = url;
  });
  return { conn, launched };
}

/** Attaches a flat-mode session to a page target. */
export async function attachToTarget(conn: Connection, targetId: string): Promise<CdpSession> {
  try {
    const { sessionId } = await conn.browser().send('Target.attachToTarget', { targetId, flatten: true });
    return conn.session(sessionId);
  } catch (err) {
    if (err instanceof ConnectionError) throw err;
    throw new ConnectionError(`Cannot attach to tab ${targetId}: ${(err as Error).message}`);
  }
}

/** Page targets of the browser, the way agents see tabs. */
export async function listPageTargets(
  conn: Connection,
): Promise<{ targetId: string; url: string; title: string; browserContextId?: string }[]> {
  const { targetInfos } = await conn.browser().send('Target.getTargets');
  return targetInfos
    .filter((t) => t.type === 'page')
    .map((t) => ({
      targetId: t.targetId,
      url: t.url,
      title: t.title,
      ...(t.browserContextId ? { browserContextId: t.browserContextId } : {}),
    }));
}
