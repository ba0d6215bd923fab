// Navigation steps: goto, back, forward, reload (DECISIONS: shapes and results).

import { goHistory, navigate, navigatesInPlace, reload, type WaitUntil } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { isObj, navigableUrl, obj, optBool, optEnum, reqString, describe, ParamError } from './params.js';

const WAIT_UNTIL = ['commit', 'domcontentloaded', 'load', 'networkidle'] as const;

const GOTO_PARAMS: ParamSchema = {
  forms: ['"url"'],
  keys: { url: '', waitUntil: 'commit|domcontentloaded|load|networkidle' },
  returns: '{url, status}',
};

defineStep<{ url: string; waitUntil: WaitUntil }>({
  name: 'goto',
  verb: 'Navigated',
  summary: 'Navigate',
  params: GOTO_PARAMS,
  landsOnUrl: true,
  lighterWait: (raw: unknown) =>
    isObj(raw) && (raw.waitUntil === 'commit' || raw.waitUntil === 'domcontentloaded')
      ? undefined
      : { url: isObj(raw) ? raw.url : raw, waitUntil: 'domcontentloaded' },
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (typeof v === 'string') return { url: navigableUrl(v, 'goto'), waitUntil: 'load' };
    const o = obj(v, keysOf(GOTO_PARAMS), 'goto');
    return { url: navigableUrl(reqString(o, 'url'), 'url'), waitUntil: optEnum(o, 'waitUntil', WAIT_UNTIL) ?? 'load' };
  },
  replacesDocument: (p, currentUrl) => !navigatesInPlace(currentUrl, p.url),
  run: (ctx, p) => navigate(ctx.command.requireTab().page, p.url, p.waitUntil, ctx.deadline),
});

function parseHistory(name: string, schema: ParamSchema) {
  return (v: unknown): { waitUntil: WaitUntil; ignoreCache: boolean } => {
    if (v === true) return { waitUntil: 'load', ignoreCache: false };
    if (v === false || v === undefined)
      throw new ParamError(`${name} takes true or {${keysOf(schema).join(', ')}}, got ${describe(v)}`);
    const o = obj(v, keysOf(schema), name);
    return {
      waitUntil: optEnum(o, 'waitUntil', WAIT_UNTIL) ?? 'load',
      ignoreCache: optBool(o, 'ignoreCache') ?? false,
    };
  };
}

const BACK_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: { waitUntil: '-' },
  returns: '{url}',
};

defineStep({
  name: 'back',
  verb: 'Went back',
  summary: 'History back',
  params: BACK_PARAMS,
  needsTab: true,
  readOnly: false,
  parse: parseHistory('back', BACK_PARAMS),
  run: (ctx, p) => goHistory(ctx.command.requireTab().page, -1, p.waitUntil, ctx.deadline),
});

const FORWARD_PARAMS: ParamSchema = { forms: ['true'], keys: { waitUntil: '-' }, returns: '{url}' };

defineStep({
  name: 'forward',
  verb: 'Went forward',
  summary: 'History forward',
  params: FORWARD_PARAMS,
  needsTab: true,
  readOnly: false,
  parse: parseHistory('forward', FORWARD_PARAMS),
  run: (ctx, p) => goHistory(ctx.command.requireTab().page, 1, p.waitUntil, ctx.deadline),
});

const RELOAD_PARAMS: ParamSchema = { forms: ['true'], keys: { waitUntil: '-', ignoreCache: '' }, returns: '{url}' };

defineStep({
  name: 'reload',
  verb: 'Reloaded',
  summary: 'Reload',
  params: RELOAD_PARAMS,
  remedyFor: { crashed: () => true },
  needsTab: true,
  readOnly: false,
  parse: parseHistory('reload', RELOAD_PARAMS),
  replacesDocument: () => true,
  run: (ctx, p) => reload(ctx.command.requireTab().page, p.waitUntil, p.ignoreCache, ctx.deadline),
});
