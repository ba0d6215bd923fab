// What the agent can see, element by element, for the diff across one command (issue 13): every
// rendered element that carries text or a role is a unit with an id kept in the page (a WeakMap,
// so identity is the element), its own text, states, and whether it is on screen. Same-origin
// frames are walked under their frame. view-diff.ts compares two walks. Runs in the page.
import { accessibleName, capName, collapseSpace } from './aria-name.js';
import { isInteractiveRole, roleOf } from './aria-role.js';
import { nodeStates } from './aria-states.js';
import { isHtml, textSnippet } from './dom-describe.js';
import { itemsHint } from './modal-layer.js';
import { shadowOf } from './closed-shadow.js';
import { type ClipState, enterContent, enterPosition, inClip, viewportClip } from './view-clip.js';
import { state } from './state.js';
import type { WorkMark } from './page-work.js';

export interface ViewUnit {
  id: number;
  /** ARIA role, or `text` for a role-less block with text of its own. */
  role: string;
  /** Accessible name, else text (capped); an unnamed layer's text or items. Empty off screen unless the walk is `full`. */
  label: string;
  /** Text of its own (not inside a nested unit), whitespace collapsed, capped. */
  text: string;
  inView: boolean;
  states?: Record<string, string>;
  live?: 1;
  /** Announced to screen readers but not shown (a 1 px "sr-only" box, e.g. react-select's live region). */
  sr?: 1;
  frame?: string;
  /** Tables: body rows and the first one's text. */
  rows?: number;
  firstRow?: string;
  /** Inside an editing host: its text is the host's value, told there (view-kinds.ts). */
  edit?: 1;
  /** Struck through (text-decoration, <s>, <del>): a done item, a removed price (issue 22 item 5). */
  struck?: 1;
}

export interface ViewWalk {
  units: Map<number, ViewUnit>;
  els: Map<number, Element>;
  /** Parent id → ids of its children that hold visible content, in order (for moves). */
  orders: Map<number, number[]>;
  /** Elements of the ids in `orders`. */
  nodes: Map<number, Element>;
  /** Ids of elements far off screen, not walked. */
  pruned: Set<number>;
  count: number;
  max: number;
  truncated: boolean;
  /** Off-screen units get labels and states too. The diff's two walks leave it false (cheaper): they compare units in view only. */
  full: boolean;
}

interface WalkFrame {
  vw: number;
  vh: number;
  frame?: string;
  frameInView: boolean;
  /** What of the frame's viewport shows through the ancestors (view-clip.ts). */
  clip: ClipState;
  /** Inside an editing host (a rich-text editor's blocks). */
  editor?: true;
}

function frameClip(vw: number, vh: number): ClipState {
  const view = viewportClip(vw, vh);
  return { clip: view, posClip: view, viewClip: view };
}

export interface ViewState {
  ids: WeakMap<Element, number>;
  next: number;
  before?: ViewWalk;
  acted?: Element;
  /** Frame landmarks on screen at the before-look. */
  landmarks?: Element[];
  stop?: () => void;
  /**
   * The time of the last DOM mutation, and of the last trusted activation, since the before-look; the
   * activation whose turn the page was given, and where the page's timers are counted from (view-settle.ts).
   */
  clock?: {
    last: number;
    activatedAt: number;
    turnFor: number;
    /** The turn under way, for the activation at `at`: a second caller waits for it (view-settle.ts). */
    turning?: { at: number; done: Promise<void> };
    mark: WorkMark;
    observer: MutationObserver;
    off: () => void;
  };
  /** The walk the last viewChanges compared against, and the frame landmarks then: what the answer showed (last-look.ts). */
  after?: { walk: ViewWalk; landmarks: Element[] };
}

function viewIdOf(el: Element): number {
  const slot = state.view;
  let id = slot.ids.get(el);
  if (id === undefined) {
    id = slot.next++;
    slot.ids.set(el, id);
  }
  return id;
}

/** Walks the document (or the chosen frame's document) into a fresh ViewWalk. */
export function walkView(full: boolean, max = 20_000): ViewWalk {
  const w: ViewWalk = {
    units: new Map(),
    els: new Map(),
    orders: new Map(),
    nodes: new Map(),
    pruned: new Set(),
    count: 0,
    max,
    truncated: false,
    full,
  };
  const body = document.body ?? document.documentElement;
  const [vw, vh] = [window.innerWidth, window.innerHeight];
  walkViewElement(body, undefined, w, { vw, vh, frameInView: true, clip: frameClip(vw, vh) });
  return w;
}

/** Roles that make an element a unit even without text of its own. */
const UNIT_ROLES =
  ',heading,paragraph,cell,gridcell,columnheader,rowheader,row,listitem,img,dialog,alertdialog,alert,status,log,tooltip,menu,listbox,tabpanel,table,grid,treegrid,progressbar,meter,figure,blockquote,code,term,definition,caption,marquee,timer,';
/** Containers whose items can move between them (crossMoves in view-diff.ts). */
const LIST_ROLES = ',list,listbox,grid,treegrid,tree,tablist,menu,feed,rowgroup,';
/** Roles whose content is announced as it changes. */
const LIVE_ROLES = ',status,alert,log,marquee,timer,';

/** A unit whatever its text: roles an agent reads or acts on, and live regions. */
function isUnitElement(el: Element, role: string, inline: boolean): boolean {
  if (UNIT_ROLES.includes(`,${role},`) || isInteractiveRole(role)) return true;
  const live = el.getAttribute('aria-live');
  return !!live && live !== 'off' && !inline;
}

/** Visits one element; returns whether anything visible is inside it (for the order of siblings). */
function walkViewElement(el: Element, owner: { text: string } | undefined, w: ViewWalk, f: WalkFrame): boolean {
  const tag = el.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript' || tag === 'head') return false;
  if (w.count >= w.max) {
    w.truncated = true;
    return false;
  }
  w.count++;
  const style = getComputedStyle(el);
  // Opacity 0: invisible, or on its way out (a fading popup is not listed as present) — except a
  // form control: custom widgets draw their own face over a transparent input that is still the
  // one typed into and checked (react-select's input once a value is chosen, styled checkboxes).
  if (style.display === 'none' || (style.opacity === '0' && !isFormControl(el))) return false;
  // Far off screen: not walked (a 5,000-row table costs what its screenful does); its id is kept
  // so what scrolls into view from there is told apart from what appeared.
  if (isFarOffScreen(el, style, f)) {
    w.pruned.add(viewIdOf(el));
    return true;
  }
  const hidden = style.visibility === 'hidden' || style.visibility === 'collapse';
  const role = roleOf(el);
  const inline = style.display === 'inline' || style.display === 'contents';
  // Its own clip (fixed and absolute boxes escape some ancestors'), then its content's.
  const own = { ...f.clip };
  enterPosition(style, own);
  const self: WalkFrame = { ...f, clip: own };
  const inner = { ...own };
  enterContent(el, style, inner);
  const kidsFrame: WalkFrame = { ...f, clip: inner };
  let unit = !hidden && isUnitElement(el, role, inline) ? newViewUnit(el, role, w, self, style) : undefined;
  // A role-less block collects the text of its inline content; it is a unit if it has any.
  const provisional = !unit && !hidden && !inline ? { text: '' } : undefined;
  const target = unit ?? provisional ?? owner;
  let content = !!unit;
  const kids: number[] = [];
  // A textarea's text is its default value, which may be a secret's. An editing host's text is its
  // value: its blocks are walked as units of their own only for their kind and marks (a paragraph
  // that became a checklist item, an item struck through), their text staying the host's.
  const editing = !!unit && (role === 'textbox' || role === 'searchbox') && (el as HTMLElement).isContentEditable;
  const into = editing ? { text: '' } : target;
  const childFrame = editing ? { ...kidsFrame, editor: true as const } : kidsFrame;
  if (tag !== 'textarea') {
    for (const child of viewChildren(el)) {
      if (child.nodeType === 3) {
        const data = (child as Text).data;
        if (hidden || !/\S/.test(data)) continue;
        if (into && into.text.length < 400) into.text += data;
        content = true;
      } else if (child.nodeType === 1 && walkViewElement(child as Element, into, w, childFrame)) {
        content = true;
        const id = viewIdOf(child as Element);
        kids.push(id);
        w.nodes.set(id, child as Element);
      }
    }
  }
  if (tag === 'iframe' && walkViewFrame(el as HTMLIFrameElement, w, self)) content = true;
  // A list's only item too: a card moved out of a one-card column, or into an empty one, is a move.
  if (kids.length >= 2 || (kids.length === 1 && LIST_ROLES.includes(`,${role},`))) {
    const id = viewIdOf(el);
    w.orders.set(id, kids);
    w.nodes.set(id, el);
  }
  if (provisional && /\S/.test(provisional.text))
    unit = Object.assign(newViewUnit(el, role, w, self, style), { text: provisional.text });
  if (unit) finishViewUnit(el, unit, w);
  return content;
}

function isStruck(el: Element, style: CSSStyleDeclaration): boolean {
  return style.textDecorationLine.includes('line-through') || /^(s|del|strike)$/.test(el.localName);
}

function isFormControl(el: Element): boolean {
  const tag = el.localName;
  return (tag === 'input' && (el as HTMLInputElement).type !== 'hidden') || tag === 'select' || tag === 'textarea';
}

/** A box with children more than a screen above or two below, that nothing positioned can leave. */
function isFarOffScreen(el: Element, style: CSSStyleDeclaration, f: { vh: number }): boolean {
  if (!el.firstElementChild || style.position === 'sticky' || style.position === 'fixed') return false;
  const r = el.getBoundingClientRect();
  if (r.height <= 0 || (r.bottom > -f.vh && r.top < 2 * f.vh)) return false;
  return !el.querySelector('[style*=fixed], [style*=sticky], dialog[open], [popover]');
}

function viewChildren(el: Element): Node[] {
  if (isHtml(el, 'slot')) {
    const assigned = el.assignedNodes({ flatten: true });
    if (assigned.length) return assigned;
  }
  if (isHtml(el, 'details') && !el.open) return Array.from(el.children).filter((c) => c.localName === 'summary');
  return Array.from((shadowOf(el) ?? el).childNodes);
}

/** A same-origin frame's body, under its frame; a cross-origin one is left out (not readable here). */
function walkViewFrame(frame: HTMLIFrameElement, w: ViewWalk, f: WalkFrame): boolean {
  let doc: Document | null = null;
  try {
    doc = frame.contentDocument;
  } catch {
    doc = null;
  } // cross-origin: not ours to read
  if (!doc?.body) return false;
  const win = doc.defaultView;
  const r = frame.getBoundingClientRect();
  const name = frame.title || frame.name || frame.id || (frame.getAttribute('src') ?? '').slice(0, 60);
  const vw = win?.innerWidth ?? r.width;
  const vh = win?.innerHeight ?? r.height;
  const sub: WalkFrame = {
    vw,
    vh,
    frame: f.frame ? `${f.frame} > ${name}` : name || 'iframe',
    frameInView: f.frameInView && inClip(r, f.clip.clip),
    clip: frameClip(vw, vh),
  };
  return walkViewElement(doc.body, undefined, w, sub);
}

function newViewUnit(el: Element, role: string, w: ViewWalk, f: WalkFrame, style: CSSStyleDeclaration): ViewUnit {
  const r = el.getBoundingClientRect();
  const inView = f.frameInView && inClip(r, f.clip.clip);
  const srOnly = inView && (r.width <= 2 || r.height <= 2);
  const live = el.getAttribute('aria-live');
  const unit: ViewUnit = {
    id: viewIdOf(el),
    role: role === 'generic' || role === 'presentation' || role === 'none' || role === 'none-labelling' ? 'text' : role,
    label: '',
    text: '',
    inView,
    ...(LIVE_ROLES.includes(`,${role},`) || (live && live !== 'off') ? { live: 1 as const } : {}),
    ...(srOnly ? { sr: 1 as const } : {}),
    ...(f.frame ? { frame: f.frame } : {}),
    ...(f.editor ? { edit: 1 as const } : {}),
    ...(isStruck(el, style) ? { struck: 1 as const } : {}),
  };
  w.units.set(unit.id, unit);
  w.els.set(unit.id, el);
  return unit;
}

/** Text collapsed and capped; label, states and table rows for units the agent can see. */
function finishViewUnit(el: Element, unit: ViewUnit, w: ViewWalk): void {
  const text = collapseSpace(unit.text);
  unit.text = text.length > 200 ? `${text.slice(0, 199)}\u2026` : text;
  if (!unit.inView && !w.full) return;
  const role = unit.role;
  const named =
    isInteractiveRole(role) ||
    role === 'img' ||
    role === 'dialog' ||
    role === 'alertdialog' ||
    role === 'heading' ||
    role === 'table' ||
    role === 'grid' ||
    role === 'figure';
  const name = named ? capName(accessibleName(el, role)) : '';
  const layer =
    role === 'row' ||
    role === 'listitem' ||
    role === 'dialog' ||
    role === 'alertdialog' ||
    role === 'menu' ||
    role === 'listbox' ||
    role === 'tooltip';
  // An unnamed layer is told by what it holds, so two of them read apart (issue 22 item 8).
  unit.label = name || unit.text || (layer ? textSnippet(el, 80) || itemsHint(el) : '');
  if (isInteractiveRole(role)) {
    const node = { role } as Parameters<typeof nodeStates>[2];
    nodeStates(el, role, node);
    const states: Record<string, string> = {};
    for (const k of ['checked', 'expanded', 'selected', 'pressed', 'disabled', 'focused', 'value'] as const) {
      if (node[k] !== undefined) states[k] = String(node[k]);
    }
    unit.states = states;
  }
  if (role === 'table' || role === 'grid' || role === 'treegrid') countTableRows(el, unit);
}

/** Body rows of a table (header rows left out) and the first one's text. */
function countTableRows(table: Element, unit: ViewUnit): void {
  const rows = Array.from(table.querySelectorAll('tr, [role=row]')).filter(
    (r) =>
      r.closest('table, [role=table], [role=grid], [role=treegrid]') === table &&
      r.parentElement?.localName !== 'thead' &&
      !r.querySelector('th[scope=col], [role=columnheader]') &&
      !(r.children.length && Array.from(r.children).every((c) => c.localName === 'th')),
  );
  unit.rows = rows.length;
  if (rows[0]) unit.firstRow = textSnippet(rows[0], 60);
}
