// The frame step (SPEC §13.1–13.2): list the frames, or choose the one later steps run in — kept
// for the tab across calls until {"frame": "top"} or a new top document (SPEC §19.12). A selector
// is looked for in the whole frame tree; a path of selectors reaches a frame level by level.

import { chooseFrame, type FrameChoice } from '../dom/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, optNumber, optString, ParamError } from './params.js';
import { REF_PATTERN, stringTarget } from './targets.js';

type FrameParams = { list: true } | { top: true } | FrameChoice;

/** Levels a frame path may go down (a page nests frames a few deep at most). */
const MAX_PATH = 10;

const FRAME_PARAMS: ParamSchema = {
  forms: ['"iframe css"', '[css…]', 'index', '"top"'],
  keys: { list: 'true', name: '', path: '-', frameId: '-', selector: '-', ref: '-', index: '-', top: '-' },
  note: 'steps run inside',
};

/** A frame path: the <iframe> selectors from here down, one per level (docs/frames.md). */
function readPath(v: unknown): { path: string[] } {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_PATH)
    throw new ParamError(
      `a frame path is a list of 1 to ${MAX_PATH} <iframe> selectors, outermost first, got ${describe(v)}`,
    );
  const path = v.map((s, i) => {
    if (typeof s !== 'string' || !s.trim())
      throw new ParamError(`frame path entry ${i} must be a CSS selector of an <iframe>, got ${describe(s)}`);
    if (REF_PATTERN.test(s.trim()))
      throw new ParamError(
        `frame path entry ${i} is a ref ("${s.trim()}"): a path holds CSS selectors, one per level; choose by ref with {"frame": "${s.trim()}"}`,
      );
    return s.trim();
  });
  return { path };
}

defineStep<FrameParams>({
  name: 'frame',
  summary: 'Choose the frame later steps run in',
  params: FRAME_PARAMS,
  target: { keys: ['selector', 'ref'], string: true },
  remedyFor: { frame: () => ({ list: true }) },
  needsTab: true,
  readOnly: false,
  choosesFrame: true,
  parse(v) {
    if (v === 'top') return { top: true };
    if (typeof v === 'string') return { target: stringTarget(v, 'frame') };
    if (Array.isArray(v)) return readPath(v);
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || v < 0) throw new ParamError(`a frame index must be a whole number ≥ 0, got ${v}`);
      return { index: v };
    }
    if (!isObj(v))
      throw new ParamError(
        `frame takes "top", an iframe selector, a path of them, an index or an object; got ${describe(v)}`,
      );
    const o = obj(v, keysOf(FRAME_PARAMS), 'frame');
    const forms = ['list', 'top', 'selector', 'ref', 'path', 'index', 'name', 'frameId'].filter(
      (k) => o[k] !== undefined,
    );
    if (forms.length !== 1)
      throw new ParamError(
        'frame needs exactly one of "list", "top", "selector", "ref", "path", "index", "name", "frameId"',
      );
    if (o.path !== undefined) return readPath(o.path);
    if (o.list !== undefined) {
      if (optBool(o, 'list') !== true) throw new ParamError('"list" must be true');
      return { list: true };
    }
    if (o.top !== undefined) {
      if (optBool(o, 'top') !== true) throw new ParamError('"top" must be true');
      return { top: true };
    }
    if (o.index !== undefined) return { index: optNumber(o, 'index', { min: 0, integer: true })! };
    if (o.name !== undefined) return { name: optString(o, 'name')! };
    if (o.frameId !== undefined) return { frameId: optString(o, 'frameId')! };
    return {
      target: stringTarget(
        optString(o, 'selector') ?? optString(o, 'ref')!,
        o.selector !== undefined ? 'selector' : 'ref',
      ),
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { page } = tab;
    if ('list' in p) {
      const frames = await page.guard(page.frames.list(ctx.deadline));
      return {
        mainFrameId: frames[0]!.frameId,
        currentFrameId: ctx.scope.frame?.frameId ?? frames[0]!.frameId,
        frames,
      };
    }
    if ('top' in p) {
      page.chooseFrame(undefined);
      tab.entry.frame = undefined;
      return { frameId: page.lifecycle.mainFrameId, url: page.lifecycle.url, top: true };
    }
    const { target, foundIn } = await chooseFrame(ctx.scope, p, tab.entry, ctx.deadline);
    page.chooseFrame(target);
    tab.entry.frame = { frameId: target.frameId, url: target.url };
    return {
      frameId: target.frameId,
      url: target.url,
      ...(target.crossOrigin ? { crossOrigin: true } : {}),
      // The <iframe> was not in the current document: say where the search found it.
      ...(foundIn ? { foundIn } : {}),
    };
  },
});
