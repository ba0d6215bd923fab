// The drag step (SPEC §9.6): {source, target, method, steps, delay, timeout, force}, each end a
// ref, a CSS selector, {selector|ref|text, offsetX, offsetY} or {x, y}. The work is dom/drag.ts's.

import { drag, type DragEndSpec, type DragMethod, type DragOptions } from '../dom/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { settledOutput } from './interaction.js';
import { describe, isObj, obj, optEnum, optNumber, ParamError } from './params.js';
import { actionOptions, objectTarget, stringTarget } from './targets.js';

/** DECISIONS: drag steps 10, delay 0. */
const DEFAULT_STEPS = 10;
const MAX_STEPS = 200;
const MAX_DELAY_MS = 1_000;
const END_KEYS = ['selector', 'ref', 'text', 'exact', 'x', 'y', 'offsetX', 'offsetY'] as const;

interface DragParams {
  source: DragEndSpec;
  target: DragEndSpec;
  opts: DragOptions;
}

function readEnd(v: unknown, key: 'source' | 'target'): DragEndSpec {
  if (v === undefined)
    throw new ParamError(
      `drag needs "${key}": "s1e4", a CSS selector, {selector|ref|text, offsetX?, offsetY?} or {x, y}`,
    );
  if (typeof v === 'string') return { target: stringTarget(v, key) };
  if (!isObj(v)) throw new ParamError(`"${key}" must be a ref, a CSS selector or an object, got ${describe(v)}`);
  const o = obj(v, END_KEYS, `drag ${key}`);
  const target = objectTarget(o, `drag ${key}`, ['selector', 'ref', 'text', 'exact', 'x', 'y']);
  const offsetX = optNumber(o, 'offsetX');
  const offsetY = optNumber(o, 'offsetY');
  if (target.by === 'coords' && (offsetX !== undefined || offsetY !== undefined))
    throw new ParamError(`"${key}" has coordinates: offsets go with an element`);
  return { target, ...(offsetX !== undefined ? { offsetX } : {}), ...(offsetY !== undefined ? { offsetY } : {}) };
}

const DRAG_PARAMS: ParamSchema = {
  keys: {
    source: 'T|{x, y}',
    target: 'T|{x, y}',
    method: 'auto|mouse|html5',
    steps: '-',
    delay: '-',
    timeout: '-',
    force: '-',
  },
  returns: '{dragged, method, dropped}',
};

defineStep<DragParams>({
  name: 'drag',
  verb: 'Dragged',
  summary: 'Drag from one element or point to another',
  params: DRAG_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    const o = obj(v, keysOf(DRAG_PARAMS), 'drag');
    const method: DragMethod = optEnum(o, 'method', ['auto', 'mouse', 'html5'] as const) ?? 'auto';
    return {
      source: readEnd(o.source, 'source'),
      target: readEnd(o.target, 'target'),
      opts: {
        ...actionOptions(o),
        method,
        steps: optNumber(o, 'steps', { min: 1, max: MAX_STEPS, integer: true }) ?? DEFAULT_STEPS,
        delayMs: optNumber(o, 'delay', { min: 0, max: MAX_DELAY_MS }) ?? 0,
      },
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const r = await drag(ctx.scope, p.source, p.target, tab.entry, p.opts, ctx.deadline);
    const { warnings, navigated, newUrl, opened, warning, ...rest } = r;
    return {
      ...rest,
      ...(await settledOutput(tab, { ...(navigated ? { navigated, newUrl } : {}), ...(opened ? { opened } : {}) })),
      ...(warnings.length ? { warnings } : {}),
    };
  },
});
