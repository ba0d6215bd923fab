// Gives keyboard focus to the element a keyboard step names (a CSS selector or a ref): found,
// scrolled into view, focused, caret at the end. Self-contained on purpose: the shared element
// resolver (locate.ts, with actionability) replaces it, keeping this signature.

import { ElementNotEditableError, ElementNotFoundError, StaleElementError, StepValidationError, type Deadline } from '../common/index.js';
import { evaluateInPage, type Page } from '../page/index.js';

type FocusOutcome =
  | { ok: true }
  | { ok: false; reason: 'invalid-selector' | 'not-found' | 'not-focusable'; message: string }
  | { ok: false; reason: 'ref'; refReason: string; message: string };

export async function focusTarget(page: Page, target: { selector?: string; ref?: string }, deadline: Deadline): Promise<void> {
  const what = target.ref ? `ref ${target.ref}` : `"${target.selector}"`;
  const outcome: FocusOutcome = await page.guard(evaluateInPage(page.session, (rt, t): FocusOutcome => {
    let el: Element | null = null;
    if (t.ref) {
      const found = rt.resolveRef(t.ref);
      if (!found.ok) return { ok: false, reason: 'ref', refReason: found.reason, message: rt.refProblem(t.ref, found.reason, found.role, found.name) };
      el = found.el;
    } else {
      try {
        el = document.querySelector(t.selector!);
      } catch (err) {
        return { ok: false, reason: 'invalid-selector', message: String((err as Error).message ?? err) };
      }
      if (!el) return { ok: false, reason: 'not-found', message: `No element matches "${t.selector}"` };
    }
    const deepActive = (): Element | null => {
      let a = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a;
    };
    // What a click would focus: the control of a label, the editing host of text inside one.
    const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
    const host = control instanceof HTMLElement && control.isContentEditable && !control.matches('[contenteditable]')
      ? control.closest('[contenteditable]') ?? control : control;
    host.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    if (deepActive() === host) return { ok: true };
    if (host instanceof HTMLElement || host instanceof SVGElement) host.focus({ preventScroll: true });
    if (deepActive() !== host) {
      return { ok: false, reason: 'not-focusable', message: `<${host.localName}> cannot take keyboard focus (not an input, link, button, contenteditable or [tabindex])` };
    }
    // A person clicking into a field usually lands after its text: type appends.
    if (host instanceof HTMLInputElement || host instanceof HTMLTextAreaElement) {
      try { host.setSelectionRange(host.value.length, host.value.length); } catch { /* email, number: no caret API, the browser keeps its own */ }
    } else if (host instanceof HTMLElement && host.isContentEditable) {
      const range = document.createRange();
      range.selectNodeContents(host);
      range.collapse(false);
      const sel = getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
    return { ok: true };
  }, target, { deadline, what: `${what} to take focus` }));
  if (outcome.ok) return;
  switch (outcome.reason) {
    case 'invalid-selector': throw new StepValidationError(`Invalid CSS selector "${target.selector}": ${outcome.message}`, { selector: target.selector });
    case 'not-found': throw new ElementNotFoundError(outcome.message, { selector: target.selector });
    case 'not-focusable': throw new ElementNotEditableError(`${what}: ${outcome.message}`, { ...target });
    case 'ref': {
      const stale = outcome.refReason === 'stale' || outcome.refReason === 'earlier-page';
      throw stale ? new StaleElementError(outcome.message, { ref: target.ref }) : new ElementNotFoundError(outcome.message, { ref: target.ref });
    }
  }
}
