// Browser services such as browserless (farms, issue 24): a tab must live in a browser that
// outlives the call that opened it. A service's standard endpoint (ws://host:3000?token=…)
// launches a browser per connection and closes it with the connection; asked to open a tab there,
// we first use the service's own way to keep a browser (Browserless.reconnect, which answers an
// endpoint to come back to), and otherwise check that two connections reach one browser — when
// they do not, the first call fails with that reason instead of opening a tab that will die.

import { ConnectionError, PROBE_TIMEOUT_MS } from '../common/index.js';
import { Connection } from './connection.js';
import { shownUrl } from './farm-http.js';
import { contextIdOf } from './own-browser.js';

/** How long a service keeps a browser with no connection (Browserless.reconnect's timeout), renewed by every call. */
export const KEEP_BROWSER_MS = 300_000;
/** The second connection of the check: a service launching a browser for it takes a second or two. */
const SECOND_CONNECTION_MS = 15_000;

/** An endpoint that chooses or launches the browser (not a browser's own /devtools/browser/<id>). */
export function isLaunchEndpoint(endpoint: string): boolean {
  return !/\/devtools\/browser\/[^/]+$/.test(new URL(endpoint).pathname);
}

/** `found` with the credentials of `given` (a service answers its endpoints without the token). */
function withCredentials(found: string, given: string): string {
  const url = new URL(found);
  const from = new URL(given);
  for (const [key, value] of from.searchParams) if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  if (!url.username && from.username) {
    url.username = from.username;
    url.password = from.password;
  }
  return url.toString();
}

/**
 * Asks the service to keep this connection's browser for KEEP_BROWSER_MS after we leave
 * (Browserless.reconnect); the endpoint to come back to, or undefined when the service has no such
 * command (a plain Chrome, open-source browserless).
 */
export async function keepBrowser(conn: Connection, endpoint: string): Promise<string | undefined> {
  let answer: unknown;
  try {
    answer = await conn.sendVendor('Browserless.reconnect', { timeout: KEEP_BROWSER_MS }, PROBE_TIMEOUT_MS);
  } catch {
    return undefined; // "'Browserless.reconnect' wasn't found": no keep command here
  }
  const found = (answer as { browserWSEndpoint?: unknown } | undefined)?.browserWSEndpoint;
  return typeof found === 'string' && /^wss?:\/\//.test(found) ? withCredentials(found, endpoint) : undefined;
}

/**
 * Throws when a second connection to `endpoint` reaches another browser than `conn` does (each
 * browser's default context id is random per start): each connection then gets a browser of its
 * own, which closes with it. A second connection that cannot be made says nothing either way.
 */
export async function checkBrowserOutlivesConnection(
  conn: Connection,
  endpoint: string,
  timeoutMs: number,
): Promise<void> {
  const first = await contextIdOf(conn);
  let second: Connection;
  try {
    second = await Connection.open(endpoint, Math.min(timeoutMs, SECOND_CONNECTION_MS));
  } catch {
    return; // a full queue or a one-connection limit: no evidence, and the first connection works
  }
  let other: string;
  try {
    other = await contextIdOf(second);
  } finally {
    second.close();
  }
  if (other === first) return;
  const shown = shownUrl(new URL(endpoint));
  throw new ConnectionError(
    `${shown} gives each connection a browser of its own (two connections reached two different browsers), ` +
      'and such a browser closes with its connection: a tab opened there would close when the call that opened it ends, so openTab opens none there. ' +
      'Use an endpoint whose browser outlives a connection: a Selenium Grid ({"openTab": {"url": "…", "grid": "http://hub:4444"}}), ' +
      "a Chrome's own ws://host:port/devtools/browser/<id>, or on browserless a browser another client keeps open " +
      '(GET /sessions?token=… lists them; connect to ws://host:port/devtools/browser/<id>?token=…) or its Browserless.reconnect API.',
    { perConnection: true },
  );
}
