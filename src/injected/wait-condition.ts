// Event-driven waits inside the page: a MutationObserver plus a slow interval (for CSS-only
// changes) resolve the moment the condition holds, in one CDP round trip. Runs in the page.
import { isVisible } from './dom-describe.js';

export type WaitKind = 'visible' | 'hidden' | 'attached' | 'detached' | 'text';
type WaitOutcome = { ok: true } | { ok: false; reason: 'timeout' | 'invalid-selector'; message?: string };

/** The element's text as shown: its rendered text, or a field's value. */
function shownText(el: Element): string {
  const value = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : '';
  return `${(el as HTMLElement).innerText ?? el.textContent ?? ''} ${value}`;
}

/** The first element matching `selector` (and showing `text`, when given) that is visible, else the first such at all. */
function matching(selector: string, text: string | undefined): Element | null {
  if (text === undefined) return document.querySelector(selector);
  const all = Array.from(document.querySelectorAll(selector)).filter((el) => shownText(el).includes(text));
  return all.find((el) => isVisible(el)) ?? all[0] ?? null;
}

function conditionHolds(kind: WaitKind, arg: string, text?: string): boolean {
  if (kind === 'text') return (document.body?.innerText ?? '').includes(arg);
  const el = matching(arg, text);
  switch (kind) {
    case 'attached':
      return el !== null;
    case 'detached':
      return el === null;
    case 'visible':
      return el !== null && isVisible(el);
    case 'hidden':
      return el === null || !isVisible(el);
  }
  return false;
}

/** Until the condition holds; `text` narrows a selector to the elements showing it ("this element with this text"). */
export function waitForCondition(kind: WaitKind, arg: string, timeoutMs: number, text?: string): Promise<WaitOutcome> {
  if (kind !== 'text') {
    try {
      document.querySelector(arg);
    } catch (e) {
      return Promise.resolve({ ok: false, reason: 'invalid-selector', message: (e as Error).message });
    }
  }
  if (conditionHolds(kind, arg, text)) return Promise.resolve({ ok: true });
  return new Promise((resolve) => {
    const finish = (outcome: WaitOutcome): void => {
      observer.disconnect();
      clearInterval(interval);
      clearTimeout(timer);
      resolve(outcome);
    };
    const check = (): void => {
      if (conditionHolds(kind, arg, text)) finish({ ok: true });
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const interval = setInterval(check, 50);
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), timeoutMs);
  });
}

/** Resolves true once the DOM has not changed for `quietMs`, false at `timeoutMs` (click waitAfter). */
export function waitForDomQuiet(quietMs: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ok: boolean): void => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(cap);
      resolve(ok);
    };
    const observer = new MutationObserver(() => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(true), quietMs);
    });
    let quiet = setTimeout(() => finish(true), quietMs);
    const cap = setTimeout(() => finish(false), timeoutMs);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}
