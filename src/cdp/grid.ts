// Selenium Grid sessions as a way to reach a browser (farms, issue 24): a WebDriver session created
// with the agent's capabilities, its browser reached over CDP through the Grid's se:cdp endpoint,
// a reaped session told apart from other failures, and the session deleted with its last tab.
// The WebDriver side is three HTTP calls (POST /session, GET …/timeouts, DELETE /session/<id>).

import { ConnectionError } from '../common/index.js';
import { farmRequest, shownUrl, webDriverMessage } from './farm-http.js';
import { BUSY_WINDOW_FEATURES } from './launcher.js';
import type { GridSession } from './tab-registry.js';

/** A Grid as a step names it: its URL, and a session to join or capabilities for a new one. */
export interface GridTarget {
  url: string;
  sessionId?: string;
  created?: boolean;
  capabilities?: Record<string, unknown>;
}

/** `<grid>/<path>`, keeping a base path the agent gave (http://hub:4444/wd/hub). */
function gridPath(gridUrl: string, path: string): URL {
  const url = new URL(gridUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  url.search = '';
  return url;
}

/**
 * The se:cdp endpoint reached through the Grid address the agent gave. A Grid reports se:cdp with
 * its own idea of its address — a container's name, a node's interface, port 4444 behind a proxy —
 * which the agent's machine often cannot reach (Playwright rewrites loopback hosts the same way);
 * the hub itself proxies /session/<id>/se/cdp, so its reachable address is used, with its
 * user:password@ (Basic auth) and scheme (https → wss).
 */
export function throughGrid(gridUrl: string, seCdp: string): string {
  const grid = new URL(gridUrl);
  const cdp = new URL(seCdp);
  cdp.protocol = grid.protocol === 'https:' ? 'wss:' : 'ws:';
  cdp.hostname = grid.hostname;
  cdp.port = grid.port; // '' when the Grid URL names none: the scheme's own, not se:cdp's 4444
  cdp.username = grid.username;
  cdp.password = grid.password;
  if (!cdp.search) cdp.search = grid.search;
  return cdp.toString();
}

/** The CDP endpoint of a session joined by id: the path every Selenium 4 Grid serves se:cdp at. */
export function gridCdpUrl(gridUrl: string, sessionId: string): string {
  return throughGrid(gridUrl, `ws://grid/session/${encodeURIComponent(sessionId)}/se/cdp`);
}

/** W3C capabilities: the agent's merged over browserName chrome (a flat object, or alwaysMatch/firstMatch). */
function w3cCapabilities(given: Record<string, unknown> = {}): Record<string, unknown> {
  if ('alwaysMatch' in given || 'firstMatch' in given) {
    const always = (given.alwaysMatch ?? {}) as Record<string, unknown>;
    const anyBrowser =
      'browserName' in always ||
      (Array.isArray(given.firstMatch) &&
        given.firstMatch.some((m) => m && typeof m === 'object' && 'browserName' in m));
    return { ...given, alwaysMatch: anyBrowser ? always : { browserName: 'chrome', ...always } };
  }
  return { alwaysMatch: { browserName: 'chrome', ...given } };
}

/**
 * The farm's Chrome without the WebUI pages each window carries (BUSY_WINDOW_FEATURES: each tab has
 * a window of its own): added to alwaysMatch's `goog:chromeOptions.args` for a Chrome session —
 * unless the agent's capabilities name Chrome's options elsewhere (firstMatch) or their own
 * `--disable-features` (a second one would replace theirs), or hold args Chrome would refuse anyway.
 */
export function withQuietWindows(caps: Record<string, unknown>): Record<string, unknown> {
  const always = caps.alwaysMatch as Record<string, unknown>;
  const first = Array.isArray(caps.firstMatch) ? caps.firstMatch : [];
  if (always.browserName !== 'chrome' || first.some((m) => m && typeof m === 'object' && OPTIONS in m)) return caps;
  const options = always[OPTIONS] ?? {};
  if (typeof options !== 'object' || options === null) return caps;
  const { args = [] } = options as { args?: unknown };
  if (!Array.isArray(args) || args.some((a) => String(a).startsWith('--disable-features'))) return caps;
  const quiet = { ...options, args: [...args, `--disable-features=${BUSY_WINDOW_FEATURES}`] };
  return { ...caps, alwaysMatch: { ...always, [OPTIONS]: quiet } };
}

const OPTIONS = 'goog:chromeOptions';

/** Creates a WebDriver session; its browser's CDP endpoint is se:cdp, reached through the Grid. */
export async function createGridSession(
  grid: GridTarget,
  timeoutMs: number,
): Promise<{ sessionId: string; wsEndpoint: string }> {
  const url = gridPath(grid.url, 'session');
  const answer = await farmRequest(url, {
    method: 'POST',
    body: { capabilities: withQuietWindows(w3cCapabilities(grid.capabilities)) },
    timeoutMs,
    what: 'the Selenium Grid creating a session',
  });
  const value = (answer.json as { value?: { sessionId?: unknown; capabilities?: Record<string, unknown> } })?.value;
  const sessionId = typeof value?.sessionId === 'string' ? value.sessionId : undefined;
  if (answer.status !== 200 || !sessionId)
    throw new ConnectionError(
      `The Selenium Grid at ${shownUrl(new URL(grid.url))} did not create a session (${webDriverMessage(answer)}). ` +
        'Check "capabilities" against the Grid\'s nodes (its /status lists what they offer).',
    );
  const seCdp = value?.capabilities?.['se:cdp'];
  if (typeof seCdp !== 'string') {
    await deleteGridSession({ url: grid.url, sessionId, created: true }, timeoutMs).catch(() => undefined);
    throw new ConnectionError(
      `The Selenium Grid at ${shownUrl(new URL(grid.url))} created a session but offers no CDP endpoint (se:cdp), so ` +
        'cdp-skill cannot drive it; the session was deleted. cdp-skill needs a Selenium 4 Grid with Chrome or Edge nodes.',
    );
  }
  return { sessionId, wsEndpoint: throughGrid(grid.url, seCdp) };
}

/** Deletes a session: 'deleted', or 'gone' when the Grid had already ended it. */
export async function deleteGridSession(grid: GridSession, timeoutMs: number): Promise<'deleted' | 'gone'> {
  const answer = await farmRequest(gridPath(grid.url, `session/${encodeURIComponent(grid.sessionId)}`), {
    method: 'DELETE',
    timeoutMs,
    what: 'the Selenium Grid deleting a session',
  });
  if (answer.status === 200) return 'deleted';
  if (answer.status === 404) return 'gone';
  // Two agents closing a shared session's last tabs at once both delete it: the second may hear an
  // error other than 404 while the Grid is still stopping it.
  if ((await gridSessionGone(grid, timeoutMs).catch(() => undefined)) !== undefined) return 'gone';
  throw new ConnectionError(
    `The Selenium Grid did not delete session ${grid.sessionId} (${webDriverMessage(answer)}); it ends by its idle timeout.`,
  );
}

/**
 * Whether the Grid still has a session (asked after its CDP endpoint refused us): undefined when
 * it does, else the Grid's own reason ("session timed out due to inactivity") or its message.
 */
export async function gridSessionGone(grid: GridSession, timeoutMs: number): Promise<string | undefined> {
  const answer = await farmRequest(gridPath(grid.url, `session/${encodeURIComponent(grid.sessionId)}/timeouts`), {
    method: 'GET',
    timeoutMs,
    what: 'the Selenium Grid checking a session',
  });
  if (answer.status === 200) return undefined;
  const message = webDriverMessage(answer);
  if (answer.status !== 404 && !/invalid session id/.test(message))
    throw new ConnectionError(`The Selenium Grid could not say whether session ${grid.sessionId} lives (${message})`);
  const reason = /reason: ([^,\n]+)/.exec(message)?.[1];
  return reason ?? 'no such session';
}

export interface GridStatus {
  ready: boolean;
  message: string;
  version?: string;
  nodes: number;
  slots: number;
  sessions: number;
}

/** The Grid's /status, summed up (chromeStatus {grid}). */
export async function gridStatus(gridUrl: string, timeoutMs: number): Promise<GridStatus> {
  const answer = await farmRequest(gridPath(gridUrl, 'status'), {
    method: 'GET',
    timeoutMs,
    what: 'the Selenium Grid status',
  });
  const value = (answer.json as { value?: { ready?: unknown; message?: unknown; nodes?: unknown } })?.value;
  if (answer.status !== 200 || !value)
    throw new ConnectionError(`${shownUrl(new URL(gridUrl))} answered no Grid status (${webDriverMessage(answer)})`);
  const nodes = Array.isArray(value.nodes) ? (value.nodes as { version?: unknown; slots?: unknown }[]) : [];
  const slots = nodes.flatMap((n) => (Array.isArray(n.slots) ? (n.slots as { session?: unknown }[]) : []));
  const version = nodes.find((n) => typeof n.version === 'string')?.version as string | undefined;
  return {
    ready: value.ready === true,
    message: typeof value.message === 'string' ? value.message : '',
    ...(version ? { version: `Selenium Grid ${version.split(' ')[0]}` } : {}),
    nodes: nodes.length,
    slots: slots.length,
    sessions: slots.filter((s) => s.session).length,
  };
}
