// `context` says only what is new (issue 13: trim fields that carry nothing new). The context an
// answer gave is kept per tab in the state dir (`<alias>.seen.json`, with the tab's target id);
// the next answer on the tab gives only the fields whose value changed since, a field that went
// away as null, and no `context` at all when nothing changed. A tab's first answer, an answer
// after a navigation and one on a tab the file does not know give the whole context.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from '../common/index.js';
import { stripEmpty } from './output.js';

type Context = Record<string, unknown>;

interface Seen {
  targetId: string;
  context: Context;
}

const seenPath = (alias: string): string => join(stateDir(), `${alias}.seen.json`);

function readSeen(alias: string, targetId: string): Context | undefined {
  try {
    const seen = JSON.parse(readFileSync(seenPath(alias), 'utf8')) as Seen;
    if (seen?.targetId !== targetId || !seen.context || typeof seen.context !== 'object') return undefined;
    return seen.context;
  } catch {
    return undefined; // none yet, or unreadable: the whole context goes out
  }
}

/** The fields of `now` whose value differs from `before`; fields `before` had and `now` lacks are null. */
export function contextDelta(before: Context, now: Context): Context {
  const delta: Context = {};
  for (const [k, v] of Object.entries(now)) if (JSON.stringify(before[k]) !== JSON.stringify(v)) delta[k] = v;
  for (const k of Object.keys(before)) if (!(k in now)) delta[k] = null;
  return delta;
}

/**
 * The context to send: whole when `whole` or the tab's last one is not known, else the delta
 * (undefined when nothing changed). Remembers `now` as the tab's last context.
 */
export function contextToSend(
  tab: { alias: string; entry: { targetId: string } },
  context: Context,
  whole: boolean,
): Context | undefined {
  // As the answer shows it: empty fields are never sent, so they are not remembered either.
  const now = (stripEmpty(context) ?? {}) as Context;
  const before = whole ? undefined : readSeen(tab.alias, tab.entry.targetId);
  try {
    writeFileSync(seenPath(tab.alias), JSON.stringify({ targetId: tab.entry.targetId, context: now }), {
      mode: 0o600,
    });
  } catch {
    // Not remembered: the next answer must not be a delta against an older context.
    try {
      rmSync(seenPath(tab.alias), { force: true });
    } catch {
      /* then the file is unreadable too, and the next context is whole */
    }
  }
  if (!before) return now;
  const delta = contextDelta(before, now);
  return Object.keys(delta).length ? delta : undefined;
}
