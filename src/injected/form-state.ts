// Forms as an agent needs them (SPEC §11.10–11.12): fields with labels and values (passwords
// masked), HTML constraint validity read without firing `invalid` events, and submitting the way
// a user does (requestSubmit with the default button). Runs in the page.
import { isSecretInput } from './aria-name.js';
import { accessibleName, collapseSpace } from './aria-name.js';
import { roleOf } from './aria-role.js';
import { isHtml, isVisible, selectorFor } from './dom-describe.js';
import { describeElement, heldElement } from './locate.js';
import { REDACTED } from '../shared/index.js';

interface FieldState {
  selector: string;
  name?: string;
  type: string;
  label?: string;
  value: string | string[] | null;
  checked?: boolean;
  options?: string[];
  required?: true;
  disabled?: true;
  readOnly?: true;
  valid: boolean;
  message?: string;
}
interface FormStateResult {
  ok: true;
  form?: string;
  valid: boolean;
  fieldCount: number;
  fields: FieldState[];
}
export interface InvalidField {
  selector: string;
  name?: string;
  message: string;
  validity: string[];
}
interface ValidityResult {
  ok: true;
  valid: boolean;
  message?: string;
  validity?: Record<string, true>;
  invalid?: InvalidField[];
}
export type FormFailure = { ok: false; reason: 'gone' | 'no-form' | 'not-field'; desc?: string };
type SubmitOutcome =
  | { ok: true; submitted: boolean; prevented: boolean; form: string; submitter?: string }
  | { ok: false; reason: 'invalid'; form: string; invalid: InvalidField[] }
  | { ok: false; reason: 'disabled'; form: string; submitter: string }
  | FormFailure;

/** Controls a user fills in: inputs (not buttons or hidden), selects, textareas, form-associated custom elements. */
function isFormField(el: Element): boolean {
  if (isHtml(el, 'input')) return !['hidden', 'submit', 'reset', 'button', 'image'].includes(el.type);
  return isHtml(el, 'select') || isHtml(el, 'textarea') || (el.localName.includes('-') && 'validity' in el);
}

/** The fields of a form (form.elements, so form="id" fields count) or of any container (SPA forms without <form>). */
function fieldsOf(scope: Element): Element[] {
  const all = isHtml(scope, 'form')
    ? Array.from(scope.elements)
    : Array.from(scope.querySelectorAll('input, select, textarea'));
  return all.filter(isFormField);
}

/** The flags of a ValidityState that are set (valueMissing, typeMismatch, …). */
function validityFlags(v: ValidityState): string[] {
  const flags: string[] = [];
  for (const k of [
    'valueMissing',
    'typeMismatch',
    'patternMismatch',
    'tooLong',
    'tooShort',
    'rangeUnderflow',
    'rangeOverflow',
    'stepMismatch',
    'badInput',
    'customError',
  ] as const) {
    if (v[k]) flags.push(k);
  }
  return flags;
}

/** Valid when it takes part in validation and passes it; read without firing `invalid` events. */
function fieldValidity(el: Element): { valid: boolean; message: string; flags: string[] } {
  const f = el as HTMLInputElement;
  if (!f.validity || f.willValidate === false) return { valid: true, message: '', flags: [] };
  return { valid: f.validity.valid, message: f.validationMessage ?? '', flags: validityFlags(f.validity) };
}

function fieldLabel(el: Element): string | undefined {
  const name = collapseSpace(accessibleName(el, roleOf(el)));
  const label = name || el.getAttribute('placeholder') || '';
  return label ? (label.length > 80 ? `${label.slice(0, 79)}…` : label) : undefined;
}

/** One field's state; radios of one name are one field (its value is the checked one's). */
function fieldState(el: Element, group: Element[]): FieldState {
  const f = el as HTMLInputElement;
  const type = isHtml(el, 'select')
    ? el.multiple
      ? 'select-multiple'
      : 'select'
    : isHtml(el, 'textarea')
      ? 'textarea'
      : isHtml(el, 'input')
        ? f.type
        : el.localName;
  const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 199)}…` : s);
  let value: FieldState['value'];
  const extra: Partial<FieldState> = {};
  if (isHtml(el, 'select')) {
    const chosen = Array.from(el.selectedOptions).map((o) => o.value);
    value = el.multiple ? chosen : (chosen[0] ?? null);
    extra.options = Array.from(el.options)
      .slice(0, 20)
      .map((o) => clip(o.value === collapseSpace(o.text) ? o.value : `${o.value || '""'} (${collapseSpace(o.text)})`));
  } else if (type === 'radio') {
    const on = group.find((r) => (r as HTMLInputElement).checked) as HTMLInputElement | undefined;
    value = on ? on.value : null;
    extra.options = group.slice(0, 20).map((r) => (r as HTMLInputElement).value);
  } else if (type === 'checkbox') {
    value = f.value;
    extra.checked = f.checked;
  } else if (type === 'file') {
    value = Array.from(f.files ?? []).map((file) => file.name);
  } else if (isHtml(el, 'input') && isSecretInput(el)) {
    value = f.value ? REDACTED : ''; // a secret: never echoed, not even its length
  } else {
    value = clip(String(f.value ?? ''));
  }
  const v =
    group.length > 1 ? (group.map(fieldValidity).find((x) => !x.valid) ?? fieldValidity(el)) : fieldValidity(el);
  const label = type === 'radio' && group.length > 1 ? groupLabel(el) : fieldLabel(el);
  const name = f.getAttribute('name') ?? undefined;
  return {
    selector: type === 'radio' && name && group.length > 1 ? `input[name="${name}"]` : selectorFor(el),
    ...(name ? { name } : {}),
    type,
    ...(label ? { label } : {}),
    value,
    ...extra,
    ...(f.required ? { required: true as const } : {}),
    ...(f.disabled ? { disabled: true as const } : {}),
    ...(f.readOnly && type !== 'radio' && type !== 'checkbox' ? { readOnly: true as const } : {}),
    valid: v.valid,
    ...(v.valid ? {} : { message: v.message }),
  };
}

/** A radio group's label: its fieldset legend or radiogroup name, else the first radio's label. */
function groupLabel(el: Element): string | undefined {
  const legend = el.closest('fieldset')?.querySelector('legend');
  if (legend) return collapseSpace(legend.textContent ?? '').slice(0, 80);
  const group = el.closest('[role="radiogroup"]');
  if (group) return collapseSpace(accessibleName(group, 'radiogroup')).slice(0, 80) || undefined;
  return fieldLabel(el);
}

/** Forms as a user meets them: <form> elements and `role=form` containers (SPA forms), in document order. */
const FORM_SELECTOR = 'form, [role="form"]';

/** The page's form when none is named: the first shown (a <form> or a role=form container), else the first at all. */
function firstForm(): Element | undefined {
  const all = Array.from(document.querySelectorAll(FORM_SELECTOR));
  return all.find((f) => isVisible(f) && fieldsOf(f).length) ?? all.find(isVisible) ?? all[0];
}

/** The form (or field container) a held element belongs to; the page's form when no handle. */
function formScope(handle: number | undefined): Element | FormFailure {
  if (handle === undefined) return firstForm() ?? { ok: false, reason: 'no-form' };
  const el = heldElement(handle);
  if (!el || !el.isConnected) return { ok: false, reason: 'gone' };
  if (el.matches(FORM_SELECTOR)) return el;
  const owner = (el as HTMLInputElement).form ?? el.closest(FORM_SELECTOR);
  if (owner) return owner;
  return el.querySelector('input, select, textarea') ? el : { ok: false, reason: 'no-form', desc: describeElement(el) };
}

/** SPEC §11.10: every field of the form with its label, value and validity. */
export function formState(handle: number | undefined): FormStateResult | FormFailure {
  const scope = formScope(handle);
  if (!(scope instanceof Element)) return scope;
  const fields: FieldState[] = [];
  const seenRadio = new Set<string>();
  const all = fieldsOf(scope);
  for (const el of all) {
    let group = [el];
    const name = el.getAttribute('name');
    if (isHtml(el, 'input') && el.type === 'radio' && name) {
      if (seenRadio.has(name)) continue;
      seenRadio.add(name);
      group = all.filter((r) => isHtml(r, 'input') && r.type === 'radio' && r.getAttribute('name') === name);
    }
    fields.push(fieldState(el, group));
  }
  // A huge form answers 100 fields, the invalid ones first; fieldCount counts them all.
  const shown =
    fields.length > 100 ? [...fields.filter((f) => !f.valid), ...fields.filter((f) => f.valid)].slice(0, 100) : fields;
  return {
    ok: true,
    ...((handle !== undefined && scope !== heldElement(handle)) || (handle === undefined && !isHtml(scope, 'form'))
      ? { form: formName(scope) }
      : {}),
    valid: fields.every((f) => f.valid),
    fieldCount: fields.length,
    fields: shown,
  };
}

/** How the answer names the form it read: its selector, and its name when it has one (`form "Workspace settings"`). */
function formName(form: Element): string {
  const name = collapseSpace(accessibleName(form, 'form')).slice(0, 80);
  return name ? `${selectorFor(form)} (form "${name}")` : selectorFor(form);
}

function invalidFields(scope: Element): InvalidField[] {
  const out: InvalidField[] = [];
  for (const el of fieldsOf(scope)) {
    const v = fieldValidity(el);
    if (v.valid) continue;
    const name = el.getAttribute('name');
    out.push({ selector: selectorFor(el), ...(name ? { name } : {}), message: v.message, validity: v.flags });
  }
  return out;
}

/** SPEC §11.11: a field's validity (message and flags), or a form's (its invalid fields). */
export function validateHeld(handle: number): ValidityResult | FormFailure {
  const el = heldElement(handle);
  if (!el || !el.isConnected) return { ok: false, reason: 'gone' };
  if (isHtml(el, 'form') || (!('validity' in el) && el.querySelector('input, select, textarea'))) {
    const invalid = invalidFields(el);
    return { ok: true, valid: !invalid.length, ...(invalid.length ? { invalid } : {}) };
  }
  if (!('validity' in el)) return { ok: false, reason: 'not-field', desc: describeElement(el) };
  const v = fieldValidity(el);
  const validity: Record<string, true> = {};
  for (const flag of v.flags) validity[flag] = true;
  return {
    ok: true,
    valid: v.valid,
    ...(v.message ? { message: v.message } : {}),
    ...(v.flags.length ? { validity } : {}),
  };
}

/**
 * SPEC §11.12: submits the form of a held element (a form, a submit button, or a field in it) as a
 * user would — requestSubmit with that button or the form's default button, so the page's submit
 * handlers run. An invalid form is not submitted: the browser shows its messages (reportValidity)
 * and the invalid fields come back.
 */
export function submitHeld(handle: number): SubmitOutcome {
  const el = heldElement(handle);
  if (!el || !el.isConnected) return { ok: false, reason: 'gone' };
  const form = isHtml(el, 'form') ? el : ((el as HTMLButtonElement).form ?? el.closest('form'));
  if (!form) return { ok: false, reason: 'no-form', desc: describeElement(el) };
  const isSubmitter = (b: Element | null): b is HTMLButtonElement =>
    !!b &&
    (isHtml(b, 'button') || isHtml(b, 'input')) &&
    ((b as HTMLButtonElement).type === 'submit' || (b as HTMLInputElement).type === 'image');
  const submitter = isSubmitter(el) ? el : (Array.from(form.elements).find(isSubmitter) ?? null);
  const formSel = selectorFor(form);
  // A user can't press a disabled button, and Enter does not submit past a disabled default button.
  if (submitter?.disabled) return { ok: false, reason: 'disabled', form: formSel, submitter: selectorFor(submitter) };
  if (!form.noValidate && !submitter?.formNoValidate) {
    const invalid = invalidFields(form);
    if (invalid.length) {
      form.reportValidity();
      return { ok: false, reason: 'invalid', form: formSel, invalid };
    }
  }
  let seen: SubmitEvent | undefined;
  const listen = (e: Event): void => {
    if (e.target === form) seen = e as SubmitEvent;
  };
  window.addEventListener('submit', listen, true);
  try {
    form.requestSubmit(submitter);
  } finally {
    window.removeEventListener('submit', listen, true);
  }
  return {
    ok: true,
    submitted: !!seen,
    prevented: !!seen?.defaultPrevented,
    form: formSel,
    ...(submitter ? { submitter: selectorFor(submitter) } : {}),
  };
}
