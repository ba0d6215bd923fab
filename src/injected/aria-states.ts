// The states an accessibility snapshot node carries: checked, expanded, selected, values, a
// slider's range, a link's URL, a field's name. Runs in the page.
import { controlValue } from './aria-name.js';

import { deepActiveElement, isHtml, shortUrl } from './dom-describe.js';
import type { AriaNode } from './aria-snapshot.js';

/** Roles that are not controls but are often made clickable (a calendar's day cell, a row, a list item). */
export function isClickablePlainRole(role: string): boolean {
  return (
    role === 'cell' ||
    role === 'row' ||
    role === 'listitem' ||
    role === 'img' ||
    role === 'figure' ||
    role === 'article'
  );
}

/** A slider's (or spin button's) range: [min=0] [max=100] [step=5], so an agent knows the choices. */
function rangeStates(el: Element, role: string, node: AriaNode): void {
  if (role !== 'slider' && role !== 'spinbutton') return;
  if (isHtml(el, 'input')) {
    const range = el.type === 'range';
    const min = el.getAttribute('min') ?? (range ? '0' : null);
    const max = el.getAttribute('max') ?? (range ? '100' : null);
    const step = el.getAttribute('step') ?? (range ? '1' : null);
    if (min !== null && min !== '') node.min = min;
    if (max !== null && max !== '') node.max = max;
    if (step !== null && step !== '' && step !== 'any') node.step = step;
    return;
  }
  const min = el.getAttribute('aria-valuemin');
  const max = el.getAttribute('aria-valuemax');
  if (min) node.min = min;
  if (max) node.max = max;
}

export function nodeStates(el: Element, role: string, node: AriaNode): void {
  const aria = (name: string): string | null => el.getAttribute(`aria-${name}`);
  if (
    role === 'checkbox' ||
    role === 'radio' ||
    role === 'switch' ||
    role === 'menuitemcheckbox' ||
    role === 'menuitemradio'
  ) {
    if (isHtml(el, 'input')) node.checked = el.indeterminate ? 'mixed' : el.checked ? 'true' : 'false';
    else {
      const c = aria('checked');
      node.checked = c === 'mixed' ? 'mixed' : c === 'true' ? 'true' : 'false';
    }
  }
  if (el.matches(':disabled') || aria('disabled') === 'true') node.disabled = true;
  const expanded = aria('expanded');
  if (expanded === 'true' || expanded === 'false') node.expanded = expanded === 'true';
  else if (el.localName === 'summary' && isHtml(el.parentElement, 'details')) node.expanded = el.parentElement.open;
  const pressed = aria('pressed');
  if (pressed === 'true' || pressed === 'false' || pressed === 'mixed') node.pressed = pressed;
  if ((isHtml(el, 'option') && el.selected) || aria('selected') === 'true') node.selected = true;
  if ((el as HTMLInputElement).required || aria('required') === 'true') node.required = true;
  const invalid = aria('invalid');
  if ((invalid && invalid !== 'false') || el.matches(':user-invalid')) node.invalid = true;
  if (el === deepActiveElement()) node.focused = true;
  if (role === 'heading') {
    const level = Number(aria('level')) || Number(/^h([1-6])$/.exec(el.localName)?.[1]);
    if (level) node.level = level;
  }
  if (role === 'link') {
    const href = el.getAttribute('href');
    if (href !== null) node.url = shortUrl((el as HTMLAnchorElement).href || href);
  }
  const value = controlValue(el, role);
  if (value !== undefined && role !== 'checkbox' && role !== 'radio') node.value = value;
  const field = el.getAttribute('name');
  if (field && (isHtml(el, 'input') || isHtml(el, 'select') || isHtml(el, 'textarea'))) node.field = field;
  if (isHtml(el, 'input') && /^(date|datetime-local|time|month|week|file|color)$/.test(el.type)) node.type = el.type;
  rangeStates(el, role, node);
  const live = aria('live');
  if (role === 'status' || role === 'alert' || role === 'log' || (live && live !== 'off')) node.live = 1;
}
