// Between commands no CDP client answers dialogs, and one that opens then blocks the page for good
// (CDP cannot answer a dialog that opened before it attached). At the end of a command the guard
// takes over alert/confirm/prompt of the document: it answers as the tab's policy does (accept,
// or the answer a dialog step armed) without blocking, and records what it answered; the next
// command restores the originals and reports the records. Runs in the page's world (its runtime's
// state holds the guard): alert and friends are the page's own functions.
import { state } from './state.js';

interface GuardAnswer {
  accept: boolean;
  promptText?: string;
}
export interface GuardedDialog {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed';
  promptText?: string;
}

export interface DialogGuard {
  seen: GuardedDialog[];
  restore: () => GuardedDialog[];
}

type DialogFunction = ((...args: unknown[]) => unknown) & { [NATIVE]?: unknown };
const DIALOGS = ['alert', 'confirm', 'prompt'] as const;
/**
 * Our stand-ins carry the page's own function under this key, so a guard this runtime does not hold
 * (another build's, or one armed by a runtime the page made us install again) is undone, not wrapped.
 */
const NATIVE = Symbol.for('cdp-skill.native-dialog');

/** Puts the page's own alert/confirm/prompt back, from any guard's stand-ins. */
function restoreNatives(w: Record<string, unknown>): void {
  for (const name of DIALOGS) {
    const native = (w[name] as DialogFunction | undefined)?.[NATIVE];
    if (native) w[name] = native;
  }
}

/** The next command takes over: the page's own functions come back, with what the guard answered. */
export function takeGuardedDialogs(): GuardedDialog[] {
  const seen = state.dialogGuard?.restore() ?? [];
  restoreNatives(window as unknown as Record<string, unknown>);
  return seen;
}

export function armDialogGuard(answer: GuardAnswer | undefined): void {
  const w = window as unknown as Record<string, unknown>;
  takeGuardedDialogs();
  const seen: GuardedDialog[] = [];
  let armed = answer;
  const answerNext = (type: string, message: unknown, promptDefault?: unknown): GuardAnswer & { text?: string } => {
    const a = armed ?? { accept: true };
    armed = undefined;
    const text =
      type === 'prompt' && a.accept
        ? (a.promptText ?? (promptDefault === undefined ? '' : String(promptDefault)))
        : undefined;
    if (seen.length < 20) {
      seen.push({
        type,
        message: String(message ?? '').slice(0, 300),
        action: a.accept ? 'accepted' : 'dismissed',
        ...(text ? { promptText: text } : {}),
      });
    }
    return { ...a, ...(text !== undefined ? { text } : {}) };
  };
  const standIns: Record<(typeof DIALOGS)[number], DialogFunction> = {
    alert: function alert(message?: unknown): void {
      answerNext('alert', message);
    },
    confirm: function confirm(message?: unknown): boolean {
      return answerNext('confirm', message).accept;
    },
    prompt: function prompt(message?: unknown, value?: unknown): string | null {
      return answerNext('prompt', message, value).text ?? null;
    },
  };
  const native = { alert: w.alert, confirm: w.confirm, prompt: w.prompt };
  for (const name of DIALOGS) {
    standIns[name][NATIVE] = native[name];
    w[name] = standIns[name];
  }
  state.dialogGuard = {
    seen,
    restore: () => {
      Object.assign(w, native);
      state.dialogGuard = undefined;
      return seen;
    },
  };
}
