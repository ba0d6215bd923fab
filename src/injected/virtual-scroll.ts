// Virtualised lists and grids (AG Grid, TanStack Virtual, Handsontable): a scroller whose content is
// far taller than what is rendered in it — only the rows near the viewport exist in the DOM, and the
// library reuses their elements for other rows as it scrolls. Runs in the page.
import { isVisible, selectorFor } from './dom-describe.js';

/** Rendered text nodes looked at per scroller (a virtualised one renders a few dozen rows). */
const SPAN_TEXT_NODES = 3000;

function isDocScroller(sc: Element): boolean {
  return sc === document.scrollingElement || sc === document.documentElement;
}

/** The height of the scroller's visible area. */
export function viewHeight(sc: Element): number {
  return isDocScroller(sc) ? innerHeight : sc.clientHeight;
}

export function scrollTopOf(sc: Element): number {
  return isDocScroller(sc) ? scrollY : sc.scrollTop;
}

/** Scrolls vertically (overflow that scrolls, content taller than the box). */
function scrollsVertically(el: Element): boolean {
  if (isDocScroller(el)) return el.scrollHeight > innerHeight + 1;
  if (el.scrollHeight <= el.clientHeight + 1) return false;
  return /(auto|scroll|overlay)/.test(getComputedStyle(el).overflowY);
}

/** Where rendered, visible text spans in the scroller's content (px from the content's top). */
export function renderedSpan(sc: Element): { top: number; bottom: number; texts: number } {
  const doc = isDocScroller(sc);
  const origin = doc ? -scrollY : sc.getBoundingClientRect().top - sc.scrollTop;
  const root = doc ? document.body : sc;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  let texts = 0;
  if (!root) return { top: 0, bottom: 0, texts: 0 };
  const seen = new Set<Element>();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), i = 0; n && i < SPAN_TEXT_NODES; n = walker.nextNode(), i++) {
    const parent = n.parentElement;
    if (!parent || seen.has(parent) || !(n.textContent ?? '').trim()) continue;
    seen.add(parent);
    const r = parent.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    texts++;
    top = Math.min(top, r.top - origin);
    bottom = Math.max(bottom, r.bottom - origin);
  }
  return texts ? { top, bottom, texts } : { top: 0, bottom: 0, texts: 0 };
}

/**
 * Virtualised: the content is at least three screens tall, yet the text rendered in it spans less
 * than half of it (the rest is a spacer the library fills as it scrolls). A scroller holding no text
 * at all (AG Grid's own scrollbar) is not the list.
 */
function isVirtualised(sc: Element): boolean {
  const height = sc.scrollHeight;
  if (height < viewHeight(sc) * 3) return false;
  const span = renderedSpan(sc);
  return span.texts > 0 && (span.bottom - span.top < height / 2 || inSparseHolder(sc));
}

/**
 * What is shown mid-view sits in a holder at least three screens tall whose children fill less than
 * half of it: the rows a library placed in its spacer (a sheet in the page's scroll, scrolled far down
 * below a heading). A tall page whose gap is an element of its own (an empty block) is not one.
 */
function inSparseHolder(sc: Element): boolean {
  const doc = isDocScroller(sc);
  const box = doc ? new DOMRect(0, 0, innerWidth, innerHeight) : sc.getBoundingClientRect();
  const tall = viewHeight(sc) * 3;
  let el = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  for (; el && el !== sc && el !== document.body; el = el.parentElement) {
    if (el.getBoundingClientRect().height < tall) continue;
    // The point may hit the library's scroll holder around the spacer (Handsontable's wtHolder, whose
    // one child is the full-height wtHider): its tall child is looked at too.
    return sparse(el) || Array.from(el.children).some((c) => c.getBoundingClientRect().height >= tall && sparse(c));
  }
  return false;
}

/** A tall element whose children fill less than half of it, with text: rows placed in a spacer. */
function sparse(el: Element): boolean {
  const h = el.getBoundingClientRect().height;
  let filled = 0;
  for (const child of Array.from(el.children)) filled += child.getBoundingClientRect().height;
  // An empty tall block is a gap of the page's own, not a holder of rows.
  return filled > 0 && filled < h / 2 && !!el.textContent?.trim();
}

/** The virtualised scroller the element sits in, if any. */
export function virtualScrollerOf(el: Element): Element | undefined {
  const up = (e: Element): Element | null => e.parentElement ?? (e.getRootNode() as Partial<ShadowRoot>).host ?? null;
  for (let a = up(el); a; a = up(a)) {
    if (a === document.documentElement || a === document.body) break;
    if (scrollsVertically(a) && isVirtualised(a)) return a;
  }
  const doc = document.scrollingElement;
  return doc && scrollsVertically(doc) && isVirtualised(doc) ? doc : undefined;
}

/** Visible virtualised scrollers under `root` (the document's own scroller included), the tallest first. */
export function virtualScrollers(root: Document | Element = document): Element[] {
  const found: Element[] = [];
  const all = root === document ? Array.from(document.querySelectorAll('*')) : Array.from(root.querySelectorAll('*'));
  if (root !== document) all.unshift(root as Element);
  for (const el of all) {
    if (isDocScroller(el)) continue;
    if (el.scrollHeight <= el.clientHeight + 1 || !scrollsVertically(el)) continue;
    if (isVisible(el) && isVirtualised(el)) found.push(el);
  }
  const doc = document.scrollingElement;
  if (root === document && doc && scrollsVertically(doc) && isVirtualised(doc)) found.push(doc);
  return found.sort((a, b) => b.scrollHeight - a.scrollHeight);
}

/** `div.ag-body-viewport`, `#list`: short; a unique selector when the element has no id or class. */
export function describeScroller(sc: Element): string {
  if (isDocScroller(sc)) return 'the page';
  if (sc.id) return `#${sc.id}`;
  const cls = typeof sc.className === 'string' ? sc.className.trim().split(/\s+/).filter(Boolean).slice(0, 2) : [];
  return cls.length ? `${sc.localName}.${cls.join('.')}` : selectorFor(sc);
}
