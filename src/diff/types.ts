// What the diff compares and answers. DiffEntry: an element with a ref or a live region, as the
// snapshot shows it (used to fold what the agent already saw). Observed*: the page's view diff
// (injected/view-diff.ts, same shape). ViewportChanges: the answer's `changes`. StepVerb: a step's
// word for the summary.

export interface DiffEntry {
  /** The ref (`s1e4`), or for a live region without one, `role#ordinal` (e.g. `status#0`). */
  key: string;
  role: string;
  name: string;
  /** State fields: checked, expanded, selected, pressed, disabled, focused, value, text. */
  states: Partial<Record<DiffField, string>>;
  /** The element's one-line YAML (as in the snapshot). */
  line: string;
}

/** A step of the command as the summary names it: its past-tense verb, and whether it only supports an action. */
export interface StepVerb {
  verb: string;
  supporting?: boolean;
}

export const DIFF_FIELDS = [
  'expanded',
  'checked',
  'selected',
  'pressed',
  'disabled',
  'value',
  'text',
  'focused',
] as const;
export type DiffField = (typeof DIFF_FIELDS)[number];

export type ObservedKind =
  | 'appeared'
  | 'gone'
  | 'leftView'
  | 'enteredView'
  | 'text'
  | 'moved'
  | 'reordered'
  | 'state'
  | 'rows';

/** One change the page saw, element by element (identity is the element). */
export interface ObservedChange {
  kind: ObservedKind;
  role: string;
  label: string;
  ref?: string;
  from?: string;
  to?: string;
  field?: string;
  inside?: number;
  first?: string;
  frame?: string;
  live?: 1;
  /** Read by screen readers, not shown (told in its list, not in the summary). */
  sr?: 1;
  near?: 1;
}

export interface ObservedDiff {
  changes: ObservedChange[];
  /** Every change by kind, listed or not. */
  counts: Partial<Record<ObservedKind, number>>;
  /** Frame landmarks seen before and after with nothing changed inside (`role|name`). */
  unchanged: string[];
  truncated?: true;
}

export interface StateChange {
  ref?: string;
  /** The element, when it has no ref. */
  of?: string;
  field: string;
  from: string | undefined;
  to: string | undefined;
}

export interface ViewportChanges {
  summary: string;
  appeared?: string[];
  gone?: string[];
  text?: string[];
  moved?: string[];
  rows?: string[];
  changed?: StateChange[];
  leftView?: string[];
  enteredView?: string[];
  /** Messages shown and gone again during the command (toasts). */
  transient?: string[];
  /** Changes not listed, by kind. */
  more?: Record<string, number>;
}
