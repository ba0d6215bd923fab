// The screenshot step: viewport, full page, clip or element, in png/jpeg/webp.

import { isAbsolute, join } from 'node:path';
import { stateDir } from '../common/index.js';
import { captureScreenshot, type ImageFormat, type ScreenshotOptions } from '../capture/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { obj, optBool, optEnum, optNumber, optString, ParamError, isObj } from './params.js';

type ScreenshotParams = Omit<ScreenshotOptions, 'path'> & { path?: string };

function readClip(v: unknown): ScreenshotOptions['clip'] {
  if (v === undefined) return undefined;
  if (!isObj(v)) throw new ParamError('"clip" must be {x, y, width, height}');
  const o = obj(v, ['x', 'y', 'width', 'height'], 'clip');
  const read = (k: string, min: number): number => {
    const n = optNumber(o, k, { min });
    if (n === undefined) throw new ParamError(`"clip.${k}" is required`);
    return n;
  };
  return { x: read('x', 0), y: read('y', 0), width: read('width', 1), height: read('height', 1) };
}

const SCREENSHOT_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: { fullPage: '', selector: '', clip: '', format: '', quality: '-', padding: '-', omitBackground: '-', path: '' },
  returns: '{path, width, height}',
};

defineStep<ScreenshotParams>({
  name: 'screenshot',
  summary: 'Capture the page',
  params: SCREENSHOT_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (v === true) return { format: 'png' };
    const o = obj(v, keysOf(SCREENSHOT_PARAMS), 'screenshot');
    const p: ScreenshotParams = {
      format: optEnum(o, 'format', ['png', 'jpeg', 'webp'] as const) ?? 'png',
      fullPage: optBool(o, 'fullPage'),
      selector: optString(o, 'selector'),
      padding: optNumber(o, 'padding', { min: 0, max: 1000 }),
      clip: readClip(o.clip),
      quality: optNumber(o, 'quality', { min: 0, max: 100, integer: true }),
      omitBackground: optBool(o, 'omitBackground'),
      path: optString(o, 'path'),
    };
    if ([p.fullPage, p.selector, p.clip].filter(Boolean).length > 1)
      throw new ParamError('use only one of "fullPage", "selector", "clip"');
    if (p.quality !== undefined && p.format === 'png')
      throw new ParamError('"quality" applies to jpeg and webp, not png');
    return p;
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const ext: ImageFormat = p.format;
    const path = p.path
      ? isAbsolute(p.path)
        ? p.path
        : join(process.cwd(), p.path)
      : join(stateDir(), `${tab.alias}.step${ctx.index}.${ext}`);
    const top = ctx.scope.at(undefined);
    const call = <A, R>(fn: (rt: import('../injected/index.js').PageRuntime, arg: A) => R, arg: A) => top.call(fn, arg);
    return tab.page.guard(captureScreenshot(tab.page.session, { ...p, path }, ctx.deadline, call));
  },
});
