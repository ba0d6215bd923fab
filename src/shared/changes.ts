// What the page's view diff hands the Node side (issue 13): one change per element, by kind, with
// the facts diff/ words as `changes`. injected/view-diff.ts builds them; diff/tell.ts tells them.

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

/** The effect probe's `why` when the pointer entering an element is all the steps did (injected/effect-probe.ts). */
export const POINTER_ONLY = 'pointer entered';

/** The states a `state` change names, in the order the page compares them. */
export const STATE_FIELDS = ['expanded', 'checked', 'selected', 'pressed', 'disabled', 'value', 'focused'] as const;
/** Also `role` (a paragraph that became a checkbox) and `struck` (struck through): what the element is (issue 22 item 5). */
export type StateField = (typeof STATE_FIELDS)[number] | 'role' | 'struck';

/** One change the page saw, element by element (identity is the element). */
export interface ObservedChange {
  kind: ObservedKind;
  role: string;
  label: string;
  ref?: string;
  /** text: old/new text; moved: old/new position (1-based); state: old/new value; rows: old/new count. */
  from?: string;
  to?: string;
  field?: StateField;
  /** Units inside it that changed the same way (a dialog that appeared with its fields). */
  inside?: number;
  /** moved into another list (a kanban card to another column): the list it left and the one it is in, by their names. */
  outOf?: string;
  into?: string;
  /** rows/reordered: the first row or item's text now. */
  first?: string;
  frame?: string;
  live?: 1;
  /** Read by screen readers, not shown on screen (told in its list, not in the summary). */
  sr?: 1;
  /** Next to the element the steps acted on. */
  near?: 1;
}

export interface ObservedDiff {
  changes: ObservedChange[];
  /** Every change by kind, listed or not. */
  counts: Partial<Record<ObservedKind, number>>;
  /** Header/menu/footer/sidebar landmarks on screen before and after with nothing changed inside: `role|name`. */
  unchanged: string[];
  truncated?: true;
}
