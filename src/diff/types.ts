// What the viewport diff compares: one entry per element an agent can see and act on (those with
// a ref) plus live regions (status, alert, log, aria-live), whose text changes are news.

export interface DiffEntry {
  /** The ref (`s1e4`), or for a live region without one, `role#ordinal` (e.g. `status#0`). */
  key: string;
  role: string;
  name: string;
  /** State fields that count as changes: checked, expanded, selected, pressed, disabled, focused, value, text. */
  states: Partial<Record<DiffField, string>>;
  /** The element's one-line YAML (as in the snapshot), used in added/removed lists. */
  line: string;
}

/** Every field the diff compares, in the order changes are listed and summarized. */
export const DIFF_FIELDS = ['expanded', 'checked', 'selected', 'pressed', 'disabled', 'value', 'text', 'focused'] as const;
export type DiffField = (typeof DIFF_FIELDS)[number];

export interface Change {
  ref: string;
  field: DiffField;
  from: string | undefined;
  to: string | undefined;
}

export interface ViewportChanges {
  summary: string;
  added?: string[];
  removed?: string[];
  changed?: Change[];
  /** Messages shown and gone again during the command (toasts). */
  transient?: string[];
}
