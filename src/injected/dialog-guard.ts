// Between commands no CDP client answers dialogs, and one that opens then blocks the page for good
// (CDP cannot answer a dialog that opened before it attached). At the end of a command the guard
// takes over alert/confirm/prompt of the document: it answers as the tab's policy does (accept,
// or the answer a dialog step armed) without blocking, and records what it answered; the next
// command restores the originals and reports the records. Runs in the page.

export interface GuardAnswer {
  accept: boolean;
  promptText?: string;
}
export interface GuardedDialog {
  type: string;
  message: string;
  action: 'accepted' | 'dismissed';
  promptText?: string;
}

interface DialogGuard {
  seen: GuardedDialog[];
  restore: () => GuardedDialog[];
}

/** The next command takes over: the page's own functions come back, with what the guard answered. */
export function takeGuardedDialogs(): GuardedDialog[] {
  const w = window as unknown as { __cdpSkillDialogGuard?: DialogGuard };
  return w.__cdpSkillDialogGuard?.restore() ?? [];
}

export function armDialogGuard(answer: GuardAnswer | undefined): void {
  const w = window as unknown as Record<string, unknown> & { __cdpSkillDialogGuard?: DialogGuard };
  w.__cdpSkillDialogGuard?.restore();
  const native = { alert: w.alert, confirm: w.confirm, prompt: w.prompt };
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
  w.alert = function alert(message?: unknown): void {
    answerNext('alert', message);
  };
  w.confirm = function confirm(message?: unknown): boolean {
    return answerNext('confirm', message).accept;
  };
  w.prompt = function prompt(message?: unknown, value?: unknown): string | null {
    return answerNext('prompt', message, value).text ?? null;
  };
  w.__cdpSkillDialogGuard = {
    seen,
    restore: () => {
      Object.assign(w, native);
      delete w.__cdpSkillDialogGuard;
      return seen;
    },
  };
}
