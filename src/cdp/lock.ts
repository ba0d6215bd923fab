// A cross-process lock file holding its owner's pid, its mtime refreshed while held. It comes into
// being whole: the pid is written to a file of our own and hard-linked into the lock's place, so
// no one ever sees a lock without its owner (a holder slowed down between create and write once
// looked abandoned and was robbed: two agents in the registry at once lost an alias). A lock
// whose owner is dead is taken over at once; one not refreshed for a long time (pid reused by
// another program) is broken. Breaking is done by one waiter at a time, under a second lock, and
// checked again there: a lock just taken by a live owner is never removed. Waiting is bounded.

import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { ConnectionError, onAbandon, STALE_LOCK_MS } from '../common/index.js';

const RETRY_MS = 15;
/** A held lock's mtime is refreshed this often, so age tells a live holder from a reused pid. */
const HEARTBEAT_MS = STALE_LOCK_MS / 2;
/**
 * An empty lock (or one without a pid) is never made by this version: it was left by a full disk,
 * or by an older cdp-skill that writes the pid after creating the file (given this long to do so).
 */
const EMPTY_LOCK_MS = 500;

/** Locks this process holds (a lock file naming our own pid that we do not hold was left by a former process with our pid). */
const held = new Set<string>();

/** The pid written in a lock file, when it holds one. */
export function lockOwner(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // no lock, or torn: no owner to name
  }
}

/** A lock is stale when its owner is dead, or (pid reused) when it stopped being refreshed. */
function isStale(path: string): boolean {
  try {
    const st = statSync(path);
    const ageMs = Date.now() - st.mtimeMs;
    const pid = lockOwner(path);
    if (pid === undefined) return ageMs > (st.size === 0 ? EMPTY_LOCK_MS : STALE_LOCK_MS);
    if (pid === process.pid) return !held.has(path);
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

/** Filesystems without hard links: the file is created, then written (the old way). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates `path` holding `text`, or returns false when it exists. The text goes to a file of ours
 * first, hard-linked into place: `path` never exists empty or half written. A full disk fails
 * before `path` exists, and leaves nothing behind.
 */
export function createWhole(path: string, text: string): boolean {
  const own = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(own, 'w', 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    unlinkQuietly(own);
    (err as NodeJS.ErrnoException).path = path; // the file the caller asked for, not our temp file
    throw err;
  }
  try {
    linkSync(own, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (NO_LINKS.has(code)) return createInPlace(path, text);
    throw err;
  } finally {
    unlinkQuietly(own);
  }
}

const create = (path: string): boolean => createWhole(path, String(process.pid));

function createInPlace(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, text);
  } catch (err) {
    unlinkSync(path); // an empty file (full disk) would name no owner
    (err as NodeJS.ErrnoException).path ??= path;
    throw err;
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes the lock at `path` if it is stale. Only the holder of `<path>.break` may remove a lock
 * it did not take, and it looks again first: between that look and the removal no one else can
 * remove the stale lock and take a new one in its place, so a live owner's lock is never removed.
 * A breaker that died holding `.break` is dealt with the same way (its pid is dead).
 */
function breakIfStale(path: string): void {
  if (!isStale(path)) return;
  const breaker = `${path}.break`;
  if (!create(breaker)) {
    if (isStale(breaker)) unlinkQuietly(breaker);
    return;
  }
  try {
    if (isStale(path)) unlinkQuietly(path);
  } finally {
    unlinkQuietly(breaker);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}

function tryAcquire(path: string): boolean {
  if (create(path)) return true;
  breakIfStale(path);
  return false;
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
  // In this process, one caller at a time tries: the lock file names the process, not the caller.
  while (held.has(path) || !tryAcquire(path)) {
    if (Date.now() >= endsAt) throw busy(lockOwner(path));
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  held.add(path);
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      /* broken by a waiter that judged it stale; nothing left to refresh */
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let holding = true;
  // A process that exits before releasing (deadline, signal) still frees the lock on its way out.
  const forget = onAbandon(() => release());
  const release = (): void => {
    if (!holding) return;
    holding = false;
    held.delete(path);
    forget();
    clearInterval(heartbeat);
    // Only our own lock is removed: a waiter may have broken it and taken it over.
    if (lockOwner(path) !== process.pid) return;
    unlinkQuietly(path);
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
