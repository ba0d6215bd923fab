// Out-of-process (cross-origin) frames in a snapshot (issue 13): the page's walk leaves a slot
// where such a frame shows (role "oopif"); here each slot is filled with the frame's own snapshot,
// taken in the frame's target, its refs frame-qualified (`f2s3e7`: frame 2 of the tab's book, ref
// s3e7 in that frame) so an action routes to the frame without a `frame` step. Pages without such
// frames pay nothing: no slot, no call.

import type { FrameTarget, Scope } from '../page/index.js';
import type { AriaNode, Counters, SnapshotOptions } from '../injected/index.js';
import { REF_SOURCE } from '../shared/index.js';

/** At most this many frames are filled in one snapshot (ad-heavy pages); the rest are counted. */
export const MAX_SHOWN_FRAMES = 5;

/** A frame ref: `f{n}` then the ref in that frame. */
export const FRAME_REF = new RegExp(`^f(\\d+)(${REF_SOURCE})$`);

/** The tab's frame book: `f{i+1}` names frameIds[i] (kept in the tab's entry across commands). */
export interface FrameBook {
  frameRefs?: string[];
}

/** Frames remembered per tab; the oldest go first. */
const MAX_BOOK = 50;

function frameKey(book: FrameBook, frameId: string): number {
  book.frameRefs ??= [];
  let i = book.frameRefs.indexOf(frameId);
  if (i < 0) {
    if (book.frameRefs.length >= MAX_BOOK) book.frameRefs.shift();
    book.frameRefs.push(frameId);
    i = book.frameRefs.length - 1;
  }
  return i + 1;
}

/** The prefix (`f2`) of the refs handed out in `frameId`, when the tab's book has it. */
export function knownFramePrefix(book: FrameBook, frameId: string): string | undefined {
  const i = book.frameRefs?.indexOf(frameId) ?? -1;
  return i < 0 ? undefined : `f${i + 1}`;
}

/** The frame a frame ref names, and the ref inside it; undefined for an ordinary ref. */
export function splitFrameRef(book: FrameBook, ref: string): { frameId?: string; ref: string } | undefined {
  const m = FRAME_REF.exec(ref);
  if (!m) return undefined;
  return { frameId: book.frameRefs?.[Number(m[1]) - 1], ref: m[2]! };
}

function slotsOf(nodes: AriaNode[], out: AriaNode[] = []): AriaNode[] {
  for (const n of nodes) {
    if (n.role === 'oopif') out.push(n);
    else if (n.children) slotsOf(n.children, out);
  }
  return out;
}

export const hasFrameSlots = (nodes: AriaNode[]): boolean => slotsOf(nodes).length > 0;

function prefixRefs(nodes: AriaNode[], prefix: string, keepVp: boolean): AriaNode[] {
  return nodes.map((n) => {
    const { vp, children, ...rest } = n;
    return {
      ...rest,
      ...(n.ref ? { ref: `${prefix}${n.ref}` } : {}),
      ...(vp && keepVp ? { vp } : {}),
      ...(children ? { children: prefixRefs(children, prefix, keepVp) } : {}),
    };
  });
}

/** Replaces every slot: by its frame's nodes when filled, else by nothing (a count closes the tree). */
function graft(nodes: AriaNode[], filled: Map<AriaNode, AriaNode[]>): AriaNode[] {
  const out: AriaNode[] = [];
  for (const n of nodes) {
    if (n.role === 'oopif') out.push(...(filled.get(n) ?? []));
    else if (n.children) {
      const children = graft(n.children, filled);
      const { children: _c, ...rest } = n;
      out.push(children.length ? { ...rest, children } : rest);
    } else out.push(n);
  }
  return out;
}

export interface FramedTree {
  tree: AriaNode[];
  counters?: Counters;
  /** Frames that showed but were not filled (over MAX_SHOWN_FRAMES). */
  framesLeft?: number;
}

/**
 * Fills the slots of `tree` (a snapshot of `scope`'s frame) with the frames' own snapshots, nested
 * frames too, at most MAX_SHOWN_FRAMES in all (those in view first). Slots whose <iframe> is not
 * tagged yet get their frames tagged and `scope`'s snapshot is taken again (once per document:
 * the tag stays in our world).
 */
export async function fillFrameSlots(
  scope: Scope,
  tree: AriaNode[],
  opts: SnapshotOptions,
  book: FrameBook,
): Promise<FramedTree> {
  const { page, deadline } = scope;
  let slots = slotsOf(tree);
  if (!slots.length) return { tree };
  let counters = opts.counters;
  const { root: _root, ...base } = opts;
  const snap = async (there: Scope): Promise<AriaNode[] | undefined> => {
    const o = await there.call(
      (rt, a) => rt.ariaSnapshot.ariaSnapshot(a),
      { ...base, ...(counters ? { counters } : {}), autoScope: false },
      { what: "a cross-origin frame's snapshot" },
    );
    if (!o.ok) return undefined;
    if (!counters || o.counters.element > counters.element || o.counters.snapshot > counters.snapshot)
      counters = {
        element: Math.max(o.counters.element, counters?.element ?? 0),
        snapshot: Math.max(o.counters.snapshot, counters?.snapshot ?? 0),
      };
    return o.tree;
  };
  if (slots.some((s) => !s.frameId)) {
    const again = (await page.frames.tagOwners(deadline)) > 0 ? await snap(scope).catch(() => undefined) : undefined;
    if (again) {
      tree = again;
      slots = slotsOf(tree);
    }
  }
  const filled = new Map<AriaNode, AriaNode[]>();
  let left = MAX_SHOWN_FRAMES;
  let over = 0;
  // Level by level: a frame's own frames are slots in its tree.
  let level = slots;
  while (level.length) {
    const ordered = [...level.filter((s) => s.vp), ...level.filter((s) => !s.vp)].filter((s) => s.frameId);
    over += Math.max(0, ordered.length - left);
    const taken = ordered.slice(0, Math.max(0, left));
    left -= taken.length;
    const next: AriaNode[] = [];
    await Promise.all(
      taken.map(async (slot) => {
        try {
          const target: FrameTarget = await page.frames.target(slot.frameId!, deadline);
          const inner = await snap(scope.at(target));
          if (!inner) return;
          const key = frameKey(book, slot.frameId!);
          const nodes = prefixRefs(inner, `f${key}`, slot.vp === 1);
          filled.set(slot, nodes);
          next.push(...slotsOf(nodes));
        } catch {
          // A frame that went or does not answer: its slot is left out.
        }
      }),
    );
    level = next;
  }
  // Filled frames' nodes carry their own nested slots: graft until none is left.
  let out = graft(tree, filled);
  while (hasFrameSlots(out)) out = graft(out, filled);
  if (over)
    out.push({ role: 'text', text: `(${over} more cross-origin frame${over === 1 ? '' : 's'} not shown)`, vp: 1 });
  return { tree: out, ...(counters ? { counters } : {}), ...(over ? { framesLeft: over } : {}) };
}
