// Did anything follow an action the page could have ignored (element.click(), keys sent to the
// body, a press whose release went elsewhere)? What the page saw (injected/effect-watch.ts: focus,
// mutations, scrolling, what the capture counts as a change), plus navigation, new tabs, requests
// and dialogs seen over CDP. Also the note a click fallback leaves for keyboard steps.

import type { Deadline } from '../common/index.js';
import type { Page, Scope } from '../page/index.js';
import type { EffectReport } from '../injected/index.js';
import type { ActionMark, SettleResult } from './settle.js';

/** How long a quiet page gets to react before "nothing followed" is concluded. */
const REACTION_WAIT_MS = 150;

export interface Effects extends EffectReport {
  /** Something a person could notice followed. */
  observable: boolean;
  /** One line for the answer: what followed. */
  summary: string;
}

export async function watchEffects(scope: Scope, handle: number | undefined, deadline: Deadline): Promise<void> {
  await scope.call((rt, h) => rt.effectWatch.watchEffects(h ?? undefined), handle ?? null, {
    deadline,
    what: 'watching for the effect',
  });
}

/** What followed since watchEffects, together with what the settle saw over CDP. */
export async function readEffects(
  scope: Scope,
  mark: ActionMark,
  settled: SettleResult,
  dialogsBefore: number,
  deadline: Deadline,
): Promise<Effects> {
  const cdp: string[] = [];
  if (settled.navigated) cdp.push(`navigated to ${settled.newUrl}`);
  if (settled.opened?.length) cdp.push(`opened ${settled.opened.length} tab(s)`);
  if (scope.page.dialogs.length > dialogsBefore) cdp.push('a dialog opened');
  if (scope.page.network.mark !== mark.network) cdp.push('requests started');
  let r: EffectReport;
  try {
    r = settled.navigated
      ? { armed: false, mutations: 0, scrolled: false, focusInTarget: false, focusOnBody: true, beyond: false }
      : await scope.call((rt, ms) => rt.effectWatch.readEffects(ms), cdp.length ? 0 : REACTION_WAIT_MS, {
          deadline,
          what: 'the effect of the action',
        });
  } catch {
    r = { armed: false, mutations: 0, scrolled: false, focusInTarget: false, focusOnBody: true, beyond: false }; // the document went away: a navigation
    cdp.push('the document changed');
  }
  const seen = [...cdp];
  if (r.focus) seen.push(`focus moved to ${r.focus}`);
  if (r.mutations) seen.push(`the page changed (${r.mutations} DOM mutation${r.mutations === 1 ? '' : 's'})`);
  if (r.scrolled) seen.push('something scrolled');
  if (r.other)
    seen.push(r.other === "a control's state" ? "a control's state changed" : `the page reacted (${r.other})`);
  return {
    ...r,
    beyond: r.beyond || cdp.length > 0,
    observable: seen.length > 0,
    summary: seen.length ? seen.join('; ') : 'nothing followed: no focus, no change on the page',
  };
}

/** A click that used element.click() and left focus outside its element: keys typed next would go astray. */
export interface FallbackNote {
  target: string;
  focus: string;
}

// One process runs one command: this map lives exactly as long as the command's batch.
const notes = new WeakMap<Page, FallbackNote>();

export function noteFallback(page: Page, note: FallbackNote | undefined): void {
  if (note) notes.set(page, note);
  else notes.delete(page);
}

/** The note of the last click, if any, taken (a keyboard step reads it once). */
export function takeFallbackNote(page: Page): FallbackNote | undefined {
  const n = notes.get(page);
  notes.delete(page);
  return n;
}

/** Where keys would go now, named; `onBody` when only the document has focus. */
export async function keyReceiver(
  scope: Scope,
  deadline: Deadline,
): Promise<{ target: string; onBody: boolean; takesText: boolean }> {
  return scope.call((rt) => rt.effectWatch.keyReceiver(), undefined, {
    deadline,
    what: 'the focused element',
  });
}
