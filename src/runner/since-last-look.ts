// A call that only waits (poll, wait) is the agent asking what came (issue 22 item 11): its changes
// are told since the agent's last look — the page as the last visual answer showed it, kept in
// the page (injected/last-look.ts) — labelled as such, so a message that arrived between calls is
// told, and "nothing changed" is said only when nothing did since then.

import type { StepVerb } from '../diff/index.js';

/** Whether the command's steps only waited (every step a `waits` step). */
export function onlyWaited(actions: readonly StepVerb[]): boolean {
  return actions.length > 0 && actions.every((a) => a.waits);
}

/** Nothing changed since the agent's last look (the DOM watch kept since then saw no change). */
export const NOTHING_SINCE_LAST_LOOK = { summary: 'Nothing changed since the page was last shown.' };

/**
 * The same when the document keeps no last look (a new document, a tab's first look): the diff is
 * over this call alone, so no claim about what came before it.
 */
export const NO_CHANGE_WHILE_WAITING = {
  summary: 'Nothing changed during this call (changes before it are not compared).',
};

/**
 * Labels changes told since the last look, in place: they go back to the last answer that showed
 * the page (its changes or snapshot), not only over this call.
 */
export function labelSinceLastLook(changes: { summary: string }): void {
  Object.assign(changes, { summary: `Since the page was last shown: ${changes.summary}`, since: 'lastShown' });
}
