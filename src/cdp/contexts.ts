// Named browser contexts (issue 21.4, `openTab {context}`): isolated cookie jars and storage in one
// Chrome, so two users can be logged in side by side. Chrome keeps a context made with
// disposeOnDetach false after the connection that made it closes (measured on Chromium 156), so
// the CLI's next call finds it by name in the registry (per browser: its WebSocket URL, new at
// each start). A context is disposed with its last tab.

import { join } from 'node:path';
import { ensureStateDir, REGISTRY_LOCK_TIMEOUT_MS } from '../common/index.js';
import type { Connection } from './connection.js';
import { withLock } from './lock.js';
import { readRegistry, updateRegistry } from './tab-registry.js';

/** A context name: short, plain. */
export const CONTEXT_NAME_FORM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const contextsLock = (): string => join(ensureStateDir(), 'contexts.lock');
/** Creating a context and its first tab, or disposing one, waits at most this long for another. */
const CONTEXT_LOCK_MS = REGISTRY_LOCK_TIMEOUT_MS * 2;

/** A browser's key in the registry's contexts: where it listens, without a query (a token there is not part of who it is). */
const browserKey = (conn: Connection): string => conn.url.split('?')[0]!;
/** host:port of a key, so a restarted Chrome's stale names can be dropped. */
const hostOf = (key: string): string => key.replace(/^wss?:\/\//, '').split('/')[0]!;

async function liveContexts(conn: Connection): Promise<Set<string>> {
  const { browserContextIds } = await conn.browser().send('Target.getBrowserContexts');
  return new Set(browserContextIds);
}

/**
 * Runs `create(browserContextId)` for the context `name` of this browser, creating the context
 * first when it has none (or Chrome lost it); under a lock, so a context being disposed by another
 * command is never handed out, and two commands creating "alice" at once make one.
 */
export function inContext<T>(
  conn: Connection,
  name: string,
  create: (browserContextId: string) => Promise<T>,
): Promise<T> {
  return withLock(contextsLock(), CONTEXT_LOCK_MS, `The browser context "${name}"`, async () => {
    const key = browserKey(conn);
    const known = readRegistry().contexts?.[key]?.[name];
    let id = known && (await liveContexts(conn)).has(known) ? known : undefined;
    if (!id) {
      ({ browserContextId: id } = await conn.browser().send('Target.createBrowserContext', { disposeOnDetach: false }));
      const made = id;
      await updateRegistry((data) => {
        const all = (data.contexts ??= {});
        // Names of an earlier Chrome on the same port died with it.
        for (const other of Object.keys(all)) if (other !== key && hostOf(other) === hostOf(key)) delete all[other];
        (all[key] ??= {})[name] = made;
      });
    }
    return create(id);
  });
}

/** browserContextId → name, for this browser's named contexts. */
export function contextNames(conn: Connection): Map<string, string> {
  const named = readRegistry().contexts?.[browserKey(conn)] ?? {};
  return new Map(Object.entries(named).map(([name, id]) => [id, name]));
}

/**
 * Disposes the named context `browserContextId` when no page is left in it but `closed` (its last
 * tab, just closed) and forgets its name; returns the name it had, or undefined when it lives on.
 */
export function disposeIfEmpty(
  conn: Connection,
  browserContextId: string,
  closed: string,
): Promise<string | undefined> {
  return withLock(contextsLock(), CONTEXT_LOCK_MS, 'The browser contexts', async () => {
    const name = contextNames(conn).get(browserContextId);
    if (!name) return undefined; // not one of ours (the default context, or another program's)
    const { targetInfos } = await conn.browser().send('Target.getTargets');
    // The tab just closed may still be listed while Chrome tears it down.
    const live = targetInfos.filter((t) => t.type === 'page' && t.targetId !== closed);
    if (live.some((t) => t.browserContextId === browserContextId)) return undefined;
    await conn
      .browser()
      .send('Target.disposeBrowserContext', { browserContextId })
      .catch(() => undefined); // already gone: only the name is left to forget
    await updateRegistry((data) => {
      const named = data.contexts?.[browserKey(conn)];
      if (named?.[name] === browserContextId) delete named[name];
    });
    return name;
  });
}
