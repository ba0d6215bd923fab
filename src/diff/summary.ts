// Words the one-line `changes.summary` (SPEC §14.2): an action verb, then counts with up to five
// keys each, then live-region messages quoted. Counting and capping of lists is viewport-diff.ts's.
import { DIFF_FIELDS } from './types.js';
import type { Change, DiffEntry, DiffField } from './types.js';

export interface SummaryInput {
  actions: string[];
  added: DiffEntry[];
  removed: DiffEntry[];
  /** After focus filtering, uncapped. */
  changed: Change[];
  after: Map<string, DiffEntry>;
}

const KEYS_PER_GROUP = 5;
const MAX_QUOTE_CHARS = 80;
const LIVE_ROLES = new Set(['status', 'alert', 'log', 'marquee', 'timer']);

/** The step that acted last names the command; observation steps (snapshot, query…) don't act. */
const ACTION_VERBS: Readonly<Record<string, string>> = {
  click: 'Clicked', fill: 'Filled', type: 'Typed', press: 'Pressed', hover: 'Hovered',
  drag: 'Dragged', scroll: 'Scrolled', selectOption: 'Selected', goto: 'Navigated',
  reload: 'Reloaded', back: 'Went back', forward: 'Went forward', wait: 'Waited', poll: 'Waited',
  pageFunction: 'Ran script', pipeline: 'Ran script', viewport: 'Resized', upload: 'Uploaded',
  submit: 'Submitted',
};

/** [all turned on, all turned off, mixed]; `to: "true"` is on, absent or "false" is off. */
const TOGGLE_LABELS: Partial<Record<DiffField, readonly [string, string, string]>> = {
  expanded: ['expanded', 'collapsed', 'expanded/collapsed'],
  checked: ['checked', 'unchecked', 'checked/unchecked'],
  selected: ['selected', 'deselected', 'selected/deselected'],
  pressed: ['pressed', 'released', 'pressed/released'],
  disabled: ['disabled', 'enabled', 'enabled/disabled'],
};

/** Steps that support an action rather than being one: they name the command only when alone. */
const SUPPORTING = new Set(['wait', 'poll', 'pageFunction', 'pipeline', 'viewport']);

export function actionVerb(actions: string[]): string {
  let fallback: string | undefined;
  for (let i = actions.length - 1; i >= 0; i--) {
    const verb = Object.hasOwn(ACTION_VERBS, actions[i]!) ? ACTION_VERBS[actions[i]!] : undefined;
    if (verb && !SUPPORTING.has(actions[i]!)) return verb;
    fallback ??= verb;
  }
  return fallback ?? 'Done';
}

export function summarize({ actions, added, removed, changed, after }: SummaryInput): string {
  const parts = [actionVerb(actions)];
  if (added.length > 0) parts.push(countGroup(added.length, 'added', added.map((e) => e.key)));
  if (removed.length > 0) parts.push(countGroup(removed.length, 'removed', removed.map((e) => e.key)));
  const quoted: DiffEntry[] = added.filter((e) => isLiveRegion(e) && (e.states.text ?? '') !== '');
  for (const [field, records] of groupByField(changed)) {
    const keys = records.map((c) => c.ref);
    if (field === 'focused') {
      parts.push(`focus ${records.some((c) => c.to === 'true') ? 'moved' : 'lost'} (${listKeys(keys)})`);
    } else if (field === 'text') {
      const live = records.map((c) => after.get(c.ref)!).filter(isLiveRegion);
      const plain = keys.filter((k) => !live.some((e) => e.key === k));
      if (plain.length > 0) parts.push(countGroup(plain.length, 'text changed', plain));
      quoted.push(...live);
    } else {
      parts.push(countGroup(records.length, fieldLabel(field, records), keys));
    }
  }
  parts.push(...quoteLiveRegions(quoted));
  return parts.map((p) => `${p}.`).join(' ');
}

function groupByField(changed: Change[]): Map<DiffField, Change[]> {
  const groups = new Map<DiffField, Change[]>();
  for (const field of DIFF_FIELDS) {
    const records = changed.filter((c) => c.field === field);
    if (records.length > 0) groups.set(field, records);
  }
  return groups;
}

function fieldLabel(field: DiffField, records: Change[]): string {
  const labels = TOGGLE_LABELS[field];
  if (!labels) return `${field} changed`;
  if (records.every((c) => c.to === 'true')) return labels[0];
  if (records.every((c) => c.to === undefined || c.to === 'false')) return labels[1];
  return labels[2];
}

function countGroup(count: number, label: string, keys: string[]): string {
  return `${count} ${label} (${listKeys(keys)})`;
}

function listKeys(keys: string[]): string {
  const shown = keys.slice(0, KEYS_PER_GROUP).join(', ');
  return keys.length > KEYS_PER_GROUP ? `${shown}, …` : shown;
}

/** A live region is keyed `role#ordinal` when it has no ref, or carries a live role. */
function isLiveRegion(entry: DiffEntry): boolean {
  return entry.key.includes('#') || LIVE_ROLES.has(entry.role);
}

/** `status: "Saved"`; two regions of one role are told apart by key. */
function quoteLiveRegions(entries: DiffEntry[]): string[] {
  const labelOf = (e: DiffEntry) => e.key.includes('#') ? e.key.slice(0, e.key.indexOf('#')) : e.role;
  const shown = entries.slice(0, KEYS_PER_GROUP);
  const quotes = shown.map((e) => {
    const label = labelOf(e);
    const unique = entries.filter((other) => labelOf(other) === label).length === 1;
    const name = unique ? label : e.key.includes('#') ? e.key : `${label} ${e.key}`;
    return `${name}: ${JSON.stringify(truncate(e.states.text ?? ''))}`;
  });
  if (entries.length > shown.length) quotes.push(`${entries.length - shown.length} more live updates`);
  return quotes;
}

function truncate(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > MAX_QUOTE_CHARS ? `${chars.slice(0, MAX_QUOTE_CHARS - 1).join('')}…` : chars.join('');
}
