// Form controls from the inside: preparing a field for typed text, reading its value back, the
// native-setter strategy for framework-controlled inputs, <select> options, range inputs.
// Runs in the page; the trusted typing itself (Input.insertText) is sent from Node.
import { isSecretInput } from './aria-name.js';
import { collapseSpace } from './aria-name.js';

import { deepActiveElement, isHtml } from './dom-describe.js';
import { parentOrHost } from './element-query.js';
import { describeElement, heldElement, holdElement } from './locate.js';
import { shadowOf } from './closed-shadow.js';

export function currentValue(el: Element): string {
  if (isHtml(el, 'input') || isHtml(el, 'textarea') || isHtml(el, 'select')) return el.value;
  return (el as HTMLElement).innerText ?? el.textContent ?? '';
}

/** Whether a held element is a secret field (its value must never be echoed). */
export function isSecretHeld(handle: number): boolean {
  const el = heldElement(handle);
  return isHtml(el, 'input') && isSecretInput(el);
}

/** Whether the element keys go to now is a secret field. */
export function isFocusSecret(): boolean {
  const el = deepActiveElement();
  return isHtml(el, 'input') && isSecretInput(el);
}

function isFocused(el: Element): boolean {
  return deepActiveElement() === el;
}

/** Focuses the field and selects what it holds, so inserted text replaces it (or places the caret at the end). */
export function prepareField(handle: number, clear: boolean): { ok: boolean; focused: boolean } {
  const el = heldElement(handle) as HTMLElement | undefined;
  if (!el || !el.isConnected) return { ok: false, focused: false };
  if (!isFocused(el)) el.focus({ preventScroll: true });
  const sel = getSelection();
  if (isHtml(el, 'input') || isHtml(el, 'textarea')) {
    try {
      if (clear) el.select();
      else el.setSelectionRange(el.value.length, el.value.length);
    } catch {
      // Types like number and email have no selection API: select() still works there; ignore the rest.
      if (clear) el.select();
    }
  } else if (el.isContentEditable && sel) {
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return { ok: true, focused: isFocused(el) };
}

/** Deletes the selected text the way a Backspace would (beforeinput/input events included). */
export function deleteSelection(handle: number): string {
  const el = heldElement(handle);
  if (!el) return '';
  document.execCommand('delete');
  return currentValue(el);
}

function sameValue(have: string, want: string, el: Element): boolean {
  const norm = (s: string): string => s.replace(/\r\n/g, '\n').replace(/\u00a0/g, ' ');
  if ((el as HTMLElement).isContentEditable) return norm(have).trim() === norm(want).trim();
  return norm(have) === norm(want);
}

/** After typing: did the field take the value? Fires change as a person leaving the field would. */
export function confirmValue(
  handle: number,
  want: string,
  fireChange: boolean,
): { value: string; ok: boolean; truncated?: boolean } {
  const el = heldElement(handle);
  if (!el) return { value: '', ok: false };
  const value = currentValue(el);
  const ok = sameValue(value, want, el);
  const max = (el as HTMLInputElement).maxLength;
  const truncated = !ok && max > 0 && want.startsWith(value) && value.length === max;
  if ((ok || truncated) && fireChange && !(el as HTMLElement).isContentEditable)
    el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: value.length > 200 ? `${value.slice(0, 200)}…` : value, ok, ...(truncated ? { truncated } : {}) };
}

/**
 * The native-setter strategy (SPEC §9.2 react): the prototype's value setter bypasses the
 * instance setter React and similar frameworks wrap, so their input handler sees a real change.
 */
export function setValueNatively(handle: number, value: string): { value: string; ok: boolean } {
  const el = heldElement(handle) as HTMLElement | undefined;
  if (!el) return { value: '', ok: false };
  if (el.isContentEditable) {
    el.focus();
    el.textContent = value;
    el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
  } else {
    const proto = isHtml(el, 'textarea')
      ? HTMLTextAreaElement.prototype
      : isHtml(el, 'select')
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (setter) setter.call(el, value);
    else (el as HTMLInputElement).value = value;
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  const now = currentValue(el);
  return { value: now.length > 200 ? `${now.slice(0, 200)}…` : now, ok: sameValue(now, value, el) };
}

export interface OptionChoice {
  values?: string[];
  labels?: string[];
  indexes?: number[];
}
type SelectOutcome =
  | { ok: true; selected: string[]; multiple: boolean }
  | { ok: false; message: string; options?: { value: string; label: string }[] };

export function selectOptions(handle: number, choice: OptionChoice): SelectOutcome {
  const el = heldElement(handle);
  if (!el || !isHtml(el, 'select')) return { ok: false, message: 'is not a <select>' };
  const options = Array.from(el.options);
  const label = (o: HTMLOptionElement): string => collapseSpace(o.label || o.text);
  const picked: HTMLOptionElement[] = [];
  const missing: string[] = [];
  for (const v of choice.values ?? []) {
    const o = options.find((x) => x.value === v) ?? options.find((x) => label(x) === v);
    if (o) picked.push(o);
    else missing.push(`value "${v}"`);
  }
  for (const l of choice.labels ?? []) {
    const o =
      options.find((x) => label(x) === collapseSpace(l)) ??
      options.find((x) => label(x).toLowerCase() === collapseSpace(l).toLowerCase());
    if (o) picked.push(o);
    else missing.push(`label "${l}"`);
  }
  for (const i of choice.indexes ?? []) {
    const o = options[i];
    if (o) picked.push(o);
    else missing.push(`index ${i}`);
  }
  const list = (): { value: string; label: string }[] =>
    options.slice(0, 10).map((o) => ({ value: o.value, label: label(o) }));
  if (missing.length)
    return {
      ok: false,
      message: `has no option with ${missing.join(', ')} (${options.length} options)`,
      options: list(),
    };
  if (picked.length > 1 && !el.multiple)
    return { ok: false, message: 'is a single-choice <select>; pass one value', options: list() };
  const disabled = picked.find((o) => o.disabled);
  if (disabled) return { ok: false, message: `option "${label(disabled)}" is disabled`, options: list() };
  for (const o of options) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, selected: Array.from(el.selectedOptions).map((o) => o.value), multiple: el.multiple };
}

/** A range input's value for a pointer at viewport x (SPEC §9.6), snapped to its step. */
export function setRangeAt(handle: number, x: number): { ok: boolean; value?: string } {
  const el = heldElement(handle);
  if (!el || !isHtml(el, 'input') || el.type !== 'range') return { ok: false };
  const r = el.getBoundingClientRect();
  const min = Number(el.min || 0);
  const max = Number(el.max || 100);
  const fraction = Math.min(1, Math.max(0, (x - r.left) / (r.width || 1)));
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  const raw = String(min + fraction * (max - min));
  if (setter) setter.call(el, raw);
  else el.value = raw; // the browser snaps to step
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, value: el.value };
}

/** The <input type=file> a target means: itself, its label's control, or one inside or near it. */
export function fileInputFor(
  handle: number,
  count: number,
  near: boolean,
): { ok: true; handle: number; desc: string } | { ok: false; message: string; category: string } {
  const el = heldElement(handle);
  if (!el) return { ok: false, message: 'was removed from the page', category: 'stale-ref' };
  const isFile = (e: Element | null | undefined): e is HTMLInputElement =>
    !!e && isHtml(e, 'input') && e.type === 'file';
  let input: HTMLInputElement | undefined;
  if (isFile(el)) input = el;
  else if (isHtml(el, 'label') && isFile(el.control)) input = el.control as HTMLInputElement;
  else {
    // Inside the control; with `near`, beside it a few levels up (never the whole body).
    const top = near ? 4 : 1;
    for (let scope: Element | null = el, up = 0; scope && up < top && !input; scope = parentOrHost(scope), up++) {
      if (up > 0 && (isHtml(scope, 'body') || isHtml(scope, 'html'))) break;
      const found = Array.from(scope.querySelectorAll('input[type=file]')).concat(
        shadowOf(scope) ? Array.from(shadowOf(scope)!.querySelectorAll('input[type=file]')) : [],
      );
      if (found.length === 1 || (found.length > 1 && up === 0)) input = found[0] as HTMLInputElement;
      else if (found.length > 1) break;
    }
  }
  if (!input)
    return { ok: false, message: 'is not a file input and none is inside or next to it', category: 'not-editable' };
  if (input.disabled) return { ok: false, message: 'has a disabled file input', category: 'disabled' };
  if (count > 1 && !input.multiple)
    return { ok: false, message: `takes one file (no "multiple" attribute), got ${count}`, category: 'validation' };
  return { ok: true, handle: holdElement(input), desc: describeElement(input) };
}

/**
 * Keyboard focus for a held element, as a click would give it: a label's control, the editing host
 * of text inside one; the caret goes to the end of what the field holds (typing appends).
 */
export function focusHeld(handle: number): { ok: true } | { ok: false; message: string } {
  const el = heldElement(handle);
  if (!el || !el.isConnected) return { ok: false, message: 'was removed from the page' };
  const control = isHtml(el, 'label') && el.control ? el.control : el;
  const host =
    (control as HTMLElement).isContentEditable && !control.matches('[contenteditable]')
      ? (control.closest('[contenteditable]') ?? control)
      : control;
  if (deepActiveElement() === host) return { ok: true };
  (host as HTMLElement).focus?.({ preventScroll: true });
  if (deepActiveElement() !== host)
    return {
      ok: false,
      message: `cannot take keyboard focus (<${host.localName}> is not an input, link, button, contenteditable or [tabindex])`,
    };
  if (isHtml(host, 'input') || isHtml(host, 'textarea')) {
    try {
      host.setSelectionRange(host.value.length, host.value.length);
    } catch {
      /* email, number: no caret API; the browser keeps its own */
    }
  } else if ((host as HTMLElement).isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(host);
    range.collapse(false);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  }
  return { ok: true };
}
