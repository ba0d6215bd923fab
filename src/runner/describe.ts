// The answer's fields from what the capture read after the steps: the context, whether the command
// navigated, the full snapshot's file, the changes, and the viewport snapshot when `changes` cannot
// stand for the screen. capture.ts does the reading; this decides what of it goes out.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from '../common/index.js';
import {
  foldUnchanged,
  fitTree,
  headWithCount,
  liftWrappers,
  renderYaml,
  viewportOnly,
  writeSnapshotFile,
} from '../aria/index.js';
import { MAX_LINES, tellChanges, type ObservedDiff, type StepVerb, type ViewportChanges } from '../diff/index.js';
import type { AttachedTab } from '../steps/index.js';
import type { PageContext, SnapshotOutcome } from './looks.js';
import { labelSinceLastLook } from './since-last-look.js';

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

/** The page after the steps, as the looks read it. */
export interface PageState {
  context: PageContext;
  snapshot?: SnapshotOutcome;
  live: string[];
  view?: ObservedDiff;
  /** `view` is since the agent's last look, not since the before-look (since-last-look.ts). */
  sinceLastLook?: true;
  /** Nothing but the pointer entering an element happened (asked when the effect probe saw only that). */
  onlyPointer?: true;
  scrollY: number;
}

/** What the diff is against: the before-look, and where it was taken. */
export interface Baseline {
  /** The frame the before-look was taken in. */
  frameId: string;
  scrollY: number;
  /** The frame the agent's picture is of (see BeforeCapture.shownFrameId). */
  shownFrameId: string | undefined;
}

export interface DescribeOptions {
  startUrl: string;
  actions: readonly StepVerb[];
  /** The before-look, when one was taken. */
  baseline?: Baseline;
  /** The frame the steps act in now. */
  frameId: string;
}

const stripHash = (u: string): string => u.split('#')[0]!;

/** The answer's fields from the page's state after the steps (undefined: it could not be read). */
export function describe(tab: AttachedTab, opts: DescribeOptions, state: PageState | undefined): AfterCapture {
  const { page, alias } = tab;
  const out: AfterCapture = {};
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
  const fullYaml = renderYaml(snapshot.tree);
  try {
    // The same page as the file already holds: no path (the file is still the page as it is).
    if (!sameFile(`${alias}.after.yaml`, `${fullYaml}\n`))
      out.fullSnapshot = writeSnapshotFile(`${alias}.after.yaml`, fullYaml);
  } catch {
    // A full disk costs the file, not the answer.
  }
  // A route change in the same document (pushState) is diffed too: its new heading is the news.
  const base = opts.baseline;
  const view = base?.frameId === opts.frameId ? state.view : undefined;
  const changes = view && tellChanges({ diff: view, actions: opts.actions, live, shownNow: fullYaml });
  if (changes && state.sinceLastLook) labelSinceLastLook(changes);
  if (changes) out.changes = changes;
  // The screen is sent again only when the agent's picture of it is out of date and `changes`
  // cannot stand for it: a new document or frame, a scroll, or isStructuralChange.
  const showView =
    !view || base!.shownFrameId !== base!.frameId || afterScrollY !== base!.scrollY || isStructuralChange(view);
  if (showView) showViewport(out, snapshot, view, changes);
  return out;
}

/** The viewport's part of the snapshot, inline, with what `changes` already says folded away. */
function showViewport(
  out: AfterCapture,
  snapshot: Extract<SnapshotOutcome, { ok: true }>,
  view: ObservedDiff | undefined,
  changes: ViewportChanges | undefined,
): void {
  const viewTree = viewportOnly(snapshot.tree);
  const folded = view ? foldUnchanged(viewTree, new Set(view.unchanged)) : viewTree;
  // A huge widget on screen costs ~4 KB: long runs cut with counts, the rest in fullSnapshot.
  const { text: inline, cut } = headWithCount(renderYaml(fitTree(liftWrappers(folded))));
  if (cut || snapshot.truncated) out.truncated = true;
  if (inline) out.viewportSnapshot = inline;
  if (inline && changes) dropShownEntries(changes);
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
