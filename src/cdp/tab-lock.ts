// Per-target lock: one command at a time works on a tab. A second command on the same tab waits
// (at most its own timeout) and then fails CONNECTION "Tab busy" naming the alias. The lock file
// lives in the private state dir; one left by a killed process is taken over (pid check).

import { join } from 'node:path';
import { ConnectionError, ensureStateDir } from '../common/index.js';
import { acquireLock, type ReleaseLock } from './lock.js';

/** The lock file of a target; odd characters in a caller-given id cannot leave the directory. */
export function tabLockPath(targetId: string): string {
  return join(ensureStateDir('locks'), `tab-${targetId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100)}.lock`);
}

/** Waits up to `waitMs` for the tab's lock; the caller releases it when the command ends. */
export function lockTab(alias: string, targetId: string, waitMs: number): Promise<ReleaseLock> {
  return acquireLock(
    tabLockPath(targetId),
    waitMs,
    (owner) =>
      new ConnectionError(
        `Tab busy: ${alias} is in use by another cdp-skill command${owner ? ` (pid ${owner})` : ''}; waited ${waitMs}ms. ` +
          `Run commands on one tab one after another, or open your own tab with openTab.`,
        { tab: alias },
      ),
  );
}
