// The verb that opens `changes.summary` (SPEC §14.2): the step that acted last names the command.

/** The step that acted last names the command; observation steps (snapshot, query…) don't act. */
const ACTION_VERBS: Readonly<Record<string, string>> = {
  click: 'Clicked',
  fill: 'Filled',
  type: 'Typed',
  press: 'Pressed',
  hover: 'Hovered',
  drag: 'Dragged',
  scroll: 'Scrolled',
  selectOption: 'Selected',
  goto: 'Navigated',
  reload: 'Reloaded',
  back: 'Went back',
  forward: 'Went forward',
  wait: 'Waited',
  poll: 'Waited',
  pageFunction: 'Ran script',
  pipeline: 'Ran script',
  viewport: 'Resized',
  upload: 'Uploaded',
  submit: 'Submitted',
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
  };
  const pair = words[field];
  if (pair && (on || off)) return on ? pair[0] : pair[1];
  return `${field} ${quote(to ?? '')}`;
}
