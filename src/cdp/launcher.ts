// Auto-launch of a local Chrome with remote debugging (SPEC §4), built for containers and CI:
// --no-sandbox as root, headless without a display, a private profile, detached and unref'd,
// polled every 100 ms for up to 10 s, failing at once with Chrome's own stderr if it exits.
// Our own Chrome (port 0, no port named) is found and trusted in own-browser.ts.

import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConnectionError,
  ensureStateDir,
  LAUNCH_POLL_INTERVAL_MS,
  LAUNCH_TIMEOUT_MS,
  onAbandon,
  requireBuiltin,
  stateDir,
} from '../common/index.js';
import { chromeInstallHint, findChrome } from './chrome-finder.js';
import { setDownloadFolderPref } from './chrome-prefs.js';
import { probe, type BrowserVersion } from './discovery.js';
import { withLock } from './lock.js';

export interface LaunchResult {
  version: BrowserVersion;
  launched: boolean;
}

/** Headless unless a display is available; CDP_SKILL_HEADLESS=0/1 overrides. */
export function defaultHeadless(): boolean {
  const env = process.env.CDP_SKILL_HEADLESS;
  if (env === '1' || env === 'true') return true;
  if (env === '0' || env === 'false') return false;
  if (process.platform === 'linux') return !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  return false;
}

/**
 * The omnibox popups Chromium builds for each window as WebUI pages (two per window, measured on
 * Chromium 156) keep a renderer busy: 20 idle windows (one per tab) took 1.6 cores, 4 % without.
 * Turned off in every Chrome we start, a farm's too (grid.ts).
 */
export const BUSY_WINDOW_FEATURES = 'WebUIOmniboxPopup,WebUIOmniboxAimPopup';

export function chromeArgs(port: number, profileDir: string, headless: boolean): string[] {
  const args = [
    `--remote-debugging-port=${port}`,
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    `--disable-features=Translate,MediaRouter,OptimizationHints,${BUSY_WINDOW_FEATURES}`,
    // Tabs an agent left behind must keep rendering: no throttling of hidden or occluded pages.
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--disable-renderer-backgrounding',
    '--password-store=basic',
    '--use-mock-keychain',
  ];
  if (headless) args.push('--headless=new', '--disable-gpu', '--hide-scrollbars', '--mute-audio');
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  if (process.platform === 'linux') args.push('--disable-dev-shm-usage');
  args.push('about:blank');
  return args;
}

function stderrTail(logPath: string): string {
  try {
    const lines = readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    return lines.slice(-8).join('\n');
  } catch {
    return '';
  }
}

/** How one launch is made: the port asked for (0: Chrome picks), its profile, and when it is up. */
export interface LaunchSpec<T> {
  port: number;
  /** The profile folder (--user-data-dir), made 0700 if new. */
  profileDir: string;
  headless: boolean;
  /** What the launch waits for (`port 9222`, `its DevToolsActivePort file`), for messages. */
  what: string;
  /** Called before the spawn (e.g. to drop a stale DevToolsActivePort). */
  prepare?: (profileDir: string) => void;
  /** Polled until it gives a value: the browser is up. */
  ready: (profileDir: string) => Promise<T | undefined>;
}

async function spawnAndWait<T>(spec: LaunchSpec<T>): Promise<T> {
  const exe = findChrome();
  if (!exe)
    throw new ConnectionError(
      `Chrome is not running${spec.port ? ` on port ${spec.port}` : ''} and no Chrome executable was found. ${chromeInstallHint()}`,
    );
  const { profileDir } = spec;
  const fresh = !existsSync(profileDir);
  mkdirSync(profileDir, { recursive: true, mode: 0o700 });
  const logPath = join(profileDir, 'chrome-stderr.log');
  // A launch that fails leaves nothing behind: no process, and no profile folder it created.
  const cleanUp = (): string => {
    abandoned();
    if (child.pid && exited === undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    const tail = stderrTail(logPath);
    if (fresh) rmSync(profileDir, { recursive: true, force: true, maxRetries: 2 });
    return tail;
  };
  spec.prepare?.(profileDir);
  try {
    setDownloadFolderPref(profileDir);
  } catch {
    // An unwritable profile only costs the downloads that begin between commands.
  }
  const logFd = openSync(logPath, 'w', 0o600);
  const { spawn } = requireBuiltin('node:child_process') as typeof import('node:child_process');
  const child = spawn(exe, chromeArgs(spec.port, profileDir, spec.headless), {
    detached: true,
    stdio: ['ignore', 'ignore', logFd],
  });
  closeSync(logFd);
  child.unref();

  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = signal ? `signal ${signal}` : `code ${code}`;
  });
  child.once('error', (err) => {
    exited = err.message;
  });
  // A command that gives up (deadline, signal) while Chrome starts leaves no Chrome behind.
  const abandoned = onAbandon(() => {
    cleanUp();
  });

  const endsAt = Date.now() + LAUNCH_TIMEOUT_MS;
  while (Date.now() < endsAt) {
    const up = await spec.ready(profileDir);
    if (up !== undefined) {
      abandoned();
      return up;
    }
    if (exited !== undefined) {
      const tail = cleanUp();
      throw new ConnectionError(
        `Chrome (${exe}) exited with ${exited} before opening ${spec.what}.${tail ? ` Its stderr:\n${tail}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, LAUNCH_POLL_INTERVAL_MS));
  }
  const tail = cleanUp();
  throw new LaunchHangError(
    `Chrome (${exe}) did not open ${spec.what} within ${LAUNCH_TIMEOUT_MS}ms.${tail ? ` Its stderr:\n${tail}` : ''}`,
  );
}

/** A Chrome that neither opened its port nor exited in time (it was killed). */
class LaunchHangError extends ConnectionError {}

/** Launch tries: a first start can hang on a loaded machine (seen with three Chromes on two cores); a second one is made. */
const LAUNCH_TRIES = 2;

export async function launchChrome<T>(spec: LaunchSpec<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnAndWait(spec);
    } catch (err) {
      if (!(err instanceof LaunchHangError) || attempt >= LAUNCH_TRIES) throw err;
    }
  }
}

/** Launch tries for a start that hangs, and how long a caller may wait on the launch lock for them. */
export const LAUNCH_LOCK_MS = LAUNCH_TRIES * LAUNCH_TIMEOUT_MS + 5_000;

/**
 * Makes sure a Chrome answers on 127.0.0.1:port (a port the user named), launching one if nothing does. Concurrent
 * callers serialise on a per-port lock, so eight agents starting at once launch one Chrome.
 */
export async function ensureLocalChrome(port: number, headless = defaultHeadless()): Promise<LaunchResult> {
  const running = await probe('127.0.0.1', port);
  if (running) return { version: running, launched: false };
  const lockPath = join(ensureStateDir(), `launch-${port}.lock`);
  return withLock(lockPath, LAUNCH_LOCK_MS, `Launching Chrome on port ${port}`, async () => {
    const meanwhile = await probe('127.0.0.1', port);
    if (meanwhile) return { version: meanwhile, launched: false };
    const version = await launchChrome({
      port,
      headless,
      profileDir: join(stateDir(), `chrome-profile-${port}${headless ? '-headless' : ''}`),
      what: `port ${port}`,
      ready: () => probe('127.0.0.1', port, 500),
    });
    return { version, launched: true };
  });
}
