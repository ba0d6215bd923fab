// Text inside editors, for the caret step: an occurrence of a piece of text found in the rendered
// text of an editable (contenteditable hosts, CodeMirror, Monaco, Ace), the points a person would
// click to put the caret before or after it or to select it, and where the caret really is after
// the click (the DOM selection, or the caret an editor draws itself). Runs in the page.
import { describeElement, heldElement } from './locate.js';

/** Editors that draw their own text layer: the root, the layer holding the text, the caret and selection they draw. */
const EDITORS: readonly { kind: string; root: string; text: string; caret?: string; selection?: string }[] = [
  {
    kind: 'Monaco editor',
    root: '.monaco-editor',
    text: '.view-lines',
    caret: '.cursors-layer .cursor',
    selection: '.view-overlays .selected-text',
  },
  { kind: 'CodeMirror editor', root: '.cm-editor', text: '.cm-content' },
  {
    kind: 'Ace editor',
    root: '.ace_editor',
    text: '.ace_text-layer',
    caret: '.ace_cursor',
    selection: '.ace_selection',
  },
  { kind: 'CodeMirror 5 editor', root: '.CodeMirror', text: '.CodeMirror-code' },
];
const EDITABLE = `${EDITORS.map((e) => e.root).join(', ')}, [contenteditable]:not([contenteditable="false"])`;
/** Editors that draw their own text (no element per word to click): a click on their text is a caret move. */
export const CODE_EDITORS = EDITORS.map((e) => e.root).join(', ');
/** Characters of context shown on each side of the caret or selection. */
const CONTEXT_CHARS = 24;
/** Occurrences listed when the text is ambiguous. */
const LIST_MAX = 5;

export type CaretPosition = 'before' | 'after' | 'select';

export interface CaretRequest {
  text: string;
  position: CaretPosition;
  /** 1-based; counted over the editables searched, in document order. */
  occurrence?: number;
  /** The element `in` named (held), else every editable in the document. */
  handle?: number;
}

interface Segment {
  node: Text;
  /** Offset of the node's first character in the flat text. */
  start: number;
  line: Element;
}

/** One editable's rendered text: its text nodes flattened, a "\n" between lines. */
interface Flat {
  host: Element;
  layer: Element;
  editor: (typeof EDITORS)[number] | undefined;
  text: string;
  segments: Segment[];
}

interface Match {
  flat: Flat;
  start: number;
  end: number;
}

export type CaretFound =
  | {
      ok: true;
      /** Where to press and where to release (the same point for before/after), in this frame's viewport. */
      from: { x: number; y: number };
      to: { x: number; y: number };
      occurrence: number;
      of: number;
      editor: string;
    }
  | {
      ok: false;
      reason: 'no-editable' | 'not-found' | 'ambiguous' | 'covered' | 'no-box';
      message: string;
      /** Not found in an editor that renders only the lines in view: where to turn the wheel, and what it shows now. */
      scroll?: { x: number; y: number; step: number; shows: string };
    };

type CaretReadBack =
  | { ok: true; matches: boolean; at: string; selected?: string; how: 'selection' | 'editor' }
  | { ok: false; message: string };

function isBlock(el: Element, cache: Map<Element, boolean>): boolean {
  let b = cache.get(el);
  if (b === undefined) {
    const d = getComputedStyle(el).display;
    b = !(d === 'inline' || d === 'contents' || d.startsWith('inline-'));
    cache.set(el, b);
  }
  return b;
}

function editorOf(el: Element): (typeof EDITORS)[number] | undefined {
  return EDITORS.find((e) => el.matches(e.root));
}

/** The editable `el` is in or is: an editor's text layer, or the contenteditable host. */
function editableAround(el: Element): Flat | undefined {
  for (const e of EDITORS) {
    const root = el.closest(e.root);
    const layer = root?.querySelector(e.text);
    if (root && layer) return flatten(root, layer, e);
  }
  let host: Element | null = (el as HTMLElement).isContentEditable ? el : null;
  while (host?.parentElement && (host.parentElement as HTMLElement).isContentEditable) host = host.parentElement;
  return host ? flatten(host, host, undefined) : undefined;
}

/** Editables in `scope` (or around it), outermost only, in document order. */
function editablesIn(scope: Element | Document): Flat[] {
  if (scope instanceof Element) {
    const around = editableAround(scope);
    if (around) return [around];
  }
  const out: Flat[] = [];
  const seen: Element[] = [];
  for (const el of Array.from(scope.querySelectorAll(EDITABLE))) {
    if (seen.some((s) => s.contains(el))) continue;
    const e = editorOf(el);
    const layer = e ? el.querySelector(e.text) : el;
    if (!layer) continue;
    seen.push(el);
    out.push(flatten(el, layer, e));
  }
  return out;
}

function flatten(host: Element, layer: Element, editor: Flat['editor']): Flat {
  const cache = new Map<Element, boolean>();
  const lineOf = (n: Node): Element => {
    for (let p = n.parentElement; p && p !== layer; p = p.parentElement) if (isBlock(p, cache)) return p;
    return layer;
  };
  // Lines (block elements, or runs split by <br>), each with its text nodes.
  const lines: { el: Element; nodes: Text[] }[] = [];
  const walker = document.createTreeWalker(layer, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode(n) {
      if (n.nodeType === Node.ELEMENT_NODE) {
        const el = n as Element;
        if (el.localName === 'br') return NodeFilter.FILTER_ACCEPT;
        if (el.localName === 'style' || el.localName === 'script') return NodeFilter.FILTER_REJECT;
        return getComputedStyle(el).display === 'none' ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
      }
      return (n.nodeValue ?? '').length ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
    },
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = lineOf(n);
    const last = lines[lines.length - 1];
    if (n.nodeType === Node.ELEMENT_NODE) {
      // <br> ends a line with text, or is the whole of an empty one (CodeMirror's empty lines).
      if (!last || last.el !== el || last.nodes.length) lines.push({ el, nodes: [] });
      continue;
    }
    if (last && last.el === el) last.nodes.push(n as Text);
    else lines.push({ el, nodes: [n as Text] });
  }
  // Editors that draw their own lines reuse line elements out of order (Monaco): read them top to bottom.
  if (editor) {
    const top = new Map(lines.map((l) => [l.el, l.el.getBoundingClientRect().top]));
    lines.sort((a, b) => top.get(a.el)! - top.get(b.el)!);
  }
  const segments: Segment[] = [];
  let text = '';
  lines.forEach((l, k) => {
    if (k > 0) text += '\n';
    for (const node of l.nodes) {
      segments.push({ node, start: text.length, line: l.el });
      // Monaco and others render spaces as no-break spaces: they match a plain space (same length).
      text += (node.nodeValue ?? '').replace(/\u00a0/g, ' ');
    }
  });
  return { host, layer, editor, text, segments };
}

function occurrences(flat: Flat, want: string): Match[] {
  const out: Match[] = [];
  for (let i = flat.text.indexOf(want); i >= 0; i = flat.text.indexOf(want, i + want.length))
    out.push({ flat, start: i, end: i + want.length });
  return out;
}

/** The text node and offset of flat character `i` (a "\n" between lines has none). */
function charAt(flat: Flat, i: number): { node: Text; offset: number } | undefined {
  for (const s of flat.segments) {
    const len = s.node.length;
    if (i >= s.start && i < s.start + len) return { node: s.node, offset: i - s.start };
  }
  return undefined;
}

function charRect(flat: Flat, i: number): DOMRect | undefined {
  const c = charAt(flat, i);
  if (!c) return undefined;
  const r = document.createRange();
  r.setStart(c.node, c.offset);
  r.setEnd(c.node, c.offset + 1);
  const rects = Array.from(r.getClientRects()).filter((x) => x.height > 0);
  return rects[0];
}

/** The point to click so the caret lands at flat position `p`: the near edge of the character beside it. */
function edgePoint(flat: Flat, p: number, prefer: 'left' | 'right'): { x: number; y: number } | undefined {
  const inset = (w: number): number => Math.max(0.5, Math.min(2, w / 4));
  const leftOf = (): { x: number; y: number } | undefined => {
    const r = charRect(flat, p);
    return r ? { x: r.left + inset(r.width), y: r.top + r.height / 2 } : undefined;
  };
  const rightOf = (): { x: number; y: number } | undefined => {
    const r = p > 0 ? charRect(flat, p - 1) : undefined;
    return r ? { x: r.right - inset(r.width), y: r.top + r.height / 2 } : undefined;
  };
  return prefer === 'left' ? (leftOf() ?? rightOf()) : (rightOf() ?? leftOf());
}

/** "CodeMirror editor in #notes", "contenteditable div.ql-editor in #quill". */
function editorName(flat: Flat): string {
  const kind = flat.editor?.kind ?? `contenteditable ${describeElement(flat.host).replace(/ ".*$/, '')}`;
  const withId = flat.host.id ? flat.host : flat.host.parentElement?.closest('[id]');
  return withId && (flat.editor || withId !== flat.host) ? `${kind} in #${withId.id}` : kind;
}

/** The line of text around [start, end), with the caret as `|` or the selection in [brackets]. */
function context(flat: Flat, start: number, end: number): string {
  const lineStart = flat.text.lastIndexOf('\n', start - 1) + 1;
  const nl = flat.text.indexOf('\n', end);
  const lineEnd = nl < 0 ? flat.text.length : nl;
  const from = Math.max(lineStart, start - CONTEXT_CHARS);
  const to = Math.min(lineEnd, end + CONTEXT_CHARS);
  const mid = start === end ? '|' : `[${flat.text.slice(start, end)}]`;
  return `${from > lineStart ? '…' : ''}${flat.text.slice(from, start)}${mid}${flat.text.slice(end, to)}${to < lineEnd ? '…' : ''}`;
}

function findMatch(
  req: CaretRequest,
): { ok: true; match: Match; index: number; of: number } | Extract<CaretFound, { ok: false }> {
  const scope = req.handle !== undefined ? heldElement(req.handle) : document;
  if (!scope) return { ok: false, reason: 'no-editable', message: 'The element "in" named is gone' };
  const flats = editablesIn(scope).filter((f) => f.host.isConnected && f.layer.getClientRects().length > 0);
  if (!flats.length)
    return {
      ok: false,
      reason: 'no-editable',
      message:
        scope === document
          ? 'No editable text on the page (no contenteditable, CodeMirror, Monaco or Ace editor)'
          : scope instanceof HTMLInputElement || scope instanceof HTMLTextAreaElement
            ? `${describeElement(scope)} is a text field, not an editor: click it, then press Home, End or Shift+ArrowLeft, or fill it`
            : `${describeElement(scope as Element)} is not an editor and holds none (no contenteditable, CodeMirror, Monaco or Ace editor)`,
    };
  const all = flats.flatMap((f) => occurrences(f, req.text));
  const where = flats.length === 1 ? editorName(flats[0]!) : `${flats.length} editors`;
  if (!all.length) {
    const virtual = flats.some((f) => f.editor?.root === '.monaco-editor' || f.editor?.root === '.cm-editor');
    const only = flats.length === 1 ? flats[0]! : undefined;
    // The wheel turns over the editor: bring it into the window first.
    if (virtual && only) {
      const b = only.host.getBoundingClientRect();
      if (b.top < 0 || b.bottom > innerHeight) only.host.scrollIntoView({ block: 'nearest' });
    }
    const box = only?.host.getBoundingClientRect();
    return {
      ok: false,
      reason: 'not-found',
      message:
        `${JSON.stringify(req.text)} is not in the text of ${where}` +
        (virtual ? ' (this editor draws only the lines near the view; it was scrolled through to look)' : ''),
      ...(virtual && only && box && box.height > 0
        ? {
            scroll: {
              x: box.left + box.width / 2,
              y: Math.max(0, box.top) + (Math.min(box.bottom, innerHeight) - Math.max(0, box.top)) / 2,
              step: Math.max(40, Math.round(Math.min(box.bottom, innerHeight) - Math.max(0, box.top))),
              shows: `${only.text.length}:${only.text.slice(0, 60)}|${only.text.slice(-60)}`,
            },
          }
        : {}),
    };
  }
  if (req.occurrence === undefined && all.length > 1) {
    const listed = all
      .slice(0, LIST_MAX)
      .map((m, i) => `${i + 1}: ${JSON.stringify(context(m.flat, m.start, m.end))}`)
      .join('; ');
    return {
      ok: false,
      reason: 'ambiguous',
      message: `${JSON.stringify(req.text)} occurs ${all.length} times in ${where} (${listed}${all.length > LIST_MAX ? '; …' : ''}): add "occurrence": n (1 = first, counted top to bottom)`,
    };
  }
  const index = req.occurrence ?? 1;
  const match = all[index - 1];
  if (!match)
    return {
      ok: false,
      reason: 'not-found',
      message: `${JSON.stringify(req.text)} occurs ${all.length} time${all.length === 1 ? '' : 's'} in ${where}, not ${index}`,
    };
  return { ok: true, match, index, of: all.length };
}

function visible(p: { x: number; y: number }): boolean {
  return p.x >= 0 && p.y >= 0 && p.x < innerWidth && p.y < innerHeight;
}

/** Finds the occurrence and the points to click; scrolls it into view when it is off screen. */
export async function find(req: CaretRequest, afterWheel?: boolean): Promise<CaretFound> {
  // After a wheel turn, editors render the lines they scrolled to on their next frame.
  if (afterWheel) for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  const found = findMatch(req);
  if (!found.ok) return found;
  const { match, index, of } = found;
  const { flat } = match;
  const points = (): { from?: { x: number; y: number }; to?: { x: number; y: number } } => ({
    from: req.position === 'after' ? edgePoint(flat, match.end, 'right') : edgePoint(flat, match.start, 'left'),
    to: req.position === 'before' ? edgePoint(flat, match.start, 'left') : edgePoint(flat, match.end, 'right'),
  });
  let pt = points();
  if (pt.from && pt.to && (!visible(pt.from) || !visible(pt.to)) && !flat.editor?.caret) {
    // Off screen: bring the text into view (editors that draw their own layer render only what is in view).
    charAt(flat, match.start)?.node.parentElement?.scrollIntoView({ block: 'center', inline: 'nearest' });
    pt = points();
  }
  const editor = editorName(flat);
  if (!pt.from || !pt.to)
    return { ok: false, reason: 'no-box', message: `${JSON.stringify(req.text)} in ${editor} has no box on screen` };
  for (const p of [pt.from, pt.to]) {
    const hit = visible(p) ? document.elementFromPoint(p.x, p.y) : null;
    if (!hit || !(flat.host.contains(hit) || hit.contains(flat.layer)))
      return {
        ok: false,
        reason: 'covered',
        message: `${JSON.stringify(req.text)} in ${editor} is ${hit ? `covered by ${describeElement(hit)}` : 'out of view'} at (${Math.round(p.x)}, ${Math.round(p.y)})`,
      };
  }
  return { ok: true, from: pt.from, to: pt.to, occurrence: index, of, editor };
}

/** Flat position of a DOM boundary point inside `flat`, or undefined when it is outside. */
function flatPosition(flat: Flat, container: Node, offset: number): number | undefined {
  if (!flat.layer.contains(container)) return undefined;
  const seg = flat.segments.find((s) => s.node === container);
  if (seg) return seg.start + Math.min(offset, seg.node.length);
  const at = document.createRange();
  at.setStart(container, offset);
  for (let i = 0; i < flat.segments.length; i++) {
    const s = flat.segments[i]!;
    if (at.comparePoint(s.node, 0) < 0) continue;
    // The first text after the point: the point is at its start, unless it sits at the end of the line before.
    const prev = flat.segments[i - 1];
    if (prev && prev.line !== s.line && (prev.line === container || prev.line.contains(container)))
      return prev.start + prev.node.length;
    return s.start;
  }
  return flat.text.length;
}

/** Flat position nearest to a point (an editor's drawn caret or selection edge). */
function positionAtPoint(flat: Flat, x: number, y: number): number | undefined {
  let best: { d: number; p: number } | undefined;
  const r = document.createRange();
  for (const s of flat.segments) {
    const box = s.node.parentElement?.getBoundingClientRect();
    if (!box || y < box.top - 1 || y > box.bottom + 1) continue;
    for (let i = 0; i < s.node.length; i++) {
      r.setStart(s.node, i);
      r.setEnd(s.node, i + 1);
      const c = r.getClientRects()[0];
      if (!c || y < c.top - 1 || y > c.bottom + 1) continue;
      for (const [edge, p] of [
        [c.left, s.start + i],
        [c.right, s.start + i + 1],
      ] as const) {
        const d = Math.abs(edge - x);
        if (!best || d < best.d) best = { d, p };
      }
    }
  }
  return best && best.d < 4 ? best.p : undefined;
}

/** Where an editor that draws its own caret and selection has them (Monaco, Ace). */
function drawnSelection(flat: Flat): { start: number; end: number } | undefined {
  const e = flat.editor;
  if (!e?.caret) return undefined;
  const boxes = (sel: string | undefined): DOMRect[] =>
    sel
      ? Array.from(flat.host.querySelectorAll(sel))
          .map((el) => el.getBoundingClientRect())
          .filter((b) => b.height > 0)
      : [];
  const sel = boxes(e.selection).filter((b) => b.width > 0);
  if (sel.length) {
    sel.sort((a, b) => a.top - b.top || a.left - b.left);
    const first = sel[0]!;
    const last = sel[sel.length - 1]!;
    const start = positionAtPoint(flat, first.left, first.top + first.height / 2);
    const end = positionAtPoint(flat, last.right, last.top + last.height / 2);
    if (start !== undefined && end !== undefined) return { start, end };
  }
  const caret = boxes(e.caret)[0];
  if (!caret) return undefined;
  const p = positionAtPoint(flat, caret.left, caret.top + caret.height / 2);
  return p === undefined ? undefined : { start: p, end: p };
}

/**
 * Where the caret or selection is now, in the same occurrence's editable, and whether it is where
 * `req` asked. Read from the DOM selection, or from the caret the editor draws (Monaco, Ace).
 */
export async function readBack(req: CaretRequest): Promise<CaretReadBack> {
  // Editors move the selection on their next frame: let two frames pass.
  for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  const found = findMatch(req);
  if (!found.ok) return { ok: false, message: found.message };
  const { flat, start, end } = found.match;
  let have: { start: number; end: number } | undefined;
  let how: 'selection' | 'editor' = 'selection';
  const sel = getSelection();
  if (sel && sel.rangeCount > 0) {
    const r = sel.getRangeAt(0);
    const a = flatPosition(flat, r.startContainer, r.startOffset);
    const b = flatPosition(flat, r.endContainer, r.endOffset);
    if (a !== undefined && b !== undefined) have = { start: Math.min(a, b), end: Math.max(a, b) };
  }
  if (!have || flat.editor?.caret) {
    const drawn = drawnSelection(flat);
    if (drawn) {
      have = drawn;
      how = 'editor';
    }
  }
  if (!have) return { ok: false, message: `could not read where the caret is in ${editorName(flat)}` };
  const want =
    req.position === 'before' ? { start, end: start } : req.position === 'after' ? { start: end, end } : { start, end };
  return {
    ok: true,
    matches: have.start === want.start && have.end === want.end,
    at: context(flat, have.start, have.end),
    ...(have.end > have.start ? { selected: flat.text.slice(have.start, have.end) } : {}),
    how,
  };
}
