// The accessibility snapshot walker: a plain tree of roles, names, states, values and refs, with
// generic wrappers flattened and text kept. Rendering to YAML is aria/'s job. Runs in the page.
import { isClickablePlainRole, nodeStates } from './aria-states.js';
import type { Counters } from './ref-map.js';
import { accessibleName, capName, collapseSpace, nameHint, TEXT_MAX_CHARS } from './aria-name.js';
import { isInteractiveRole, isLandmarkRole, roleOf } from './aria-role.js';
import { isHtml, isVisible } from './dom-describe.js';
import { deepElements, refFor, refState, syncCounters } from './ref-map.js';
import { hasClosedRoot, shadowOf } from './closed-shadow.js';
import { FRAME_TAG } from '../shared/index.js';
import {
  clipAbove,
  type ClipState,
  enterContent,
  enterPosition,
  inClip,
  intersectClip,
  viewportClip,
} from './view-clip.js';

export interface AriaNode {
  role: string;
  name?: string;
  /** An interactive element with no name: its id or class, to tell it apart (not a name). */
  hint?: string;
  ref?: string;
  level?: number;
  checked?: 'true' | 'false' | 'mixed';
  disabled?: true;
  expanded?: boolean;
  pressed?: 'true' | 'false' | 'mixed';
  selected?: true;
  required?: true;
  invalid?: true;
  focused?: true;
  value?: string;
  /** A slider's range. */
  min?: string;
  max?: string;
  step?: string;
  url?: string;
  /** The form field's name attribute. */
  field?: string;
  /** Input type where the role hides it (date, time, file, color, …). */
  type?: string;
  /** Text content (role "text"), or a single text child inlined. */
  text?: string;
  children?: AriaNode[];
  /** 1 when the node's box intersects the viewport. */
  vp?: 1;
  /** Live region (status, alert, log, aria-live). */
  live?: 1;
  /** Summary detail: interactive elements inside a landmark. */
  interactive?: number;
  /** The element hosts a closed shadow root (its children are that root's content). */
  closed?: 1;
  /**
   * role "oopif": where an out-of-process frame's content goes (aria/frames.ts fills it in) — the
   * frame's id once the Node side has tagged its <iframe>, absent until then.
   */
  frameId?: string;
}

export interface SnapshotOptions {
  root?: string;
  autoScope: boolean;
  pierceShadow: boolean;
  includeFrames: boolean;
  maxDepth: number;
  maxElements: number;
  refs: boolean;
  /** Agent-facing snapshots get a new snapshot id; internal ones (diff, capture) don't. */
  internal: boolean;
  counters?: Counters;
}

type SnapshotOutcome =
  | {
      ok: true;
      tree: AriaNode[];
      scope?: string;
      landmarks?: string[];
      truncated?: true;
      snapshotId: number;
      counters: Counters;
      elements: number;
    }
  | { ok: false; reason: 'invalid-selector' | 'root-not-found'; message?: string };

interface WalkState {
  opts: SnapshotOptions;
  sid: number;
  count: number;
  truncated: boolean;
  ordinals: Map<string, number>;
  vw: number;
  vh: number;
  /** Where the document being walked sits in the top viewport (a frame's content box), for `vp`. */
  dx: number;
  dy: number;
  /** What of the viewport shows through the ancestors (view-clip.ts), in top-viewport coordinates. */
  clip: ClipState;
}

export function isClickableGeneric(el: Element, style: CSSStyleDeclaration): boolean {
  if (el.hasAttribute('onclick')) return true;
  if (style.cursor !== 'pointer') return false;
  const parent = el.parentElement;
  return !parent || getComputedStyle(parent).cursor !== 'pointer';
}

function pushText(out: AriaNode[], raw: string, vp: boolean): void {
  // Bounded before spaces are collapsed: a megabyte of text costs no more than a page of it.
  const room = 4 * TEXT_MAX_CHARS;
  const text = raw.length > room ? raw.slice(0, room) : raw;
  const last = out[out.length - 1];
  if (last && last.role === 'text' && !last.children) {
    if (last.text!.length < room) last.text += text;
    if (vp) last.vp = 1;
  } else {
    out.push({ role: 'text', text, ...(vp ? { vp: 1 as const } : {}) });
  }
}

function walkChildren(parent: Element | ShadowRoot | Document, depth: number, st: WalkState, out: AriaNode[]): void {
  const source = isHtml(parent, 'slot')
    ? parent.assignedNodes({ flatten: true })
    : // A closed <details> renders only its summary.
      isHtml(parent, 'details') && !parent.open
      ? Array.from(parent.children).filter((c) => c.localName === 'summary')
      : undefined;
  const shadow = parent.nodeType === Node.ELEMENT_NODE && st.opts.pierceShadow ? shadowOf(parent as Element) : null;
  // An empty slot shows its fallback content; a closed details without a summary shows nothing.
  const nodes: Node[] =
    source && (source.length || !isHtml(parent, 'slot')) ? source : Array.from((shadow ?? parent).childNodes);
  for (const child of nodes) {
    if (st.count >= st.opts.maxElements) {
      st.truncated = true;
      return;
    }
    if (child.nodeType === Node.TEXT_NODE) {
      const raw = child.textContent ?? '';
      if (!raw.trim()) {
        if (raw) pushText(out, ' ', false);
        continue;
      }
      let vp = false;
      const range = document.createRange();
      range.selectNodeContents(child);
      vp = inClip(range.getBoundingClientRect(), st.clip.clip, st.dx, st.dy);
      pushText(out, raw, vp);
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      walkElement(child as Element, depth, st, out);
    }
  }
}

function walkElement(el: Element, depth: number, st: WalkState, out: AriaNode[]): void {
  const tag = el.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return;
  if (depth > st.opts.maxDepth) {
    st.truncated = true;
    return;
  }
  if (el.getAttribute('aria-hidden') === 'true') return;
  st.count++;
  const style = getComputedStyle(el);
  if (style.display === 'none') return;
  const saved = { ...st.clip };
  try {
    walkShown(el, style, depth, st, out);
  } finally {
    st.clip = saved;
  }
}

function walkShown(el: Element, style: CSSStyleDeclaration, depth: number, st: WalkState, out: AriaNode[]): void {
  enterPosition(style, st.clip);
  const hiddenSelf = style.visibility === 'hidden' || style.visibility === 'collapse';
  let role = roleOf(el);
  const inline = style.display === 'inline' || style.display === 'contents';
  const plain = role === 'generic' || role === 'presentation';
  // A clickable cell, row or list item (a calendar's day, a table row that opens) is a choice: it gets a ref.
  const clickable =
    st.opts.refs && !hiddenSelf && (plain || isClickablePlainRole(role)) && isClickableGeneric(el, style);
  if (clickable && plain) role = 'generic';
  // A closed shadow root's host keeps a line of its own, marked, so the agent knows where it is.
  const closedHost = st.opts.pierceShadow && !hiddenSelf && hasClosedRoot(el);
  if (closedHost && (role === 'presentation' || role === 'none-labelling')) role = 'generic';
  if (
    hiddenSelf ||
    ((role === 'generic' || role === 'presentation' || role === 'none-labelling') && !clickable && !closedHost)
  ) {
    if (role === 'none-labelling') {
      // Labels name their controls; their text would only repeat the control's name.
      for (const c of Array.from(el.querySelectorAll('input, select, textarea, button, [role]')))
        if (c.parentElement?.closest('label, legend, figcaption') === el) walkElement(c, depth + 1, st, out);
      return;
    }
    if (!inline) pushText(out, ' ', false);
    enterContent(el, style, st.clip, st.dx, st.dy);
    walkChildren(el, depth + 1, st, out);
    if (el.localName === 'iframe') walkFrame(el as HTMLIFrameElement, depth, st, out);
    if (!inline) pushText(out, ' ', false);
    return;
  }
  const node: AriaNode = { role };
  if (closedHost) node.closed = 1;
  const name = capName(accessibleName(el, role));
  if (name) node.name = name;
  nodeStates(el, role, node);
  const rect = el.getBoundingClientRect();
  if (inClip(rect, st.clip.clip, st.dx, st.dy)) node.vp = 1;
  if (st.opts.refs && (isInteractiveRole(role) || clickable)) {
    const key = `${role}|${name}`;
    const ordinal = st.ordinals.get(key) ?? 0;
    st.ordinals.set(key, ordinal + 1);
    node.ref = refFor(el, role, name, st.sid, ordinal);
    if (!name && !node.field) {
      const hint = nameHint(el);
      if (hint) node.hint = hint;
    }
  }
  const children: AriaNode[] = [];
  enterContent(el, style, st.clip, st.dx, st.dy);
  if (role === 'iframe') walkFrame(el as HTMLIFrameElement, depth, st, children);
  else if (
    (role !== 'textbox' && role !== 'searchbox' && role !== 'combobox') ||
    !(isHtml(el, 'input') || isHtml(el, 'textarea') || isHtml(el, 'select'))
  ) {
    if (!isHtml(el, 'select') || role === 'listbox') walkChildren(el, depth + 1, st, children);
  }
  settleChildren(node, children);
  out.push(node);
  if (!inline) pushText(out, ' ', false);
}

/**
 * A same-origin frame's content, walked under its iframe node. A cross-origin frame that shows
 * (not zero-size) leaves a slot, filled on the Node side with the frame's own snapshot.
 */
function walkFrame(frame: HTMLIFrameElement, depth: number, st: WalkState, out: AriaNode[]): void {
  if (!st.opts.includeFrames) return;
  let doc: Document | null = null;
  try {
    doc = frame.contentDocument;
  } catch {
    doc = null;
  }
  const box = frame.getBoundingClientRect();
  if (!doc && frame.clientWidth > 0 && frame.clientHeight > 0) {
    const id = (frame as unknown as Record<string, unknown>)[FRAME_TAG];
    const slot: AriaNode = { role: 'oopif', ...(typeof id === 'string' ? { frameId: id } : {}) };
    if (inClip(box, st.clip.clip, st.dx, st.dy)) slot.vp = 1;
    out.push(slot);
    return;
  }
  if (!doc?.body) return;
  const [dx, dy] = [st.dx, st.dy];
  const saved = { ...st.clip };
  st.dx = dx + box.left + frame.clientLeft;
  st.dy = dy + box.top + frame.clientTop;
  // The frame's viewport is its content box, as far as the host page shows it.
  const inner = intersectClip(
    saved.clip,
    viewportClip(frame.clientWidth || box.width, frame.clientHeight || box.height, st.dx, st.dy),
  );
  st.clip = { clip: inner, posClip: inner, viewClip: inner };
  try {
    walkChildren(doc.body, depth + 1, st, out);
  } finally {
    st.dx = dx;
    st.dy = dy;
    st.clip = saved;
  }
}

/** Trims text, drops text that only repeats the node's name, and inlines a lone text child. */
function settleChildren(node: AriaNode, children: AriaNode[]): void {
  const kept: AriaNode[] = [];
  for (const c of children) {
    if (c.role === 'text') {
      const t = collapseSpace(c.text ?? '');
      if (!t) continue;
      const max = TEXT_MAX_CHARS;
      c.text = t.length > max ? `${t.slice(0, max - 1)}…` : t;
    }
    kept.push(c);
  }
  if (
    node.role === 'row' &&
    node.name &&
    kept.length &&
    kept.every(
      (c) => (c.role === 'cell' || c.role === 'columnheader' || c.role === 'rowheader') && !c.ref && !c.children,
    )
  ) {
    // The row's name already reads "Ann 34 Paris": its plain-text cells add only bytes.
    return;
  }
  const texts = kept.filter((c) => c.role === 'text');
  const joined = texts.length ? collapseSpace(texts.map((t) => t.text).join(' ')) : '';
  const cut = node.name?.endsWith('…') ? node.name.slice(0, -1) : undefined;
  if (node.name && texts.length && (joined === node.name || (cut !== undefined && joined.startsWith(cut)))) {
    const rest = kept.filter((c) => c.role !== 'text');
    if (rest.length) node.children = rest;
    return;
  }
  if (kept.length === 1 && kept[0]!.role === 'text' && node.value === undefined) {
    node.text = kept[0]!.text;
    if (kept[0]!.vp) node.vp = 1;
    return;
  }
  if (kept.length) node.children = kept;
}

function findRoot(
  root: string | undefined,
  autoScope: boolean,
): { el: Element; scope?: string } | { error: 'invalid-selector' | 'root-not-found'; message?: string } {
  if (root) {
    const roleMatch = /^role=(\w+)$/.exec(root.trim());
    if (roleMatch) {
      const el = deepElements(document).find((e) => roleOf(e) === roleMatch[1] && isVisible(e));
      return el ? { el, scope: root } : { error: 'root-not-found' };
    }
    try {
      const el = document.querySelector(root);
      return el ? { el, scope: root } : { error: 'root-not-found' };
    } catch (e) {
      return { error: 'invalid-selector', message: (e as Error).message };
    }
  }
  if (autoScope) {
    const main = document.querySelector('main, [role="main"]');
    if (main && isVisible(main)) return { el: main, scope: 'main' };
  }
  return { el: document.body ?? document.documentElement };
}

/** Popups shown outside the scope (portals at the end of <body>: an open listbox, menu, dialog, tooltip). */
function popupsOutside(scope: Element): Element[] {
  const selector =
    '[role=listbox], [role=menu], [role=dialog], [role=alertdialog], [role=tooltip], [role=tree], [role=grid], dialog[open]';
  const found = Array.from(document.querySelectorAll(selector)).filter(
    (el) => !scope.contains(el) && !el.contains(scope) && isVisible(el),
  );
  return found.filter((el) => !found.some((other) => other !== el && other.contains(el))).slice(0, 10);
}

/** Landmarks outside the scope, for the auto-scope header. */
function otherLandmarks(scope: Element): string[] {
  const out: string[] = [];
  for (const el of Array.from(
    document.querySelectorAll(
      'header, nav, footer, aside, form, search, section[aria-label], section[aria-labelledby], [role]',
    ),
  )) {
    if (scope.contains(el) || el.contains(scope)) continue;
    const role = roleOf(el);
    if (!isLandmarkRole(role) || !isVisible(el)) continue;
    const name = capName(accessibleName(el, role));
    out.push(name ? `${role} "${name}"` : role);
  }
  return out.slice(0, 12);
}

function topClip(): ClipState {
  const view = viewportClip(window.innerWidth, window.innerHeight);
  return { clip: view, posClip: view, viewClip: view };
}

/** A walk that starts below <body>: the clip its ancestors make first. */
function walkFrom(el: Element, st: WalkState, out: AriaNode[]): void {
  st.clip = topClip();
  clipAbove(el, st.clip);
  walkElement(el, 0, st, out);
}

export function ariaSnapshot(opts: SnapshotOptions): SnapshotOutcome {
  const s = refState();
  syncCounters(opts.counters);
  const found = findRoot(opts.root, opts.autoScope);
  if ('error' in found) return { ok: false, reason: found.error, message: found.message };
  if (!opts.internal) s.snapshotId++;
  const st: WalkState = {
    opts,
    sid: Math.max(1, s.snapshotId),
    count: 0,
    truncated: false,
    ordinals: new Map(),
    vw: window.innerWidth,
    vh: window.innerHeight,
    dx: 0,
    dy: 0,
    clip: topClip(),
  };
  const tree: AriaNode[] = [];
  if (found.el === document.body || found.el === document.documentElement) walkChildren(found.el, 0, st, tree);
  else walkFrom(found.el, st, tree);
  // Auto-scoped to <main>: popups rendered elsewhere still show, where they are in the document.
  if (found.scope === 'main' && !opts.root) for (const popup of popupsOutside(found.el)) walkFrom(popup, st, tree);
  const holder: AriaNode = { role: 'root' };
  settleChildren(holder, tree);
  const outcome: SnapshotOutcome = {
    ok: true,
    tree: holder.children ?? (holder.text ? [{ role: 'text', text: holder.text }] : []),
    snapshotId: st.sid,
    counters: { snapshot: s.snapshotId, element: s.elementCounter },
    elements: st.count,
  };
  if (found.scope) outcome.scope = found.scope;
  if (found.scope === 'main' && !opts.root) {
    const others = otherLandmarks(found.el);
    if (others.length) outcome.landmarks = others;
  }
  if (st.truncated) outcome.truncated = true;
  return outcome;
}
