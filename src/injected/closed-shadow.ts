// Closed shadow roots (attachShadow({mode: 'closed'})): `host.shadowRoot` is null, but the root
// object works like any other once held. The Node side finds them through CDP (DOM.describeNode
// with pierce) and hands each root to this world; from then on `shadowOf(host)` returns it, and
// every walk that goes through shadowOf sees the closed content. Kept in the runtime's state, so
// what one command learned holds for the document's life. Runs in the page.
import { state } from './state.js';

export interface ClosedShadowState {
  roots: WeakMap<Element, ShadowRoot>;
  /** Hosts the Node side already looked at (with a closed root or not): never asked about again. */
  asked: WeakSet<Element>;
  /** Any closed root seen in this document: walks only pay for closed roots when there are some. */
  any: boolean;
}

/** The element's shadow root, open or (once known) closed. */
export function shadowOf(el: Element): ShadowRoot | null {
  const open = el.shadowRoot;
  if (open) return open;
  const s = state.closedShadow;
  return s.any ? (s.roots.get(el) ?? null) : null;
}

/** The host has a closed shadow root we know. */
export function hasClosedRoot(el: Element): boolean {
  const s = state.closedShadow;
  return s.any && !el.shadowRoot && s.roots.has(el);
}

/** `el` sits inside a closed shadow root (at any depth). */
function inClosedRoot(el: Element): boolean {
  if (!state.closedShadow.any) return false;
  for (let n: Node = el.getRootNode(); n instanceof ShadowRoot; n = n.host.getRootNode())
    if (n.mode === 'closed') return true;
  return false;
}

/**
 * Hosts that may hold a closed root we have not looked at: defined custom elements (Lit, Stencil,
 * …) with no open root and no answer yet, in the document and every known root; `limit` caps the
 * answer. (A closed root on a built-in element such as a <div> is not looked for.)
 */
export function closedRootCandidates(limit = 200): Element[] {
  const s = state.closedShadow;
  const out: Element[] = [];
  const visit = (root: Document | ShadowRoot): void => {
    // A live collection for the document (no array of every element); shadow roots have no such call.
    const all = root instanceof Document ? root.getElementsByTagName('*') : root.querySelectorAll('*');
    for (let i = 0; i < all.length && out.length < limit; i++) {
      const el = all[i]!;
      const open = el.shadowRoot;
      if (open) {
        visit(open);
        continue;
      }
      if (!el.localName.includes('-')) continue;
      const known = s.roots.get(el);
      if (known) visit(known);
      // :defined, not customElements.get: our world has no view of the page's element registry.
      else if (!s.asked.has(el) && el.matches(':defined')) out.push(el);
    }
  };
  visit(document);
  return out;
}

/** Some host may hold a closed root not looked at yet (the Node side then asks CDP, once per host). */
export function closedRootsPending(): boolean {
  return closedRootCandidates(1).length > 0;
}

/** Records the Node side's answer: `hosts[i]` has closed root `roots[i]` (or none, when null). */
export function registerClosedRoots(hosts: Element[], roots: (ShadowRoot | null)[]): number {
  const s = state.closedShadow;
  let added = 0;
  hosts.forEach((host, i) => {
    s.asked.add(host);
    const root = roots[i];
    if (root instanceof ShadowRoot && root.host === host && !host.shadowRoot) {
      s.roots.set(host, root);
      s.any = true;
      added++;
    }
  });
  return added;
}

/**
 * Whether a pointer event that reached this document's listeners hit `target` inside a closed
 * root: outside listeners see such events retargeted to the outermost closed host, so the
 * event's own point is hit-tested through the known roots.
 */
export function closedHitAt(target: Element, e: Event): boolean {
  if (!(e instanceof MouseEvent) || !inClosedRoot(target)) return false;
  const hit = elementFromPointThroughRoots(e.clientX, e.clientY);
  for (let n: Node | null = hit; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null))
    if (n === target) return true;
  return false;
}

/** The deepest element at a viewport point, through open and known closed shadow roots. */
export function elementFromPointThroughRoots(x: number, y: number): Element | null {
  let el = document.elementFromPoint(x, y);
  for (let root = el && shadowOf(el); el && root; root = shadowOf(el)) {
    const inner = root.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}
