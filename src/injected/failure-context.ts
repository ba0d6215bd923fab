// The failure context of a failed step (SPEC §16.3, §6.8), gathered in one page call: where the
// page is, what can be clicked, which errors it shows, which elements are close to what the step
// looked for (scored), and how to dismiss a layer that covered the target. Runs in the page.
import { pageTitle, pageUrl } from './page-context.js';
import type { Counters } from './ref-map.js';
import type { RefContext } from './element-query.js';
import { accessibleName, collapseSpace } from './aria-name.js';
import { isInteractiveRole, roleOf } from './aria-role.js';
import { isVisible } from './dom-describe.js';
import { modalLayer, openDialogs } from './modal-layer.js';
import { cachedName, cachedRole, deepList, refContext, refOf } from './element-query.js';
import { deepElements, syncCounters } from './ref-map.js';
import { editDistance } from '../shared/index.js';

export interface FailureContextRequest {
  /** What the failing step looked for (text, label, words of a selector or a ref's name). */
  term?: string;
  /** Selector of the layer that covered the target: its dismiss button is looked for. */
  interceptor?: string;
  counters?: Counters;
}

export interface RefName {
  ref: string;
  name?: string;
}
export interface NearMatch {
  ref: string;
  role: string;
  name: string;
  score: number;
}

interface FailureContext {
  title: string;
  url: string;
  scrollPosition: { x: number; y: number; maxY: number; percentY: number };
  visibleButtons: RefName[];
  visibleLinks: RefName[];
  visibleErrors: string[];
  nearMatches: NearMatch[];
  dismiss?: RefName;
  counters: Counters;
}

/** Lower case words: "submitBtn", "submit-btn" and "Submit  btn" all read "submit btn". */
export function normaliseTerm(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * How close `candidate` is to `term`, 0–100 (SPEC §16.3): 100 equal (case-insensitive), 80 the
 * candidate contains the term, 70 the term contains the candidate (over 2 characters), 50–75 a
 * near spelling (typo), 50 a shared word of over 2 characters; 0 otherwise.
 */
export function matchScore(term: string, candidate: string): number {
  const t = normaliseTerm(term);
  const c = normaliseTerm(candidate).slice(0, 80);
  if (!t || !c) return 0;
  if (t === c) return 100;
  if (c.includes(t)) return 80;
  if (c.length > 2 && t.includes(c)) return 70;
  let score = 0;
  const longest = Math.max(t.length, c.length);
  // A distance can't be below the length difference: skip the table when that alone rules it out.
  if (Math.abs(t.length - c.length) / longest <= 0.4) {
    const similarity = 1 - editDistance(t, c) / longest;
    if (similarity >= 0.6) score = Math.round(50 + ((similarity - 0.6) / 0.4) * 25);
  }
  const words = c.split(' ');
  if (!score && t.split(' ').some((w) => w.length > 2 && words.includes(w))) score = 50;
  return score;
}

/** The strings an element answers to: its accessible name and the attributes selectors use. */
function answersTo(el: Element, name: string): string[] {
  const out = [name];
  for (const attr of ['id', 'name', 'placeholder', 'aria-label', 'data-testid', 'title', 'value']) {
    const v = el.getAttribute(attr);
    if (v && v !== name) out.push(v);
  }
  return out;
}

function isInViewport(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
}

/** Error messages on show: alerts, error classes, and the messages of fields marked invalid. */
function visibleErrorTexts(limit: number): string[] {
  const out: string[] = [];
  const add = (text: string): void => {
    const t = collapseSpace(text).slice(0, 120);
    if (t && out.length < limit && !out.some((o) => o.includes(t) || t.includes(o))) out.push(t);
  };
  for (const el of Array.from(
    document.querySelectorAll(
      '[role=alert], [aria-live=assertive], .error, .alert, .invalid-feedback, .error-message, .field-error',
    ),
  )) {
    if (isVisible(el)) add((el as HTMLElement).innerText ?? '');
  }
  for (const el of Array.from(document.querySelectorAll('[aria-invalid=true]'))) {
    const ids = `${el.getAttribute('aria-errormessage') ?? ''} ${el.getAttribute('aria-describedby') ?? ''}`
      .trim()
      .split(/\s+/);
    const described = ids
      .map((id) => (id ? document.getElementById(id) : null))
      .filter((e): e is HTMLElement => !!e && isVisible(e));
    const message =
      described.map((e) => e.innerText).join(' ') || (el as HTMLInputElement).validationMessage || 'invalid';
    const label = accessibleName(el, roleOf(el));
    add(label ? `${label}: ${message}` : message);
  }
  return out;
}

/** The button that closes or accepts the covering layer: close/dismiss first, then accept/ok, then decline. */
function dismissButtonIn(layerSelector: string, ctx: RefContext): RefName | undefined {
  let layer: Element | null = null;
  try {
    layer = document.querySelector(layerSelector);
  } catch {
    return undefined; // not a selector this document parses: no layer to look in
  }
  if (!layer) return undefined;
  const ranks = [
    /^(close|dismiss|\u00d7|\u2715|x|hide)\b/i,
    /^(accept|agree|i agree|allow|ok|okay|got it|continue|understood)\b/i,
    /^(reject|decline|no thanks|deny|not now|later)\b/i,
  ];
  let best: { el: Element; role: string; name: string; rank: number } | undefined;
  for (const el of [layer, ...deepElements(layer)]) {
    const role = cachedRole(ctx, el);
    if ((role !== 'button' && role !== 'link') || !isVisible(el)) continue;
    const name = cachedName(ctx, el, role);
    const found = ranks.findIndex((re) => re.test(name.trim()));
    const rank = found === -1 ? ranks.length : found;
    if (!best || rank < best.rank) best = { el, role, name, rank };
  }
  if (!best) return undefined;
  return { ref: refOf(ctx, best.el, best.role, best.name).ref, ...(best.name ? { name: best.name.slice(0, 50) } : {}) };
}

/**
 * What a user can reach now: inside the modal layer when one blocks the page (its buttons, not
 * the page's behind it), else the whole page with open dialogs' controls first (they are on top).
 */
function reachable(): { within?: Element; first: Element[] } {
  const layer = modalLayer();
  return layer ? { within: layer, first: [layer] } : { first: openDialogs() };
}

export function failureContext(req: FailureContextRequest): FailureContext {
  const ctx = refContext(req.counters);
  const buttons: Element[] = [];
  const links: Element[] = [];
  const near: { el: Element; role: string; name: string; score: number; inView: boolean }[] = [];
  const reach = reachable();
  for (const el of deepList(ctx)) {
    const role = cachedRole(ctx, el);
    if (!isInteractiveRole(role) || !isVisible(el)) continue;
    if (reach.within && !reach.within.contains(el)) continue;
    if (role === 'button') buttons.push(el);
    else if (role === 'link') links.push(el);
    if (!req.term) continue;
    const name = cachedName(ctx, el, role);
    const score = Math.max(...answersTo(el, name).map((s) => matchScore(req.term!, s)));
    if (score >= 50) near.push({ el, role, name, score, inView: isInViewport(el) });
  }
  // A dialog's own first, then on screen, then document order: what the agent can see is what it means.
  const onTop = (e: Element): boolean => reach.first.some((d) => d.contains(e));
  const shown = (list: Element[], limit: number): RefName[] =>
    [
      ...list.filter(onTop),
      ...list.filter((e) => !onTop(e) && isInViewport(e)),
      ...list.filter((e) => !onTop(e) && !isInViewport(e)),
    ]
      .slice(0, limit)
      .map((el) => {
        const role = cachedRole(ctx, el);
        const name = cachedName(ctx, el, role);
        return { ref: refOf(ctx, el, role, name).ref, ...(name ? { name: name.slice(0, 50) } : {}) };
      });
  // Equal scores: the name nearest the term's length (for "Go 4999x", "Go 499" before "Go 4"), then on screen.
  const gap = (name: string): number => Math.abs(normaliseTerm(name).length - normaliseTerm(req.term ?? '').length);
  near.sort((a, b) => b.score - a.score || gap(a.name) - gap(b.name) || Number(b.inView) - Number(a.inView));
  const scroller = document.scrollingElement ?? document.documentElement;
  const maxY = Math.max(0, (scroller?.scrollHeight ?? 0) - innerHeight);
  const y = Math.round(scrollY);
  const out: FailureContext = {
    title: pageTitle(),
    url: pageUrl(),
    scrollPosition: {
      x: Math.round(scrollX),
      y,
      maxY,
      percentY: maxY > 0 ? Math.min(100, Math.round((y / maxY) * 100)) : 0,
    },
    visibleButtons: shown(buttons, 8),
    visibleLinks: shown(links, 5),
    visibleErrors: visibleErrorTexts(3),
    nearMatches: near.slice(0, 5).map((m) => ({
      ref: refOf(ctx, m.el, m.role, m.name).ref,
      role: m.role,
      name: m.name.slice(0, 50),
      score: m.score,
    })),
    counters: { snapshot: 0, element: 0 },
  };
  const dismiss = req.interceptor ? dismissButtonIn(req.interceptor, ctx) : undefined;
  if (dismiss) out.dismiss = dismiss;
  out.counters = syncCounters(undefined);
  return out;
}
