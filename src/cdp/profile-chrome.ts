// Named Chrome profiles (issue 21.4, `openTab {profile}`): a user-data folder of their own under
// ~/.cdp-skill/profiles/<name> (0700) whose logins outlive Chrome. One Chrome at a time uses a
// profile (own-browser.ts launches and finds it); it is closed cleanly (Browser.close: Chrome writes
// cookies to disk lazily) and its session cookies, which Chrome drops at a restart, kept for the next.

import { chmodSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deadline, homeDir, PROBE_TIMEOUT_MS } from '../common/index.js';
import type { Connection } from './connection.js';
import { asCookieParam } from './cookie-param.js';
import type { Protocol } from './protocol.js';

/** A profile name: a plain folder name, nothing that could leave the profiles folder. */
export const PROFILE_NAME_FORM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Session cookies of a profile, kept here (0600) between a clean close and the next start. */
const SESSION_COOKIES = 'cdp-skill-session-cookies.json';
/** How long a closing Chrome may take to let go of its profile. */
const RELEASE_WAIT_MS = 5_000;
const RELEASE_POLL_MS = 100;

/** `~/.cdp-skill/profiles/<name>` (a path only: looking a profile up creates nothing). */
export function namedProfileDir(name: string): string {
  return join(homeDir(), '.cdp-skill', 'profiles', name);
}

/** The profile's folder for a launch: it and its parents made private (0700), older ones tightened. */
export function ensureProfileDir(name: string): string {
  const dir = namedProfileDir(name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const d of [join(homeDir(), '.cdp-skill'), join(homeDir(), '.cdp-skill', 'profiles'), dir]) chmodSync(d, 0o700);
  return dir;
}

/** The pid of the live Chrome holding a profile (its SingletonLock names `<host>-<pid>`; POSIX only). */
export function profileOwner(profileDir: string): number | undefined {
  let target: string;
  try {
    target = readlinkSync(join(profileDir, 'SingletonLock'));
  } catch {
    return undefined; // no lock: no Chrome runs on this profile (or not POSIX: we launch instead)
  }
  const pid = Number(/-(\d+)$/.exec(target)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/** Waits (a few seconds at most) for the Chrome holding the profile to be gone; its pid if it stays. */
export async function waitProfileFree(profileDir: string): Promise<number | undefined> {
  const until = Deadline.after(RELEASE_WAIT_MS);
  for (;;) {
    const pid = profileOwner(profileDir);
    if (pid === undefined || until.expired()) return pid;
    await until.sleep(RELEASE_POLL_MS);
  }
}

/**
 * Closes a profile's Chrome the clean way (Browser.close: cookies and storage are written out),
 * first keeping its session cookies in the profile, and waits for it to let go of the folder.
 */
export async function closeProfileChrome(conn: Connection, profileDir: string): Promise<void> {
  const { cookies } = await conn.browser().sendWith('Storage.getCookies', {}, { timeoutMs: PROBE_TIMEOUT_MS });
  const session = cookies.filter((c) => c.session);
  if (session.length) writeFileSync(join(profileDir, SESSION_COOKIES), JSON.stringify(session), { mode: 0o600 });
  await conn
    .browser()
    .sendWith('Browser.close', undefined, { timeoutMs: PROBE_TIMEOUT_MS })
    .catch(() => undefined); // the connection closes as Chrome goes: the answer may never come
  await waitProfileFree(profileDir);
}

/** Puts back the session cookies kept at the last clean close, once: the file goes after. */
export async function restoreSessionCookies(conn: Connection, profileDir: string): Promise<void> {
  const path = join(profileDir, SESSION_COOKIES);
  let cookies: Protocol.Network.Cookie[];
  try {
    cookies = JSON.parse(readFileSync(path, 'utf8')) as Protocol.Network.Cookie[];
  } catch {
    return; // none kept
  }
  try {
    if (Array.isArray(cookies) && cookies.length)
      await conn.browser().send('Storage.setCookies', { cookies: cookies.map(asCookieParam) });
  } finally {
    rmSync(path, { force: true });
  }
}
