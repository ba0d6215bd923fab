// Our own auto-launched Chrome, used when no port is named (issue 15 items 1–2): it picks its port
// (--remote-debugging-port=0), we read the port and browser path from DevToolsActivePort in our
// private profile, and we talk only to a browser that proves it is that one. Named ports: browser.ts.
// A named profile's Chrome (`openTab {profile}`, profile-chrome.ts) is found and proven the same way.

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectionError, ensureStateDir, PROBE_TIMEOUT_MS, stateDir } from '../common/index.js';
import { Connection } from './connection.js';
import { defaultHeadless, launchChrome, LAUNCH_LOCK_MS } from './launcher.js';
import { withLock } from './lock.js';
import {
  ensureProfileDir,
  namedProfileDir,
  profileOwner,
  restoreSessionCookies,
  waitProfileFree,
} from './profile-chrome.js';
import { readRegistry, updateRegistry, type OwnBrowserRecord, type RegistryData } from './tab-registry.js';

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

/** The registry's record of the default own Chrome, or of a named profile's. */
function recordIn(data: RegistryData, profile: string | undefined): OwnBrowserRecord | undefined {
  return profile === undefined ? data.own : data.profiles?.[profile];
}

async function keepRecord(profile: string | undefined, record: OwnBrowserRecord): Promise<void> {
  await updateRegistry((data) => {
    if (profile === undefined) data.own = record;
    else (data.profiles ??= {})[profile] = record;
  });
}

/** The profile folders our Chrome may run on: a named profile's, or the default's (headless and headed). */
const profileDirs = (profile: string | undefined): string[] =>
  profile === undefined
    ? [true, false].map((headless) => join(stateDir(), ownProfileName(headless)))
    : [namedProfileDir(profile)];

/**
 * A record lost from the registry (deleted, rebuilt after damage) while our Chrome still runs: its
 * DevToolsActivePort is trusted only while the Chrome that wrote it is alive — then it holds the
 * port and no impostor can. A stale file of a dead Chrome is never followed.
 */
async function rediscover(
  failed: OwnBrowserRecord | undefined,
  timeoutMs: number,
  profile: string | undefined,
): Promise<Connection | undefined> {
  for (const dir of profileDirs(profile)) {
    const wsUrl = readActivePort(dir);
    // The URL of a record that just failed its check is a dead Chrome's (its pid may be reused).
    if (!wsUrl || wsUrl === failed?.wsUrl || profileOwner(dir) === undefined) continue;
    try {
      const { conn, record } = await recordOf(wsUrl, timeoutMs);
      await keepRecord(profile, record);
      return conn;
    } catch {
      // gone meanwhile: try the other profile, then launch
    }
  }
  return undefined;
}

async function launchOwn(headless: boolean, timeoutMs: number, profile: string | undefined): Promise<Connection> {
  const profileDir = profile === undefined ? join(stateDir(), ownProfileName(headless)) : ensureProfileDir(profile);
  if (profile !== undefined) {
    // One Chrome per profile folder: a second one would hand its window to the first and exit.
    const pid = await waitProfileFree(profileDir);
    if (pid !== undefined)
      throw new ConnectionError(
        `The profile "${profile}" is in use by another Chrome (pid ${pid}) that cdp-skill cannot reach: close that Chrome, then open the tab again.`,
      );
  }
  const wsUrl = await launchChrome({
    port: 0,
    headless,
    profileDir,
    what: 'its DevToolsActivePort file',
    // A file left by an earlier Chrome must not be read as this one's.
    prepare: (dir) => rmSync(join(dir, ACTIVE_PORT_FILE), { force: true }),
    ready: async (dir) => readActivePort(dir),
  });
  const { conn, record } = await recordOf(wsUrl, timeoutMs);
  await keepRecord(profile, record);
  if (profile !== undefined) await restoreSessionCookies(conn, profileDir);
  return conn;
}

export interface OwnConnectOptions {
  autoLaunch: boolean;
  headless?: boolean;
  timeoutMs: number;
  /** A named profile's Chrome instead of the default one. */
  profile?: string;
}

/** A verified connection to our own Chrome (or a named profile's), launching it when allowed and none runs. */
export async function connectOwnBrowser(options: OwnConnectOptions): Promise<{ conn: Connection; launched: boolean }> {
  const { profile } = options;
  const find = async (): Promise<Connection | undefined> => {
    const record = recordIn(readRegistry(), profile);
    return (
      (record && (await openVerified(record, options.timeoutMs))) || rediscover(record, options.timeoutMs, profile)
    );
  };
  const found = await find();
  if (found) return { conn: found, launched: false };
  if (!options.autoLaunch) {
    throw new ConnectionError(
      profile === undefined
        ? 'cdp-skill\'s own Chrome is not running: start it with {"openTab": …} or {"chromeStatus": true}, or name a port to use another Chrome.'
        : `The Chrome of profile "${profile}" is not running (it closes with its last tab): open a tab with {"openTab": {"url": …, "profile": "${profile}"}}.`,
    );
  }
  // Agents starting at once launch one Chrome: the others find it under the lock.
  const lockPath = join(ensureStateDir(), profile === undefined ? 'launch-own.lock' : `launch-profile-${profile}.lock`);
  return withLock(lockPath, LAUNCH_LOCK_MS, 'Launching Chrome', async () => {
    const meanwhile = await find();
    if (meanwhile) return { conn: meanwhile, launched: false };
    return {
      conn: await launchOwn(options.headless ?? defaultHeadless(), options.timeoutMs, profile),
      launched: true,
    };
  });
}

/** The port our own Chrome listens on, from a connection to it. */
export function ownPort(conn: Connection): number {
  return Number(new URL(conn.url).port);
}
