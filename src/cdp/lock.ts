// A cross-process lock file: created exclusively, holding the owner's pid; a lock whose owner is
// dead or that is older than STALE_LOCK_MS is broken. Waiting is bounded.

import { openSync, writeSync, closeSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { ConnectionError, STALE_LOCK_MS } from '../common/index.js';

const RETRY_MS = 15;

/** A lock is stale when its owner is dead, or (torn pid, or pid reused) when it is very old. */
function isStale(path: string): boolean {
  try {
    const ageMs = Date.now() - statSync(path).mtimeMs;
    const pid = Number(readFileSync(path, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return ageMs > STALE_LOCK_MS;
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
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (isStale(path)) {
      try { unlinkSync(path); } catch { /* another waiter broke it first */ }
    }
    return false;
  }
}

export async function withLock<T>(path: string, timeoutMs: number, what: string, fn: () => Promise<T> | T): Promise<T> {
  const endsAt = Date.now() + timeoutMs;
  while (!tryAcquire(path)) {
    if (Date.now() >= endsAt) throw new ConnectionError(`${what} is busy: another cdp-skill process held its lock for ${timeoutMs}ms`);
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  try {
    return await fn();
  } finally {
    try { unlinkSync(path); } catch { /* already broken as stale by a waiter; nothing to release */ }
  }
}
