// Element refs (s{N}e{M}): the per-document map exposed as window.__ariaRefs, the metadata that
// lets a stale ref be found again, and the counters that never go backwards. Runs in the page.
import { accessibleName, capName } from './aria-name.js';
import { roleOf } from './aria-role.js';
import { cssEscapeIdent, isShadowRoot, isVisible, selectorFor, textSnippet } from './dom-describe.js';
import { virtualScrollerOf } from './virtual-scroll.js';
import { shadowOf } from './closed-shadow.js';
import { state } from './state.js';
import { isRef, refElementNumber, refName } from '../shared/index.js';

interface RefMeta {
  role: string;
  name: string;
  /** A cheap, likely-stable selector (#id, [name], [data-testid]) when the element has one. */
  selector?: string;
  /** Selectors of the shadow hosts from the document down to the element's root. */
  shadowPath?: string[];
  /** Position among elements with the same role and name, in document order. */
  ordinal: number;
  /** The element's text when it has no name: what the agent saw it show (a recycled row is told by it). */
  text?: string;
  /** The row it sat in when handed out (`row-id=7`, `data-index=7`): a virtualised list's identity. */
  rowKey?: string;
}

export interface RefState {
  refs: Map<string, Element>;
  meta: Map<string, RefMeta>;
  byElement: WeakMap<Element, string>;
  snapshotId: number;
  elementCounter: number;
  /** Element counter when this document's state began: refs at or below it are from earlier pages. */
  firstElement: number;
}

export interface Counters {
  snapshot: number;
  element: number;
}

type RefResolution =
  | { ok: true; el: Element; reResolved: boolean }
  | {
      ok: false;
      reason: 'malformed' | 'unknown' | 'earlier-page' | 'stale' | 'recycled';
      role?: string;
      name?: string;
      /** recycled: what the element shows now. */
      now?: string;
    };

/**
 * This world's refs, made on first use. The map is also `window.__ariaRefs`, the name the spec gives
 * it (readyWhen hooks and tests read it there); a world that never used refs has none.
 */
export function refState(): RefState {
  if (!state.refs) {
    state.refs = {
      refs: new Map(),
      meta: new Map(),
      byElement: new WeakMap(),
      snapshotId: 0,
      elementCounter: 0,
      firstElement: 0,
    };
    (globalThis as unknown as { __ariaRefs?: Map<string, Element> }).__ariaRefs = state.refs.refs;
  }
  return state.refs;
}

/** Counters continue across documents: the tab's stored counters are the floor. */
export function syncCounters(stored: Counters | undefined): Counters {
  const s = refState();
  if (stored) {
    if (s.elementCounter < stored.element) {
      if (s.refs.size === 0) s.firstElement = stored.element;
      s.elementCounter = stored.element;
    }
    if (s.snapshotId < stored.snapshot) s.snapshotId = stored.snapshot;
  }
  return { snapshot: s.snapshotId, element: s.elementCounter };
}

function cheapSelector(el: Element): string | undefined {
  const tag = el.localName;
  if (el.id) return `#${cssEscapeIdent(el.id)}`;
  for (const attr of ['data-testid', 'data-test', 'data-qa', 'name']) {
    const v = el.getAttribute(attr);
    if (v) return `${tag}[${attr}="${v.replace(/["\\]/g, '\\$&')}"]`;
  }
  return undefined;
}

function shadowPathOf(el: Element): string[] | undefined {
  const path: string[] = [];
  let root = el.getRootNode();
  while (isShadowRoot(root)) {
    path.unshift(selectorFor(root.host));
    root = root.host.getRootNode();
  }
  return path.length ? path : undefined;
}

/** Attributes virtualised lists and grids mark their rows with, most stable first. */
const ROW_KEY_ATTRS = [
  'row-id',
  'data-key',
  'data-index',
  'data-row-index',
  'row-index',
  'aria-rowindex',
  'aria-posinset',
];
const ROW_KEY_SELECTOR = ROW_KEY_ATTRS.map((a) => `[${a}]`).join(',');

/** The row the element sits in, as `attr=value`, when a list or grid marks it. */
function rowKeyOf(el: Element): string | undefined {
  const row = el.closest(ROW_KEY_SELECTOR);
  if (!row) return undefined;
  for (const a of ROW_KEY_ATTRS) {
    const v = row.getAttribute(a);
    if (v !== null) return `${a}=${v}`;
  }
  return undefined;
}

/** What the agent was shown for the element: its name, else (no name) the start of its text. */
export function shownOf(el: Element, name: string): string {
  return name || capName(textSnippet(el, 80).replace(/\s+/g, ' ').trim());
}

function shownInMeta(meta: RefMeta): string {
  return meta.name || meta.text || '';
}

/** What the element shows now, in the terms its meta was written in. */
function shownNow(el: Element, meta: RefMeta): string {
  const raw = roleOf(el);
  const role = raw === 'presentation' ? 'generic' : raw;
  return shownOf(el, capName(accessibleName(el, role === meta.role ? role : meta.role)));
}

/**
 * The element now shows another item than when its ref was handed out: a virtualised list or grid
 * reused it (its row key changed, or — no row key — its text changed inside a virtualised scroller).
 * Returns what it shows now, or undefined when it is still the same item.
 */
export function recycledAs(el: Element, meta: RefMeta, shownNowText?: string): string | undefined {
  if (meta.rowKey !== undefined) {
    const key = rowKeyOf(el);
    if (key === meta.rowKey) return undefined; // the same row: its text may change (an edit), it is the same item
    return shownNowText ?? shownNow(el, meta);
  }
  const now = shownNowText ?? shownNow(el, meta);
  if (now.toLowerCase() === shownInMeta(meta).toLowerCase()) return undefined;
  // A button's label may change ("Play" → "Pause"): only a virtualised scroller reuses elements.
  return virtualScrollerOf(el) ? now : undefined;
}

function describeMeta(el: Element, meta: RefMeta, name: string): void {
  meta.name = name;
  if (name) delete meta.text;
  else {
    const text = shownOf(el, '');
    if (text) meta.text = text;
    else delete meta.text;
  }
  const rowKey = rowKeyOf(el);
  if (rowKey) meta.rowKey = rowKey;
  else delete meta.rowKey;
}

/** The element's ref: kept if it has one in this document (and still shows the same item), else a new one in snapshot `sid`. */
export function refFor(el: Element, role: string, name: string, sid: number, ordinal: number): string {
  const s = refState();
  const existing = s.byElement.get(el);
  if (existing && s.refs.get(existing) === el) {
    const meta = s.meta.get(existing);
    // A recycled element is a new item: it gets a new ref, and the old ref keeps meaning the old item.
    const now = meta ? shownOf(el, name) : '';
    if (!meta || recycledAs(el, meta, now) === undefined) {
      // The ordinal stays as first counted: a scoped walk's count is not a document position.
      if (meta) {
        meta.role = role;
        describeMeta(el, meta, name);
      }
      return existing;
    }
  }
  const ref = refName(sid, ++s.elementCounter);
  s.refs.set(ref, el);
  s.byElement.set(el, ref);
  const meta: RefMeta = { role, name, ordinal };
  describeMeta(el, meta, name);
  const selector = cheapSelector(el);
  if (selector) meta.selector = selector;
  const shadowPath = shadowPathOf(el);
  if (shadowPath) meta.shadowPath = shadowPath;
  s.meta.set(ref, meta);
  return ref;
}

/** All elements under `root`, shadow roots included. */
export function deepElements(root: Document | ShadowRoot | Element): Element[] {
  const out: Element[] = [];
  const walk = (node: Document | ShadowRoot | Element): void => {
    for (const el of Array.from(node.querySelectorAll('*'))) {
      out.push(el);
      const shadow = shadowOf(el);
      if (shadow) walk(shadow);
    }
  };
  walk(root);
  return out;
}

function shadowRootFor(path: string[] | undefined): Document | ShadowRoot | undefined {
  let root: Document | ShadowRoot = document;
  for (const hostSelector of path ?? []) {
    const host: Element | null = root.querySelector(hostSelector);
    const shadow: ShadowRoot | null = host && shadowOf(host);
    if (!shadow) return undefined;
    root = shadow;
  }
  return root;
}

function matchesMeta(el: Element, meta: RefMeta): boolean {
  // In a list or grid that marks its rows, the same text in another row is another item.
  if (meta.rowKey !== undefined && rowKeyOf(el) !== meta.rowKey) return false;
  const raw = roleOf(el);
  const role = raw === 'presentation' ? 'generic' : raw;
  return role === meta.role && capName(accessibleName(el, role)).toLowerCase() === meta.name.toLowerCase();
}

/** Finds a stale ref's element again: selector, then role + name by ordinal, in its shadow root, then anywhere. */
function reResolve(meta: RefMeta): Element | undefined {
  const root = shadowRootFor(meta.shadowPath);
  if (root && meta.selector) {
    const el = root.querySelector(meta.selector);
    if (el && matchesMeta(el, meta)) return el;
  }
  const scopes: (Document | ShadowRoot)[] = root ? [root] : [];
  if (root !== document) scopes.push(document);
  for (const scope of scopes) {
    const candidates = (scope === document ? deepElements(document) : Array.from(scope.querySelectorAll('*'))).filter(
      (el) => isVisible(el) && matchesMeta(el, meta),
    );
    if (candidates.length) return candidates[Math.min(meta.ordinal, candidates.length - 1)];
  }
  return undefined;
}

/** The one visible element (not `old`) showing what the ref showed, in the same row when it had one. */
function showingAgain(meta: RefMeta, old: Element): Element | undefined {
  const root = shadowRootFor(meta.shadowPath) ?? document;
  const want = shownInMeta(meta).toLowerCase();
  if (!want) return undefined;
  const hits: Element[] = [];
  for (const el of root === document ? deepElements(document) : Array.from(root.querySelectorAll('*'))) {
    if (el === old || !el.isConnected) continue;
    if (meta.rowKey !== undefined && rowKeyOf(el) !== meta.rowKey) continue;
    const raw = roleOf(el);
    const role = raw === 'presentation' ? 'generic' : raw;
    if (role !== meta.role || shownNow(el, meta).toLowerCase() !== want || !isVisible(el)) continue;
    hits.push(el);
    if (hits.length > 1) return undefined;
  }
  return hits[0];
}

export function resolveRef(ref: string): RefResolution {
  const element = refElementNumber(ref);
  if (element === undefined) return { ok: false, reason: 'malformed' };
  const s = refState();
  const el = s.refs.get(ref);
  const meta = s.meta.get(ref);
  if (el && el.isConnected) {
    const now = meta ? recycledAs(el, meta) : undefined;
    if (now === undefined || !meta) return { ok: true, el, reResolved: false };
    // Recycled: the element now showing the original item, when exactly one does; else stale.
    const again = showingAgain(meta, el);
    if (!again) return { ok: false, reason: 'recycled', role: meta.role, name: shownInMeta(meta), now };
    s.refs.set(ref, again);
    s.byElement.set(again, ref);
    return { ok: true, el: again, reResolved: true };
  }
  if (!meta) {
    return { ok: false, reason: element <= s.firstElement ? 'earlier-page' : 'unknown' };
  }
  const found = reResolve(meta);
  if (!found) return { ok: false, reason: 'stale', role: meta.role, name: meta.name };
  s.refs.set(ref, found);
  s.byElement.set(found, ref);
  return { ok: true, el: found, reResolved: true };
}

/** Elements our isolated world resolved refs to, handed to the page's world for agents' code (page/agent-refs.ts). */
export function adoptRefs(refs: string[], els: Element[]): void {
  const s = refState();
  refs.forEach((ref, i) => {
    const el = els[i];
    if (!el) return;
    s.refs.set(ref, el);
    s.byElement.set(el, ref);
  });
}

/** What pageFunction {refs: true} passes (SPEC §12.1): the ref map, where get(ref) and refs.s1e4
 *  find a stale ref's element again, and throw saying why when it cannot be found. */
export function refsView(): Map<string, Element> {
  const refs = refState().refs;
  const lookup = (ref: unknown): Element => {
    const r = resolveRef(String(ref));
    if (r.ok) return r.el;
    const why =
      r.reason === 'earlier-page'
        ? 'is from an earlier page'
        : r.reason === 'stale'
          ? `is gone (${r.role} "${r.name}" is no longer on the page)`
          : r.reason === 'recycled'
            ? `showed "${r.name}" but the list reused its element, which now shows "${r.now}"`
            : r.reason === 'malformed'
              ? 'is not a ref (refs look like s1e4)'
              : 'is unknown in this document';
    throw new Error(`ref ${String(ref)} ${why}; take a new snapshot`);
  };
  return new Proxy(refs, {
    get(target, prop) {
      if (prop === 'get') return lookup;
      if (prop === 'has') return (ref: unknown) => resolveRef(String(ref)).ok;
      if (typeof prop === 'string' && isRef(prop)) return lookup(prop);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
