// What of the viewport an element can show through its ancestors (issue 13: a button scrolled out
// of a container, the 45 items a 120 px list hides, are not "in view"). A walk carries the clip
// down: an element with overflow other than visible cuts its content to its box; a fixed element
// sees the whole viewport again, an absolute one the clip at its nearest positioned ancestor
// (overflow between them does not cut it). <html> and <body> pass their overflow to the viewport.
// Runs in the page.

interface Clip {
  l: number;
  t: number;
  r: number;
  b: number;
}

/** The clip a walk carries: the current one, the one at the nearest positioned ancestor, the viewport's. */
export interface ClipState {
  clip: Clip;
  posClip: Clip;
  viewClip: Clip;
}

export function viewportClip(vw: number, vh: number, dx = 0, dy = 0): Clip {
  return { l: dx, t: dy, r: dx + vw, b: dy + vh };
}

export function intersectClip(a: Clip, b: Clip): Clip {
  return { l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) };
}

/** A box (offset into top-viewport coordinates) showing through `c`. */
export function inClip(r: DOMRect, c: Clip, dx = 0, dy = 0): boolean {
  return (
    r.bottom + dy > c.t && r.right + dx > c.l && r.top + dy < c.b && r.left + dx < c.r && (r.width > 0 || r.height > 0)
  );
}

/** The element's own clip from its position: fixed and absolute elements escape some ancestors' overflow. */
export function enterPosition(style: CSSStyleDeclaration, s: ClipState): void {
  if (style.position === 'fixed') {
    s.clip = s.viewClip;
    s.posClip = s.viewClip;
  } else if (style.position === 'absolute') {
    s.clip = s.posClip;
  }
}

function clipsContent(el: Element, style: CSSStyleDeclaration): boolean {
  if (el.localName === 'html' || el.localName === 'body') return false;
  if (style.display === 'contents' || style.display === 'inline') return false;
  return style.overflowX !== 'visible' || style.overflowY !== 'visible';
}

/** The clip its content sees: cut to its box when it clips overflow; the positioned clip when positioned. */
export function enterContent(el: Element, style: CSSStyleDeclaration, s: ClipState, dx = 0, dy = 0): void {
  if (clipsContent(el, style)) {
    const r = el.getBoundingClientRect();
    s.clip = intersectClip(s.clip, { l: r.left + dx, t: r.top + dy, r: r.right + dx, b: r.bottom + dy });
  }
  if (style.position !== 'static') s.posClip = s.clip;
}

/** The clip at `el` from its ancestors (a walk that starts below <body>, e.g. at <main>). */
export function clipAbove(el: Element, s: ClipState): void {
  const chain: Element[] = [];
  for (let n = el.parentElement; n; n = n.parentElement) chain.unshift(n);
  for (const n of chain) {
    const style = getComputedStyle(n);
    enterPosition(style, s);
    enterContent(n, style, s);
  }
}
