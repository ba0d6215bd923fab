// One resolution path for every targeting form (SPEC §6): CSS, ref, text (priority order of §6.4),
// label (the chain of §6.4), selector lists and coordinates, optionally inside `within`, open shadow
// roots included. The element found is held under a number so later calls act on that very element.
import type { Counters } from './ref-map.js';
import { accessibleName, collapseSpace, labelledByText } from './aria-name.js';
import { roleOf } from './aria-role.js';

import { deepActiveElement, isHtml, isVisible, textSnippet } from './dom-describe.js';
import { selectorProblem } from './element-query.js';
import { deepElementFromPoint } from './element-search.js';

import { refProblem } from './ref-box.js';
import { deepElements, resolveRef, syncCounters } from './ref-map.js';
import { shadowOf } from './closed-shadow.js';
import { state } from './state.js';

export type TargetSpec =
  | { by: 'css'; selector: string }
  | { by: 'ref'; ref: string }
  | { by: 'text'; text: string; exact?: boolean }
  | { by: 'label'; label: string; exact?: boolean }
  | { by: 'selectors'; selectors: string[] }
  | { by: 'field'; key: string }
  | { by: 'coords'; x: number; y: number };

export interface LocateRequest {
  target: TargetSpec;
  within?: string;
  counters?: Counters;
  /** Looking for something to type into (labels and the focused element). */
  editable?: boolean;
}

export type LocateFailure = {
  ok: false;
  reason:
    | 'invalid-selector'
    | 'not-found'
    | 'within-not-found'
    | 'stale'
    | 'recycled'
    | 'earlier-page'
    | 'unknown'
    | 'malformed';
  message?: string;
  role?: string;
  name?: string;
  /** recycled: what the ref's element shows now. */
  now?: string;
};
export type LocateOutcome =
  | {
      ok: true;
      handle: number;
      desc: string;
      name: string;
      reResolved?: true;
      selectorIndex?: number;
      counters: Counters;
    }
  | LocateFailure;

export interface HeldElements {
  map: Map<number, Element>;
  next: number;
}

/** Keeps `el` for later calls of this command; the oldest holds are dropped beyond a few dozen. */
export function holdElement(el: Element): number {
  const h = state.held;
  const id = ++h.next;
  h.map.set(id, el);
  if (h.map.size > 32) h.map.delete(h.map.keys().next().value as number);
  return id;
}

export function heldElement(id: number): Element | undefined {
  return state.held.map.get(id);
}

/** A short description for messages: tag#id.class "text". */
export function describeElement(el: Element): string {
  const id = el.id ? `#${el.id}` : '';
  const cls =
    typeof el.className === 'string' && el.className.trim()
      ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}`
      : '';
  // A capped walk of text nodes: innerText of a huge element would lay out and copy all of it.
  const text = textSnippet(el, 40);
  const secret = el.localName === 'input' && (el as HTMLInputElement).type === 'password' ? '[type=password]' : '';
  return `${el.localName}${id}${cls}${secret}${text ? ` "${text}"` : ''}`;
}

/** How an agent would name the element: role and accessible name (`button "Save"`), else the tag form. */
export function targetName(el: Element): string {
  const inner = hostedControl(el);
  const role = roleOf(inner ?? el);
  const name = collapseSpace(accessibleName(inner ?? el, role) || (inner ? (el.textContent ?? '') : '')).slice(0, 60);
  if (!role || role === 'generic' || role === 'none' || role === 'presentation') return describeElement(el);
  const id = el.id ? `#${el.id}` : '';
  return name ? `${role} "${name}"` : `${role} ${el.localName}${id}`;
}

/** Matches of `selector` under `root`: light DOM first, then inside open shadow roots. */
export function cssMatches(root: Document | Element, selector: string): Element[] {
  const light = Array.from(root.querySelectorAll(selector));
  if (light.length) return light;
  return deepElements(root).filter((el) => el.matches(selector));
}

/** The first visible match, else the first: agents mean the one they can see. */
export function preferVisible(list: Element[]): Element | undefined {
  return list.find((el) => isVisible(el)) ?? list[0];
}

/** exact: whitespace-collapsed equality; loose: case-insensitive substring. 2 = equal, 1 = contains, 0 = no. */
function textScore(have: string, want: string, exact: boolean): number {
  const h = collapseSpace(have);
  const w = collapseSpace(want);
  if (!h) return 0;
  if (exact) return h === w ? 2 : 0;
  const hl = h.toLowerCase();
  const wl = w.toLowerCase();
  if (hl === wl) return 2;
  return hl.includes(wl) ? 1 : 0;
}

/** The control a custom element is built around (Shoelace's <sl-button> holds a <button>), if any. */
function hostedControl(el: Element): Element | undefined {
  let root = el.localName.includes('-') ? shadowOf(el) : null;
  for (let depth = 0; root && depth < 5; depth++) {
    const inner = root.querySelector(
      'button, a[href], input:not([type=hidden]), textarea, select, [role=button], [role=link], [role=checkbox], [role=switch], [role=tab], [role=menuitem], [contenteditable=""], [contenteditable=true]',
    );
    if (inner) return inner;
    const nested = Array.from(root.querySelectorAll('*')).find((n) => n.localName.includes('-') && shadowOf(n));
    root = nested ? shadowOf(nested) : null;
  }
  return undefined;
}

/** SPEC §6.4 click-by-text groups, then any element whose own text matches (deepest first). */
function textGroup(el: Element): number {
  if (el.matches('button, input[type=button], input[type=submit], input[type=reset], input[type=image]')) return 0;
  if (el.matches('a[href]')) return 1;
  if (
    el.matches(
      '[role=button], [role=link], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=checkbox], [role=radio], [role=switch], [role=treeitem], input[type=checkbox], input[type=radio]',
    )
  )
    return 2;
  // A custom element acting as a button (its shadow root holds the control) ranks with ARIA roles.
  if (hostedControl(el)) return 2;
  if (el.matches('[onclick], [tabindex], label, summary')) return 3;
  // A clickable: the pointer cursor set on it, not inherited from a clickable parent.
  const pointer = (e: Element | null): boolean => !!e && getComputedStyle(e).cursor === 'pointer';
  if (pointer(el) && !pointer(el.parentElement)) return 3;
  return 4;
}

/** A checkbox or radio drawn by its <label> (the input itself hidden, as Excalidraw's tool icons): the label is what shows. */
function shownByLabel(el: Element): boolean {
  if (!isHtml(el, 'input') || !/^(checkbox|radio)$/.test(el.type)) return false;
  return Array.from(el.labels ?? []).some((l) => isVisible(l));
}

function findByText(root: Document | Element, text: string, exact: boolean): Element | undefined {
  const needle = text.toLowerCase();
  let best: { el: Element; rank: number } | undefined;
  const all = deepElements(root);
  const leafMatches = new Set<Element>();
  for (const el of all) {
    if (el.localName === 'script' || el.localName === 'style' || el.localName === 'head') continue;
    const group = textGroup(el);
    const cheap =
      (el.textContent ?? '').toLowerCase().includes(needle) ||
      (el.getAttribute('aria-label') ?? '').toLowerCase().includes(needle) ||
      ((el as HTMLInputElement).value ?? '').toString().toLowerCase().includes(needle) ||
      el.hasAttribute('aria-labelledby');
    if (!cheap) continue;
    const own = (el as HTMLElement).innerText ?? el.textContent ?? '';
    let score = textScore(own, text, exact);
    if (group < 4) score = Math.max(score, textScore(accessibleName(el, roleOf(el)), text, exact));
    if (!score || !(isVisible(el) || shownByLabel(el))) continue;
    if (group === 4) {
      leafMatches.add(el);
      continue;
    }
    // Exact matches beat partial ones; then the §6.4 group order; then document order.
    const rank = (2 - score) * 10 + group;
    if (!best || rank < best.rank) best = { el, rank };
  }
  if (best) return best.el;
  // Any element whose text matches: the deepest one, so a click lands on the text itself.
  return Array.from(leafMatches).find((el) => !Array.from(leafMatches).some((o) => o !== el && el.contains(o)));
}

export function isTextControl(el: Element): boolean {
  if (isHtml(el, 'input')) return !/^(hidden|button|submit|reset|image|checkbox|radio|range|color|file)$/.test(el.type);
  if (isHtml(el, 'textarea') || isHtml(el, 'select')) return true;
  if ((el as HTMLElement).isContentEditable) return true;
  return /^(textbox|searchbox|combobox|spinbutton)$/.test(el.getAttribute('role') ?? '');
}

/** SPEC §6.4 label chain: label[for], nested in a label, aria-label, aria-labelledby, placeholder. */
function findByLabel(root: Document | Element, label: string, exact: boolean): Element | undefined {
  const all = deepElements(root);
  const controls = all.filter(
    (el) => isTextControl(el) || (isHtml(el, 'input') && /^(checkbox|radio|file|range|color)$/.test(el.type)),
  );
  const sources: ((el: Element) => string | undefined)[] = [
    (el) => {
      const labels = (el as HTMLInputElement).labels;
      return labels
        ? Array.from(labels)
            .filter((l) => !l.contains(el))
            .map((l) => l.textContent ?? '')
            .join(' ') || undefined
        : undefined;
    },
    (el) => {
      const labels = (el as HTMLInputElement).labels;
      const wrap = labels ? Array.from(labels).find((l) => l.contains(el)) : undefined;
      return wrap ? (wrap.textContent ?? '') : undefined;
    },
    (el) => el.getAttribute('aria-label') ?? undefined,
    (el) => labelledByText(el),
    (el) => el.getAttribute('placeholder') ?? undefined,
  ];
  for (const wantScore of exact ? [2] : [2, 1]) {
    for (const source of sources) {
      const hits = controls.filter((el) => {
        const text = source(el);
        return text !== undefined && textScore(text.replace(/[*:]\s*$/, ''), label, exact) >= wantScore;
      });
      const el = preferVisible(hits);
      if (el) return el;
    }
  }
  return undefined;
}

export function findInScope(root: Document | Element, target: TargetSpec): Element | undefined {
  switch (target.by) {
    case 'css':
      return preferVisible(cssMatches(root, target.selector));
    case 'text':
      return findByText(root, target.text, !!target.exact);
    case 'label':
      return findByLabel(root, target.label, !!target.exact);
    case 'coords':
      return deepElementFromPoint(target.x, target.y) ?? undefined;
    default:
      return undefined;
  }
}

export function locateElement(req: LocateRequest): LocateOutcome {
  syncCounters(req.counters);
  const done = (el: Element, extra: { reResolved?: true; selectorIndex?: number } = {}): LocateOutcome => ({
    ok: true,
    handle: holdElement(el),
    desc: describeElement(el),
    name: targetName(el),
    ...extra,
    counters: syncCounters(undefined),
  });
  const t = req.target;
  const selectors = t.by === 'css' ? [t.selector] : t.by === 'selectors' ? t.selectors : [];
  for (const s of req.within ? [...selectors, req.within] : selectors) {
    const problem = selectorProblem(s);
    if (problem) return { ok: false, reason: 'invalid-selector', message: `"${s}": ${problem}` };
  }
  let root: Document | Element = document;
  if (req.within) {
    const scope = preferVisible(cssMatches(document, req.within));
    if (!scope) return { ok: false, reason: 'within-not-found', message: req.within };
    root = scope;
  }
  if (t.by === 'ref') {
    const r = resolveRef(t.ref);
    if (!r.ok)
      return {
        ok: false,
        reason: r.reason,
        message: refProblem(t.ref, r.reason, r.role, r.name, r.now),
        ...(r.role ? { role: r.role } : {}),
        ...(r.name !== undefined ? { name: r.name } : {}),
        ...(r.now !== undefined ? { now: r.now } : {}),
      };
    return done(r.el, r.reResolved ? { reResolved: true } : {});
  }
  if (t.by === 'field') {
    // A batch-fill key: a CSS selector when it is one and matches, else a field label ("Email").
    const el =
      (selectorProblem(t.key) ? undefined : preferVisible(cssMatches(root, t.key))) ?? findByLabel(root, t.key, false);
    return el ? done(el) : { ok: false, reason: 'not-found' };
  }
  if (t.by === 'selectors') {
    for (let i = 0; i < t.selectors.length; i++) {
      const el = preferVisible(cssMatches(root, t.selectors[i]!));
      if (el) return done(el, { selectorIndex: i });
    }
    return { ok: false, reason: 'not-found' };
  }
  const el = findInScope(root, t);
  return el ? done(el) : { ok: false, reason: 'not-found' };
}

/** The focused element, inside shadow roots and same-origin frames' documents excluded. */
export function holdFocused(): { ok: true; handle: number; desc: string; name: string } | { ok: false } {
  const el = deepActiveElement();
  if (!el || el === document.body || el === document.documentElement) return { ok: false };
  return { ok: true, handle: holdElement(el), desc: describeElement(el), name: targetName(el) };
}

/** The n-th <iframe>/<frame> of this document, or the one with this name, held for DOM lookups. */
export function holdFrameOwner(
  index: number | undefined,
  name: string | undefined,
): { ok: true; handle: number; desc: string } | { ok: false; count: number } {
  const owners = Array.from(document.querySelectorAll('iframe, frame'));
  const el =
    name !== undefined ? owners.find((f) => f.getAttribute('name') === name || f.id === name) : owners[index ?? 0];
  return el ? { ok: true, handle: holdElement(el), desc: describeElement(el) } : { ok: false, count: owners.length };
}
