// Compares two viewport snapshots (as DiffEntry lists) into added/removed/changed, capped for
// output (SPEC §14.1–14.2). Pure; the one-line summary is worded in summary.ts.
import { summarize } from './summary.js';
import { DIFF_FIELDS } from './types.js';
import type { Change, DiffEntry, ViewportChanges } from './types.js';

/** SPEC §14.2: at most this many lines/records per list; the summary still counts them all. */
export const MAX_LISTED = 10;

export function diffViewport(before: DiffEntry[], after: DiffEntry[], actions: string[]): ViewportChanges | undefined {
  const beforeByKey = indexByKey(before);
  const afterByKey = indexByKey(after);
  const added = [...afterByKey.values()].filter((e) => !beforeByKey.has(e.key));
  const removed = [...beforeByKey.values()].filter((e) => !afterByKey.has(e.key));
  const changed = dropFocusLoss(compareStates(beforeByKey, afterByKey), added);
  if (added.length === 0 && removed.length === 0 && changed.length === 0) return undefined;

  const result: ViewportChanges = { summary: summarize({ actions, added, removed, changed, after: afterByKey }) };
  if (added.length > 0) result.added = added.slice(0, MAX_LISTED).map((e) => e.line);
  if (removed.length > 0) result.removed = removed.slice(0, MAX_LISTED).map((e) => e.line);
  if (changed.length > 0) result.changed = changed.slice(0, MAX_LISTED);
  return result;
}

/** Keyed in order of appearance; a repeated key keeps its first entry. */
function indexByKey(entries: DiffEntry[]): Map<string, DiffEntry> {
  const byKey = new Map<string, DiffEntry>();
  for (const entry of entries) if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
  return byKey;
}

/** One record per differing field of each key present in both, in `after` order. */
function compareStates(before: Map<string, DiffEntry>, after: Map<string, DiffEntry>): Change[] {
  const changes: Change[] = [];
  for (const [key, next] of after) {
    const prev = before.get(key);
    if (!prev) continue;
    for (const field of DIFF_FIELDS) {
      const from = prev.states[field];
      const to = next.states[field];
      if (from !== to) changes.push({ ref: key, field, from, to });
    }
  }
  return changes;
}

/**
 * When focus landed somewhere (a changed or newly added element), the element it left is
 * noise; a blur with no new focus is kept, since the agent may need to know focus is gone.
 */
function dropFocusLoss(changes: Change[], added: DiffEntry[]): Change[] {
  const gained = changes.some((c) => c.field === 'focused' && c.to === 'true')
    || added.some((e) => e.states.focused === 'true');
  if (!gained) return changes;
  return changes.filter((c) => c.field !== 'focused' || c.to === 'true');
}
