// Finding elements by text and by position: snapshotSearch (SPEC §7.10, §11.2) walks the document
// the way the snapshot walker does, keeping each node's element so matches get boxes; elementsAt
// (SPEC §11.9) answers what is at or near a point. Refs come from the one ref map. Runs in the page.
import type { Counters } from './ref-map.js';
import type { Box } from './ref-box.js';
import type { RefContext } from './element-query.js';
import { accessibleName, capName, collapseSpace, controlValue } from './aria-name.js';
import { isInteractiveRole, roleOf } from './aria-role.js';
import { isClickableGeneric } from './aria-snapshot.js';
import { isVisible, selectorFor } from './dom-describe.js';
import { cachedName, cachedRole, deepList, parentOrHost, refContext, refOf } from './element-query.js';
import { elementFromPointThroughRoots, shadowOf } from './closed-shadow.js';
import { roundedBox } from './ref-box.js';
import { syncCounters } from './ref-map.js';
import type { SearchCriteria } from '../shared/index.js';

interface SearchMatch {
  path: string;
  role: string;
  name: string;
  ref?: string;
  value?: string;
  box?: Box;
}
export type SearchOutcome =
  | {
      ok: true;
      matches: SearchMatch[];
      matchCount: number;
      searchedElements: number;
      truncated?: true;
      counters: Counters;
    }
  | { ok: false; reason: 'invalid-pattern'; message: string };

/** A snapshot node: an element with a role, or a run of text (role "text") in its parent. */
interface SearchItem {
  role: string;
  el?: Element;
  parent?: SearchItem;
  clickable?: boolean;
  /** Text runs: their pieces (" " at block boundaries) and their text nodes. */
  parts?: string[];
  nodes?: Text[];
  runs?: SearchItem[];
}
interface SearchWalk {
  items: SearchItem[];
  count: number;
  truncated: boolean;
  c: SearchCriteria;
}

/** Text joins the owner's current run, or starts one; like the walker's pushText. */
function addSearchText(owner: SearchItem | undefined, w: SearchWalk, piece: string, node?: Text): void {
  const last = w.items[w.items.length - 1];
  if (last && last.parts && last.parent === owner) {
    last.parts.push(piece);
    if (node) last.nodes!.push(node);
    return;
  }
  if (!node) return; // a break before any text starts nothing
  const run: SearchItem = { role: 'text', parts: [piece], nodes: [node], ...(owner ? { parent: owner } : {}) };
  w.items.push(run);
  if (owner) (owner.runs ??= []).push(run);
}

function searchChildren(
  parent: Element | ShadowRoot | Document,
  depth: number,
  owner: SearchItem | undefined,
  w: SearchWalk,
): void {
  const source =
    parent instanceof HTMLSlotElement
      ? parent.assignedNodes({ flatten: true })
      : parent instanceof HTMLDetailsElement && !parent.open
        ? Array.from(parent.children).filter((c) => c.localName === 'summary')
        : undefined;
  const root = (parent instanceof Element && shadowOf(parent)) || parent;
  for (const child of source && source.length ? source : Array.from(root.childNodes)) {
    if (w.count >= w.c.maxElements) {
      w.truncated = true;
      return;
    }
    if (child.nodeType === Node.TEXT_NODE) {
      const raw = child.textContent ?? '';
      if (raw.trim()) addSearchText(owner, w, raw, child as Text);
      else if (raw) addSearchText(owner, w, ' ');
    } else if (child instanceof Element) {
      searchElement(child, depth, owner, w);
    }
  }
}

/** Mirrors aria-snapshot's walkElement: which elements become nodes, which are see-through. */
function searchElement(el: Element, depth: number, owner: SearchItem | undefined, w: SearchWalk): void {
  const tag = el.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return;
  if (depth > w.c.maxDepth) {
    w.truncated = true;
    return;
  }
  if (el.getAttribute('aria-hidden') === 'true') return;
  const style = getComputedStyle(el);
  if (style.display === 'none') return;
  const hidden = style.visibility === 'hidden' || style.visibility === 'collapse';
  let role = roleOf(el);
  const clickable = !hidden && (role === 'generic' || role === 'presentation') && isClickableGeneric(el, style);
  if (clickable) role = 'generic';
  if (hidden || ((role === 'generic' || role === 'presentation' || role === 'none-labelling') && !clickable)) {
    if (role === 'none-labelling') {
      for (const c of Array.from(el.querySelectorAll('input, select, textarea, button, [role]')))
        if (c.parentElement?.closest('label, legend, figcaption') === el) searchElement(c, depth + 1, owner, w);
      return;
    }
    const inline = style.display === 'inline' || style.display === 'contents';
    if (!inline) addSearchText(owner, w, ' ');
    searchChildren(el, depth + 1, owner, w);
    if (!inline) addSearchText(owner, w, ' ');
    return;
  }
  w.count++;
  const item: SearchItem = { role, el, clickable, ...(owner ? { parent: owner } : {}) };
  w.items.push(item);
  if (role === 'iframe' || (el instanceof HTMLSelectElement && role !== 'listbox')) return;
  if (
    (role === 'textbox' || role === 'searchbox' || role === 'combobox') &&
    (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)
  )
    return;
  searchChildren(el, depth + 1, item, w);
}

function searchName(ctx: RefContext, item: SearchItem): string {
  if (item.el) return cachedName(ctx, item.el, item.role);
  return capName(collapseSpace(item.parts!.join('')));
}

/** The snapshot drops text that only repeats its node's name (aria-snapshot settleChildren). */
function runsRepeatName(ctx: RefContext, owner: SearchItem | undefined): boolean {
  if (!owner?.el || !owner.runs) return false;
  const name = searchName(ctx, owner);
  if (!name) return false;
  const joined = collapseSpace(owner.runs.map((r) => r.parts!.join('')).join(' '));
  return joined === name || (name.endsWith('…') && joined.startsWith(name.slice(0, -1)));
}

function searchBox(item: SearchItem): Box | undefined {
  if (item.el) return roundedBox(item.el.getBoundingClientRect());
  let box: { l: number; t: number; r: number; b: number } | undefined;
  for (const node of item.nodes!) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    box = box
      ? {
          l: Math.min(box.l, r.left),
          t: Math.min(box.t, r.top),
          r: Math.max(box.r, r.right),
          b: Math.max(box.b, r.bottom),
        }
      : { l: r.left, t: r.top, r: r.right, b: r.bottom };
  }
  return box && roundedBox(new DOMRect(box.l, box.t, box.r - box.l, box.b - box.t));
}

function searchPath(ctx: RefContext, item: SearchItem, levels: number): string {
  const parts: string[] = [];
  for (let p = item.parent; p && parts.length < levels; p = p.parent) {
    const name = searchName(ctx, p);
    parts.unshift(name ? `${p.role} ${JSON.stringify(name)}` : p.role);
  }
  return parts.join(' > ');
}

/** Text and pattern criteria: on the full (uncapped) name, or on the value; exact compares the name only. */
function searchHit(
  item: SearchItem,
  value: string | undefined,
  needle: string | undefined,
  exact: boolean,
  regex: RegExp | undefined,
): boolean {
  if (needle === undefined && !regex) return true;
  const full = item.el ? accessibleName(item.el, item.role) : collapseSpace(item.parts!.join(''));
  if (needle !== undefined) {
    const lower = full.toLowerCase();
    if (exact ? lower !== needle : !lower.includes(needle) && !(value ?? '').toLowerCase().includes(needle))
      return false;
  }
  return !regex || regex.test(full) || (value !== undefined && regex.test(value));
}

export function snapshotSearch(c: SearchCriteria, counters: Counters | undefined): SearchOutcome {
  let regex: RegExp | undefined;
  try {
    if (c.pattern !== undefined) regex = new RegExp(c.pattern, 'i');
  } catch (e) {
    return { ok: false, reason: 'invalid-pattern', message: (e as Error).message };
  }
  const ctx = refContext(counters);
  const w: SearchWalk = { items: [], count: 0, truncated: false, c };
  searchChildren(document.body ?? document.documentElement, 0, undefined, w);
  const needle = c.text?.toLowerCase();
  const matches: SearchMatch[] = [];
  let matchCount = 0;
  for (const item of w.items) {
    if (c.role && item.role !== c.role) continue;
    if (!item.el && runsRepeatName(ctx, item.parent)) continue;
    const value =
      item.el && item.role !== 'checkbox' && item.role !== 'radio' ? controlValue(item.el, item.role) : undefined;
    if (!searchHit(item, value, needle, c.exact, regex)) continue;
    const box = c.near ? searchBox(item) : undefined;
    if (
      c.near &&
      (!box || Math.hypot(box.x + box.width / 2 - c.near.x, box.y + box.height / 2 - c.near.y) > c.near.radius)
    )
      continue;
    if (++matchCount > c.limit) continue;
    const name = searchName(ctx, item);
    const match: SearchMatch = { path: searchPath(ctx, item, c.context), role: item.role, name };
    // Every match carries a ref to act on or scroll to (issue 22 item 11): an element's own; a text
    // run's is its holder's (a clickable row's, a feed post's).
    if (item.el) match.ref = refOf(ctx, item.el, item.role, name).ref;
    else if (item.parent?.el)
      match.ref = refOf(ctx, item.parent.el, item.parent.role, searchName(ctx, item.parent)).ref;
    if (value !== undefined) match.value = value;
    if (box) match.box = box;
    matches.push(match);
  }
  return {
    ok: true,
    matches,
    matchCount,
    searchedElements: w.count,
    ...(w.truncated ? { truncated: true as const } : {}),
    counters: syncCounters(undefined),
  };
}

/** The deepest element at a viewport point, inside open (and known closed) shadow roots too. */
export function deepElementFromPoint(x: number, y: number): Element | null {
  return elementFromPointThroughRoots(x, y);
}

/** What an agent pointing there means: the element, or the control it is part of (a span in a button). */
function pointTarget(ctx: RefContext, el: Element): Element {
  for (let e: Element | null = el; e && e !== document.body; e = parentOrHost(e)) {
    if (isInteractiveRole(cachedRole(ctx, e))) return e;
  }
  return el;
}

function looksClickable(el: Element, role: string): boolean {
  if (isInteractiveRole(role)) return true;
  if (/^(a|button|input|select|textarea|summary|label|option)$/.test(el.localName)) return true;
  if (el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function') return true;
  return getComputedStyle(el).cursor === 'pointer';
}

interface PointElement {
  ref: string;
  existing: boolean;
  tag: string;
  selector: string;
  clickable: boolean;
  role: string;
  name: string;
  text?: string;
  distance?: number;
  box: Box;
}

function pointElement(ctx: RefContext, el: Element, distance?: number): PointElement {
  const role = cachedRole(ctx, el);
  const name = cachedName(ctx, el, role);
  const { ref, existing } = refOf(ctx, el, role, name);
  const text = name ? '' : capName(collapseSpace(el.textContent ?? ''));
  return {
    ref,
    existing,
    tag: el.localName,
    selector: selectorFor(el),
    clickable: looksClickable(el, role),
    role: role === 'none-labelling' ? 'generic' : role,
    name,
    ...(text ? { text } : {}),
    ...(distance !== undefined ? { distance: Math.round(distance) } : {}),
    box: roundedBox(el.getBoundingClientRect()),
  };
}

export function elementsAtPoints(
  points: { x: number; y: number }[],
  counters: Counters | undefined,
): { elements: ({ x: number; y: number } & (PointElement | { error: string }))[]; counters: Counters } {
  const ctx = refContext(counters);
  const elements = points.map(({ x, y }) => {
    const hit = deepElementFromPoint(x, y);
    if (!hit) return { x, y, error: `No element at (${x}, ${y}); the viewport is ${innerWidth}x${innerHeight}` };
    return { x, y, ...pointElement(ctx, pointTarget(ctx, hit)) };
  });
  return { elements, counters: syncCounters(undefined) };
}

/** Visible elements whose centre is within `radius` of (x, y), closest first. */
export function elementsNear(
  x: number,
  y: number,
  radius: number,
  limit: number,
  counters: Counters | undefined,
): { elements: PointElement[]; counters: Counters } {
  const ctx = refContext(counters);
  const near: { el: Element; d: number }[] = [];
  for (const el of deepList(ctx)) {
    if (el === document.documentElement || el === document.body) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const d = Math.hypot(r.x + r.width / 2 - x, r.y + r.height / 2 - y);
    if (d <= radius && isVisible(el)) near.push({ el, d });
  }
  near.sort((a, b) => a.d - b.d);
  return {
    elements: near.slice(0, limit).map(({ el, d }) => pointElement(ctx, el, d)),
    counters: syncCounters(undefined),
  };
}
