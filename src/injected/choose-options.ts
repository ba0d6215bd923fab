// What counts as an option of a select-like widget, and how one reads: ARIA first (option, menu
// items, tree items; radios and toggle buttons in a group), then the class names libraries give
// rows ARIA leaves unnamed (antd's virtual rows sit beside a hidden listbox). Runs in the page.
import { accessibleName } from './aria-name.js';
import { roleOf } from './aria-role.js';
import { isHtml, isVisible } from './dom-describe.js';
import { deepElements } from './ref-map.js';

const POPUP_ROLES = new Set(['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
const GROUP_ROLES = new Set(['radio', 'option', 'tab', 'menuitemradio', 'menuitemcheckbox']);
/** The containers a column of options lives in (a cascader's menus, a submenu, a listbox). */
const COLUMN_ROLES = new Set(['listbox', 'menu', 'menubar', 'tree', 'grid', 'radiogroup', 'tablist']);

function classTokens(el: Element): string[] {
  const c = el.getAttribute('class');
  return c ? c.split(/\s+/) : [];
}

const hasClassEnding = (el: Element, end: RegExp): boolean => classTokens(el).some((t) => end.test(t));

/** An option of a popup: by its role, else a row whose class says option (react-select, antd). */
export function isPopupOption(el: Element): boolean {
  const role = el.getAttribute('role');
  if (role) return POPUP_ROLES.has(role);
  if (el.localName === 'option' || el.localName === 'sl-option') return true;
  return hasClassEnding(el, /(^|[-_])option$/i) && !el.querySelector('[role=option]');
}

/** An option of an inline group: radios, toggle buttons, tabs, listbox options. */
export function isGroupOption(el: Element): boolean {
  const role = el.getAttribute('role') ?? '';
  if (GROUP_ROLES.has(role)) return true;
  if (isHtml(el, 'input')) return el.type === 'radio';
  if (el.localName === 'option') return true;
  return isHtml(el, 'button') && el.hasAttribute('aria-pressed');
}

/** Options under `root` (shadow roots included) that a person can see. */
export function visibleOptions(root: Document | Element, group = false): Element[] {
  const test = group ? isGroupOption : isPopupOption;
  return deepElements(root).filter((el) => test(el) && (isVisible(el) || shownByLabel(el)));
}

/** A radio drawn by its label (the input itself hidden, as antd Segmented's). */
function shownByLabel(el: Element): boolean {
  return isHtml(el, 'input') && Array.from(el.labels ?? []).some((l) => isVisible(l));
}

/** The column an option is in: its listbox or menu, else its parent (a virtual list's row holder). */
export function columnOf(el: Element): Element {
  for (let e = el.parentElement; e; e = e.parentElement) {
    if (COLUMN_ROLES.has(e.getAttribute('role') ?? '') && isVisible(e)) return e;
  }
  return el.parentElement ?? el;
}

/** An option's text as lines: its name first, its secondary text after (innerText's line breaks). */
export function optionLines(el: Element): string[] {
  if (isHtml(el, 'option')) return [el.label || el.text];
  if (isHtml(el, 'input')) return [accessibleName(el, roleOf(el))];
  const text = (el as HTMLElement).innerText ?? el.textContent ?? '';
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length ? lines : [accessibleName(el, roleOf(el))];
}

const TRUE = (el: Element, attr: string): boolean => el.getAttribute(attr) === 'true';

export function isOptionDisabled(el: Element): boolean {
  if ((el as HTMLOptionElement).disabled) return true;
  if (TRUE(el, 'aria-disabled') || el.hasAttribute('data-disabled')) return true;
  if (isHtml(el, 'option') && el.parentElement && isHtml(el.parentElement, 'optgroup'))
    return el.parentElement.disabled;
  return hasClassEnding(el, /(^|[-_])disabled$/i);
}

export function isOptionSelected(el: Element): boolean {
  if (isHtml(el, 'option')) return el.selected;
  if (isHtml(el, 'input')) return el.checked;
  if (TRUE(el, 'aria-selected') || TRUE(el, 'aria-checked') || TRUE(el, 'aria-pressed')) return true;
  return hasClassEnding(el, /(^|[-_])(selected|checked)$/i);
}

/** Choosing it opens a next level (a submenu, a cascader's next column) instead of choosing. */
export function optionExpands(el: Element): boolean {
  const popup = el.getAttribute('aria-haspopup');
  if (popup && popup !== 'false') return true;
  return hasClassEnding(el, /(^|[-_])expand$/i);
}
