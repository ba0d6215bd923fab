// The scroll step (SPEC §9.7): "top" | "bottom" | an element | {deltaX, deltaY} | {x, y}, of the
// page or of a scrollable container → the final {scrollX, scrollY} of what moved.

import { scrollPage, scrollTo, type ScrollMove, type TargetSpec } from '../dom/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optNumber, ParamError } from './params.js';
import { actionOptions, objectTarget, stringTarget } from './targets.js';

type ScrollParams =
  | { kind: 'element'; target: TargetSpec; opts: ReturnType<typeof actionOptions> }
  | { kind: 'move'; move: ScrollMove; container?: TargetSpec; opts: ReturnType<typeof actionOptions> };

const SCROLL_PARAMS: ParamSchema = {
  forms: ['"top"', '"bottom"', 'T'],
  keys: {
    deltaY: '',
    deltaX: '-',
    x: '',
    y: '',
    to: '-',
    container: '',
    selector: '-',
    ref: '-',
    text: '-',
    timeout: '-',
  },
  returns: '{scrollX, scrollY, loaded|end}',
};

defineStep<ScrollParams>({
  name: 'scroll',
  verb: 'Scrolled',
  summary: 'Scroll the page, a container, or an element into view',
  params: SCROLL_PARAMS,
  target: { keys: ['selector', 'ref', 'text'], string: true },
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (v === 'top' || v === 'bottom') return { kind: 'move', move: { to: v }, opts: {} };
    if (typeof v === 'string') return { kind: 'element', target: stringTarget(v, 'scroll'), opts: {} };
    if (!isObj(v))
      throw new ParamError(`scroll takes "top", "bottom", a selector or ref, or an object; got ${describe(v)}`);
    const o = obj(v, keysOf(SCROLL_PARAMS), 'scroll');
    const opts = actionOptions(o);
    if (o.selector !== undefined || o.ref !== undefined || o.text !== undefined) {
      return { kind: 'element', target: objectTarget(o, 'scroll', ['selector', 'ref', 'text']), opts };
    }
    const container =
      o.container === undefined
        ? undefined
        : typeof o.container === 'string'
          ? stringTarget(o.container, 'container')
          : undefined;
    if (o.container !== undefined && !container)
      throw new ParamError(`"container" must be a selector or ref, got ${describe(o.container)}`);
    if (o.to !== undefined) {
      if (o.to !== 'top' && o.to !== 'bottom')
        throw new ParamError(`"to" must be "top" or "bottom", got ${describe(o.to)}`);
      return { kind: 'move', move: { to: o.to }, ...(container ? { container } : {}), opts };
    }
    const dx = optNumber(o, 'deltaX');
    const dy = optNumber(o, 'deltaY');
    if (dx !== undefined || dy !== undefined) {
      if (o.x !== undefined || o.y !== undefined)
        throw new ParamError('give deltaX/deltaY (relative) or x/y (absolute), not both');
      return { kind: 'move', move: { by: { x: dx ?? 0, y: dy ?? 0 } }, ...(container ? { container } : {}), opts };
    }
    const x = optNumber(o, 'x', { min: 0 });
    const y = optNumber(o, 'y', { min: 0 });
    if (x === undefined && y === undefined)
      throw new ParamError('scroll needs "top", "bottom", an element, {deltaY} or {x, y}');
    return {
      kind: 'move',
      move: { at: { ...(x !== undefined ? { x } : {}), ...(y !== undefined ? { y } : {}) } },
      ...(container ? { container } : {}),
      opts,
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    if (p.kind === 'element') return scrollTo(ctx.scope, p.target, tab.entry, p.opts, ctx.deadline);
    return scrollPage(ctx.scope, p.move, p.container, tab.entry, p.opts, ctx.deadline);
  },
});
