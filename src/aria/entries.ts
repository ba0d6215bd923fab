// Folding what the agent already saw: a header, menu, footer or sidebar that the page's view diff
// found on screen before and after the steps with nothing changed inside is sent as one line.

import type { AriaNode } from '../injected/index.js';

/** Landmarks that stay put while the content scrolls: headers, menus, footers, sidebars. */
export const FRAME_LANDMARKS = new Set(['banner', 'navigation', 'contentinfo', 'complementary']);
export const UNCHANGED_NOTE = '(unchanged since your last view)';

/** How the page names a landmark to the fold: role and accessible name. */
export function landmarkKey(role: string, name: string | undefined): string {
  return `${role}|${name ?? ''}`;
}

/** The tree with each top-level frame landmark in `unchanged` (landmarkKey) folded to one line. */
export function foldUnchanged(tree: AriaNode[], unchanged: ReadonlySet<string>): AriaNode[] {
  return tree.map((n) => {
    if (!FRAME_LANDMARKS.has(n.role) || !n.children?.length || !unchanged.has(landmarkKey(n.role, n.name))) return n;
    const { children: _drop, ...rest } = n;
    return { ...rest, text: UNCHANGED_NOTE };
  });
}
