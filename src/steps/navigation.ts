// Navigation steps: goto, back, forward, reload (DECISIONS: shapes and results).

import { goHistory, navigate, navigatesInPlace, reload, type WaitUntil } from '../page/index.js';
import { defineStep } from './registry.js';
import { navigableUrl, obj, optBool, optEnum, reqString, describe, ParamError } from './params.js';

const WAIT_UNTIL = ['commit', 'domcontentloaded', 'load', 'networkidle'] as const;

defineStep<{ url: string; waitUntil: WaitUntil }>({
  name: 'goto',
  summary: 'Navigate: "url" | {url, waitUntil: commit|domcontentloaded|load|networkidle}',
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (typeof v === 'string') return { url: navigableUrl(v, 'goto'), waitUntil: 'load' };
    const o = obj(v, ['url', 'waitUntil'], 'goto');
    return { url: navigableUrl(reqString(o, 'url'), 'url'), waitUntil: optEnum(o, 'waitUntil', WAIT_UNTIL) ?? 'load' };
  },
  replacesDocument: (p, currentUrl) => !navigatesInPlace(currentUrl, p.url),
  run: (ctx, p) => navigate(ctx.command.requireTab().page, p.url, p.waitUntil, ctx.deadline),
});

function parseHistory(name: string, extra: string[] = []) {
  return (v: unknown): { waitUntil: WaitUntil; ignoreCache: boolean } => {
    if (v === true) return { waitUntil: 'load', ignoreCache: false };
    if (v === false || v === undefined) throw new ParamError(`${name} takes true or {waitUntil${extra.length ? `, ${extra.join(', ')}` : ''}}, got ${describe(v)}`);
    const o = obj(v, ['waitUntil', ...extra], name);
    return { waitUntil: optEnum(o, 'waitUntil', WAIT_UNTIL) ?? 'load', ignoreCache: optBool(o, 'ignoreCache') ?? false };
  };
}

defineStep({
  name: 'back',
  summary: 'History back: true | {waitUntil}; {noHistory: true} when there is nothing to go back to',
  needsTab: true,
  readOnly: false,
  parse: parseHistory('back'),
  run: (ctx, p) => goHistory(ctx.command.requireTab().page, -1, p.waitUntil, ctx.deadline),
});

defineStep({
  name: 'forward',
  summary: 'History forward: true | {waitUntil}',
  needsTab: true,
  readOnly: false,
  parse: parseHistory('forward'),
  run: (ctx, p) => goHistory(ctx.command.requireTab().page, 1, p.waitUntil, ctx.deadline),
});

defineStep({
  name: 'reload',
  summary: 'Reload: true | {waitUntil, ignoreCache}',
  needsTab: true,
  readOnly: false,
  parse: parseHistory('reload', ['ignoreCache']),
  replacesDocument: () => true,
  run: (ctx, p) => reload(ctx.command.requireTab().page, p.waitUntil, p.ignoreCache, ctx.deadline),
});
