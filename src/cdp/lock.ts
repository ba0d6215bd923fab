// A cross-process lock file: created exclusively, holding the owner's pid, its mtime refreshed
// while held. A lock whose owner is dead is taken over at once; one not refreshed for a long time
// (torn pid, or a pid reused by another program) is broken. Waiting is bounded.

import { openSync, writeSync, closeSync, readFileSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { ConnectionError, onAbandon, STALE_LOCK_MS } from '../common/index.js';

const RETRY_MS = 15;
/** A held lock's mtime is refreshed this often, so age tells a live holder from a reused pid. */
const HEARTBEAT_MS = STALE_LOCK_MS / 2;

/** The pid written in a lock file, when it holds one. */
export function lockOwner(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // no lock, or torn: no owner to name
  }
}

/**
 * A lock holder writes its pid right after creating the file: an empty lock older than this was
 * left by a writer that could not write (a full disk) or died in between.
 */
const EMPTY_LOCK_MS = 500;

/** A lock is stale when its owner is dead, or (torn pid, or pid reused) when it stopped being refreshed. */
function isStale(path: string): boolean {
  try {
    const st = statSync(path);
    const ageMs = Date.now() - st.mtimeMs;
    const pid = lockOwner(path);
    if (pid === undefined) return ageMs > (st.size === 0 ? EMPTY_LOCK_MS : STALE_LOCK_MS);
    if (pid === process.pid) return false;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
    return ageMs > STALE_LOCK_MS * 6;
  } catch {
    return false; // the lock vanished between our attempts: not stale, just retry
  }
}

function tryAcquire(path: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, String(process.pid));
    } catch (err) {
      unlinkSync(path); // a lock without an owner (full disk) would hold up the next caller
      (err as NodeJS.ErrnoException).path ??= path;
      throw err;
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (isStale(path)) {
      try {
        unlinkSync(path);
      } catch {
        /* another waiter broke it first */
      }
    }
    return false;
  }
}

/** Releases a held lock; calling it twice is harmless. */
export type ReleaseLock = () => void;

/**
 * Takes the lock at `path`, waiting at most `timeoutMs`; `busy(ownerPid)` makes the error thrown
 * when the wait runs out. The lock is refreshed while held and released by the returned function.
 */
export async function acquireLock(
  path: string,
  timeoutMs: number,
  busy: (owner: number | undefined) => Error,
): Promise<ReleaseLock> {
  const endsAt = Date.now() + timeoutMs;
  while (!tryAcquire(path)) {
    if (Date.now() >= endsAt) throw busy(lockOwner(path));
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      /* broken by a waiter that judged it stale; nothing left to refresh */
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let held = true;
  // A process that exits before releasing (deadline, signal) still frees the lock on its way out.
  const forget = onAbandon(() => release());
  const release = (): void => {
    if (!held) return;
    held = false;
    forget();
    clearInterval(heartbeat);
    // Only our own lock is removed: a waiter may have broken it and taken it over.
    if (lockOwner(path) !== process.pid) return;
    try {
      unlinkSync(path);
    } catch {
      /* already gone */
    }
  };
  return release;
}

export async function withLock<T>(path: string, timeoutMs: number, what: string, fn: () => Promise<T> | T): Promise<T> {
  const release = await acquireLock(
    path,
    timeoutMs,
    () => new ConnectionError(`${what} is busy: another cdp-skill process held its lock for ${timeoutMs}ms`),
  );
  try {
    return await fn();
  } finally {
    release();
  }
}
