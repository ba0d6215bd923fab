// The state a click toggles (issue 22 item 4): read after the click (injected/toggle-state.ts, which
// also picks the drawn box of a ::before marker as the point to click), given in the answer, and a
// click that left it as it was — a checkbox still unchecked, a toggle button still released — is an
// error that says where the click went, never an ok.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import type { ToggleState } from '../injected/index.js';
import type { Actionable } from './locate.js';

/** Longest a click's toggle may take to show (libraries commit it in a microtask, a frame or a re-render). */
const TOGGLE_WAIT_MS = 500;

export interface ToggleOutcome {
  field: ToggleState['field'];
  /** The state after the click, as the answer gives it. */
  value: boolean | 'mixed';
  /** The state after, in a word: `checked`, `collapsed`, … */
  word: string;
  /** The state before, in a word. */
  wordBefore: string;
  changed: boolean;
  /** What the click should leave (a flipped checkbox, a radio or tab on); always true for states only told. */
  asExpected: boolean;
}

const WORDS: Record<ToggleState['field'], readonly [string, string]> = {
  checked: ['checked', 'unchecked'],
  pressed: ['pressed', 'not pressed'],
  selected: ['selected', 'not selected'],
  expanded: ['expanded', 'collapsed'],
};

const word = (field: ToggleState['field'], value: string): string =>
  value === 'mixed' ? 'mixed' : WORDS[field][value === 'true' ? 0 : 1];

/**
 * The state of the clicked element after the click, when it has one; undefined when it has none or
 * it left the document (the page replaced it: nothing to judge). A double click toggles twice: told, not judged.
 */
export async function toggledState(
  scope: Scope,
  a: Actionable,
  count: number,
  deadline: Deadline,
): Promise<ToggleOutcome | undefined> {
  const before = a.toggle;
  if (!before) return undefined;
  const rule: ToggleState = count > 1 ? { ...before, rule: 'any' } : before;
  let after: ToggleState | undefined;
  try {
    after = await scope.call(
      (rt, x) => rt.toggleState.toggleAfter(x.handle, x.rule, x.waitMs),
      { handle: a.handle, rule, waitMs: deadline.cap(TOGGLE_WAIT_MS).remainingMs() },
      { deadline, what: `the state of ${a.desc} after the click` },
    );
  } catch {
    return undefined; // the document went away with it (a navigation): settleAfterAction tells that
  }
  if (!after || after.field !== before.field) return undefined;
  const changed = after.value !== before.value;
  return {
    field: after.field,
    value: after.value === 'mixed' ? 'mixed' : after.value === 'true',
    word: word(after.field, after.value),
    wordBefore: word(before.field, before.value),
    changed,
    asExpected: rule.rule === 'any' || (rule.rule === 'on' ? after.value === 'true' : changed),
  };
}

/** The error for a click that left the state as it was: where the click went, and what it is now. */
export function unchangedError(
  o: { a: Actionable; method: string; targetReceived?: boolean },
  state: ToggleOutcome,
): ExecutionError {
  const { a } = o;
  const at = `(${Math.round(a.x)}, ${Math.round(a.y)})${a.marker ? ', its drawn box' : ''}`;
  const how =
    o.method === 'cdp'
      ? o.targetReceived
        ? `a trusted click at ${at} reached it`
        : `a trusted press at ${at} reached it`
      : `element.click() (untrusted) ran on it`;
  return new ExecutionError(
    `${a.name} is still ${state.word} after the click: ${how}, but the page did not change its ${state.field} state. ` +
      'It may be read-only or disabled by the app, or toggled from another element: look at it (nextStep) before clicking again',
    {
      category: 'no-effect',
      element: a.desc,
      [state.field]: state.value,
      nextStep: { elementsAt: { x: Math.round(a.x), y: Math.round(a.y) } },
    },
  );
}
