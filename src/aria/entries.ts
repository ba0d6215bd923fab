// Turns a (viewport) snapshot tree into the entries the diff compares.

import type { AriaNode } from '../injected/index.js';
import type { DiffEntry } from '../diff/index.js';
import { nodeLine } from './render.js';

function textOf(n: AriaNode): string {
  if (n.text) return n.text;
  return (n.children ?? []).map(textOf).join(' ').replace(/\s+/g, ' ').trim();
}

/** Layers whose appearance is news even without a ref: a dialog or menu that opened. */
const LAYER_ROLES = new Set(['dialog', 'alertdialog', 'menu', 'listbox', 'tooltip', 'alert']);

export function diffEntries(tree: AriaNode[]): DiffEntry[] {
  const out: DiffEntry[] = [];
  const liveCount = new Map<string, number>();
  const visit = (nodes: AriaNode[]): void => {
    for (const n of nodes) {
      const layer = !n.ref && !n.live && LAYER_ROLES.has(n.role);
      if (n.ref || n.live || layer) {
        const states: DiffEntry['states'] = {};
        if (n.checked !== undefined) states.checked = n.checked;
        if (n.expanded !== undefined) states.expanded = String(n.expanded);
        if (n.selected) states.selected = 'true';
        if (n.pressed !== undefined) states.pressed = n.pressed;
        if (n.disabled) states.disabled = 'true';
        if (n.focused) states.focused = 'true';
        if (n.value !== undefined) states.value = n.value;
        let key = n.ref;
        if (!key) {
          // Live regions keep their key (role#n) while their text changes; a layer is named as it
          // reads in the summary: dialog "Cart" (numbered only when two share a name).
          const base = layer ? (n.name ? `${n.role} "${n.name}"` : n.role) : n.role;
          const i = liveCount.get(base) ?? 0;
          liveCount.set(base, i + 1);
          key = layer ? (i ? `${base} ${i + 1}` : base) : `${base}#${i}`;
        }
        if (n.live) states.text = textOf(n);
        out.push({ key, role: n.role, name: n.name ?? '', states, line: nodeLine(n) });
      }
      if (n.children) visit(n.children);
    }
  };
  visit(tree);
  return out;
}

/** Landmarks that stay put while the content scrolls: headers, menus, footers, sidebars. */
const FRAME_LANDMARKS = new Set(['banner', 'navigation', 'contentinfo', 'complementary']);
export const UNCHANGED_NOTE = '(unchanged since your last view)';

/**
 * The tree with each top-level frame landmark folded to one line when the agent already saw every
 * element in it, unchanged (`seen` holds the entry lines of its previous view) — a sticky header is
 * not repeated after every scroll. A landmark without refs or live regions is kept: nothing proves
 * it unchanged.
 */
export function foldUnchanged(tree: AriaNode[], seen: ReadonlySet<string>): AriaNode[] {
  return tree.map((n) => {
    if (!FRAME_LANDMARKS.has(n.role) || !n.children?.length) return n;
    const entries = diffEntries([n]);
    if (!entries.length || !entries.every((e) => seen.has(e.line))) return n;
    const { children: _drop, ...rest } = n;
    return { ...rest, text: UNCHANGED_NOTE };
  });
}
