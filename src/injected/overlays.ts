// What a hover brings up (SPEC §9.5 captureResult): menus, tooltips, popovers and other floating
// layers that are visible after the hover and were not before. Runs in the page.
import type { Counters } from './ref-map.js';
import { collapseSpace } from './aria-name.js';
import { isInteractiveRole } from './aria-role.js';
import { isVisible } from './dom-describe.js';
import { cachedName, cachedRole, refContext, refOf } from './element-query.js';
import { deepElements, syncCounters } from './ref-map.js';
import { state } from './state.js';

export interface AppearedElement {
  role: string;
  name?: string;
  text?: string;
  ref?: string;
  items?: { role: string; name: string; ref: string }[];
}

/** Floating or menu-like layers: roles, popover attributes, common class names, positioned boxes. */
function overlayCandidates(): Element[] {
  const sel =
    '[role=menu], [role=menubar], [role=tooltip], [role=listbox], [role=dialog], [role=tree], [popover], ' +
    '[class*=menu], [class*=dropdown], [class*=tooltip], [class*=popover], [class*=popup], [class*=flyout], ul, div';
  return deepElements(document).filter((el) => {
    if (!el.matches(sel)) return false;
    if (el.localName === 'div' || el.localName === 'ul') {
      const pos = getComputedStyle(el).position;
      return pos === 'absolute' || pos === 'fixed';
    }
    return true;
  });
}

export function markOverlays(): number {
  const visible = overlayCandidates().filter((el) => isVisible(el));
  state.overlays = new WeakSet(visible);
  return visible.length;
}

/** How many layers appeared since markOverlays, without ending the watch (a hover polls it). */
export function countAppeared(): number {
  const before = state.overlays;
  if (!before) return 0;
  return overlayCandidates().filter((el) => isVisible(el) && !before.has(el)).length;
}

export function appearedOverlays(counters: Counters | undefined): {
  visibleElements: AppearedElement[];
  counters: Counters;
} {
  const before = state.overlays ?? new WeakSet<Element>();
  const ctx = refContext(counters);
  const fresh = overlayCandidates().filter((el) => isVisible(el) && !before.has(el));
  // Keep the outermost new layers only: their items are listed inside them.
  const tops = fresh.filter((el) => !fresh.some((o) => o !== el && o.contains(el))).slice(0, 5);
  const visibleElements = tops.map((el): AppearedElement => {
    const role = cachedRole(ctx, el);
    const name = cachedName(ctx, el, role);
    const items = deepElements(el)
      .filter((e) => isInteractiveRole(cachedRole(ctx, e)) && isVisible(e))
      .slice(0, 10)
      .map((e) => {
        const r = cachedRole(ctx, e);
        const n = cachedName(ctx, e, r);
        return { role: r, name: n, ref: refOf(ctx, e, r, n).ref };
      });
    const text = items.length ? '' : collapseSpace((el as HTMLElement).innerText ?? '').slice(0, 120);
    return { role, ...(name ? { name } : {}), ...(text ? { text } : {}), ...(items.length ? { items } : {}) };
  });
  state.overlays = undefined;
  return { visibleElements, counters: syncCounters(undefined) };
}
