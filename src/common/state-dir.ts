// Where this user's transient state lives: tab registry, screenshots, snapshots, locks, Chrome
// profiles, the loader's code cache. One private directory (mode 0700) under the OS temp dir, never
// shared between users. The one rule for it: dist/cli.js (the loader) inlines this file at build.

import { lstatSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './os-paths.js';

let cached: string | undefined;

function isPrivateDirOfOurs(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return false;
  if (!st.isDirectory() || st.isSymbolicLink()) return false;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return false;
  if ((st.mode & 0o077) !== 0) chmodSync(path, 0o700);
  return true;
}

/**
 * `$TMPDIR/cdp-skill`, or `$TMPDIR/cdp-skill-<uid>` when the former belongs to someone else or is
 * not a plain directory (a symlink planted by another user must never redirect our writes).
 */
export function stateDir(): string {
  if (cached) return cached;
  const base = process.env.CDP_SKILL_STATE_DIR ?? join(tempDir(), 'cdp-skill');
  const candidates = [base, `${base}-${process.getuid?.() ?? 'user'}`];
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      continue; // e.g. a dangling symlink planted there: the next candidate
    }
    if (isPrivateDirOfOurs(dir)) return (cached = dir);
  }
  throw new Error(`No private state directory could be made under ${tempDir()}`);
}

export function ensureStateDir(...sub: string[]): string {
  const dir = join(stateDir(), ...sub);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
