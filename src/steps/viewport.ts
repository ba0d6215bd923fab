// The viewport step: a device preset or custom metrics, kept with the tab across invocations
// until {"viewport": "reset"} (DECISIONS).

import { patchTab, type ViewportMetrics } from '../cdp/index.js';
import { applyViewport, presetNames, resetViewport, resolvePreset, settleViewport, type Scope } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, obj, optBool, optNumber, ParamError } from './params.js';

type ViewportParams = { reset: true } | { metrics: ViewportMetrics; preset?: string };

const VIEWPORT_PARAMS: ParamSchema = {
  forms: ['"iphone-14"', '"reset"'],
  keys: { width: '', height: '', mobile: '', deviceScaleFactor: '-', hasTouch: '-', isLandscape: '-' },
};

defineStep<ViewportParams>({
  name: 'viewport',
  verb: 'Resized',
  supporting: true,
  summary: 'Emulate a device; stays with the tab',
  params: VIEWPORT_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (v === 'reset') return { reset: true };
    if (typeof v === 'string') {
      const metrics = resolvePreset(v);
      if (!metrics)
        throw new ParamError(
          `unknown device preset ${describe(v)} (known: ${presetNames().join(', ')})`,
          v,
          presetNames(),
        );
      return { metrics, preset: v };
    }
    if (typeof v !== 'object' || v === null)
      throw new ParamError(`viewport must be a preset name, "reset" or {width, height}, got ${describe(v)}`);
    const o = obj(v, keysOf(VIEWPORT_PARAMS), 'viewport');
    const width = optNumber(o, 'width', { min: 1, max: 10_000, integer: true });
    const height = optNumber(o, 'height', { min: 1, max: 10_000, integer: true });
    if (width === undefined || height === undefined) throw new ParamError('viewport needs "width" and "height"');
    const isLandscape = optBool(o, 'isLandscape');
    const mobile = optBool(o, 'mobile') ?? false;
    return {
      metrics: {
        width,
        height,
        deviceScaleFactor: optNumber(o, 'deviceScaleFactor', { min: 0.1, max: 5 }) ?? 1,
        mobile,
        // A phone has a touch screen: touch events, maxTouchPoints, (pointer: coarse) — unless told otherwise.
        hasTouch: optBool(o, 'hasTouch') ?? mobile,
        ...(isLandscape !== undefined ? { isLandscape } : {}),
      },
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    if ('reset' in p) {
      await resetViewport(tab.page.session);
      await patchTab(tab.alias, { viewport: undefined });
      tab.entry.viewport = undefined;
      return { reset: true, ...(await settled(ctx.scope.at(undefined))) };
    }
    await applyViewport(tab.page.session, p.metrics);
    await patchTab(tab.alias, { viewport: p.metrics });
    tab.entry.viewport = p.metrics;
    return { ...(p.preset ? { preset: p.preset } : {}), ...p.metrics, ...(await settled(ctx.scope.at(undefined))) };
  },
});

/** Nothing once the page shows its new size (the answer's context.viewport then is it); else a warning. */
async function settled(top: Scope): Promise<{ warnings?: string[] }> {
  if (await settleViewport(top).catch(() => false)) return {};
  return {
    warnings: ['could not see the page settle at its new size within 1 s: context.viewport may be an older size'],
  };
}
