// Elements a click toggles (issue 22 item 4): which state they carry (checked, pressed, selected,
// expanded), what a click must do to it, and where a person clicks to toggle one whose box is drawn
// by a ::before/::after marker (Lexical's checklist items tick only there, not at their centre).
// Runs in the page.
import { roleOf } from './aria-role.js';
import { isHtml } from './dom-describe.js';
import { heldElement } from './locate.js';

export type ToggleField = 'checked' | 'pressed' | 'selected' | 'expanded';
/** flip: a click must change it; on: it must end on (a radio, a tab); any: told, never judged. */
export type ToggleRule = 'flip' | 'on' | 'any';
export interface ToggleState {
  field: ToggleField;
  /** `true`, `false` or `mixed`. */
  value: string;
  rule: ToggleRule;
}

const CHECKED_RULES: Record<string, ToggleRule> = {
  checkbox: 'flip',
  switch: 'flip',
  menuitemcheckbox: 'flip',
  radio: 'on',
  menuitemradio: 'on',
};
/** A tab clicked is shown; an option or a row may be one of many (told, not judged). */
const SELECTED_RULES: Record<string, ToggleRule> = {
  tab: 'on',
  option: 'any',
  treeitem: 'any',
  gridcell: 'any',
  row: 'any',
};

const tri = (v: string | null): string => (v === 'true' || v === 'mixed' ? v : 'false');

/** The state a click on `el` toggles, if it has one. */
export function toggleStateOf(el: Element): ToggleState | undefined {
  if (isHtml(el, 'input') && (el.type === 'checkbox' || el.type === 'radio'))
    return {
      field: 'checked',
      value: el.indeterminate ? 'mixed' : String(el.checked),
      rule: el.type === 'radio' ? 'on' : 'flip',
    };
  const role = roleOf(el);
  const checked = CHECKED_RULES[role];
  if (checked) return { field: 'checked', value: tri(el.getAttribute('aria-checked')), rule: checked };
  if (role === 'button' && el.hasAttribute('aria-pressed'))
    return { field: 'pressed', value: tri(el.getAttribute('aria-pressed')), rule: 'flip' };
  const selected = SELECTED_RULES[role];
  if (selected && el.hasAttribute('aria-selected'))
    return { field: 'selected', value: tri(el.getAttribute('aria-selected')), rule: selected };
  if (el.localName === 'summary' && isHtml(el.parentElement, 'details'))
    return { field: 'expanded', value: String(el.parentElement.open), rule: 'flip' };
  if (el.hasAttribute('aria-expanded'))
    return {
      field: 'expanded',
      value: tri(el.getAttribute('aria-expanded')),
      rule: role === 'button' || role === 'link' ? 'flip' : 'any',
    };
  return undefined;
}

/** The state of a held element now (undefined: it has none, or it left the document). */
export function heldToggleState(handle: number): ToggleState | undefined {
  const el = heldElement(handle);
  return el?.isConnected ? toggleStateOf(el) : undefined;
}

/** Whether `now` is what a click on an element `before` should leave. */
function settledAs(before: ToggleState, now: ToggleState | undefined): boolean {
  if (!now || before.rule === 'any') return true;
  return before.rule === 'on' ? now.value === 'true' : now.value !== before.value;
}

/**
 * The state after a click, waited for (at most `waitMs`, polled) while it is not yet what the
 * click should leave: libraries commit a toggle in a microtask, a frame or a re-render.
 */
export async function toggleAfter(
  handle: number,
  before: ToggleState,
  waitMs: number,
): Promise<ToggleState | undefined> {
  const until = Date.now() + waitMs;
  let now = heldToggleState(handle);
  while (!settledAs(before, now) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    now = heldToggleState(handle);
  }
  return now;
}

/** A marker this size draws a box to tick, not text or an icon row. */
const MARKER_MIN_PX = 6;
const MARKER_MAX_PX = 48;

/**
 * The centre of the box a ::before/::after marker draws for a checkbox-like element that is not a
 * native input, in viewport coordinates — where a person clicks to tick it. Undefined when no
 * marker draws a box there (a border, a background or an image of box size).
 */
export function markerPoint(el: Element): { x: number; y: number } | undefined {
  if (isHtml(el, 'input') || !CHECKED_RULES[roleOf(el)]) return undefined;
  for (const pseudo of ['::before', '::after'] as const) {
    const s = getComputedStyle(el, pseudo);
    if (s.content === 'none' || s.content === 'normal' || s.display === 'none') continue;
    const w = parseFloat(s.width);
    const h = parseFloat(s.height);
    if (!(w >= MARKER_MIN_PX && h >= MARKER_MIN_PX && w <= MARKER_MAX_PX && h <= MARKER_MAX_PX)) continue;
    const drawn =
      parseFloat(s.borderTopWidth) > 0 ||
      s.backgroundColor !== 'rgba(0, 0, 0, 0)' ||
      s.backgroundImage !== 'none' ||
      /url\(/.test(s.content);
    if (!drawn) continue;
    const at = markerOrigin(el, s, pseudo, w, h);
    if (at) return { x: at.x + w / 2, y: at.y + h / 2 };
  }
  return undefined;
}

/** The top-left corner of a marker box: positioned against its element's padding box, or first in its content. */
function markerOrigin(
  el: Element,
  s: CSSStyleDeclaration,
  pseudo: '::before' | '::after',
  w: number,
  h: number,
): { x: number; y: number } | undefined {
  const r = el.getBoundingClientRect();
  const own = getComputedStyle(el);
  const px = (v: string): number => parseFloat(v) || 0;
  const padLeft = r.left + px(own.borderLeftWidth);
  const padTop = r.top + px(own.borderTopWidth);
  if (s.position === 'absolute') {
    if (own.position === 'static') return undefined; // placed against some ancestor: not sure where
    const left = s.left === 'auto' ? el.clientWidth - px(s.right) - w : px(s.left);
    const top = s.top === 'auto' ? el.clientHeight - px(s.bottom) - h : px(s.top);
    return { x: padLeft + left, y: padTop + top };
  }
  // In flow, only a ::before is surely at a known place: first in the content box. An ::after
  // follows the text, wherever its last line ends.
  if (pseudo !== '::before' || (s.position !== 'static' && s.position !== 'relative')) return undefined;
  const shift = s.position === 'relative' ? { x: px(s.left), y: px(s.top) } : { x: 0, y: 0 };
  return {
    x: padLeft + px(own.paddingLeft) + px(s.marginLeft) + shift.x,
    y: padTop + px(own.paddingTop) + px(s.marginTop) + shift.y,
  };
}
