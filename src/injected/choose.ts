// The page side of `choose` (dom/choose.ts drives it): the field and its kind, the options its popup
// shows wherever it renders them (ARIA links first, then what appeared since the step began:
// portals, shadow roots), the one option an agent's words name, and what the field shows after.
import { deepActiveElement, isHtml, isVisible } from './dom-describe.js';
import { cachedName, cachedRole, refContext, refOf } from './element-query.js';
import { describeElement, heldElement, holdElement, targetName } from './locate.js';
import { deepElements, syncCounters, type Counters } from './ref-map.js';
import { state } from './state.js';
import {
  columnOf,
  isOptionDisabled,
  isOptionSelected,
  optionExpands,
  optionLines,
  visibleOptions,
} from './choose-options.js';
import { fieldByName, fieldOf, shownValue, type FieldKind } from './choose-field.js';
import { MATCH, optionLabel, optionName, optionScore, parseOptionWant } from '../shared/index.js';

export type { FieldKind } from './choose-field.js';

/** What the runtime keeps for one choose step: the options and notices visible when it began. */
export interface ChooseMark {
  options: WeakSet<Element>;
  notices: WeakSet<Element>;
}

export type FieldInfo =
  | {
      ok: true;
      kind: FieldKind;
      control: number;
      /** The control's ref, for pressing it through the shared actionability path. */
      ref: string;
      counters: Counters;
      name: string;
      editable: boolean;
      expanded?: boolean;
      disabled: boolean;
      shows: string[];
    }
  | { ok: false; desc: string };

/** The select-like `handle` is or holds, held for the rest of the step. */
export function field(handle: number, counters: Counters | undefined): FieldInfo {
  const el = heldElement(handle);
  if (!el) return { ok: false, desc: 'the element (gone)' };
  const f = fieldOf(el);
  if (!f) return { ok: false, desc: describeElement(el) };
  const c = f.control;
  const expanded = c.getAttribute('aria-expanded');
  const editable = isHtml(c, 'input') && !c.readOnly && !c.disabled;
  const ctx = refContext(counters);
  const role = cachedRole(ctx, c);
  const { ref } = refOf(ctx, c, role, cachedName(ctx, c, role));
  return {
    ok: true,
    kind: f.kind,
    control: holdElement(c),
    ref,
    counters: syncCounters(undefined),
    name: targetName(c),
    editable,
    ...(expanded !== null ? { expanded: expanded === 'true' } : {}),
    disabled: (c as HTMLInputElement).disabled === true || c.getAttribute('aria-disabled') === 'true',
    shows: shownValue(c),
  };
}

/** The select-like named `label` (its label, aria-label, legend), held; undefined when none is. */
export function findField(label: string, exact: boolean): { handle: number; desc: string; name: string } | undefined {
  const el = fieldByName(label, exact);
  return el ? { handle: holdElement(el), desc: describeElement(el), name: targetName(el) } : undefined;
}

const LOADING = /^(loading|searching|fetching)\b/i;
const EMPTY = /^(no (options?|results?|matches|data|items)|nothing found|not found)\b/i;

/** Short messages a popup shows instead of options: "Loading…", "No options". */
function notices(): Element[] {
  return deepElements(document).filter((el) => {
    if (el.getAttribute('role') === 'progressbar' || el.getAttribute('aria-busy') === 'true') return isVisible(el);
    const own = Array.from(el.childNodes)
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent ?? '')
      .join('')
      .trim();
    return own.length > 0 && own.length < 60 && (LOADING.test(own) || EMPTY.test(own)) && isVisible(el);
  });
}

/** Call before opening: what is visible now is not the popup's. */
export function markOptions(): void {
  state.choose = { options: new WeakSet(visibleOptions(document)), notices: new WeakSet(notices()) };
}

/** Elements an IDREF attribute of `el` names, in its own tree (a shadow root) or the document. */
function linked(el: Element): Element[] {
  const ids = new Set(`${el.getAttribute('aria-controls') ?? ''} ${el.getAttribute('aria-owns') ?? ''}`.split(/\s+/));
  const root = el.getRootNode() as Document | ShadowRoot;
  return [...ids].filter(Boolean).flatMap((id) => root.getElementById(id) ?? document.getElementById(id) ?? []);
}

/** A linked popup's options; a hidden one (antd's zero-size listbox) stands for the rows beside it. */
function linkedOptions(control: Element): Element[] {
  const out: Element[] = [];
  for (const region of linked(control)) {
    let found = visibleOptions(region);
    for (let e = region.parentElement, up = 0; !found.length && e && up < 4; e = e.parentElement, up++) {
      if (e.contains(control) || e === document.body) break;
      found = visibleOptions(e);
    }
    out.push(...found);
  }
  return out;
}

/** The options of the field's popup (or group), in order, without the columns already used. */
function currentOptions(control: Element, group: boolean, exclude: Element[]): Element[] {
  let all: Element[];
  if (group) all = visibleOptions(control, true);
  else {
    const mark = state.choose;
    const fromLinks = linkedOptions(control);
    const fresh = visibleOptions(document).filter((o) => !mark?.options.has(o) && !control.contains(o));
    all = [...fromLinks, ...fresh.filter((o) => !fromLinks.includes(o))];
  }
  return all.filter((o) => !exclude.includes(columnOf(o)));
}

export interface SeenOption {
  label: string;
  disabled?: true;
  selected?: true;
}

export interface Match extends SeenOption {
  ref: string;
  column: number;
  expands: boolean;
  /** A menu's checkbox or radio item: its checked state is what choosing it changes. */
  checkable?: true;
  /** The option's first line: what the field shows once it is chosen. */
  name: string;
}

export interface LookRequest {
  control: number;
  want: string;
  exact: boolean;
  /** Columns of the levels already chosen (a cascader's, a submenu's parent menu). */
  exclude: number[];
  group: boolean;
  counters?: Counters;
}

export interface Look {
  expanded?: boolean;
  loading: boolean;
  empty: boolean;
  options: SeenOption[];
  total: number;
  match?: Match;
  /** Several options match equally: each as "name — secondary". */
  ambiguous?: string[];
  counters?: Counters;
}

const LISTED_MAX = 40;

function seen(el: Element): SeenOption {
  return {
    label: optionLabel(optionLines(el)).slice(0, 120),
    ...(isOptionDisabled(el) ? { disabled: true as const } : {}),
    ...(isOptionSelected(el) ? { selected: true as const } : {}),
  };
}

/** One look at the popup: its options, whether it is still loading, and the option `want` names. */
export function look(req: LookRequest): Look {
  const control = heldElement(req.control);
  if (!control) return { loading: false, empty: false, options: [], total: 0 };
  const exclude = req.exclude.map((h) => heldElement(h)).filter((e): e is Element => !!e);
  const options = currentOptions(control, req.group, exclude);
  const mark = state.choose;
  const news = req.group ? [] : notices().filter((n) => !mark?.notices.has(n));
  const expanded = control.getAttribute('aria-expanded');
  const out: Look = {
    ...(expanded !== null ? { expanded: expanded === 'true' } : {}),
    loading: news.some((n) => !EMPTY.test((n.textContent ?? '').trim())),
    empty: news.some((n) => EMPTY.test((n.textContent ?? '').trim())),
    options: options.slice(0, LISTED_MAX).map(seen),
    total: options.length,
  };
  const want = parseOptionWant(req.want);
  const scored = options.map((el) => ({ el, score: optionScore(want, optionLines(el), req.exact) }));
  const best = Math.max(MATCH.none, ...scored.map((s) => s.score));
  if (best === MATCH.none) return out;
  const top = scored.filter((s) => s.score === best);
  // The same option in two columns (a cascader's open path): the first column's is meant.
  const firstColumn = columnOf(top[0]!.el);
  const hits = top.filter((s) => columnOf(s.el) === firstColumn);
  if (hits.length > 1) return { ...out, ambiguous: hits.map((s) => seen(s.el).label) };
  return { ...out, ...matchOf(hits[0]!.el, req.counters) };
}

function matchOf(el: Element, counters: Counters | undefined): { match: Match; counters: Counters } {
  const ctx = refContext(counters);
  const role = cachedRole(ctx, el);
  const { ref } = refOf(ctx, el, role, cachedName(ctx, el, role));
  return {
    match: {
      ...seen(el),
      ref,
      column: holdElement(columnOf(el)),
      expands: optionExpands(el),
      ...(/^menuitem(checkbox|radio)$/.test(role) ? { checkable: true as const } : {}),
      name: optionName(optionLines(el)),
    },
    counters: syncCounters(undefined),
  };
}

/** What the field shows now, and whether its popup is open. */
export function readBack(control: number): { shows: string[]; expanded?: boolean; gone?: true } {
  const el = heldElement(control);
  if (!el?.isConnected) return { shows: [], gone: true };
  const expanded = el.getAttribute('aria-expanded');
  return { shows: shownValue(el), ...(expanded !== null ? { expanded: expanded === 'true' } : {}) };
}

/** A native <select>'s options and the selected one's index, for keyboard choosing. */
export function nativeOptions(handle: number): { options: (SeenOption & { lines: string[] })[]; index: number } {
  const el = heldElement(handle);
  if (!el || !isHtml(el, 'select')) return { options: [], index: -1 };
  const options = Array.from(el.options).map((o) => ({ ...seen(o), lines: optionLines(o) }));
  return { options, index: el.selectedIndex };
}

/** Where to turn the wheel to scroll the popup's list, and how far it can go; undefined when it does not scroll. */
export function listScroller(
  req: LookRequest,
): { x: number; y: number; top: number; max: number; height: number } | undefined {
  const control = heldElement(req.control);
  if (!control) return undefined;
  const exclude = req.exclude.map((h) => heldElement(h)).filter((e): e is Element => !!e);
  const first = currentOptions(control, req.group, exclude)[0];
  for (let e = first?.parentElement; e && e !== document.body; e = e.parentElement) {
    if (e.scrollHeight <= e.clientHeight + 2 || !/auto|scroll|hidden/.test(getComputedStyle(e).overflowY)) continue;
    const r = e.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height, 200) / 2, 0), innerHeight - 1);
    return { x, y, top: e.scrollTop, max: e.scrollHeight - e.clientHeight, height: e.clientHeight };
  }
  return undefined;
}

/** Whether keys typed now go to the control (focus inside it, shadow roots included). */
export function hasFocus(control: number): boolean {
  const el = heldElement(control);
  const active = deepActiveElement();
  return !!el && !!active && (el === active || el.contains(active));
}
