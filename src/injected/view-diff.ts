// The diff of what the agent can see across one command (issue 13): the before-walk is kept in the
// page; the after-walk is compared with it element by element (identity is the element): appeared,
// gone, left/entered the view, text, moved (among siblings or into another list), re-ordered, state
// (role and strike-through too: view-kinds.ts), table rows. What is not news is dropped or counted
// here (focus on the element acted on, a label beside its field, what appeared inside something that
// appeared); how to rank and word the rest is diff/'s job on the Node side. Runs in the page.
import { accessibleName, capName } from './aria-name.js';
import { roleOf } from './aria-role.js';
import { isShadowRoot, textSnippet } from './dom-describe.js';
import { liveRegionOf } from './live-recorder.js';

import { refState } from './ref-map.js';
import { armMutationClock } from './view-settle.js';
import { walkView } from './view-walk.js';
import { state } from './state.js';
import type { ViewUnit, ViewWalk } from './view-walk.js';
import { describeUnit, pairReplacements, unitChanges, type Found } from './view-kinds.js';
import { STATE_FIELDS, type ObservedChange, type ObservedDiff, type ObservedKind } from '../shared/index.js';

/** Changes listed per kind; the rest are only counted. */
const PER_KIND = 60;
/** Events that mark the element the steps act on. */
const ACTING_EVENTS = ['pointerdown', 'keydown', 'input', 'dragstart'];
/** The landmarks that frame a page (header, menu, footer, sidebar), by role and by the elements that have them. */
const FRAME_ROLES = ',banner,navigation,contentinfo,complementary,';
const FRAME_LANDMARKS =
  'header, nav, footer, aside, [role=banner], [role=navigation], [role=contentinfo], [role=complementary]';

/** Before the steps: walks the view and listens for the element the steps act on. */
export function viewStart(): void {
  const slot = state.view;
  slot.stop?.();
  slot.before = walkView(false);
  slot.landmarks = frameLandmarks();
  slot.acted = undefined;
  armMutationClock();
  const note = (e: Event): void => {
    const t = e.composedPath()[0];
    if (t && (t as Node).nodeType === 1) slot.acted = t as Element;
  };
  for (const t of ACTING_EVENTS) document.addEventListener(t, note, true);
  slot.stop = () => {
    for (const t of ACTING_EVENTS) document.removeEventListener(t, note, true);
    slot.stop = undefined;
  };
}

/** After the steps: what changed since viewStart (undefined when no before-walk was taken). */
export function viewChanges(): ObservedDiff | undefined {
  const slot = state.view;
  const before = slot.before;
  slot.stop?.();
  slot.before = undefined;
  if (!before) return undefined;
  const after = walkView(false);
  const found: Found[] = [...compareUnits(before, after), ...findMoves(before, after)];
  const kept = foldTables(rollUp(dropLabels(pairReplacements(found))), before, after);
  const acted = slot.acted?.isConnected ? slot.acted : undefined;
  const counts: ObservedDiff['counts'] = {};
  const changes: ObservedChange[] = [];
  for (const { change, el } of kept) {
    // Focus landing on the element clicked or typed into is expected, not news.
    if (change.field === 'focused' && acted && (el === acted || el.contains(acted))) continue;
    // An element that came or went with nothing to show (an empty status region) is not visible.
    if ((change.kind === 'appeared' || change.kind === 'gone') && !change.label && !change.inside) continue;
    counts[change.kind] = (counts[change.kind] ?? 0) + 1;
    if (counts[change.kind]! > PER_KIND) continue;
    const ref = refState().byElement.get(el);
    if (ref) change.ref = ref;
    if (change.kind !== 'leftView' && change.kind !== 'enteredView' && !change.live && liveRegionOf(el))
      change.live = 1;
    if (acted && isNear(acted, el)) change.near = 1;
    changes.push(change);
  }
  const changedEls = kept.map((f) => f.el);
  const landmarks = frameLandmarks();
  slot.after = { walk: after, landmarks };
  const unchanged = landmarks
    .filter((l) => slot.landmarks?.includes(l) && !changedEls.some((el) => l.contains(el)))
    .map((l) => {
      const role = roleOf(l);
      return `${role}|${capName(accessibleName(l, role))}`;
    });
  return { changes, counts, unchanged, ...(before.truncated || after.truncated ? { truncated: true as const } : {}) };
}

/** Header, menu, footer and sidebar landmarks on screen, outermost only. */
export function frameLandmarks(): Element[] {
  const all = Array.from(document.querySelectorAll(FRAME_LANDMARKS)).filter(
    (el) => FRAME_ROLES.includes(`,${roleOf(el)},`) && isOnScreen(el),
  );
  return all.filter((el) => !all.some((other) => other !== el && other.contains(el)));
}

/** Appeared, gone, in/out of view, text and state, unit by unit. */
function compareUnits(before: ViewWalk, after: ViewWalk): Found[] {
  const out: Found[] = [];
  for (const [id, a] of after.units) {
    if (!a.inView) continue;
    const b = before.units.get(id);
    const el = after.els.get(id)!;
    if (!b) out.push({ change: describeUnit(a, wasPruned(el, before) ? 'enteredView' : 'appeared'), el, unit: a });
    else if (!b.inView) out.push({ change: describeUnit(a, 'enteredView'), el });
    else out.push(...compareUnit(b, a, el));
  }
  for (const [id, b] of before.units) {
    if (!b.inView) continue;
    const a = after.units.get(id);
    if (a?.inView) continue;
    const el = before.els.get(id)!;
    if (a) {
      out.push({ change: describeUnit(b, 'leftView'), el });
      continue;
    }
    if (!el.isConnected || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
      out.push({ change: describeUnit(b, 'gone'), el, unit: b });
    } else if (!b.frame && !isOnScreen(el)) {
      out.push({ change: describeUnit(b, 'leftView'), el }); // far off screen now: not walked
    } else if (b.text && !after.truncated && !b.edit) {
      // Still shown but no longer a unit: its own text went away.
      out.push({ change: { ...describeUnit(b, 'text'), from: b.text, to: '' }, el });
    }
  }
  return keepFocusGain(
    out,
    [...after.units.values()].some((u) => u.states?.focused === 'true'),
  );
}

/** Inside an element the before-walk skipped as far off screen: it was there, out of view. */
function wasPruned(el: Element, before: ViewWalk): boolean {
  const slot = state.view;
  for (let n: Element | null = el; n; n = composedParent(n)) {
    const id = slot.ids.get(n);
    if (id !== undefined && before.pruned.has(id)) return true;
  }
  return false;
}

function compareUnit(b: ViewUnit, a: ViewUnit, el: Element): Found[] {
  const out: Found[] = [];
  // An editor's block's text and name are the editor's value, told there.
  const edited = a.edit || b.edit;
  if (!edited && b.text !== a.text) out.push({ change: { ...describeUnit(a, 'text'), from: b.text, to: a.text }, el });
  else if (!edited && b.label !== a.label && (a.states || a.role === 'img'))
    out.push({ change: { ...describeUnit(a, 'text'), from: b.label, to: a.label }, el });
  return [...out, ...unitChanges(b, a, el, STATE_FIELDS)];
}

/** When focus landed somewhere, the element it left is noise; a blur alone is kept. */
function keepFocusGain(found: Found[], focusedNow: boolean): Found[] {
  const gained = focusedNow || found.some((f) => f.change.field === 'focused' && f.change.to === 'true');
  return gained ? found.filter((f) => f.change.field !== 'focused' || f.change.to === 'true') : found;
}

/**
 * A field's label that came or went with its field: the field's line (its name is the label's
 * text, with its ref) says it; the label alone would be the same words again.
 */
function dropLabels(found: Found[]): Found[] {
  const moving = new Map<Element, ObservedKind>();
  for (const f of found) moving.set(f.el, f.change.kind);
  return found.filter((f) => {
    if (f.el.localName !== 'label' || f.change.role !== 'text') return true;
    const control = (f.el as HTMLLabelElement).control;
    return !control || moving.get(control) !== f.change.kind;
  });
}

/** Units that appeared (or went) inside another that did are counted in it, not listed. */
function rollUp(found: Found[]): Found[] {
  const out: Found[] = [];
  for (const kind of ['appeared', 'gone', 'leftView', 'enteredView'] as const) {
    const group = found.filter((f) => f.change.kind === kind);
    const members = new Set(group.map((f) => f.el));
    for (const f of group) {
      const top = topMember(f.el, members);
      if (top === f.el) {
        out.push(f);
        continue;
      }
      const holder = group.find((g) => g.el === top)!;
      holder.change.inside = (holder.change.inside ?? 0) + 1;
    }
  }
  return [
    ...out,
    ...found.filter(
      (f) =>
        f.change.kind !== 'appeared' &&
        f.change.kind !== 'gone' &&
        f.change.kind !== 'leftView' &&
        f.change.kind !== 'enteredView',
    ),
  ];
}

/** The outermost ancestor of `el` (itself included) in `members`, crossing shadow roots and frames. */
function topMember(el: Element, members: Set<Element>): Element {
  let top = el;
  for (let n: Element | null = el; n; n = composedParent(n)) if (members.has(n)) top = n;
  return top;
}

function composedParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  if (root && isShadowRoot(root)) return root.host;
  if (root && root.nodeType === 9) return ((root as Document).defaultView?.frameElement as Element | null) ?? null;
  return null;
}

/**
 * Elements now under another parent than before (a kanban card dragged to another column): told
 * as a move into that list, named by the lists' labels or headings, not as the columns' counts.
 */
function crossMoves(before: ViewWalk, after: ViewWalk): Found[] {
  const out: Found[] = [];
  const oldParent = new Map<number, number>();
  for (const [pid, kids] of before.orders) for (const id of kids) oldParent.set(id, pid);
  for (const [pid, kids] of after.orders)
    kids.forEach((id, i) => {
      const was = oldParent.get(id);
      const el = after.nodes.get(id);
      if (was === undefined || was === pid || !el || !isOnScreen(el)) return;
      const change = movedChange(el, before.orders.get(was)!.indexOf(id) + 1, i + 1);
      change.outOf = listName(viewElementById(was, before));
      change.into = listName(viewElementById(pid, after));
      out.push({ change, el });
    });
  return out.slice(0, 3 * PER_KIND);
}

/** An element moved from one (1-based) position to another. */
function movedChange(el: Element, from: number, to: number): ObservedChange {
  const role = roleOf(el);
  return {
    kind: 'moved',
    role: role === 'generic' ? 'item' : role,
    label: textSnippet(el, 60),
    from: String(from),
    to: String(to),
  };
}

/** A list's name as a person reads it: its label, or the heading of it or of its column (a few levels up). */
function listName(el: Element | undefined): string {
  for (let n = el, i = 0; n && i < 3; n = n.parentElement ?? undefined, i++) {
    const label =
      n.getAttribute('aria-label') ??
      n.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > header')?.textContent;
    if (label?.trim()) return label.replace(/\s+/g, ' ').trim().slice(0, 40);
  }
  return '';
}

/** Reordered siblings: the longest run kept in order stayed, the rest moved. */
function findMoves(before: ViewWalk, after: ViewWalk): Found[] {
  const out: Found[] = crossMoves(before, after);
  const elOf = (id: number): Element | undefined => viewElementById(id, after) ?? viewElementById(id, before);
  for (const [pid, kids] of after.orders) {
    const old = before.orders.get(pid);
    if (!old) continue;
    const oldPos = new Map(old.map((id, i) => [id, i]));
    const common = kids.filter((id) => oldPos.has(id));
    const stayed = longestIncreasing(common.map((id) => oldPos.get(id)!));
    const moved = common.filter((_, i) => !stayed.has(i));
    if (!moved.length) continue;
    const parent = viewElementById(pid, after);
    if (!parent || !isOnScreen(parent)) continue;
    // More moves than this in one parent read as one re-order (a sort), not item by item.
    if (moved.length > 3) {
      const first = elOf(kids[0]!);
      out.push({
        change: {
          kind: 'reordered',
          role: roleOf(parent),
          label: '',
          inside: moved.length,
          ...(first ? { first: textSnippet(first, 60) } : {}),
        },
        el: parent,
      });
      continue;
    }
    for (const id of moved) {
      const el = elOf(id);
      if (!el || !isOnScreen(el)) continue;
      out.push({ change: movedChange(el, oldPos.get(id)! + 1, kids.indexOf(id) + 1), el });
    }
  }
  return out;
}

/** Indexes (into `seq`) of one longest strictly increasing subsequence. */
export function longestIncreasing(seq: number[]): Set<number> {
  const tails: number[] = [];
  const prev: number[] = new Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = prev[i]!) keep.add(i);
  return keep;
}

function viewElementById(id: number, w: ViewWalk): Element | undefined {
  return w.nodes.get(id) ?? w.els.get(id);
}

function isOnScreen(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return (
    (r.width > 0 || r.height > 0) &&
    r.bottom > 0 &&
    r.right > 0 &&
    r.top < window.innerHeight &&
    r.left < window.innerWidth
  );
}

/** A table whose rows changed reads as one line (rows: 10 → 3, first row now …) beyond a few row changes. */
function foldTables(found: Found[], before: ViewWalk, after: ViewWalk): Found[] {
  const out = found.slice();
  for (const [id, a] of after.units) {
    const b = before.units.get(id);
    if (a.rows === undefined || !a.inView || !b?.inView || b.rows === undefined) continue;
    const table = after.els.get(id)!;
    const inTable = out.filter((f) => f.el !== table && table.contains(f.el) && f.change.kind !== 'state');
    // Rows that came, went or moved make the line; a cell's new text alone is told as text.
    const rowLevel = inTable.some(
      (f) =>
        f.change.kind === 'appeared' ||
        f.change.kind === 'gone' ||
        f.change.kind === 'moved' ||
        f.change.kind === 'reordered',
    );
    if (a.rows === b.rows && !rowLevel) continue;
    const rows: Found = {
      change: {
        ...describeUnit(a, 'rows'),
        from: String(b.rows),
        to: String(a.rows),
        ...(a.firstRow !== undefined ? { first: a.firstRow } : {}),
      },
      el: table,
    };
    if (inTable.length > 3) {
      rows.change.inside = inTable.length;
      for (const f of inTable) out.splice(out.indexOf(f), 1);
    }
    out.push(rows);
  }
  return out;
}

/** Within a few levels of each other: the acted-on element's neighbourhood. */
function isNear(acted: Element, el: Element): boolean {
  if (acted.contains(el) || el.contains(acted)) return true;
  const up = new Set<Element>();
  let n: Element | null = acted;
  for (let i = 0; n && i < 4; i++, n = composedParent(n))
    if (n.localName !== 'body' && n.localName !== 'html') up.add(n);
  n = el;
  for (let i = 0; n && i < 4; i++, n = composedParent(n)) if (up.has(n)) return true;
  return false;
}
