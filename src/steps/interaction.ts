// Pointer steps: click (SPEC §9.1) and hover (SPEC §9.5). Tabs a click opens are registered so the
// agent can use their alias at once.

import { ElementNotFoundError } from '../common/index.js';
import {
  click,
  clickCoordinates,
  DEFAULT_ACTION_TIMEOUT_MS,
  describeTarget,
  findFrameWith,
  hover,
  moveMouse,
  type ClickOptions,
  type TargetSpec,
} from '../dom/index.js';
import { clickTextInEditor } from './click-in-editor.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, optNumber, ParamError } from './params.js';
import { actionOptions, objectTarget, stringTarget, TARGET_KEYS } from './targets.js';
import { mayOpenTab, readPointerPress } from './click-press.js';
import { pageTargetIds, settledOutput } from './opened-tabs.js';

export { registerOpenedTabs, settledOutput, type NewTab } from './opened-tabs.js';

// ── click ──────────────────────────────────────────────────────────────────────────────────
interface ClickParams {
  target: TargetSpec;
  opts: ClickOptions;
  /** SPEC §13.3: look in every frame when the element is not in the current one. */
  searchFrames?: true;
  waitAfter?: { timeoutMs: number; quietMs: number };
}

function readScrollSearch(v: unknown): ClickOptions['scrollUntilVisible'] {
  if (v === undefined || v === false) return undefined;
  if (v === true) return { direction: 'down', maxAttempts: 20 };
  const o = obj(v, ['direction', 'distance', 'maxAttempts'], 'scrollUntilVisible');
  const direction = o.direction === undefined ? 'down' : o.direction;
  if (direction !== 'down' && direction !== 'up')
    throw new ParamError(`"direction" must be down or up, got ${describe(direction)}`);
  const distance = optNumber(o, 'distance', { min: 1 });
  return {
    direction,
    ...(distance ? { distance } : {}),
    maxAttempts: optNumber(o, 'maxAttempts', { min: 1, max: 200, integer: true }) ?? 20,
  };
}

function readWaitAfter(v: unknown): ClickParams['waitAfter'] {
  if (v === undefined || v === false) return undefined;
  if (v === true) return { timeoutMs: 2_000, quietMs: 100 };
  const o = obj(v, ['timeout', 'stableTime'], 'waitAfter');
  return {
    timeoutMs: optNumber(o, 'timeout', { min: 0, max: 60_000 }) ?? 2_000,
    quietMs: optNumber(o, 'stableTime', { min: 0, max: 10_000 }) ?? 100,
  };
}

const CLICK_PARAMS: ParamSchema = {
  forms: ['T'],
  keys: {
    selector: '',
    ref: '',
    text: '',
    exact: '',
    withinSelector: '',
    selectors: '[…]',
    x: '',
    y: '',
    button: 'right|middle',
    modifiers: '[…]',
    clickCount: '',
    doubleClick: '-',
    force: '',
    jsClick: '-',
    nativeOnly: '-',
    scrollUntilVisible: '-',
    searchFrames: '-',
    waitAfter: '-',
    timeout: '-',
    stable: '-',
  },
  returns: '{clicked, target, method, newTabs, checked}',
};

defineStep<ClickParams>({
  name: 'click',
  verb: 'Clicked',
  summary: 'Click an element or a point',
  params: CLICK_PARAMS,
  target: {
    keys: ['selector', 'ref', 'text', 'selectors', 'x', 'y', 'exact', 'withinSelector'],
    string: true,
    byWords: 'text',
    pointer: true,
  },
  remedyFor: { dismiss: (t) => t.ref, 'field:checkbox': (t) => t, 'field:radio': (t) => t },
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (typeof v === 'string') return { target: stringTarget(v, 'click'), opts: {} };
    if (!isObj(v)) throw new ParamError(`click takes "s1e4", a CSS selector or an object, got ${describe(v)}`);
    const o = obj(v, keysOf(CLICK_PARAMS), 'click');
    const target = objectTarget(
      o,
      'click',
      TARGET_KEYS.filter((k) => k !== 'label'),
    );
    const opts: ClickOptions = {
      ...actionOptions(o),
      ...(optBool(o, 'jsClick') ? { jsClick: true } : {}),
      ...(optBool(o, 'nativeOnly') ? { nativeOnly: true } : {}),
      ...readPointerPress(o),
    };
    if (opts.jsClick && opts.nativeOnly) throw new ParamError('"jsClick" and "nativeOnly" contradict each other');
    const scroll = readScrollSearch(o.scrollUntilVisible);
    if (scroll) opts.scrollUntilVisible = scroll;
    const waitAfter = readWaitAfter(o.waitAfter);
    const searchFrames = optBool(o, 'searchFrames');
    if (searchFrames && target.by === 'coords')
      throw new ParamError('"searchFrames" needs an element target, not coordinates');
    return {
      target,
      opts,
      ...(waitAfter ? { waitAfter } : {}),
      ...(searchFrames ? { searchFrames: true as const } : {}),
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { page } = tab;
    // A Control+click or middle click opens a tab with no opener: told by the targets it adds.
    const before = mayOpenTab(p.opts) ? await pageTargetIds(tab) : undefined;
    if (p.target.by === 'coords') {
      const s = await clickCoordinates(page, p.target, p.opts, ctx.deadline);
      return { clicked: true, method: 'cdp', ...(await settledOutput(tab, s, before && { before })) };
    }
    // Text that shows only in a code editor: the caret goes there, as a person's click puts it.
    const inEditor = p.searchFrames || p.opts.jsClick ? undefined : await clickTextInEditor(ctx, tab, p.target);
    if (inEditor) return inEditor;
    let inFrame: { frameId: string; url: string } | undefined;
    // The click runs where the search found the target; later steps still run in the tab's frame.
    let where = ctx.scope;
    if (p.searchFrames) {
      const found = await findFrameWith(
        ctx.scope,
        p.target,
        tab.entry,
        p.opts.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS,
        ctx.deadline,
      );
      if (!found)
        throw new ElementNotFoundError(`No element matches ${describeTarget(p.target)} in any frame`, {
          target: { by: p.target.by },
          category: 'selector-not-found',
        });
      if (found.scope.frameId !== ctx.scope.frameId) inFrame = { frameId: found.scope.frameId, url: found.scope.url };
      where = found.scope;
    }
    const r = await click(where, p.target, tab.entry, p.opts, ctx.deadline);
    if (p.waitAfter) {
      const w = p.waitAfter;
      await ctx.scope
        .call((rt, a) => rt.waitCondition.waitForDomQuiet(a.quietMs, a.timeoutMs), w, {
          deadline: ctx.deadline.cap(w.timeoutMs + 1_000),
          what: 'the page to settle after the click',
        })
        .catch(() => {
          /* waitAfter is best effort: a page that keeps changing is reported by the diff */
        });
    }
    return {
      clicked: true,
      target: r.target,
      method: r.method,
      ...(r.fallback ? { fallback: r.fallback } : {}),
      ...(r.effect ? { effect: r.effect } : {}),
      ...(r.cdpAttempted ? { cdpAttempted: true } : {}),
      ...(await settledOutput(tab, r, before && { before, ...(r.link ? { link: r.link } : {}) })),
      ...(r.reResolved ? { reResolved: true } : {}),
      ...(r.autoForced ? { autoForced: true } : {}),
      ...(r.targetReceived !== undefined ? { targetReceived: r.targetReceived } : {}),
      ...(r.selectorIndex !== undefined ? { selectorIndex: r.selectorIndex } : {}),
      ...(r.viaLabel ? { viaLabel: true } : {}),
      ...(r.checked !== undefined ? { checked: r.checked } : {}),
      ...(r.pressed !== undefined ? { pressed: r.pressed } : {}),
      ...(r.selected !== undefined ? { selected: r.selected } : {}),
      ...(r.expanded !== undefined ? { expanded: r.expanded } : {}),
      ...(inFrame ? { frame: inFrame } : {}),
      ...(r.warnings.length ? { warnings: r.warnings } : {}),
    };
  },
});

// ── hover ──────────────────────────────────────────────────────────────────────────────────
interface HoverParams {
  target: TargetSpec;
  opts: ClickOptions & { durationMs?: number; captureResult?: boolean };
}

const HOVER_PARAMS: ParamSchema = {
  forms: ['T'],
  keys: {
    selector: '',
    ref: '',
    text: '',
    exact: '',
    withinSelector: '',
    x: '',
    y: '',
    duration: '-',
    captureResult: '',
    force: '-',
    timeout: '-',
    stable: '-',
  },
};

defineStep<HoverParams>({
  name: 'hover',
  verb: 'Hovered',
  summary: 'Hover an element or a point',
  params: HOVER_PARAMS,
  target: {
    keys: ['selector', 'ref', 'text', 'x', 'y', 'exact', 'withinSelector'],
    string: true,
    byWords: 'text',
    pointer: true,
  },
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (typeof v === 'string') return { target: stringTarget(v, 'hover'), opts: {} };
    const o = obj(v, keysOf(HOVER_PARAMS), 'hover');
    const durationMs = optNumber(o, 'duration', { min: 0, max: 60_000 });
    return {
      target: objectTarget(
        o,
        'hover',
        TARGET_KEYS.filter((k) => k !== 'label' && k !== 'selectors'),
      ),
      opts: {
        ...actionOptions(o),
        ...(durationMs !== undefined ? { durationMs } : {}),
        ...(optBool(o, 'captureResult') ? { captureResult: true } : {}),
      },
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    if (p.target.by === 'coords') {
      await moveMouse(tab.page, p.target, ctx.deadline, { steps: 3 });
      if (p.opts.durationMs) await ctx.deadline.sleep(p.opts.durationMs);
      return { hovered: true };
    }
    const r = await hover(ctx.scope, p.target, tab.entry, p.opts, ctx.deadline);
    const { warnings, ...rest } = r;
    return { ...rest, ...(warnings.length ? { warnings } : {}) };
  },
});
