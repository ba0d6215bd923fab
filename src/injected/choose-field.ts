// The field a `choose` step names: which kind of select-like widget it is (a native <select>, an
// inline group, a control that opens a popup or a menu), found by its name among select-likes, and
// what it shows now, read as a person reads it. Runs in the page.
import { accessibleName, collapseSpace, isSecretInput } from './aria-name.js';
import { roleOf } from './aria-role.js';
import { shadowOf } from './closed-shadow.js';
import { isHtml, isVisible } from './dom-describe.js';
import { parentOrHost } from './element-query.js';
import { deepElements } from './ref-map.js';
import { isGroupOption } from './choose-options.js';

export type FieldKind = 'select' | 'select-multiple' | 'group' | 'popup' | 'menu';

const GROUP_ROLES = new Set(['radiogroup', 'group', 'tablist', 'toolbar', 'listbox']);
const OPENS = 'select, [role=combobox], input[aria-autocomplete], [aria-haspopup]:not([aria-haspopup=false])';
const INNER = `${OPENS}, [role=radiogroup], [role=listbox], input[type=radio]`;

/** The element that takes the choice, and how: the control itself, or the group around a radio. */
export function fieldOf(el: Element, depth = 0): { kind: FieldKind; control: Element } | undefined {
  if (depth > 4) return undefined;
  if (isHtml(el, 'select')) return { kind: el.multiple ? 'select-multiple' : 'select', control: el };
  if (isHtml(el, 'option')) return el.closest('select') ? fieldOf(el.closest('select')!, depth + 1) : undefined;
  if (isHtml(el, 'label') && el.control) return fieldOf(el.control, depth + 1);
  const role = el.getAttribute('role') ?? '';
  const popup = el.getAttribute('aria-haspopup');
  if (popup === 'menu' || (popup === 'true' && role !== 'combobox' && !isHtml(el, 'input')))
    return { kind: 'menu', control: el };
  if (el.matches(OPENS)) return { kind: 'popup', control: el };
  if (isGroupOption(el) && role !== 'option') {
    const group = el.closest('[role=radiogroup], [role=group], [role=tablist], fieldset') ?? el.parentElement;
    return group ? { kind: 'group', control: group } : undefined;
  }
  if (GROUP_ROLES.has(role) || el.localName === 'fieldset') return { kind: 'group', control: el };
  // A wrapper (antd's .ant-select, a custom element's shadow root): the control inside it.
  const inner = [...(shadowOf(el) ? deepElements(shadowOf(el)!) : []), ...deepElements(el)].find(
    (e) => e.matches(INNER) && isVisible(e),
  );
  if (inner) return fieldOf(inner, depth + 1);
  if (isHtml(el, 'input') && !isHtml(el, 'textarea')) return { kind: 'popup', control: el };
  return undefined;
}

/** Select-likes a label can name: their accessible name (label, aria-label(ledby), legend). */
const NAMED = `${INNER}, fieldset, [role=group]`;

function nameOf(el: Element): string {
  if (isHtml(el, 'fieldset')) return collapseSpace(el.querySelector('legend')?.textContent ?? '');
  // A <label for> naming an element HTML does not let labels name (antd's radiogroup <div>): what a person reads.
  const labelFor = el.id && !('labels' in el) ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
  return collapseSpace(labelFor?.textContent ?? accessibleName(el, roleOf(el)));
}

/** The select-like whose name is `label`: equal names first, then names that contain it. */
export function fieldByName(label: string, exact: boolean): Element | undefined {
  const want = collapseSpace(label).replace(/[*:]\s*$/, '');
  const fold = (s: string): string => (exact ? s : s.toLowerCase());
  const named = deepElements(document)
    .filter((el) => el.matches(NAMED) && (isVisible(el) || isHtml(el, 'select')))
    .map((el) => ({ el, name: fold(nameOf(el).replace(/[*:]\s*$/, '')) }));
  const equal = named.find((n) => n.name === fold(want));
  if (equal || exact) return equal?.el;
  return named.find((n) => n.name.startsWith(fold(want)))?.el ?? named.find((n) => n.name.includes(fold(want)))?.el;
}

/** Parts of a widget that are not its value: popups, live regions, labels, placeholders, hidden text. */
function isNotValue(el: Element): boolean {
  const role = el.getAttribute('role') ?? '';
  if (/^(listbox|menu|option|log|status|alert|tooltip)$/.test(role) || el.hasAttribute('aria-live')) return true;
  if (el.localName === 'label' || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('data-placeholder'))
    return true;
  if ((el.getAttribute('class') ?? '').split(/\s+/).some((c) => /placeholder$/i.test(c))) return true;
  const r = el.getBoundingClientRect();
  return r.width <= 1 || r.height <= 1;
}

/** Text pieces and input values under `root`, in order, skipping what is not the value. */
function pieces(root: Element, out: string[] = []): string[] {
  if (isNotValue(root)) return out;
  if (isHtml(root, 'input')) {
    if (root.value && !isSecretInput(root) && root.type !== 'hidden' && root.type !== 'radio')
      out.push(collapseSpace(root.value));
    return out;
  }
  const shadow = shadowOf(root);
  for (const node of Array.from((shadow ?? root).childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) {
      // Glyphs alone (a toggle's "\u25be", a clear button's "\u00d7") are controls, not the value.
      const t = collapseSpace(node.textContent ?? '');
      if (/[\p{L}\p{N}]/u.test(t)) out.push(t);
    } else if (node.nodeType === Node.ELEMENT_NODE) pieces(node as Element, out);
  }
  return out;
}

/** How far up from an input its widget's value may be shown: up to the first box holding another field or a label. */
function valueBox(control: Element): Element {
  if (!isHtml(control, 'input')) return control;
  let box: Element = control;
  for (let e = parentOrHost(control), up = 0; e && up < 4; e = parentOrHost(e), up++) {
    const others = e.querySelectorAll('input:not([type=hidden]), select, textarea, label, [role=combobox], output');
    if (Array.from(others).some((o) => o !== control) || e.querySelector('[role=listbox], [aria-live]')) break;
    box = e;
  }
  return box;
}

/** What the field shows now: its selected options, else the visible value text around the control. */
export function shownValue(control: Element): string[] {
  if (isHtml(control, 'select')) return Array.from(control.selectedOptions).map((o) => collapseSpace(o.text));
  if (control.getAttribute('role') === 'radiogroup' || isHtml(control, 'fieldset') || control.matches('[role=group]')) {
    const on = Array.from(
      control.querySelectorAll('input[type=radio], [role=radio], [aria-pressed], [role=tab]'),
    ).filter(
      (o) =>
        (o as HTMLInputElement).checked ||
        /true/.test(
          `${o.getAttribute('aria-checked')}${o.getAttribute('aria-pressed')}${o.getAttribute('aria-selected')}`,
        ),
    );
    return on.map((o) => collapseSpace(accessibleName(o, roleOf(o))));
  }
  if (control.hasAttribute('data-placeholder')) return [];
  return pieces(valueBox(control));
}
