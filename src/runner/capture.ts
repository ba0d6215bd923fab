// What follows a command: the page context always; after a visual command also the screenshot,
// the viewport snapshot (inline, last in the answer), the full snapshot (a file) and the diff
// against the viewport as it was before the steps ran. One page evaluation for context and tree;
// the screenshot is taken alongside it. Every piece is best-effort and bounded.

import { join } from 'node:path';
import { AUTO_SCREENSHOT_TIMEOUT_MS, Deadline, stateDir } from '../common/index.js';
import { captureScreenshot } from '../capture/index.js';
import { evaluateIn, evaluateInPage, waitPageReady, type EvalTarget } from '../page/index.js';
import type { CdpSession, TabEntry } from '../cdp/index.js';
import {
  DEFAULT_INLINE_LIMIT, diffEntries, foldUnchanged, headOf, renderYaml, viewportOnly, writeSnapshotFile,
} from '../aria/index.js';
import { actionVerb, diffViewport, MAX_LISTED, type DiffEntry, type ViewportChanges } from '../diff/index.js';
import type { SnapshotOptions } from '../injected/aria-snapshot.js';
import type { PageRuntime } from '../injected/runtime.js';
import type { AttachedTab } from '../steps/index.js';

const CAPTURE_TIMEOUT_MS = AUTO_SCREENSHOT_TIMEOUT_MS;

function internalOptions(entry: TabEntry): SnapshotOptions {
  return {
    autoScope: false, pierceShadow: true, includeFrames: true, maxDepth: 50, maxElements: 20_000,
    refs: true, internal: true, ...(entry.counters ? { counters: entry.counters } : {}),
  };
}

export interface BeforeCapture { entries: DiffEntry[]; scrollY: number; frameId?: string }

type BeforeLook = { snap: Awaited<ReturnType<PageRuntime['ariaSnapshot']>>; scrollY: number };

/** The page's elements as the steps find them, with the live recorder armed for what comes and goes. */
function lookBefore(where: EvalTarget, entry: TabEntry): Promise<BeforeLook> {
  return evaluateIn(where, (rt, o) => {
    rt.armLiveRecorder();
    rt.armEffectProbe();
    return { snap: rt.ariaSnapshot(o), scrollY: Math.round(window.scrollY) };
  }, internalOptions(entry), { deadline: Deadline.after(CAPTURE_TIMEOUT_MS), what: 'the before-snapshot' });
}

/**
 * Starts the before-look of the top document as soon as the tab's session exists: sent right
 * behind the domain enables, the page takes it while Chrome still answers them (~4 ms a call).
 * Only for a tab whose steps run in the top document.
 */
export function startBefore(session: CdpSession, entry: TabEntry): Promise<BeforeLook> | undefined {
  if (entry.frame) return undefined;
  const look = lookBefore({ session }, entry);
  look.catch(() => { /* awaited by captureBefore, or not needed: the attach failed */ });
  return look;
}

/**
 * The viewport's elements before the steps run, for the diff — of the frame the steps run in, when
 * one is chosen. `started` is the look startBefore sent during the attach: used when the steps run
 * in the top document and attaching repaired nothing (a crashed tab's reload makes a new document).
 * Undefined when it can't be had.
 */
export async function captureBefore(tab: AttachedTab, started?: Promise<BeforeLook>): Promise<BeforeCapture | undefined> {
  try {
    const early = started && !tab.page.frame && tab.page.attachNotes.length === 0 ? started : undefined;
    const snap = await tab.page.guard(early ?? lookBefore(tab.page.evalTarget(), tab.entry));
    if (!snap.snap.ok) return undefined;
    tab.entry.counters = snap.snap.counters;
    return { entries: diffEntries(viewportOnly(snap.snap.tree)), scrollY: snap.scrollY, ...(tab.page.frame ? { frameId: tab.page.frame.frameId } : {}) };
  } catch {
    return undefined; // no diff then; the command itself is unaffected
  }
}

/**
 * Capture by effect (issue 13, DECISIONS): false when the steps changed nothing on the page since
 * the before-look — no DOM mutation, input, scroll, animation or navigation, measured in the page
 * (injected/effect-probe.ts). Such a command answers like a read-only one. True whenever it can't
 * tell: no before-look, steps in a chosen frame, a new document, a page that does not answer.
 */
export async function changedSinceBefore(tab: AttachedTab, before: BeforeCapture | undefined): Promise<boolean> {
  if (!before || tab.page.frame || tab.page.lifecycle.documentCount > 0) return true;
  try {
    const effects = await tab.page.guard(evaluateInPage(tab.page.session, (rt) => rt.takeEffects(), undefined,
      { deadline: Deadline.after(CAPTURE_TIMEOUT_MS), what: 'the effect probe' }));
    tab.entry.counters = effects.counters;
    return effects.changed;
  } catch {
    return true; // unknown: take the whole capture, as before
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
  context?: unknown;
  navigated?: true;
  screenshot?: string;
  fullSnapshot?: string;
  changes?: unknown;
  viewportSnapshot?: string;
  truncated?: true;
}

export async function captureAfter(
  tab: AttachedTab, opts: { visual: boolean; startUrl: string; before?: BeforeCapture; actions: string[] },
): Promise<AfterCapture> {
  const { page, alias } = tab;
  if (opts.visual && !(await changedSinceBefore(tab, opts.before))) {
    const out = await captureAfter(tab, { ...opts, visual: false });
    return out.context && !out.navigated ? { ...out, changes: NO_EFFECT } : out;
  }
  const pending = opts.visual ? await readyForFirstLook(tab, opts.startUrl) : [];
  const deadline = Deadline.after(CAPTURE_TIMEOUT_MS);
  const snapOpts = opts.visual ? internalOptions(tab.entry) : undefined;
  // The snapshot and diff are of the frame the steps ran in; the context is the tab's.
  const inFrame = page.frame !== undefined;
  const stateP = evaluateInPage(page.session, (rt, o) => ({
    context: rt.pageContext(),
    snapshot: o ? rt.ariaSnapshot(o) : undefined,
    live: o ? rt.takeLiveRecords() : [],
    scrollY: Math.round(window.scrollY),
  }), inFrame ? undefined : snapOpts, { deadline, what: 'the page context' });
  const frameP = inFrame && snapOpts
    ? evaluateIn(page.evalTarget(), (rt, o) => ({ snapshot: rt.ariaSnapshot(o), live: rt.takeLiveRecords(), scrollY: Math.round(window.scrollY) }), snapOpts, { deadline, what: 'the frame snapshot' })
    : undefined;
  const shotP = opts.visual
    ? captureScreenshot(page.session, { path: join(stateDir(), `${alias}.after.png`), format: 'png' }, deadline,
      (fn, arg) => evaluateInPage(page.session, fn, arg, { deadline }))
    : undefined;
  // The tree is rendered, diffed and written while Chrome still encodes the screenshot.
  const shot = shotP && page.guard(shotP);
  shot?.catch(() => { /* a failed screenshot only leaves its field out (SPEC §17.1) */ });
  const [state, framed] = await Promise.allSettled([page.guard(stateP), frameP && page.guard(frameP)]);
  const out = await describe(tab, opts, state.status === 'fulfilled' ? { ...state.value, ...(framed.status === 'fulfilled' && framed.value ? framed.value : {}) } : undefined);
  // The bound ran out: say what the first look may be missing (e.g. "2 custom elements undefined (sl-input)").
  if (pending.length && out.context) out.context = { ...(out.context as object), pending };
  if (shot) {
    try {
      out.screenshot = (await shot).path;
    } catch {
      // Screenshot failure is non-fatal (SPEC §17.1): the field is simply absent.
    }
  }
  return out;
}

interface PageState {
  context: Awaited<ReturnType<PageRuntime['pageContext']>>;
  snapshot?: Awaited<ReturnType<PageRuntime['ariaSnapshot']>>;
  live: string[];
  scrollY: number;
}

/** The answer's fields from the page's state after the steps (undefined: it could not be read). */
async function describe(tab: AttachedTab, opts: { startUrl: string; before?: BeforeCapture; actions: string[] }, state: PageState | undefined): Promise<AfterCapture> {
  const { page, alias } = tab;
  const out: AfterCapture = {};
  if (!state) {
    out.navigated = true; // SPEC §14.3: an unknown URL after the command counts as navigation
    return out;
  }
  const { context, snapshot, live, scrollY: afterScrollY } = state;
  out.context = context;
  const stripHash = (u: string): string => u.split('#')[0]!;
  const navigated = stripHash(context.url) !== stripHash(opts.startUrl) || page.lifecycle.documentCount > 0;
  if (navigated) out.navigated = true;
  if (!snapshot?.ok) return out;
  tab.entry.counters = snapshot.counters;
  const viewTree = viewportOnly(snapshot.tree);
  const fullYaml = renderYaml(snapshot.tree);
  const viewYaml = renderYaml(viewTree);
  try {
    out.fullSnapshot = writeSnapshotFile(`${alias}.after.yaml`, fullYaml);
  } catch {
    // A full disk costs the file, not the answer.
  }
  const diffable = !navigated && opts.before !== undefined && opts.before.frameId === page.frame?.frameId;
  let changes: ViewportChanges | undefined;
  if (diffable) {
    changes = diffViewport(opts.before!.entries, diffEntries(viewTree), opts.actions);
    // Messages that came and went during the command: not in the final snapshot, still news.
    const transient = live.filter((text) => !fullYaml.includes(text.slice(0, 60)));
    if (transient.length) {
      const quoted = transient.map((t) => `"${t}"`).join(', ');
      changes = changes
        ? { ...changes, summary: `${changes.summary} Briefly shown: ${quoted}.`, transient }
        : { summary: `${actionVerb(opts.actions)}. Briefly shown: ${quoted}.`, transient };
    }
  }
  // The screen is sent again only when the agent's picture of it is out of date: a new document or
  // frame, a scroll, elements that came or went (their surroundings may be new text), or more
  // change than `changes` lists. For states and values alone, `changes` says all that moved.
  const showView = !diffable || afterScrollY !== opts.before!.scrollY || isStructuralChange(changes);
  if (changes) {
    // Lines of added elements are in the snapshot when it is sent; the summary keeps their refs.
    if (showView && changes.added) delete changes.added;
    out.changes = changes;
  }
  if (!showView) return out;
  const shown = diffable ? renderYaml(foldUnchanged(viewTree, new Set(opts.before!.entries.map((e) => e.line)))) : viewYaml;
  const inline = headOf(shown, DEFAULT_INLINE_LIMIT);
  if (inline.length < shown.length || snapshot.truncated) out.truncated = true;
  if (inline) out.viewportSnapshot = inline;
  return out;
}

/** Elements appeared or vanished, or more states changed than the diff lists. */
function isStructuralChange(changes: ViewportChanges | undefined): boolean {
  return !!changes && (!!changes.added?.length || !!changes.removed?.length || (changes.changed?.length ?? 0) >= MAX_LISTED);
}
