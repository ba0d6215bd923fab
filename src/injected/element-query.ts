// Finding elements for agents (SPEC §6.5, §11.3, §11.4): CSS queries with output modes, role queries
// with name and state filters, open shadow roots included; and the ref context every finder shares,
// so refs come from the one ref map and number like re-resolution counts. Runs in the page.
import { isClickablePlainRole } from './aria-states.js';
import type { Counters } from './ref-map.js';
import type { AriaNode } from './aria-snapshot.js';
import type { Box } from './ref-box.js';
import { accessibleName, capName, collapseSpace, isSecretInput } from './aria-name.js';
import { isInteractiveRole, roleOf } from './aria-role.js';
import { isClickableGeneric } from './aria-snapshot.js';
import { nodeStates } from './aria-states.js';
import { isVisible } from './dom-describe.js';
import { roundedBox } from './ref-box.js';
import { deepElements, recycledAs, refFor, shownOf, refState, syncCounters } from './ref-map.js';
import { REDACTED, type CssQuery, type QueryOutput, type QuerySpec, type RoleQuery } from '../shared/index.js';

/** Per-evaluation caches: roles and names are computed once per element. */
export interface RefContext {
  sid: number;
  deep?: Element[];
  roles: Map<Element, string>;
  names: Map<Element, string>;
}

type QueryFailure = {
  ok: false;
  reason: 'invalid-selector' | 'invalid-pattern';
  message: string;
  index: number;
};
interface CssResult {
  index: number;
  value: unknown;
  ref?: string;
  tag?: string;
  attributes?: Record<string, string>;
  box?: Box;
}
type RoleResult = { index: number; role: string; name: string; ref: string } & Omit<
  AriaNode,
  'role' | 'name' | 'ref' | 'children' | 'live' | 'vp' | 'text'
>;
type QueryResult =
  | { selector: string; total: number; showing: number; results: CssResult[] }
  | { role: string | string[]; total: number; showing: number; results: RoleResult[] }
  | { total: number };

export function refContext(counters: Counters | undefined): RefContext {
  syncCounters(counters);
  return { sid: Math.max(1, refState().snapshotId), roles: new Map(), names: new Map() };
}

/** Every element of the document and its open shadow roots, in document order (hosts before their shadow content). */
export function deepList(ctx: RefContext): Element[] {
  if (!ctx.deep) ctx.deep = deepElements(document);
  return ctx.deep;
}

export function cachedRole(ctx: RefContext, el: Element): string {
  let role = ctx.roles.get(el);
  if (role === undefined) {
    role = roleOf(el);
    ctx.roles.set(el, role);
  }
  return role;
}

/** The accessible name as snapshots show it (capped). */
export function cachedName(ctx: RefContext, el: Element, role: string): string {
  let name = ctx.names.get(el);
  if (name === undefined) {
    name = capName(accessibleName(el, role));
    ctx.names.set(el, name);
  }
  return name;
}

/**
 * The element's ref: the one it has in this document, else a new one whose ordinal counts the
 * visible elements of the same role and name before it, as ref-map's re-resolution does.
 */
export function refOf(ctx: RefContext, el: Element, role: string, name: string): { ref: string; existing: boolean } {
  const s = refState();
  const known = s.byElement.get(el);
  if (known && s.refs.get(known) === el) {
    const meta = s.meta.get(known);
    // A virtualised list reused the element for another item: that item gets a ref of its own.
    if (!meta || recycledAs(el, meta, shownOf(el, name)) === undefined) return { ref: known, existing: true };
  }
  const lower = name.toLowerCase();
  let ordinal = 0;
  for (const e of deepList(ctx)) {
    if (e === el) break;
    if (cachedRole(ctx, e) === role && isVisible(e) && cachedName(ctx, e, role).toLowerCase() === lower) ordinal++;
  }
  return { ref: refFor(el, role, name, ctx.sid, ordinal), existing: false };
}

/** The ref a snapshot would give: rendered interactive roles and clickable generics only. */
function snapshotRefOf(ctx: RefContext, el: Element): string | undefined {
  if (!isExposed(el)) return undefined;
  const role = cachedRole(ctx, el);
  if (isInteractiveRole(role)) return refOf(ctx, el, role, cachedName(ctx, el, role)).ref;
  const plain = role === 'generic' || role === 'presentation';
  if ((plain || isClickablePlainRole(role)) && isClickableGeneric(el, getComputedStyle(el))) {
    const as = plain ? 'generic' : role;
    return refOf(ctx, el, as, capName(accessibleName(el, as))).ref;
  }
  return undefined;
}

/** The parent element, or the host at the top of a shadow tree. */
export function parentOrHost(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** In the accessibility tree: not under aria-hidden, not display:none or visibility:hidden. */
function isExposed(el: Element): boolean {
  for (let e: Element | null = el; e; e = parentOrHost(e)) {
    if (e.getAttribute('aria-hidden') === 'true') return false;
  }
  // Options of a drop-down have no box of their own: their select decides.
  const boxed =
    el instanceof HTMLOptionElement || el instanceof HTMLOptGroupElement ? (el.closest('select') ?? el) : el;
  const style = getComputedStyle(boxed);
  if (style.visibility === 'hidden' || style.visibility === 'collapse') return false;
  const target = style.display === 'contents' ? boxed.parentElement : boxed;
  return !target || target.checkVisibility();
}

function valueMaxLength(mode: string): number {
  return mode === 'html' ? 2000 : 1000;
}

/** A form control's value (passwords masked, as in snapshots), else the value attribute. */
function fieldValue(el: Element): string | null {
  if (el instanceof HTMLInputElement) return isSecretInput(el) ? (el.value ? REDACTED : '') : el.value;
  if (
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement ||
    el instanceof HTMLOptionElement ||
    el instanceof HTMLButtonElement ||
    el instanceof HTMLOutputElement ||
    el instanceof HTMLDataElement
  )
    return el.value;
  return el.getAttribute('value');
}

function outputValue(el: Element, mode: string, clean: boolean): string | null {
  let v: string | null;
  if (mode === 'html') v = el.outerHTML;
  else if (mode === 'href') {
    const raw = el.getAttribute('href');
    const resolved = (el as HTMLAnchorElement).href;
    v = raw === null ? null : typeof resolved === 'string' && resolved ? resolved : raw;
  } else if (mode === 'value') v = fieldValue(el);
  else if (mode === 'tag') v = el.localName;
  else v = el.textContent ?? '';
  if (v === null) return null;
  if (clean) v = collapseSpace(v);
  const max = valueMaxLength(mode);
  return v.length > max ? `${v.slice(0, max - 1)}…` : v;
}

function queryValue(el: Element, output: QueryOutput, clean: boolean): unknown {
  if (typeof output === 'string') return outputValue(el, output, clean);
  if (Array.isArray(output)) return Object.fromEntries(output.map((m) => [m, outputValue(el, m, clean)]));
  const attr = (name: string): string | null => {
    const v = el.getAttribute(name);
    return v !== null && clean ? collapseSpace(v) : v;
  };
  const names = output.attribute;
  return typeof names === 'string' ? attr(names) : Object.fromEntries(names.map((n) => [n, attr(n)]));
}

export function selectorProblem(selector: string): string | undefined {
  try {
    document.createDocumentFragment().querySelector(selector);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function cssQuery(ctx: RefContext, q: CssQuery): QueryResult {
  const found = deepList(ctx).filter((el) => el.matches(q.selector));
  const results = found.slice(0, q.limit).map((el, i): CssResult => {
    const item: CssResult = { index: i + 1, value: queryValue(el, q.output, q.clean) };
    const ref = snapshotRefOf(ctx, el);
    if (ref) item.ref = ref;
    if (q.metadata) {
      item.tag = el.localName;
      item.attributes = Object.fromEntries(
        Array.from(el.attributes, (a) => [a.name, a.value.length > 200 ? `${a.value.slice(0, 199)}…` : a.value]),
      );
      item.box = roundedBox(el.getBoundingClientRect());
    }
    return item;
  });
  return { selector: q.selector, total: found.length, showing: results.length, results };
}

/** Checked, disabled, level and the other states, as the snapshot reports them. */
function roleStates(el: Element, role: string): AriaNode {
  const node: AriaNode = { role };
  nodeStates(el, role, node);
  delete node.live;
  return node;
}

function passesStates(states: AriaNode, q: RoleQuery): boolean {
  if (q.level !== undefined && states.level !== q.level) return false;
  if (q.checked !== undefined && states.checked !== (q.checked === 'mixed' ? 'mixed' : String(q.checked))) return false;
  if (q.disabled !== undefined && Boolean(states.disabled) !== q.disabled) return false;
  return true;
}

function roleQuery(ctx: RefContext, q: RoleQuery, regex: RegExp | undefined): QueryResult {
  const wanted = new Set(q.roles);
  const needle = q.name?.toLowerCase();
  const hits: RoleResult[] = [];
  let total = 0;
  for (const el of deepList(ctx)) {
    const role = cachedRole(ctx, el);
    if (!wanted.has(role) || !isExposed(el)) continue;
    if (needle !== undefined || regex) {
      const full = accessibleName(el, role);
      if (needle !== undefined && (q.nameExact ? full.toLowerCase() !== needle : !full.toLowerCase().includes(needle)))
        continue;
      if (regex && !regex.test(full)) continue;
    }
    const states = roleStates(el, role);
    if (!passesStates(states, q)) continue;
    total++;
    if (q.countOnly || hits.length >= q.limit) continue;
    const name = cachedName(ctx, el, role);
    const { role: _role, ...rest } = states;
    hits.push({ index: hits.length + 1, role, name, ref: refOf(ctx, el, role, name).ref, ...rest });
  }
  if (q.countOnly) return { total };
  return { role: q.roles.length === 1 ? q.roles[0]! : q.roles, total, showing: hits.length, results: hits };
}

/** query and queryAll: every spec in one evaluation; the first invalid selector or regex fails them all. */
export function runQueries(
  specs: QuerySpec[],
  counters: Counters | undefined,
): { ok: true; results: QueryResult[]; counters: Counters } | QueryFailure {
  const regexes: (RegExp | undefined)[] = [];
  for (const [index, q] of specs.entries()) {
    if (q.kind === 'css') {
      const message = selectorProblem(q.selector);
      if (message) return { ok: false, reason: 'invalid-selector', message, index };
      regexes.push(undefined);
    } else {
      try {
        regexes.push(q.nameRegex === undefined ? undefined : new RegExp(q.nameRegex, 'i'));
      } catch (e) {
        return { ok: false, reason: 'invalid-pattern', message: (e as Error).message, index };
      }
    }
  }
  const ctx = refContext(counters);
  const results = specs.map((q, i) => (q.kind === 'css' ? cssQuery(ctx, q) : roleQuery(ctx, q, regexes[i])));
  return { ok: true, results, counters: syncCounters(undefined) };
}
