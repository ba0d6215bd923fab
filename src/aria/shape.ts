// Detail levels and the viewport cut of a snapshot tree. Pure functions over the page's tree.

import type { AriaNode } from '../injected/index.js';

export type Detail = 'full' | 'interactive' | 'summary';

const LANDMARKS = new Set([
  'banner',
  'complementary',
  'contentinfo',
  'form',
  'main',
  'navigation',
  'region',
  'search',
  'dialog',
  'alertdialog',
]);

/** Only what intersects the viewport (and the ancestors that give it context). */
export function viewportOnly(nodes: AriaNode[]): AriaNode[] {
  const out: AriaNode[] = [];
  for (const n of nodes) {
    const children = n.children ? viewportOnly(n.children) : undefined;
    if (children?.length) out.push({ ...n, children });
    else if (n.vp) out.push(withoutChildren(n));
  }
  return out;
}

function withoutChildren(n: AriaNode): AriaNode {
  const { children: _drop, ...rest } = n;
  return rest;
}

/** Unnamed containers that, around a single element, carry nothing in the interactive detail. */
const WRAPPERS = new Set(['listitem', 'generic', 'paragraph', 'none', 'presentation']);

/** Interactive elements with their structural ancestors (less wrappers of one element); no text. */
export function interactiveOnly(nodes: AriaNode[]): AriaNode[] {
  const out: AriaNode[] = [];
  for (const n of nodes) {
    if (n.role === 'text') continue;
    const children = n.children ? interactiveOnly(n.children) : [];
    if (n.ref) {
      const { text: _t, ...rest } = n;
      out.push(children.length ? { ...rest, children } : withoutChildren(rest));
    } else if (children.length === 1 && !n.name && WRAPPERS.has(n.role)) {
      out.push(children[0]!); // a list item around one button says nothing the list does not
    } else if (children.length) {
      const { text: _t, ...rest } = n;
      out.push({ ...rest, children });
    }
  }
  return out;
}

function countRefs(nodes: AriaNode[] | undefined): number {
  let n = 0;
  for (const c of nodes ?? []) n += (c.ref ? 1 : 0) + countRefs(c.children);
  return n;
}

/** Landmarks (with their count of interactive elements) and headings; no refs. */
export function summaryOnly(nodes: AriaNode[]): AriaNode[] {
  const out: AriaNode[] = [];
  for (const n of nodes) {
    const children = n.children ? summaryOnly(n.children) : [];
    if (LANDMARKS.has(n.role)) {
      const node: AriaNode = { role: n.role, ...(n.name ? { name: n.name } : {}), interactive: countRefs(n.children) };
      out.push(children.length ? { ...node, children } : node);
    } else if (n.role === 'heading') {
      out.push({ role: 'heading', ...(n.name ? { name: n.name } : {}), ...(n.level ? { level: n.level } : {}) });
    } else {
      out.push(...children);
    }
  }
  return out;
}

/**
 * The inline view's compaction (issue 13: bytes that carry nothing): an unnamed list item or
 * generic box whose only content is one element reads as that element (`- list:` then
 * `- button "Item 1"`). The snapshot step and the fullSnapshot file keep the standard tree.
 */
export function liftWrappers(nodes: AriaNode[]): AriaNode[] {
  return nodes.map((n) => {
    const children = n.children ? liftWrappers(n.children) : undefined;
    // Nothing of its own: no name, ref, text, state or live region — only its one child.
    const bare = Object.keys(n).every((k) => k === 'role' || k === 'children' || k === 'vp');
    if (
      bare &&
      children?.length === 1 &&
      (n.role === 'listitem' || n.role === 'generic') &&
      children[0]!.role !== 'text'
    )
      return children[0]!;
    return children ? { ...n, children } : n;
  });
}

export function shape(tree: AriaNode[], detail: Detail, viewport: boolean): AriaNode[] {
  const cut = viewport ? viewportOnly(tree) : tree;
  return detail === 'interactive' ? interactiveOnly(cut) : detail === 'summary' ? summaryOnly(cut) : cut;
}
