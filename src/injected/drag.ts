// Drag (SPEC §9.6) from the inside: what kind of thing the source is, where both ends are (both
// on screen at once), a probe that tells whether the drop had any effect, and the untrusted
// DragEvent fallback for when Chrome cannot start a native drag. Runs in the page; the trusted
// mouse and drag input is sent from Node.
import { candidatePoints, nextFrame } from './actionability.js';
import { isHtml } from './dom-describe.js';
import { parentOrHost } from './element-query.js';
import { deepElementFromPoint } from './element-search.js';
import { heldElement, holdElement } from './locate.js';
import { mainScroller } from './scrolling.js';
import { state } from './state.js';

export type DragKind = 'range' | 'html5' | 'mouse';

/** One end of a drag: a held element (optionally offset from its centre) or viewport coordinates. */
export interface DragEnd {
  handle?: number;
  x?: number;
  y?: number;
  offsetX?: number;
  offsetY?: number;
}
type DragPoints =
  | { ok: true; from: { x: number; y: number }; to: { x: number; y: number } }
  | { ok: false; message: string };

/** range for a slider, html5 when Chrome would start a native drag from it, else mouse. */
export function dragSourceKind(handle: number): DragKind {
  const el = heldElement(handle);
  if (!el) return 'mouse';
  if (isHtml(el, 'input') && el.type === 'range') return 'range';
  // `draggable` is true for [draggable=true], images and links: what a native drag starts from.
  for (let e: Element | null = el; e; e = parentOrHost(e)) {
    if (e instanceof HTMLElement && e.getAttribute('draggable') !== 'false' && e.draggable) return 'html5';
  }
  return 'mouse';
}

/** The element a pointer at (x, y) would hit, held for later calls (undefined over nothing). */
export function holdElementAt(x: number, y: number): number | undefined {
  const el = deepElementFromPoint(x, y);
  return el ? holdElement(el) : undefined;
}

function endPoint(end: DragEnd): { x: number; y: number } | undefined {
  const el = end.handle !== undefined ? heldElement(end.handle) : undefined;
  if (!el) return end.x !== undefined && end.y !== undefined ? { x: end.x, y: end.y } : undefined;
  if (end.offsetX === undefined && end.offsetY === undefined) {
    const p = candidatePoints(el)[0];
    if (p) return p;
  }
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2 + (end.offsetX ?? 0), y: r.top + r.height / 2 + (end.offsetY ?? 0) };
}

function onScreen(p: { x: number; y: number }): boolean {
  return p.x >= 0 && p.y >= 0 && p.x < innerWidth && p.y < innerHeight;
}

/**
 * Both ends' points, in view together: bringing the target into view may have scrolled the source
 * out, so the page is scrolled to centre both when they fit on one screen.
 */
export function dragPoints(source: DragEnd, target: DragEnd): DragPoints {
  let from = endPoint(source);
  let to = endPoint(target);
  if (!from || !to) return { ok: false, message: `the drag ${from ? 'target' : 'source'} was removed from the page` };
  if ((!onScreen(from) || !onScreen(to)) && (source.handle !== undefined || target.handle !== undefined)) {
    const dy = (Math.min(from.y, to.y) + Math.max(from.y, to.y)) / 2 - innerHeight / 2;
    const dx = (Math.min(from.x, to.x) + Math.max(from.x, to.x)) / 2 - innerWidth / 2;
    mainScroller().scrollBy({ left: dx, top: dy, behavior: 'instant' });
    if (source.handle !== undefined) from = endPoint(source) ?? from;
    if (target.handle !== undefined) to = endPoint(target) ?? to;
  }
  if (!onScreen(from) || !onScreen(to)) {
    const off = !onScreen(from)
      ? `source (${Math.round(from.x)}, ${Math.round(from.y)})`
      : `target (${Math.round(to.x)}, ${Math.round(to.y)})`;
    return {
      ok: false,
      message: `the drag ${off} is outside the ${innerWidth}×${innerHeight} viewport with the other end in view; resize the viewport or drag in shorter hops`,
    };
  }
  return { ok: true, from, to };
}

export interface DragProbe {
  source?: Element;
  target?: Element;
  parent: Node | null;
  next: Node | null;
  rect?: DOMRect;
  content: string;
  /** A slider's value before the drag. */
  value?: string;
  dragstarts: number;
  drops: number;
  off: () => void;
}

export interface DragReport {
  dragstarts: number;
  /** drop events (the page accepted an HTML5 drop: Chrome fires drop only after dragover was cancelled). */
  drops: number;
  /** The source element changed place in the DOM or on screen. */
  moved: boolean;
  /** The target element's content changed. */
  targetChanged: boolean;
  /** The source is an input whose value changed (a slider moved by the mouse). */
  valueChanged: boolean;
}

/** Remembers where the source is and what the target holds, and counts dragstart/drop events. */
export function armDragProbe(sourceHandle: number | undefined, targetHandle: number | undefined): void {
  state.dragProbe?.off();
  const source = sourceHandle !== undefined ? heldElement(sourceHandle) : undefined;
  const target = targetHandle !== undefined ? heldElement(targetHandle) : undefined;
  const probe: DragProbe = {
    ...(source ? { source, rect: source.getBoundingClientRect() } : {}),
    ...(target ? { target } : {}),
    parent: source?.parentNode ?? null,
    next: source?.nextSibling ?? null,
    content: target?.innerHTML ?? '',
    ...(source && isHtml(source, 'input') ? { value: source.value } : {}),
    dragstarts: 0,
    drops: 0,
    off: () => {},
  };
  // Capture phase on window: the page's own handlers cannot hide the events from us.
  const count = (e: Event): void => {
    if (e.type === 'dragstart') probe.dragstarts++;
    else probe.drops++;
  };
  window.addEventListener('dragstart', count, { capture: true });
  window.addEventListener('drop', count, { capture: true });
  probe.off = () => {
    window.removeEventListener('dragstart', count, { capture: true });
    window.removeEventListener('drop', count, { capture: true });
  };
  state.dragProbe = probe;
}

/**
 * After the drop (and one frame for the page to lay out): what the drag changed. A page that renders
 * the drop later (FullCalendar re-renders its event after pointerup) gets up to `waitMs` to show it.
 */
export async function readDragProbe(waitMs = 0): Promise<DragReport> {
  const probe = state.dragProbe;
  if (!probe) return { dragstarts: 0, drops: 0, moved: false, targetChanged: false, valueChanged: false };
  probe.off();
  state.dragProbe = undefined;
  await nextFrame();
  const until = Date.now() + waitMs;
  for (;;) {
    const r = dropEffect(probe);
    if (r.moved || r.targetChanged || r.valueChanged || r.drops > 0 || Date.now() >= until) return r;
    await new Promise((done) => setTimeout(done, 20));
  }
}

function dropEffect(probe: DragProbe): DragReport {
  const s = probe.source;
  const r = s?.getBoundingClientRect();
  const shifted =
    !!r && !!probe.rect && (Math.abs(r.left - probe.rect.left) > 2 || Math.abs(r.top - probe.rect.top) > 2);
  const moved = !!s && (s.parentNode !== probe.parent || s.nextSibling !== probe.next || shifted);
  const targetChanged = !!probe.target && probe.target.innerHTML !== probe.content;
  const valueChanged = probe.value !== undefined && (s as HTMLInputElement).value !== probe.value;
  return { dragstarts: probe.dragstarts, drops: probe.drops, moved, targetChanged, valueChanged };
}

/**
 * The untrusted fallback: dragstart, drag/dragenter/dragover along the path, then drop (only if
 * a dragover was cancelled, as a browser does) and dragend, sharing one DataTransfer.
 */
export function synthesizeDrag(
  sourceHandle: number,
  from: { x: number; y: number },
  to: { x: number; y: number },
  steps: number,
): { started: boolean } {
  const src = heldElement(sourceHandle);
  if (!src) return { started: false };
  const dataTransfer = new DataTransfer();
  const fire = (el: Element, type: string, p: { x: number; y: number }): boolean =>
    el.dispatchEvent(
      new DragEvent(type, {
        bubbles: true,
        cancelable: type !== 'dragleave' && type !== 'dragend',
        composed: true,
        clientX: p.x,
        clientY: p.y,
        dataTransfer,
      }),
    );
  if (!fire(src, 'dragstart', from)) return { started: false };
  let over: Element | null = null;
  let accepted = false;
  for (let i = 1; i <= steps; i++) {
    const p = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
    fire(src, 'drag', p);
    const hit = deepElementFromPoint(p.x, p.y);
    if (hit !== over) {
      if (over) fire(over, 'dragleave', p);
      if (hit) fire(hit, 'dragenter', p);
      over = hit;
    }
    accepted = !!over && !fire(over, 'dragover', p);
  }
  if (over && accepted) fire(over, 'drop', to);
  else if (over) fire(over, 'dragleave', to);
  fire(src, 'dragend', to);
  return { started: true };
}
