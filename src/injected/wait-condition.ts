// Event-driven waits inside the page: a MutationObserver plus a slow interval (for CSS-only
// changes) resolve the moment the condition holds, in one CDP round trip. Runs in the page.
import { isVisible } from './dom-describe.js';

export type WaitKind = 'visible' | 'hidden' | 'attached' | 'detached' | 'text';
type WaitOutcome = { ok: true } | { ok: false; reason: 'timeout' | 'invalid-selector'; message?: string };

function conditionHolds(kind: WaitKind, arg: string): boolean {
  if (kind === 'text') return (document.body?.innerText ?? '').includes(arg);
  const el = document.querySelector(arg);
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

export function waitForCondition(kind: WaitKind, arg: string, timeoutMs: number): Promise<WaitOutcome> {
  if (kind !== 'text') {
    try {
      document.querySelector(arg);
    } catch (e) {
      return Promise.resolve({ ok: false, reason: 'invalid-selector', message: (e as Error).message });
    }
  }
  if (conditionHolds(kind, arg)) return Promise.resolve({ ok: true });
  return new Promise((resolve) => {
    const finish = (outcome: WaitOutcome): void => {
      observer.disconnect();
      clearInterval(interval);
      clearTimeout(timer);
      resolve(outcome);
    };
    const check = (): void => {
      if (conditionHolds(kind, arg)) finish({ ok: true });
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
