// What the diff answers: ViewportChanges, the answer's `changes`; StepVerb, a step's word for the
// summary. What it reads, the page's view diff (Observed*), is shared/changes.ts.

/** A step of the command as the summary names it: its past-tense verb, and whether it only supports an action. */
export interface StepVerb {
  verb: string;
  supporting?: boolean;
  /** The step only waits for the page (poll, wait): a call of such steps alone observes, it does not act. */
  waits?: boolean;
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
