// The capture's looks: each document it watches for the diff — the scope the steps act in and,
// seen from the top, each out-of-process frame the top cannot read into — is armed before the
// steps and read after them the same way (one page function each way, one loop over the list);
// a frame's changes are told under its name, with refs as the agent has them there.

import { AUTO_SCREENSHOT_TIMEOUT_MS } from '../common/index.js';
import type { FrameTarget, Scope } from '../page/index.js';
import { knownFramePrefix, type FrameBook } from '../aria/index.js';
import type { ObservedDiff } from '../diff/index.js';
import type { PageRuntime, SnapshotOptions } from '../injected/index.js';

/** The bound of the capture's looks before and after the steps (each phase its own). */
export const CAPTURE_TIMEOUT_MS = AUTO_SCREENSHOT_TIMEOUT_MS;

/** One document the capture looks at. */
export interface Look {
  readonly scope: Scope;
  /** The name its changes are told under: a cross-origin frame's; none for the steps' own scope. */
  readonly under?: string;
  /**
   * The top document, looked at while the steps act in a chosen frame: only its changes outside
   * frames are told (a word counter beside a framed editor); the frame's are the steps' own look's.
   */
  readonly outside?: true;
}

/** A look's answer before the steps: the document's scroll, and (the steps' own scope) the frames it cannot read. */
export interface Armed {
  scrollY: number;
  closedFrames?: number;
}

/** What a look reads after the steps. */
export interface ReadAsk {
  /** The tab's context (the top document's look, or the top read for it alone). */
  context: boolean;
  /** The snapshot, and the live records with it (the steps' own scope, in a visual command). */
  snapshot?: SnapshotOptions;
  /** The changes since the look was armed. */
  view: boolean;
  /** Let the page settle first, in the same evaluation (one round trip): how long at most, and the quiet that counts. */
  settle?: ViewSettle;
  /** The changes since the agent's last look rather than since the before-look, when the document has one (a call that only waits). */
  sinceLastLook?: boolean;
  /** The effect probe saw only the pointer entering an element: whether that is still all, once settled. */
  pointerOnly?: boolean;
}

/** How long the page may still take to settle in view (injected/view-settle.ts), and the quiet that counts. */
export interface ViewSettle {
  maxMs: number;
  quietMs: number;
}

export type PageContext = Awaited<ReturnType<PageRuntime['pageContext']['pageContext']>>;
export type SnapshotOutcome = Awaited<ReturnType<PageRuntime['ariaSnapshot']['ariaSnapshot']>>;

/** A look's answer after the steps. */
export interface Read {
  context?: PageContext;
  snapshot?: SnapshotOutcome;
  live: string[];
  view?: ObservedDiff;
  /** `view` is since the agent's last look (injected/last-look.ts), not since the before-look. */
  sinceLastLook?: true;
  /** Asked `pointerOnly`: nothing but the pointer entering an element happened since the before-look. */
  onlyPointer?: true;
  scrollY: number;
}

/**
 * Arms a look: the view kept for the diff (injected/view-diff.ts); for the steps' own scope (`full`)
 * also the live recorder and the effect probe, and a count of the frames it cannot read into.
 */
export const ARM = (rt: PageRuntime, full: boolean): Armed => {
  if (full) rt.liveRecorder.armLiveRecorder();
  rt.viewDiff.viewStart();
  if (!full) return { scrollY: Math.round(window.scrollY) };
  rt.effectProbe.armEffectProbe();
  let closedFrames = 0;
  for (const f of Array.from(document.querySelectorAll('iframe'))) {
    try {
      if (!f.contentDocument) closedFrames++;
    } catch {
      closedFrames++;
    }
  }
  return { scrollY: Math.round(window.scrollY), ...(closedFrames ? { closedFrames } : {}) };
};

/**
 * Reads a look in one evaluation: the page settled first when asked, then what `a` asks for, in this
 * order (the snapshot before the changes are taken). The view the steps' own look read is kept as
 * the agent's last look (the page as this answer shows it).
 */
const READ = async (rt: PageRuntime, a: ReadAsk) => {
  if (a.settle) await rt.viewSettle.viewSettle(a.settle.maxMs, a.settle.quietMs);
  const onlyPointer = a.pointerOnly && rt.effectProbe.stillOnlyPointer();
  const head = {
    ...(a.context ? { context: rt.pageContext.pageContext() } : {}),
    ...(a.snapshot
      ? { snapshot: rt.ariaSnapshot.ariaSnapshot(a.snapshot), live: rt.liveRecorder.takeLiveRecords() }
      : { live: [] as string[] }),
  };
  const sinceLast = a.view && a.sinceLastLook ? rt.lastLook.changesSinceLastLook() : undefined;
  const view = sinceLast ?? (a.view ? rt.viewDiff.viewChanges() : undefined);
  if (a.view && a.snapshot) rt.lastLook.keepLastLook();
  return {
    ...head,
    ...(view ? { view } : {}),
    ...(sinceLast ? { sinceLastLook: true as const } : {}),
    ...(onlyPointer ? { onlyPointer: true as const } : {}),
    scrollY: Math.round(window.scrollY),
  };
};

export function arm(look: Look): Promise<Armed> {
  const own = look.under === undefined && !look.outside;
  return look.scope.call(ARM, own, {
    what: own ? 'the before-look' : look.outside ? 'the look at the top document' : 'the look at a cross-origin frame',
  });
}

/** Reads `look` after the steps; a framed look's changes go under its name, its refs as the agent has them. */
export async function read(look: Look, ask: ReadAsk, book: FrameBook): Promise<Read> {
  const what =
    look.under !== undefined
      ? 'the changes in a cross-origin frame'
      : ask.context
        ? 'the page context'
        : 'the frame snapshot';
  const r = (await look.scope.call(READ, ask, { what })) as Read;
  if (look.under !== undefined && r.view) underFrame(r.view, look.under, knownFramePrefix(book, look.scope.frameId));
  if (look.outside && r.view) r.view = outsideFrames(r.view);
  return r;
}

/** The top document's changes outside its frames (what happened inside them is their own looks'). */
function outsideFrames(view: ObservedDiff): ObservedDiff {
  const counts = { ...view.counts };
  for (const c of view.changes) if (c.frame) counts[c.kind] = Math.max(0, (counts[c.kind] ?? 1) - 1);
  return { ...view, changes: view.changes.filter((c) => !c.frame), counts, unchanged: [] };
}

/** The look at the top document while the steps act in a chosen frame (see Look.outside), armed; undefined when it can't be. */
export async function outsideLook(steps: Scope): Promise<Look | undefined> {
  if (!steps.frame) return undefined;
  const look: Look = { scope: steps.at(undefined), outside: true };
  try {
    await arm(look);
    return look;
  } catch {
    return undefined; // the frame's own changes are still told
  }
}

/** A frame's changes, told under its name; a ref only as the agent has it (f2s1e7, from the frame's snapshot). */
function underFrame(view: ObservedDiff, name: string, prefix: string | undefined): void {
  for (const c of view.changes) {
    c.frame = c.frame ? `${name} > ${c.frame}` : name;
    if (c.ref) {
      if (prefix) c.ref = `${prefix}${c.ref}`;
      else delete c.ref;
    }
  }
}

/**
 * The looks at the out-of-process (cross-origin) frames of the top document `top`, each armed:
 * so their changes are told under their frames. A frame that went or does not answer is left out.
 */
export async function frameLooks(top: Scope): Promise<Look[]> {
  const { page, deadline } = top;
  try {
    const frames = (await page.frames.list(deadline)).filter((f) => f.crossOrigin);
    const looks = await Promise.all(
      frames.map(async (f): Promise<Look | undefined> => {
        try {
          const target: FrameTarget = await page.frames.target(f.frameId, deadline);
          const look = { scope: top.at(target), under: f.name || shortFrameUrl(f.url) };
          await arm(look);
          return look;
        } catch {
          return undefined; // its changes go untold, the rest are still diffed
        }
      }),
    );
    return looks.filter((l): l is Look => l !== undefined);
  } catch {
    return [];
  }
}

function shortFrameUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`.slice(0, 60);
  } catch {
    return url.slice(0, 60);
  }
}

/** The changes of all looks as one diff: the first look's, with the others' joined (none without the first). */
export function joinViews(views: (ObservedDiff | undefined)[]): ObservedDiff | undefined {
  const [first, ...rest] = views;
  const others = rest.filter((v): v is ObservedDiff => v !== undefined);
  if (!first || !others.length) return first;
  const counts = { ...first.counts };
  for (const v of others)
    for (const [k, n] of Object.entries(v.counts) as [keyof typeof counts, number][]) counts[k] = (counts[k] ?? 0) + n;
  return {
    ...first,
    changes: [...first.changes, ...others.flatMap((v) => v.changes)],
    counts,
    ...(first.truncated || others.some((v) => v.truncated) ? { truncated: true as const } : {}),
  };
}
