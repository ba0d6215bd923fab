// Actionability (SPEC §8) of a held element, checked in one page call: attached, enabled or
// editable, visible, scrolled into view, not under pointer-events:none, and the point a pointer
// would use actually lands on it (else the interceptor is named and classified). Runs in the page.
import { isHtml, isVisible, selectorFor, textSnippet } from './dom-describe.js';
import { parentOrHost } from './element-query.js';
import { deepElementFromPoint } from './element-search.js';
import { heldElement, holdElement, isTextControl } from './locate.js';
import { shadowOf } from './closed-shadow.js';
import { markerPoint, toggleStateOf, type ToggleState } from './toggle-state.js';

export type ActionKind = 'click' | 'hover' | 'fill' | 'select' | 'upload' | 'drag' | 'focus';

interface ActionCheck {
  handle: number;
  action: ActionKind;
  /** Skip every check but "attached"; the point is the element's centre. */
  force: boolean;
  /** Also require the box to hold still across two animation frames (SPEC §8.6). */
  stable?: boolean;
}

interface Interceptor {
  kind: string;
  selector: string;
  text?: string;
}

export type ActionFailure = {
  ok: false;
  reason:
    | 'detached'
    | 'not-visible'
    | 'covered'
    | 'pointer-events'
    | 'disabled'
    | 'not-editable'
    | 'not-select'
    | 'unstable';
  message: string;
  interceptor?: Interceptor;
  /** A failure that waiting will not fix. */
  final?: true;
  /** not-editable: the kind of control it is instead (file, select, checkbox, radio, …). */
  control?: string;
};
export type ActionOutcome =
  | {
      ok: true;
      x: number;
      y: number;
      handle: number;
      viaLabel?: true;
      checked?: boolean;
      delegated?: true;
      /** The point is the box a ::before/::after marker draws (toggle-state.ts). */
      marker?: true;
      /** The state a click toggles, before it (toggle-state.ts). */
      toggle?: ToggleState;
    }
  | ActionFailure;

function isDisabled(el: Element): boolean {
  if ((el as HTMLButtonElement).disabled === true) return true;
  if (el.closest('[aria-disabled="true"]')) return true;
  const fieldset = el.closest('fieldset');
  if (fieldset?.disabled) {
    const legend = fieldset.querySelector(':scope > legend');
    return !legend?.contains(el);
  }
  return false;
}

/**
 * The control a web component hands its focus to (Shoelace's <sl-input> → its shadow <input>), at
 * any depth of nested shadow roots: what a person's click would focus. Undefined when `el` takes
 * the keys itself.
 */
function delegatedControl(el: Element, action: 'fill' | 'focus'): Element | undefined {
  const shadow = shadowOf(el);
  if (!shadow || isTextControl(el)) return undefined;
  const selfFocusable = (el as HTMLElement).tabIndex >= 0 && !shadow.delegatesFocus;
  if (action === 'focus' && selfFocusable) return undefined;
  let fallback: Element | undefined;
  const walk = (root: ShadowRoot, depth: number): Element | undefined => {
    for (const n of Array.from(root.querySelectorAll('*'))) {
      if (isTextControl(n) && !isHtml(n, 'select') && isVisible(n)) return n;
      if (!fallback && action === 'focus' && (n as HTMLElement).tabIndex >= 0 && isVisible(n)) fallback = n;
      const nShadow = shadowOf(n);
      const inner = nShadow && depth < 8 ? walk(nShadow, depth + 1) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(shadow, 0) ?? fallback;
}

/** SPEC §8.2: why `el` can't take typed text, or undefined when it can. */
function notEditableReason(el: Element): { message: string; final?: true; control?: string } | undefined {
  if (isHtml(el, 'input') && el.type === 'file')
    return {
      message: 'is a file input: use {"upload": {"selector": …, "files": [...]}}',
      final: true,
      control: 'file',
    };
  if (!isTextControl(el)) {
    return {
      message: `is not a text field (${el.localName}${isHtml(el, 'input') ? ` type=${el.type}` : ''})`,
      final: true,
      control: isHtml(el, 'input') ? el.type : el.localName,
    };
  }
  if (isDisabled(el)) return { message: 'is disabled' };
  if ((el as HTMLInputElement).readOnly || el.getAttribute('aria-readonly') === 'true')
    return { message: 'is read-only' };
  return undefined;
}

/** Why `el` is not visible (SPEC §8.3), or undefined. */
function invisibleReason(el: Element): string | undefined {
  if (el.closest('[hidden]')) return 'has the hidden attribute';
  if (el.closest('[aria-hidden="true"]')) return 'is aria-hidden';
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden' || style.visibility === 'collapse') return 'has visibility:hidden';
  if (!isVisible(el)) {
    const r = el.getBoundingClientRect();
    return r.width && r.height
      ? 'is hidden by CSS (display, opacity or content-visibility)'
      : 'has no size (display:none or 0×0)';
  }
  for (let e: Element | null = el; e; e = parentOrHost(e)) {
    if (Number(getComputedStyle(e).opacity) === 0) return 'has opacity 0';
  }
  return undefined;
}

/** A hidden native checkbox or radio is operated through its visible label (SPEC §19.16). */
function visibleLabelOf(el: Element): Element | undefined {
  if (!isHtml(el, 'input') || !/^(checkbox|radio)$/.test(el.type)) return undefined;
  return Array.from(el.labels ?? []).find((l) => isVisible(l));
}

function classifyInterceptor(el: Element): Interceptor {
  // Climb to the layer that covers the target: the outermost positioned ancestor below body.
  let layer = el;
  for (let e: Element | null = el; e && e !== document.body && e !== document.documentElement; e = parentOrHost(e)) {
    const pos = getComputedStyle(e).position;
    if (
      pos === 'fixed' ||
      pos === 'sticky' ||
      pos === 'absolute' ||
      e.getAttribute('role') === 'dialog' ||
      e.localName === 'dialog'
    )
      layer = e;
  }
  const hay =
    `${layer.id} ${typeof layer.className === 'string' ? layer.className : ''} ${layer.getAttribute('aria-label') ?? ''} ${textSnippet(layer, 300)}`.toLowerCase();
  const role = layer.getAttribute('role') ?? '';
  let kind = 'overlay';
  if (/cookie/.test(hay)) kind = 'cookie-banner';
  else if (/consent|gdpr|privacy/.test(hay)) kind = 'consent-dialog';
  else if (
    /^(dialog|alertdialog)$/.test(role) ||
    layer.localName === 'dialog' ||
    layer.getAttribute('aria-modal') === 'true' ||
    /modal/.test(hay)
  )
    kind = 'modal';
  else if (/^(alert|status)$/.test(role) || /toast|notification|snackbar/.test(hay)) kind = 'notification';
  else if (/^(tooltip|menu|listbox)$/.test(role) || /popup|popover|tooltip|dropdown/.test(hay)) kind = 'popup';
  else if (getComputedStyle(layer).position === 'sticky' || /header|navbar/.test(hay) || layer.localName === 'header')
    kind = 'sticky-header';
  // The layer may be the page's whole app wrapper: read a capped snippet, not all its text.
  const text = textSnippet(layer, 60);
  return { kind, selector: selectorFor(layer), ...(text ? { text } : {}) };
}

/** Whether a pointer at (x, y) reaches `el` (itself, a descendant, or a label of it). */
export function pointReaches(el: Element, x: number, y: number): Element | true | null {
  const hit = deepElementFromPoint(x, y);
  if (!hit) return null;
  for (let e: Element | null = hit; e; e = parentOrHost(e)) if (e === el) return true;
  if (isHtml(hit, 'label') && hit.control === el) return true;
  const label = hit.closest('label');
  if (label && (label as HTMLLabelElement).control === el) return true;
  return hit;
}

/** The visible part of the element's largest box, and points in it to try: centre first. */
export function candidatePoints(el: Element): { x: number; y: number }[] {
  const clip = visibleClip(el);
  let best: { l: number; t: number; r: number; b: number } | undefined;
  for (const rect of Array.from(el.getClientRects())) {
    const l = Math.max(rect.left, clip.l);
    const t = Math.max(rect.top, clip.t);
    const r = Math.min(rect.right, clip.r);
    const b = Math.min(rect.bottom, clip.b);
    if (r - l < 1 || b - t < 1) continue;
    if (!best || (r - l) * (b - t) > (best.r - best.l) * (best.b - best.t)) best = { l, t, r, b };
  }
  if (!best) return [];
  const at = (fx: number, fy: number): { x: number; y: number } => ({
    x: Math.round((best!.l + (best!.r - best!.l) * fx) * 100) / 100,
    y: Math.round((best!.t + (best!.b - best!.t) * fy) * 100) / 100,
  });
  return [at(0.5, 0.5), at(0.25, 0.5), at(0.75, 0.5), at(0.5, 0.25), at(0.5, 0.75)];
}

/** The viewport, narrowed by every ancestor that clips its overflow (scrolling containers). */
function visibleClip(el: Element): { l: number; t: number; r: number; b: number } {
  const clip = { l: 0, t: 0, r: innerWidth, b: innerHeight };
  for (let e = parentOrHost(el); e && e !== document.documentElement && e !== document.body; e = parentOrHost(e)) {
    const style = getComputedStyle(e);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const r = e.getBoundingClientRect();
    if (style.overflowX !== 'visible') {
      clip.l = Math.max(clip.l, r.left);
      clip.r = Math.min(clip.r, r.right);
    }
    if (style.overflowY !== 'visible') {
      clip.t = Math.max(clip.t, r.top);
      clip.b = Math.min(clip.b, r.bottom);
    }
    if (style.position === 'fixed') break;
  }
  return clip;
}

function inViewportFully(el: Element): boolean {
  const r = el.getBoundingClientRect();
  const c = visibleClip(el);
  return r.top >= c.t && r.left >= c.l && r.bottom <= c.b && r.right <= c.r;
}

export function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** Why the element cannot take the action in its state (not editable, not a <select>, disabled); undefined when it can. */
function stateRefusal(action: ActionKind, el: Element): ActionFailure | undefined {
  if (action === 'fill') {
    const why = notEditableReason(el);
    if (!why) return undefined;
    return {
      ok: false,
      reason: why.final ? 'not-editable' : isDisabled(el) ? 'disabled' : 'not-editable',
      message: why.message,
      ...(why.final ? { final: true as const } : {}),
      ...(why.control ? { control: why.control } : {}),
    };
  }
  if (action === 'select' && !isHtml(el, 'select'))
    return {
      ok: false,
      reason: 'not-select',
      message: `is a <${el.localName}>, not a <select>; for a custom drop-down click it, then click the option by text`,
      final: true,
    };
  if ((action === 'select' || action === 'click' || action === 'drag') && isDisabled(el))
    return { ok: false, reason: 'disabled', message: 'is disabled' };
  return undefined;
}

/** Whether the element kept its box over two frames: one still animating is not acted on yet. */
async function holdsStill(el: Element): Promise<boolean> {
  const before = el.getBoundingClientRect();
  await nextFrame();
  await nextFrame();
  const after = el.getBoundingClientRect();
  return before.x === after.x && before.y === after.y && before.width === after.width && before.height === after.height;
}

/** The element the action goes to, after the checks a person's eyes make (state, visibility, a label for a hidden box). */
interface Checked {
  el: Element;
  handle: number;
  viaLabel?: true;
  inner?: Element;
}

function checkedTarget(c: ActionCheck, original: Element): Checked | ActionFailure {
  const t: Checked = { el: original, handle: c.handle };
  // Keys for a web component go where it delegates its focus: act on that control.
  const inner = c.action === 'fill' || c.action === 'focus' ? delegatedControl(original, c.action) : undefined;
  if (inner) Object.assign(t, { el: inner, handle: holdElement(inner), inner });
  if (c.force) return t;
  const refused = stateRefusal(c.action, t.el);
  if (refused) return refused;
  if (c.action === 'click' && invisibleReason(t.el)) {
    const label = visibleLabelOf(t.el);
    if (label) Object.assign(t, { el: label, handle: holdElement(label), viaLabel: true });
  }
  const hidden = c.action === 'upload' || c.action === 'select' ? undefined : invisibleReason(t.el);
  return hidden ? { ok: false, reason: 'not-visible', message: hidden } : t;
}

type Point = { x: number; y: number };

/** A point of `el` a pointer reaches (centring it once when something sits on its edge), or why none does. */
function reachablePoint(el: Element, points: Point[]): Point | ActionFailure {
  let firstHit: Element | null = null;
  for (const p of points) {
    const reach = pointReaches(el, p.x, p.y);
    if (reach === true) return p;
    firstHit ??= reach;
  }
  // Under a sticky header or a fixed bar at the viewport's edge? Centre it and look again.
  if (firstHit) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    for (const p of candidatePoints(el)) if (pointReaches(el, p.x, p.y) === true) return p;
  }
  if (!firstHit) return { ok: false, reason: 'not-visible', message: 'is not under any point of the viewport' };
  const interceptor = classifyInterceptor(firstHit);
  return {
    ok: false,
    reason: 'covered',
    message: `is covered by ${interceptor.selector} (${interceptor.kind})`,
    interceptor,
  };
}

export async function checkActionable(c: ActionCheck): Promise<ActionOutcome> {
  const original = heldElement(c.handle);
  if (!original || !original.isConnected)
    return { ok: false, reason: 'detached', message: 'was removed from the page' };
  const t = checkedTarget(c, original);
  if ('ok' in t) return t;
  const { el, handle, viaLabel, inner } = t;
  if (c.action === 'upload' || c.action === 'select') return { ok: true, x: 0, y: 0, handle };
  if (!inViewportFully(el)) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  if (c.stable && !c.force && !(await holdsStill(el)))
    return { ok: false, reason: 'unstable', message: 'is still moving (animating)' };
  // A checkbox drawn by a ::before marker is ticked where its box is, as a person would (issue 22 item 4).
  const marker = c.action === 'click' ? markerPoint(el) : undefined;
  const points = marker ? [marker, ...candidatePoints(el)] : candidatePoints(el);
  const done = (p: Point): ActionOutcome => {
    const checked =
      isHtml(original, 'input') && /^(checkbox|radio)$/.test(original.type) ? original.checked : undefined;
    const toggle = c.action === 'click' ? toggleStateOf(original) : undefined;
    return {
      ok: true,
      x: p.x,
      y: p.y,
      handle,
      ...(viaLabel ? { viaLabel } : {}),
      ...(checked !== undefined ? { checked } : {}),
      ...(inner ? { delegated: true as const } : {}),
      ...(p === marker ? { marker: true as const } : {}),
      ...(toggle ? { toggle } : {}),
    };
  };
  if (c.force) {
    const r = el.getBoundingClientRect();
    return done(points[0] ?? { x: r.left + r.width / 2, y: r.top + r.height / 2 });
  }
  if (!points.length)
    return { ok: false, reason: 'not-visible', message: 'is outside the viewport (clipped by a scrolling container?)' };
  // Keyboard focus does not go through the pointer: a covered field can still be typed into.
  if (c.action === 'focus') return done(points[0]!);
  if (getComputedStyle(el).pointerEvents === 'none')
    return { ok: false, reason: 'pointer-events', message: 'has pointer-events: none' };
  const p = reachablePoint(el, points);
  return 'ok' in p ? p : done(p);
}
