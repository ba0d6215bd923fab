// Our own auto-launched Chrome, used when no port is named (issue 15 items 1–2): it picks its port
// (--remote-debugging-port=0), we read the port and browser path from DevToolsActivePort in our
// private profile, and we talk only to a browser that proves it is that one. Named ports: browser.ts.

import { readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectionError, ensureStateDir, PROBE_TIMEOUT_MS, stateDir } from '../common/index.js';
import { Connection } from './connection.js';
import { defaultHeadless, launchChrome, LAUNCH_LOCK_MS } from './launcher.js';
import { withLock } from './lock.js';
import { readRegistry, updateRegistry, type OwnBrowserRecord } from './tab-registry.js';

/** Profile folder of our own Chrome in the private state dir (0700: no one else can plant a file there). */
export const ownProfileName = (headless: boolean): string => `chrome-profile-own${headless ? '-headless' : ''}`;

const ACTIVE_PORT_FILE = 'DevToolsActivePort';

/** `ws://127.0.0.1:<port>/devtools/browser/<id>` from a profile's DevToolsActivePort, when it is whole. */
export function readActivePort(profileDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(profileDir, ACTIVE_PORT_FILE), 'utf8');
  } catch {
    return undefined; // not written (yet)
  }
  // Chrome writes "<port>\n/devtools/browser/<uuid>\n"; a half-written file does not match.
  const m = /^(\d{1,5})\n(\/devtools\/browser\/[0-9a-f-]{36})\n?$/.exec(text);
  return m ? `ws://127.0.0.1:${m[1]}${m[2]}` : undefined;
}

/** The id of the browser's default context: random per Chrome start, stable while it runs (one browser, every connection). */
export async function contextIdOf(conn: Connection): Promise<string> {
  const { defaultBrowserContextId } = await conn
    .browser()
    .sendWith('Target.getBrowserContexts', undefined, { timeoutMs: PROBE_TIMEOUT_MS });
  if (typeof defaultBrowserContextId !== 'string')
    throw new ConnectionError('Target.getBrowserContexts named no default context');
  return defaultBrowserContextId;
}

/**
 * The connection at `record.wsUrl` when the browser there presents the recorded default context
 * id, else undefined (closed). What an impostor on a reused port can know: the port, and the
 * /devtools/browser/<id> path (any local process may read /json/version while our Chrome runs), so a
 * server answering every path passes the handshake. The context id is told only to CDP clients of
 * that browser — and a process that was one controlled our browser already. Before the check the
 * other end has received the handshake and one parameterless Target.getBrowserContexts.
 */
async function openVerified(record: OwnBrowserRecord, timeoutMs: number): Promise<Connection | undefined> {
  let conn: Connection;
  try {
    conn = await Connection.open(record.wsUrl, Math.min(timeoutMs, PROBE_TIMEOUT_MS));
  } catch {
    return undefined; // nothing there (Chrome exited): the caller launches
  }
  try {
    if ((await contextIdOf(conn)) === record.browserContextId) return conn;
  } catch {
    // no answer, or not CDP: not our browser
  }
  conn.close();
  return undefined;
}

/** Reads the context id of a browser we have just found through our own profile. */
async function recordOf(wsUrl: string, timeoutMs: number): Promise<{ conn: Connection; record: OwnBrowserRecord }> {
  const conn = await Connection.open(wsUrl, timeoutMs);
  try {
    return { conn, record: { wsUrl, browserContextId: await contextIdOf(conn) } };
  } catch (err) {
    conn.close();
    throw err;
  }
}

/** Whether the Chrome holding a profile is alive (its SingletonLock names `<host>-<pid>`; POSIX only). */
function profileOwnerAlive(profileDir: string): boolean {
  let target: string;
  try {
    target = readlinkSync(join(profileDir, 'SingletonLock'));
  } catch {
    return false; // no lock: no Chrome runs on this profile (or not POSIX: we launch instead)
  }
  const pid = Number(/-(\d+)$/.exec(target)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A record lost from the registry (deleted, rebuilt after damage) while our Chrome still runs: its
 * DevToolsActivePort is trusted only while the Chrome that wrote it is alive — then it holds the
 * port and no impostor can. A stale file of a dead Chrome is never followed.
 */
async function rediscover(failed: OwnBrowserRecord | undefined, timeoutMs: number): Promise<Connection | undefined> {
  for (const headless of [true, false]) {
    const dir = join(stateDir(), ownProfileName(headless));
    const wsUrl = readActivePort(dir);
    // The URL of a record that just failed its check is a dead Chrome's (its pid may be reused).
    if (!wsUrl || wsUrl === failed?.wsUrl || !profileOwnerAlive(dir)) continue;
    try {
      const { conn, record } = await recordOf(wsUrl, timeoutMs);
      await updateRegistry((data) => {
        data.own = record;
      });
      return conn;
    } catch {
      // gone meanwhile: try the other profile, then launch
    }
  }
  return undefined;
}

async function launchOwn(headless: boolean, timeoutMs: number): Promise<Connection> {
  const wsUrl = await launchChrome({
    port: 0,
    headless,
    profileName: ownProfileName(headless),
    what: 'its DevToolsActivePort file',
    // A file left by an earlier Chrome must not be read as this one's.
    prepare: (dir) => rmSync(join(dir, ACTIVE_PORT_FILE), { force: true }),
    ready: async (dir) => readActivePort(dir),
  });
  const { conn, record } = await recordOf(wsUrl, timeoutMs);
  await updateRegistry((data) => {
    data.own = record;
  });
  return conn;
}

export interface OwnConnectOptions {
  autoLaunch: boolean;
  headless?: boolean;
  timeoutMs: number;
}

/** A verified connection to our own Chrome, launching it when allowed and none runs. */
export async function connectOwnBrowser(options: OwnConnectOptions): Promise<{ conn: Connection; launched: boolean }> {
  const find = async (): Promise<Connection | undefined> => {
    const record = readRegistry().own;
    return (record && (await openVerified(record, options.timeoutMs))) || rediscover(record, options.timeoutMs);
  };
  const found = await find();
  if (found) return { conn: found, launched: false };
  if (!options.autoLaunch) {
    throw new ConnectionError(
      'cdp-skill\'s own Chrome is not running: start it with {"openTab": …} or {"chromeStatus": true}, or name a port to use another Chrome.',
    );
  }
  // Agents starting at once launch one Chrome: the others find it under the lock.
  const lockPath = join(ensureStateDir(), 'launch-own.lock');
  return withLock(lockPath, LAUNCH_LOCK_MS, 'Launching Chrome', async () => {
    const meanwhile = await find();
    if (meanwhile) return { conn: meanwhile, launched: false };
    return { conn: await launchOwn(options.headless ?? defaultHeadless(), options.timeoutMs), launched: true };
  });
}

/** The port our own Chrome listens on, from a connection to it. */
export function ownPort(conn: Connection): number {
  return Number(new URL(conn.url).port);
}
