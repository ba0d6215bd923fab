// Drag (SPEC §9.6): both ends resolved and made actionable, then one gesture — a range input set
// from the target's x, a trusted mouse drag that hands any native HTML5 drag to trusted drag
// events, or (only when Chrome cannot start a native drag) synthesized DragEvents — never two.
// The answer says whether the drop had an effect; the gesture itself is drag-gesture.ts's.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import { isContextDestroyed } from '../cdp/index.js';
import type { DragEnd, DragKind, DragReport } from '../injected/index.js';
import type { PageRuntime } from '../injected/index.js';
import { dragGesture, interceptDrags } from './drag-gesture.js';
import { prepareAction, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import type { Point } from './mouse.js';
import { markBeforeAction, settleAfterAction, type ActionMark, type SettleResult } from './settle.js';

export type DragMethod = 'auto' | 'mouse' | 'html5';

/** One end of a drag as the step names it; offsets are from the element's centre. */
export interface DragEndSpec {
  target: TargetSpec;
  offsetX?: number;
  offsetY?: number;
}

export interface DragOptions extends TargetOptions {
  method: DragMethod;
  steps: number;
  delayMs: number;
}

export interface DragResult extends SettleResult {
  dragged: true;
  method: 'mouse' | 'html5' | 'range';
  source: string;
  target: string;
  steps?: number;
  value?: string;
  /** Whether the drop had a visible effect (absent for a range input, where `value` tells). */
  dropped?: boolean;
  /** Untrusted DragEvents were dispatched from page script. */
  synthetic?: true;
  autoForced?: true;
  warnings: string[];
}

interface ResolvedEnd {
  end: DragEnd;
  desc: string;
  /** The element: the one the target names, or the one under the coordinates. */
  handle?: number;
  forced?: string;
}

async function resolveEnd(
  scope: Scope,
  spec: DragEndSpec,
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<ResolvedEnd> {
  if (spec.target.by === 'coords') {
    const { x, y } = spec.target;
    const handle = await scope.call(
      (rt, p) => rt.drag.holdElementAt(p.x, p.y),
      { x, y },
      { deadline, what: `the element at (${x}, ${y})` },
    );
    return { end: { x, y }, desc: `(${x}, ${y})`, ...(handle !== undefined ? { handle } : {}) };
  }
  const a = await prepareAction(scope, spec.target, 'drag', refs, opts, deadline);
  const end: DragEnd = {
    handle: a.handle,
    ...(spec.offsetX !== undefined ? { offsetX: spec.offsetX } : {}),
    ...(spec.offsetY !== undefined ? { offsetY: spec.offsetY } : {}),
  };
  return {
    end,
    desc: a.desc,
    handle: a.handle,
    ...(a.autoForced ? { forced: `auto-forced: ${a.desc} ${a.forcedBecause?.message ?? 'failed its checks'}` } : {}),
  };
}

function inPage<A, R>(
  scope: Scope,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  deadline: Deadline,
  what: string,
): Promise<Awaited<R>> {
  return scope.call(fn, arg, { deadline, what });
}

/** The gesture itself: which way it went, and what it should be judged by. */
async function perform(
  scope: Scope,
  src: ResolvedEnd,
  kind: DragKind,
  from: Point,
  to: Point,
  opts: DragOptions,
  deadline: Deadline,
  warnings: string[],
): Promise<{ method: 'mouse' | 'html5'; synthetic?: true; started?: boolean; intercepted?: boolean }> {
  const synthesize = async (why: string): Promise<{ method: 'html5'; synthetic: true; started: boolean }> => {
    const r = await inPage(
      scope,
      (rt, a) => rt.drag.synthesizeDrag(a.handle, a.from, a.to, a.steps),
      { handle: src.handle!, from, to, steps: opts.steps },
      deadline,
      'the synthesized drag',
    );
    warnings.push(
      `${why}; dispatched synthesized DragEvents (isTrusted false)${r.started ? '' : ', and the page cancelled dragstart'}`,
    );
    return { method: 'html5', synthetic: true, started: r.started };
  };
  const wantsHtml5 = opts.method === 'html5' || kind === 'html5';
  if (opts.method === 'html5' && kind !== 'html5' && src.handle !== undefined)
    return synthesize(`${src.desc} is not draggable, so Chrome starts no native drag from it`);
  const intercept = await interceptDrags(scope.page, true, deadline);
  if (!intercept && wantsHtml5 && src.handle !== undefined)
    return synthesize('this browser cannot hand native drags to CDP (Input.setInterceptDrags)');
  const g = await dragGesture(
    scope.page,
    from,
    to,
    { steps: opts.steps, delayMs: opts.delayMs, intercept, expectNative: kind === 'html5' },
    deadline,
  );
  if (intercept) await interceptDrags(scope.page, false, deadline);
  if (g.native && opts.method === 'mouse')
    warnings.push('the page started a native HTML5 drag; it was finished with trusted drag events');
  return { method: g.native ? 'html5' : 'mouse', intercepted: intercept };
}

/** How long a drop that showed nothing yet is watched for a late re-render (as clicks wait for a reaction). */
const DROP_WAIT_MS = 150;

/** What a drop that navigated away did: plainly something. */
const NAVIGATED: DragReport = { dragstarts: 0, drops: 1, moved: true, targetChanged: true, valueChanged: false };

async function readEffect(scope: Scope, deadline: Deadline): Promise<DragReport> {
  try {
    return await inPage(scope, (rt, ms) => rt.drag.readDragProbe(ms), DROP_WAIT_MS, deadline, 'the effect of the drop');
  } catch (err) {
    if (isContextDestroyed(err)) return NAVIGATED;
    throw err;
  }
}

/** What the page did elsewhere during a mouse drag: a canvas end (pixels only) or DOM changes away from both ends. */
interface Elsewhere {
  canvas: boolean;
  mutations: number;
}

async function elsewhere(scope: Scope, handles: (number | undefined)[], deadline: Deadline): Promise<Elsewhere> {
  const held = handles.filter((h): h is number => h !== undefined);
  const [e, canvas] = await Promise.all([
    inPage(scope, (rt) => rt.effectWatch.readEffects(0), undefined, deadline, 'what the drag changed'),
    inPage(
      scope,
      (rt, hs) => hs.some((h) => rt.locate.heldElement(h)?.localName === 'canvas'),
      held,
      deadline,
      'the ends of the drag',
    ),
  ]);
  return { canvas, mutations: e.mutations };
}

function verdict(
  method: 'mouse' | 'html5',
  intercepted: boolean,
  r: DragReport,
  src: string,
  dst: string,
  warnings: string[],
  away: Elsewhere,
): boolean | undefined {
  if (method === 'html5') {
    if (r.drops === 0)
      warnings.push(
        `no drop event fired: ${dst} did not accept the drop (its dragover handler must call preventDefault)`,
      );
    return r.drops > 0;
  }
  const dropped = r.moved || r.targetChanged || r.valueChanged || r.drops > 0;
  // With interception on, a native drag that started would have come to us: the page cancelled it.
  if (intercepted && r.dragstarts > 0)
    warnings.push('dragstart fired but the page cancelled it, so no native drag started');
  if (dropped) return true;
  // Only a drag that changed nothing anywhere was ignored: a canvas app draws pixels, a calendar
  // re-renders its grid; there "try html5" would drag a second time.
  if (away.canvas) {
    warnings.push(`the drag went to a <canvas>: its effect is pixels, not DOM — check it with a screenshot`);
    return undefined;
  }
  if (away.mutations) {
    warnings.push(
      `${src} did not move and ${dst} did not change, but the page changed elsewhere (${away.mutations} DOM mutations): check the result before dragging again`,
    );
    return undefined;
  }
  warnings.push(
    `nothing changed: ${src} did not move and ${dst} did not change — the page ignored the drag${r.dragstarts ? '' : ' (try "method": "html5")'}`,
  );
  return false;
}

export async function drag(
  scope: Scope,
  source: DragEndSpec,
  target: DragEndSpec,
  refs: RefHolder,
  opts: DragOptions,
  deadline: Deadline,
): Promise<DragResult> {
  const src = await resolveEnd(scope, source, refs, opts, deadline);
  const dst = await resolveEnd(scope, target, refs, opts, deadline);
  const pts = await inPage(
    scope,
    (rt, a) => rt.drag.dragPoints(a.source, a.target),
    { source: src.end, target: dst.end },
    deadline,
    'both ends of the drag',
  );
  if (!pts.ok)
    throw new ExecutionError(`Cannot drag ${src.desc} to ${dst.desc}: ${pts.message}`, { category: 'not-visible' });
  const kind: DragKind =
    src.handle !== undefined
      ? await inPage(scope, (rt, h) => rt.drag.dragSourceKind(h), src.handle, deadline, 'the kind of drag source')
      : 'mouse';
  const d: Drag = {
    src,
    dst,
    from: pts.from,
    to: pts.to,
    kind,
    warnings: [src.forced, dst.forced].filter((w): w is string => !!w),
    mark: markBeforeAction(scope.page),
  };
  // SPEC §9.6: a slider takes the value under the target's x, with input and change events.
  if (kind === 'range' && opts.method === 'auto') return setSlider(scope, d, opts, deadline);
  return dragAndJudge(scope, d, opts, deadline);
}

/** One drag's ends, points, kind, warnings so far and the mark before acting. */
interface Drag {
  src: ResolvedEnd;
  dst: ResolvedEnd;
  from: Point;
  to: Point;
  kind: DragKind;
  warnings: string[];
  mark: ActionMark;
}

/** What every drag answer starts with; a slider is set, not moved through `steps` points: it reports no steps. */
function baseResult(
  d: Drag,
  method: DragResult['method'],
  opts: DragOptions,
): Pick<DragResult, 'dragged' | 'method' | 'source' | 'target' | 'steps' | 'autoForced'> {
  return {
    dragged: true,
    method,
    source: d.src.desc,
    target: d.dst.desc,
    ...(method === 'range' ? {} : { steps: opts.steps }),
    ...(d.src.forced || d.dst.forced ? { autoForced: true as const } : {}),
  };
}

async function setSlider(scope: Scope, d: Drag, opts: DragOptions, deadline: Deadline): Promise<DragResult> {
  const r = await inPage(
    scope,
    (rt, a) => rt.formInput.setRangeAt(a.handle, a.x),
    { handle: d.src.handle!, x: d.to.x },
    deadline,
    'the range value',
  );
  const settled = await settleAfterAction(scope.page, d.mark, deadline);
  if (settled.warning) d.warnings.push(settled.warning);
  return {
    ...baseResult(d, 'range', opts),
    ...(r.value !== undefined ? { value: r.value } : {}),
    ...settled,
    warnings: d.warnings,
  };
}

/** The drag by mouse or HTML5 events, and whether the drop took (what changed where). */
async function dragAndJudge(scope: Scope, d: Drag, opts: DragOptions, deadline: Deadline): Promise<DragResult> {
  const { src, dst, warnings } = d;
  await inPage(
    scope,
    (rt, a) => {
      rt.drag.armDragProbe(a.source, a.target);
      rt.effectWatch.watchEffects(undefined);
    },
    { source: src.handle, target: dst.handle },
    deadline,
    'the drop probe',
  );
  const done = await perform(scope, src, d.kind, d.from, d.to, opts, deadline, warnings);
  const report = await readEffect(scope, deadline);
  const away =
    report === NAVIGATED ? { canvas: false, mutations: 0 } : await elsewhere(scope, [src.handle, dst.handle], deadline);
  const dropped =
    done.synthetic && !done.started
      ? false
      : verdict(done.method, !!done.intercepted, report, src.desc, dst.desc, warnings, away);
  const value =
    d.kind === 'range' && report !== NAVIGATED
      ? await inPage(
          scope,
          (rt, h) => rt.formInput.currentValue(rt.locate.heldElement(h)!),
          src.handle!,
          deadline,
          'the range value',
        )
      : undefined;
  const settled = await settleAfterAction(scope.page, d.mark, deadline);
  if (settled.warning) warnings.push(settled.warning);
  return {
    ...baseResult(d, done.method, opts),
    ...(value !== undefined ? { value } : {}),
    ...(dropped !== undefined ? { dropped } : {}),
    ...(done.synthetic ? { synthetic: true } : {}),
    ...settled,
    warnings,
  };
}
