// What a hover brings up (SPEC §9.5 captureResult): menus, tooltips, popovers and other floating
// layers that are visible after the hover and were not before. Runs in the page.
import type { PageRuntime } from './runtime.js';
import type { Counters } from './ref-map.js';
declare const rt: PageRuntime;

export interface AppearedElement { role: string; name?: string; text?: string; ref?: string; items?: { role: string; name: string; ref: string }[] }

/** Floating or menu-like layers: roles, popover attributes, common class names, positioned boxes. */
export function overlayCandidates(): Element[] {
  const sel = '[role=menu], [role=menubar], [role=tooltip], [role=listbox], [role=dialog], [role=tree], [popover], '
    + '[class*=menu], [class*=dropdown], [class*=tooltip], [class*=popover], [class*=popup], [class*=flyout], ul, div';
  return rt.deepElements(document).filter((el) => {
    if (!el.matches(sel)) return false;
    if (el.localName === 'div' || el.localName === 'ul') {
      const pos = getComputedStyle(el).position;
      return pos === 'absolute' || pos === 'fixed';
    }
    return true;
  });
}

export function markOverlays(): number {
  const visible = overlayCandidates().filter((el) => rt.isVisible(el));
  const g = globalThis as unknown as { __cdpSkillOverlays?: WeakSet<Element> };
  g.__cdpSkillOverlays = new WeakSet(visible);
  return visible.length;
}

/** How many layers appeared since markOverlays, without ending the watch (a hover polls it). */
export function countAppeared(): number {
  const before = (globalThis as unknown as { __cdpSkillOverlays?: WeakSet<Element> }).__cdpSkillOverlays;
  if (!before) return 0;
  return overlayCandidates().filter((el) => rt.isVisible(el) && !before.has(el)).length;
}

export function appearedOverlays(counters: Counters | undefined): { visibleElements: AppearedElement[]; counters: Counters } {
  const g = globalThis as unknown as { __cdpSkillOverlays?: WeakSet<Element> };
  const before = g.__cdpSkillOverlays ?? new WeakSet<Element>();
  const ctx = rt.refContext(counters);
  const fresh = overlayCandidates().filter((el) => rt.isVisible(el) && !before.has(el));
  // Keep the outermost new layers only: their items are listed inside them.
  const tops = fresh.filter((el) => !fresh.some((o) => o !== el && o.contains(el))).slice(0, 5);
  const visibleElements = tops.map((el): AppearedElement => {
    const role = rt.cachedRole(ctx, el);
    const name = rt.cachedName(ctx, el, role);
    const items = rt.deepElements(el).filter((e) => rt.isInteractiveRole(rt.cachedRole(ctx, e)) && rt.isVisible(e)).slice(0, 10).map((e) => {
      const r = rt.cachedRole(ctx, e);
      const n = rt.cachedName(ctx, e, r);
      return { role: r, name: n, ref: rt.refOf(ctx, e, r, n).ref };
    });
    const text = items.length ? '' : rt.collapseSpace((el as HTMLElement).innerText ?? '').slice(0, 120);
    return { role, ...(name ? { name } : {}), ...(text ? { text } : {}), ...(items.length ? { items } : {}) };
  });
  g.__cdpSkillOverlays = undefined;
  return { visibleElements, counters: rt.syncCounters(undefined) };
}
