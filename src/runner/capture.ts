// What follows a command: the page context always; after a visual command also the screenshot,
// the viewport snapshot (inline, last in the answer), the full snapshot (a file) and the diff
// against the viewport as it was before the steps ran. One page evaluation for context and tree;
// the screenshot is taken alongside it. Every piece is best-effort and bounded.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTO_SCREENSHOT_TIMEOUT_MS, Deadline, stateDir } from '../common/index.js';
import { captureScreenshot } from '../capture/index.js';
import {
  IsolatedWorlds,
  callIsolated,
  callIsolatedByUniqueId,
  waitPageReady,
  type FrameTarget,
  type Scope,
} from '../page/index.js';
import { isUnknownContext, type CdpSession, type TabEntry } from '../cdp/index.js';
import {
  fillFrameSlots,
  fitTree,
  foldUnchanged,
  hasFrameSlots,
  knownFramePrefix,
  headWithCount,
  liftWrappers,
  renderYaml,
  viewportOnly,
  writeSnapshotFile,
} from '../aria/index.js';
import { MAX_LINES, tellChanges, type ObservedDiff, type StepVerb, type ViewportChanges } from '../diff/index.js';
import type { PageRuntime, SnapshotOptions } from '../injected/index.js';
import type { AttachedTab } from '../steps/index.js';
import { contextToSend } from './context-delta.js';
import { settleView } from './settle-view.js';

const CAPTURE_TIMEOUT_MS = AUTO_SCREENSHOT_TIMEOUT_MS;

function internalOptions(entry: TabEntry): SnapshotOptions {
  return {
    autoScope: false,
    pierceShadow: true,
    includeFrames: true,
    maxDepth: 50,
    maxElements: 20_000,
    refs: true,
    internal: true,
    ...(entry.counters ? { counters: entry.counters } : {}),
  };
}

export interface BeforeCapture {
  scrollY: number;
  frameId?: string;
  networkMark: number;
  /** Taken after a `frame` step of this command: the agent has not seen that frame yet. */
  frameChosen?: true;
  /** Out-of-process (cross-origin) frames whose view was taken too, with the name their changes go under. */
  oopifs?: { target: FrameTarget; name: string }[];
}

/** The before-look's answer: the top's scroll, and how many frames it cannot read (cross-origin). */
type BeforeLook = { scrollY: number; closedFrames?: number };

type LookCall = (
  fn: (rt: PageRuntime) => BeforeLook,
  options: { deadline: Deadline; what: string },
) => Promise<BeforeLook>;
const inScope =
  (scope: Scope): LookCall =>
  (fn, options) =>
    scope.call(fn, undefined, options);

/**
 * The page's view as the steps find it, kept in the page for the diff (injected/view-diff.ts),
 * with the live recorder and the effect probe armed for what comes and goes.
 */
function lookBefore(call: LookCall): Promise<BeforeLook> {
  return call(
    (rt) => {
      rt.liveRecorder.armLiveRecorder();
      rt.viewDiff.viewStart();
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
    },
    { deadline: Deadline.after(CAPTURE_TIMEOUT_MS), what: 'the before-look' },
  );
}

/** The before-look sent during the attach, and the document it was sent to when that was named. */
export interface EarlyLook {
  look: Promise<BeforeLook>;
  /** The loaderId of the document whose world was addressed by id; undefined: the current top document. */
  loaderId?: string;
}

/**
 * Starts the before-look of the top document as soon as the tab's session exists: sent right
 * behind the domain enables, the page takes it while Chrome still answers them (~4 ms a call).
 * When the last command left our world's id in the tab's entry, the look goes to that world at
 * once, in the same batch as the enables; else the world is looked up (made) first, one round trip
 * later. Only for a tab whose steps run in the top document.
 */
export function startBefore(session: CdpSession, entry: TabEntry): EarlyLook | undefined {
  if (entry.frame) return undefined;
  // Before the Page exists: the top frame's id is the tab's target id.
  const frame = { session, frameId: entry.targetId };
  const byLookup = (): Promise<BeforeLook> =>
    lookBefore((fn, options) => callIsolated(new IsolatedWorlds(), frame, fn, undefined, options));
  const known = entry.world;
  const early: EarlyLook = known
    ? {
        loaderId: known.loaderId,
        // A world that is gone (the page navigated since) is found the usual way, for the current document.
        look: lookBefore((fn, options) =>
          callIsolatedByUniqueId(session, known.uniqueId, fn, undefined, options),
        ).catch((err) => {
          if (!isUnknownContext(err)) throw err;
          early.loaderId = undefined;
          return byLookup();
        }),
      }
    : { look: byLookup() };
  early.look.catch(() => {
    /* awaited by captureBefore, or not needed: the attach failed */
  });
  return early;
}

/**
 * The viewport's elements before the steps run, for the diff — of the frame the steps run in, when
 * one is chosen. `started` is the look startBefore sent during the attach: used when the steps run
 * in the top document, attaching repaired nothing (a crashed tab's reload makes a new document),
 * and the world it addressed by id is the current document's.
 * Undefined when it can't be had.
 */
export async function captureBefore(tab: AttachedTab, started?: EarlyLook): Promise<BeforeCapture | undefined> {
  try {
    const { page } = tab;
    const scope = page.scope(Deadline.after(CAPTURE_TIMEOUT_MS));
    let early = started && !scope.frame && page.attachNotes.length === 0 ? started.look : undefined;
    if (early && started?.loaderId !== undefined) {
      // Settled before its document is judged: a failed lookup by id falls back (and clears loaderId).
      await early.catch(() => undefined);
      if (started.loaderId !== undefined && started.loaderId !== page.lifecycle.loaderId) early = undefined;
    }
    const look = await page.guard(early ?? lookBefore(inScope(scope)));
    const oopifs = look.closedFrames && !scope.frame ? await lookBeforeInFrames(tab) : [];
    return {
      scrollY: look.scrollY,
      networkMark: page.network.mark,
      ...(scope.frame ? { frameId: scope.frame.frameId } : {}),
      ...(oopifs.length ? { oopifs } : {}),
    };
  } catch {
    return undefined; // no diff then; the command itself is unaffected
  }
}

/** What the effect probe says, and the page's context with it when nothing changed (no second look needed). */
interface EffectLook {
  changed: boolean;
  context?: PageState['context'];
  scrollY?: number;
}

/**
 * Out-of-process frames (a cross-origin payment form): only when the top look found frames it
 * cannot read, each is attached and its view taken, so its changes are told under its frame.
 */
async function lookBeforeInFrames(tab: AttachedTab): Promise<{ target: FrameTarget; name: string }[]> {
  const deadline = Deadline.after(CAPTURE_TIMEOUT_MS);
  try {
    const frames = (await tab.page.frames.list(deadline)).filter((f) => f.crossOrigin);
    const out: { target: FrameTarget; name: string }[] = [];
    await Promise.all(
      frames.map(async (f) => {
        try {
          const target = await tab.page.frames.target(f.frameId, deadline);
          await tab.page.scopeAt(target, deadline).call((rt) => rt.viewDiff.viewStart(), undefined, {
            deadline,
            what: 'the look at a cross-origin frame',
          });
          out.push({ target, name: f.name || shortFrameUrl(f.url) });
        } catch {
          // A frame that went or does not answer: its changes go untold, the rest are still diffed.
        }
      }),
    );
    return out;
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

/** The changes inside the out-of-process frames looked at before, each under its frame's name. */
async function framesViewChanges(tab: AttachedTab, before: BeforeCapture, deadline: Deadline): Promise<ObservedDiff[]> {
  const diffs = await Promise.all(
    (before.oopifs ?? []).map(async ({ target, name }) => {
      try {
        const d = await tab.page.scopeAt(target, deadline).call((rt) => rt.viewDiff.viewChanges(), undefined, {
          deadline,
          what: 'the changes in a cross-origin frame',
        });
        if (!d) return undefined;
        // A ref in the frame is told as the agent has it (f2s1e7, from the frame's snapshot), else not at all.
        const prefix = knownFramePrefix(tab.entry, target.frameId);
        for (const c of d.changes) {
          c.frame = c.frame ? `${name} > ${c.frame}` : name;
          if (c.ref) {
            if (prefix) c.ref = `${prefix}${c.ref}`;
            else delete c.ref;
          }
        }
        return d;
      } catch {
        return undefined;
      }
    }),
  );
  return diffs.filter((d): d is ObservedDiff => d !== undefined);
}

/** One diff of the page and its out-of-process frames. */
function mergeDiffs(top: ObservedDiff, frames: ObservedDiff[]): ObservedDiff {
  if (!frames.length) return top;
  const counts = { ...top.counts };
  for (const f of frames)
    for (const [k, n] of Object.entries(f.counts) as [keyof typeof counts, number][]) counts[k] = (counts[k] ?? 0) + n;
  return {
    ...top,
    changes: [...top.changes, ...frames.flatMap((f) => f.changes)],
    counts,
    ...(top.truncated || frames.some((f) => f.truncated) ? { truncated: true as const } : {}),
  };
}

/**
 * Capture by effect (issue 13, DECISIONS): unchanged when the steps changed nothing on the page since
 * the before-look — no DOM mutation, input, scroll, animation or navigation, measured in the page
 * (injected/effect-probe.ts). Such a command answers like a read-only one, and the same evaluation
 * reads the page's context for that answer: one round trip instead of two. Changed whenever it
 * can't tell: no before-look, steps in a chosen frame, a new document, a page that does not answer.
 */
export async function effectsSinceBefore(tab: AttachedTab, before: BeforeCapture | undefined): Promise<EffectLook> {
  // Changes inside an out-of-process frame are not measured by the top's probe: look.
  const top = tab.page.scopeAt(undefined, Deadline.after(CAPTURE_TIMEOUT_MS));
  if (!before || before.oopifs || tab.page.chosenFrameEntry() || tab.page.lifecycle.documentCount > 0)
    return { changed: true };
  try {
    const look = await top.call(
      async (rt) => {
        const effects = await rt.effectProbe.takeEffects();
        return effects.changed
          ? { effects }
          : { effects, context: rt.pageContext.pageContext(), scrollY: Math.round(window.scrollY) };
      },
      undefined,
      { deadline: Deadline.after(CAPTURE_TIMEOUT_MS), what: 'the effect probe' },
    );
    tab.entry.counters = look.effects.counters;
    return { changed: look.effects.changed, context: look.context, scrollY: look.scrollY };
  } catch {
    return { changed: true }; // unknown: take the whole capture, as before
  }
}

/**
 * Ready before the first look (issue 13): after a navigation (a new document or another URL), the
 * capture waits — bounded, event-driven — for the page to be ready; returns what was still pending.
 */
async function readyForFirstLook(tab: AttachedTab, startUrl: string): Promise<string[]> {
  const { lifecycle } = tab.page;
  const stripHash = (u: string): string => u.split('#')[0]!;
  if (lifecycle.documentCount === 0 && stripHash(lifecycle.url) === stripHash(startUrl)) return [];
  return waitPageReady(tab.page, Deadline.after(CAPTURE_TIMEOUT_MS));
}

/** What a command that changed nothing says instead of a diff. */
export const NO_EFFECT = { summary: 'Nothing changed on the page.' };

export interface AfterCapture {
  /** Why a visual command has no screenshot (a full disk, a tab that did not paint in time). */
  warning?: string;
  context?: unknown;
  navigated?: true;
  screenshot?: string;
  fullSnapshot?: string;
  changes?: unknown;
  viewportSnapshot?: string;
  truncated?: true;
}

type CaptureOptions = {
  visual: boolean;
  startUrl: string;
  before?: BeforeCapture;
  actions: readonly StepVerb[];
  /** The whole context, not what changed: the command opened or connected its tab. */
  whole?: boolean;
};

/**
 * The page after the steps. `context` gives only what changed since the tab's previous answer
 * (context-delta.ts): whole on a tab's first answer and after a navigation.
 */
export async function captureAfter(tab: AttachedTab, opts: CaptureOptions): Promise<AfterCapture> {
  const out = await captureFull(tab, opts);
  if (out.context) {
    const context = contextToSend(
      tab,
      out.context as Record<string, unknown>,
      out.navigated === true || opts.whole === true,
    );
    if (context) out.context = context;
    else delete out.context;
  }
  return out;
}

async function captureFull(tab: AttachedTab, opts: CaptureOptions): Promise<AfterCapture> {
  if (opts.visual) {
    const look = await effectsSinceBefore(tab, opts.before);
    if (!look.changed) {
      // Described as a read-only command's capture would describe it (the context, read alongside the probe).
      const out = look.context
        ? await describe(tab, opts, { context: look.context, live: [], scrollY: look.scrollY ?? 0 })
        : await captureFull(tab, { ...opts, visual: false });
      return out.context && !out.navigated ? { ...out, changes: NO_EFFECT } : out;
    }
  }
  const pending = opts.visual ? await readyForFirstLook(tab, opts.startUrl) : [];
  const { page, alias } = tab;
  const deadline = Deadline.after(CAPTURE_TIMEOUT_MS);
  const scope = page.scope(deadline);
  const top = scope.at(undefined);
  const snapOpts = opts.visual ? internalOptions(tab.entry) : undefined;
  // The snapshot and diff are of the frame the steps ran in; the context is the tab's.
  const inFrame = scope.frame !== undefined;
  if (opts.visual && opts.before) await settle(scope, opts.before);
  const stateP = top.call(
    (rt, o) => ({
      context: rt.pageContext.pageContext(),
      snapshot: o ? rt.ariaSnapshot.ariaSnapshot(o) : undefined,
      live: o ? rt.liveRecorder.takeLiveRecords() : [],
      view: o ? rt.viewDiff.viewChanges() : undefined,
      scrollY: Math.round(window.scrollY),
    }),
    inFrame ? undefined : snapOpts,
    { deadline, what: 'the page context' },
  );
  const frameP =
    inFrame && snapOpts
      ? scope.call(
          (rt, o) => ({
            snapshot: rt.ariaSnapshot.ariaSnapshot(o),
            live: rt.liveRecorder.takeLiveRecords(),
            view: rt.viewDiff.viewChanges(),
            scrollY: Math.round(window.scrollY),
          }),
          snapOpts,
          { deadline, what: 'the frame snapshot' },
        )
      : undefined;
  const shotP = opts.visual
    ? captureScreenshot(
        page.session,
        { path: join(stateDir(), `${alias}.after.png`), format: 'png' },
        deadline,
        (fn, arg) => top.call(fn, arg),
      )
    : undefined;
  // The tree is rendered, diffed and written while Chrome still encodes the screenshot.
  const shot = shotP && page.guard(shotP);
  shot?.catch(() => {
    /* a failed screenshot only leaves its field out (SPEC §17.1) */
  });
  const [state, framed] = await Promise.allSettled([page.guard(stateP), frameP && page.guard(frameP)]);
  const pageState: PageState | undefined =
    state.status === 'fulfilled'
      ? { ...state.value, ...(framed.status === 'fulfilled' && framed.value ? framed.value : {}) }
      : undefined;
  // Out-of-process frames are told beside the top's changes (inside a chosen frame, its own diff is the answer).
  if (pageState?.view && opts.before?.oopifs && !inFrame)
    pageState.view = mergeDiffs(pageState.view, await framesViewChanges(tab, opts.before, deadline));
  // Cross-origin frames' content under their frames, with refs an action routes there (aria/frames.ts).
  const snap = pageState?.snapshot;
  if (snap?.ok && snapOpts && hasFrameSlots(snap.tree)) {
    try {
      const framed = await fillFrameSlots(scope, snap.tree, { ...snapOpts, counters: snap.counters }, tab.entry);
      snap.tree = framed.tree;
      if (framed.counters) snap.counters = framed.counters;
    } catch {
      // Best effort: the frames' slots are left out, the page's own snapshot stands.
    }
  }
  const out = await describe(tab, opts, pageState);
  // An answer without the page's context, snapshot or diff says why they are missing (a huge page,
  // a busy renderer or machine), rather than looking like a page with nothing to show.
  const unread =
    state.status === 'rejected'
      ? `The page could not be read after the steps (${errorText(state.reason)}): no context, snapshot or changes this time`
      : framed.status === 'rejected'
        ? `The frame could not be read after the steps (${errorText(framed.reason)}): no snapshot or changes of it this time`
        : undefined;
  if (unread)
    out.warning = `${unread}; the steps themselves are done. Look again with {"snapshot": true}, with a longer "timeout" on a huge page.`;
  // The bound ran out: say what the first look may be missing (e.g. "2 custom elements undefined (sl-input)").
  if (pending.length && out.context) out.context = { ...(out.context as object), pending };
  if (shot) {
    try {
      out.screenshot = (await shot).path;
    } catch (err) {
      // Screenshot failure is non-fatal (SPEC §17.1): the field is absent, and the answer says why.
      const note = `No screenshot this time: ${errorText(err)}`;
      out.warning = out.warning ? `${out.warning} ${note}` : note;
    }
  }
  return out;
}

const errorText = (err: unknown): string => ((err as Error)?.message || String(err)).slice(0, 200);

interface PageState {
  context: Awaited<ReturnType<PageRuntime['pageContext']['pageContext']>>;
  snapshot?: Awaited<ReturnType<PageRuntime['ariaSnapshot']['ariaSnapshot']>>;
  live: string[];
  view?: ObservedDiff;
  scrollY: number;
}

/**
 * Lets what the steps set going finish before the after-look: requests they started, then
 * animations and re-renders in the page (settle-view.ts, bounded and within the capture deadline).
 */
async function settle(scope: Scope, before: BeforeCapture): Promise<void> {
  try {
    await settleView(scope, before.networkMark);
  } catch {
    // Best effort: an unsettled page is still looked at, as it is.
  }
}

/** The answer's fields from the page's state after the steps (undefined: it could not be read). */
async function describe(
  tab: AttachedTab,
  opts: { startUrl: string; before?: BeforeCapture; actions: readonly StepVerb[] },
  state: PageState | undefined,
): Promise<AfterCapture> {
  const { page, alias } = tab;
  const out: AfterCapture = {};
  const stripHash = (u: string): string => u.split('#')[0]!;
  if (!state) {
    // The page could not be read (a dialog storm, a script that never yields): the tab's own
    // navigation events still say whether a document was committed; no navigation is guessed.
    if (page.lifecycle.documentCount > 0 || stripHash(page.lifecycle.url) !== stripHash(opts.startUrl))
      out.navigated = true;
    return out;
  }
  const { context, snapshot, live, scrollY: afterScrollY } = state;
  out.context = context;
  const navigated = stripHash(context.url) !== stripHash(opts.startUrl) || page.lifecycle.documentCount > 0;
  if (navigated) out.navigated = true;
  if (!snapshot?.ok) return out;
  tab.entry.counters = snapshot.counters;
  const viewTree = viewportOnly(snapshot.tree);
  const fullYaml = renderYaml(snapshot.tree);
  try {
    // The same page as the file already holds: no path (the file is still the page as it is).
    if (!sameFile(`${alias}.after.yaml`, `${fullYaml}\n`))
      out.fullSnapshot = writeSnapshotFile(`${alias}.after.yaml`, fullYaml);
  } catch {
    // A full disk costs the file, not the answer.
  }
  // A route change in the same document (pushState) is diffed too: its new heading is the news.
  const diffable =
    opts.before !== undefined && opts.before.frameId === page.chosenFrameEntry()?.frameId && state.view !== undefined;
  let changes: ViewportChanges | undefined;
  if (diffable) {
    changes = tellChanges({ diff: state.view!, actions: opts.actions, live, shownNow: fullYaml });
    out.changes = changes;
  }
  // The screen is sent again only when the agent's picture of it is out of date and `changes`
  // cannot stand for it: a new document or frame, a scroll, or isStructuralChange.
  const showView =
    !diffable || !!opts.before!.frameChosen || afterScrollY !== opts.before!.scrollY || isStructuralChange(state.view!);
  if (!showView) return out;
  const folded = diffable ? foldUnchanged(viewTree, new Set(state.view!.unchanged)) : viewTree;
  // A huge widget on screen costs ~4 KB: long runs cut with counts, the rest in fullSnapshot.
  const { text: inline, cut } = headWithCount(renderYaml(fitTree(liftWrappers(folded))));
  if (cut || snapshot.truncated) out.truncated = true;
  if (inline) out.viewportSnapshot = inline;
  if (inline && changes) dropShownEntries(changes);
  return out;
}

/**
 * What came into view is what the viewportSnapshot shows: its names go, counted in `more`, so the
 * answer does not name the same elements twice.
 */
function dropShownEntries(changes: ViewportChanges): void {
  if (!changes.enteredView) return;
  const count = changes.enteredView.length + (changes.more?.enteredView ?? 0);
  delete changes.enteredView;
  changes.more = { ...changes.more, enteredView: count };
}

/** Whether the state dir's `name` holds exactly `text` (a cheap native compare, no hash). */
function sameFile(name: string, text: string): boolean {
  try {
    return readFileSync(join(stateDir(), name), 'utf8') === text;
  } catch {
    return false;
  }
}

/**
 * The screen is sent again when `changes` cannot stand for it: rows re-sorted or re-counted, more
 * change than it lists, or content that came into view with more inside than its line names.
 * Gone, moved, text and state lines, and single elements that appeared (with their refs), say it all.
 */
function isStructuralChange(view: ObservedDiff): boolean {
  const c = view.counts;
  const total = Object.values(c).reduce((a, b) => a + b, 0);
  if (total > MAX_LINES || c.reordered || c.rows) return true;
  return view.changes.some((ch) => (ch.kind === 'appeared' || ch.kind === 'enteredView') && !!ch.inside);
}
