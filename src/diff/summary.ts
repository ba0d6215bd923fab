// The verb that opens `changes.summary` (SPEC §14.2): the step that acted last names the command.
// The verbs are the steps' own (steps/registry `verb`); the runner passes them in the command's order.
import type { StepVerb } from './types.js';

/** The step that acted last names the command: the last verb of an acting step, else of a supporting one. */
export function actionVerb(actions: readonly StepVerb[]): string {
  let fallback: string | undefined;
  for (let i = actions.length - 1; i >= 0; i--) {
    const { verb, supporting } = actions[i]!;
    if (!supporting) return verb;
    fallback ??= verb;
  }
  return fallback ?? 'Done';
}

/** A state change in a word or two: `checked`, `collapsed`, `value 'Ann'`. */
export function stateWord(field: string, to: string | undefined, quote: (t: string) => string): string {
  const on = to === 'true';
  const off = to === undefined || to === 'false';
  const words: Record<string, readonly [string, string]> = {
    expanded: ['expanded', 'collapsed'],
    checked: ['checked', 'unchecked'],
    selected: ['selected', 'deselected'],
    pressed: ['pressed', 'released'],
    disabled: ['disabled', 'enabled'],
    focused: ['focused', 'blurred'],
    struck: ['struck through', 'no longer struck through'],
  };
  const pair = words[field];
  if (pair && (on || off)) return on ? pair[0] : pair[1];
  return `${field} ${quote(to ?? '')}`;
}
