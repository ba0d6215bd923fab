// What follows a command: the page context always; after a visual command also the screenshot,
// the viewport snapshot (inline, last in the answer), the full snapshot (a file) and the diff
// against the page as it was before the steps ran. The documents diffed are looks (looks.ts): the
// scope the steps act in and the out-of-process frames seen from the top, each armed before the
// steps and read after them. One page evaluation per look; the screenshot is taken alongside.
// Every piece is best-effort and bounded; the answer's fields are describe.ts's.

import { join } from 'node:path';
import { Deadline, stateDir } from '../common/index.js';
import { captureScreenshot } from '../capture/index.js';
import { waitPageReady, type Scope } from '../page/index.js';
import type { TabEntry } from '../cdp/index.js';
import { fillFrameSlots, hasFrameSlots } from '../aria/index.js';
import { NO_VISIBLE_CHANGE, type StepVerb } from '../diff/index.js';
import { POINTER_ONLY } from '../shared/index.js';
import type { SnapshotOptions } from '../injected/index.js';
import type { AttachedTab } from '../steps/index.js';
import { contextToSend } from './context-delta.js';
import { describe, type AfterCapture, type DescribeOptions, type PageState } from './describe.js';
import type { BeforeCapture } from './capture-before.js';
import { CAPTURE_TIMEOUT_MS, joinViews, read, type Look, type Read, type ReadAsk, type ViewSettle } from './looks.js';
import { settleRequests } from './settle-view.js';
import { NO_CHANGE_WHILE_WAITING, NOTHING_SINCE_LAST_LOOK, onlyWaited } from './since-last-look.js';

export type { AfterCapture } from './describe.js';
export type { BeforeCapture } from './capture-before.js';
export { captureBefore, lookAgain, startBefore } from './capture-before.js';

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

/** What the effect probe says, and the page's context with it when nothing changed (no second look needed). */
interface EffectLook {
  changed: boolean;
  /** The first effect seen; POINTER_ONLY when the pointer entering an element is all so far. */
  why?: string;
  counters?: TabEntry['counters'];
  context?: PageState['context'];
  scrollY?: number;
  /** Whether the DOM changed since the agent's last look (undefined: the document keeps none). */
  sinceLastLook?: boolean;
}

/**
 * Capture by effect (issue 13, DECISIONS): unchanged when the steps changed nothing on the page since
 * the before-look — no DOM mutation, input, scroll, animation or navigation, measured in the page
 * (injected/effect-probe.ts). Such a command answers like a read-only one, and the same evaluation
 * reads the page's context for that answer: one round trip instead of two. The probe is the top
 * document's: it stands for the looks only when they are the top's alone and the steps still act
 * there; changed whenever it can't tell (a new document, a page that does not answer).
 */
async function effectsSinceBefore(scope: Scope, before: BeforeCapture | undefined): Promise<EffectLook> {
  const onlyTop = before?.looks.length === 1 && !before.looks[0]!.scope.frame && !scope.frame;
  if (!onlyTop || scope.page.lifecycle.documentCount > 0) return { changed: true };
  try {
    const look = await scope.call(
      async (rt) => {
        const effects = await rt.effectProbe.takeEffects();
        const sinceLastLook = rt.lastLook.lastLookChanged();
        return effects.changed
          ? { effects, sinceLastLook }
          : { effects, sinceLastLook, context: rt.pageContext.pageContext(), scrollY: Math.round(window.scrollY) };
      },
      undefined,
      { what: 'the effect probe' },
    );
    return {
      changed: look.effects.changed,
      why: look.effects.why,
      counters: look.effects.counters,
      context: look.context,
      scrollY: look.scrollY,
      sinceLastLook: look.sinceLastLook,
    };
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

type CaptureOptions = {
  visual: boolean;
  startUrl: string;
  before?: BeforeCapture;
  actions: readonly StepVerb[];
  /** The whole context, not what changed: the command opened or connected its tab. */
  whole?: boolean;
  /** The effect probe saw only the pointer entering an element (a CSS :hover may show something). */
  pointerOnly?: boolean;
};

/**
 * The page after the steps. `context` gives only what changed since the tab's previous answer
 * (context-delta.ts): whole on a tab's first answer and after a navigation.
 */
export async function captureAfter(tab: AttachedTab, opts: CaptureOptions): Promise<AfterCapture> {
  const probed = opts.visual ? await unchangedAnswer(tab, opts) : undefined;
  const out = probed?.answer ?? (await captureFull(tab, { ...opts, pointerOnly: probed?.pointerOnly }));
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

/**
 * The answer when the effect probe says the steps changed nothing: as a read-only command's, and
 * "nothing changed". Else no answer, and whether the pointer entering an element is all it saw.
 */
async function unchangedAnswer(
  tab: AttachedTab,
  opts: CaptureOptions,
): Promise<{ answer?: AfterCapture; pointerOnly?: boolean }> {
  const scope = tab.page.scope(Deadline.after(CAPTURE_TIMEOUT_MS));
  const look = await effectsSinceBefore(scope, opts.before);
  if (look.counters) tab.entry.counters = look.counters;
  const waited = onlyWaited(opts.actions);
  // Something came since the agent's last look: the full capture tells it (since-last-look.ts).
  if (look.changed || (waited && look.sinceLastLook)) return { pointerOnly: look.why === POINTER_ONLY };
  // Described as a read-only command's capture would describe it (the context, read alongside the probe).
  const out = look.context
    ? describe(tab, describeOptions(opts, scope), { context: look.context, live: [], scrollY: look.scrollY ?? 0 })
    : await captureFull(tab, { ...opts, visual: false });
  // Steps that only wait (poll, wait) are what an agent runs to learn whether something came.
  const waitedAnswer = look.sinceLastLook === false ? NOTHING_SINCE_LAST_LOOK : NO_CHANGE_WHILE_WAITING;
  return { answer: out.context && !out.navigated ? { ...out, changes: waited ? waitedAnswer : NO_EFFECT } : out };
}

/** What describe needs of the options: the diff's baseline (the steps' own look) and where the steps act now. */
function describeOptions(opts: CaptureOptions, scope: Scope): DescribeOptions {
  const steps = opts.before?.looks[0];
  return {
    startUrl: opts.startUrl,
    actions: opts.actions,
    frameId: scope.frameId,
    ...(steps && opts.before
      ? {
          baseline: {
            frameId: steps.scope.frameId,
            scrollY: opts.before.scrollY,
            shownFrameId: opts.before.shownFrameId,
          },
        }
      : {}),
  };
}

/** What the steps' own look asks beside its snapshot and changes (ReadAsk). */
type StepsAsk = Pick<ReadAsk, 'settle' | 'sinceLastLook' | 'pointerOnly'>;

/** The looks to read after the steps, each with what it reads; the first reads the steps' own scope. */
function looksAfter(
  scope: Scope,
  before: BeforeCapture | undefined,
  snapshot?: SnapshotOptions,
  own: StepsAsk = {},
): [Look, ReadAsk][] {
  const top = scope.at(undefined);
  // A read-only command: the tab's context alone.
  if (!snapshot) return [[{ scope: top }, { context: true, view: false }]];
  const steps: [Look, ReadAsk] = [{ scope }, { context: !scope.frame, snapshot, view: true, ...own }];
  // Inside a chosen frame its own changes are the answer, with the top's outside frames (Look.outside); the context is the tab's.
  if (scope.frame) {
    const outside = before?.looks.find((l) => l.outside);
    const look = outside ? { ...outside, scope: outside.scope.within(scope.deadline) } : { scope: top };
    return [steps, [look, { context: true, view: !!outside }]];
  }
  const frames = (before?.looks.slice(1).filter((l) => !l.outside) ?? []).map((l): [Look, ReadAsk] => [
    { ...l, scope: l.scope.within(scope.deadline) },
    { context: false, view: true },
  ]);
  return [steps, ...frames];
}

/**
 * Reads every look (one loop): the steps' scope's snapshot and changes, the tab's context, each
 * frame's changes joined under its name. Undefined state when the context could not be read; the
 * failure of the look that holds the snapshot, said in `unread`.
 */
async function readLooks(
  tab: AttachedTab,
  scope: Scope,
  before: BeforeCapture | undefined,
  snapshot: SnapshotOptions | undefined,
  own?: StepsAsk,
): Promise<{ page?: PageState; unread?: string }> {
  const plan = looksAfter(scope, before, snapshot, own);
  const reads = await Promise.allSettled(plan.map(([look, ask]) => read(look, ask, tab.entry)));
  const got = (r: PromiseSettledResult<Read>): Read | undefined => (r.status === 'fulfilled' ? r.value : undefined);
  const withContext = reads[plan.findIndex(([, ask]) => ask.context)]!;
  if (withContext.status === 'rejected')
    return {
      unread: `The page could not be read after the steps (${errorText(withContext.reason)}): no context, snapshot or changes this time`,
    };
  const steps = got(reads[0]!);
  const page: PageState = {
    ...withContext.value,
    ...steps,
    context: withContext.value.context!,
    view: joinViews(reads.map((r, i) => (plan[i]![1].view ? got(r)?.view : undefined))),
  };
  const failed = reads[0]!.status === 'rejected' ? (reads[0] as PromiseRejectedResult).reason : undefined;
  return {
    page,
    ...(failed !== undefined
      ? {
          unread: `The frame could not be read after the steps (${errorText(failed)}): no snapshot or changes of it this time`,
        }
      : {}),
  };
}

/** Cross-origin frames' content under their frames in the snapshot, with refs an action routes there (aria/frames.ts). */
async function fillFrames(tab: AttachedTab, scope: Scope, page: PageState | undefined, opts: SnapshotOptions) {
  const snap = page?.snapshot;
  if (!snap?.ok || !hasFrameSlots(snap.tree)) return;
  try {
    const framed = await fillFrameSlots(scope, snap.tree, { ...opts, counters: snap.counters }, tab.entry);
    snap.tree = framed.tree;
    if (framed.counters) snap.counters = framed.counters;
  } catch {
    // Best effort: the frames' slots are left out, the page's own snapshot stands.
  }
}

/** The screenshot after a visual command, started alongside the looks (its failure only leaves its field out, SPEC §17.1). */
function startScreenshot(tab: AttachedTab, top: Scope): Promise<{ path: string }> {
  const shot = tab.page.guard(
    captureScreenshot(
      tab.page.session,
      { path: join(stateDir(), `${tab.alias}.after.png`), format: 'png' },
      top.deadline,
      (fn, arg) => top.call(fn, arg),
    ),
  );
  shot.catch(() => {
    /* awaited below; a failure is told there */
  });
  return shot;
}

async function captureFull(tab: AttachedTab, opts: CaptureOptions): Promise<AfterCapture> {
  const pending = opts.visual ? await readyForFirstLook(tab, opts.startUrl) : [];
  // The snapshot and diff are of the scope the steps act in; the context is the tab's.
  const scope = tab.page.scope(Deadline.after(CAPTURE_TIMEOUT_MS));
  const snapshot = opts.visual ? internalOptions(tab.entry) : undefined;
  const settled = opts.visual && opts.before ? await settle(scope, opts.before) : {};
  // Work the steps started that the bound did not cover is said with what the first look may miss.
  if (settled.pending) pending.push(settled.pending);
  const pointerOnly = opts.visual && opts.pointerOnly === true;
  const looked = readLooks(tab, scope, opts.before, snapshot, {
    ...(settled.view ? { settle: settled.view } : {}),
    sinceLastLook: onlyWaited(opts.actions),
    ...(pointerOnly ? { pointerOnly } : {}),
  });
  // The tree is rendered, diffed and written while Chrome still encodes the screenshot; after the
  // pointer alone moved, the look first says whether there is anything to picture.
  let shot = opts.visual && !pointerOnly ? startScreenshot(tab, scope.at(undefined)) : undefined;
  const { page, unread } = await looked;
  if (snapshot) await fillFrames(tab, scope, page, snapshot);
  const out = describe(tab, describeOptions(opts, scope), page);
  if (pointerOnly && !(page?.onlyPointer && shownUnchanged(out))) shot = startScreenshot(tab, scope.at(undefined));
  // An answer without the page's context, snapshot or diff says why they are missing (a huge page,
  // a busy renderer or machine), rather than looking like a page with nothing to show.
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

/**
 * The answer says nothing visible changed. After the pointer alone moved (DOM and all else untouched,
 * and no :hover rule styles an element it entered or left: injected/hover-style.ts) such an answer
 * goes without a screenshot: there is nothing new to picture (DECISIONS, capture by effect).
 */
function shownUnchanged(out: AfterCapture): boolean {
  return !out.navigated && (out.changes as { summary?: string } | undefined)?.summary === NO_VISIBLE_CHANGE;
}

const errorText = (err: unknown): string => ((err as Error)?.message || String(err)).slice(0, 200);

/**
 * Lets what the steps set going finish before the after-look: requests they started, then
 * animations and re-renders in the page (settle-view.ts: bounded, within the capture deadline). When
 * the steps' own look is the only one (the common case), the page settles in that look's own
 * evaluation (one round trip fewer): the view settle is returned for it; else it is waited here.
 */
async function settle(scope: Scope, before: BeforeCapture): Promise<{ view?: ViewSettle; pending?: string }> {
  let pending: string | undefined;
  try {
    const { view, workPending } = await settleRequests(scope, before.networkMark);
    pending = workPending;
    if (!scope.frame && before.looks.length <= 1) return { view, pending };
    await scope.call((rt, a) => rt.viewSettle.viewSettle(a.maxMs, a.quietMs), view, { what: 'the page to settle' });
  } catch {
    // Best effort: an unsettled page is still looked at, as it is.
  }
  return { pending };
}
