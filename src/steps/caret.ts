// The caret step: put the caret before or after a piece of text inside an editor, or select it,
// by trusted clicks at the text's own character boxes (dom/caret.ts); answers where it really is.

import { placeCaret, type CaretOptions } from '../dom/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optEnum, optNumber, optString, ParamError, reqString } from './params.js';
import { stringTarget } from './targets.js';

const CARET_PARAMS: ParamSchema = {
  forms: ['"text"'],
  keys: { text: '', position: 'before|after|select', occurrence: '', in: 'T', timeout: '-' },
  returns: '{at, selected}',
};

const POSITIONS = ['before', 'after', 'select'] as const;

defineStep<CaretOptions>({
  name: 'caret',
  verb: 'Placed the caret',
  summary: 'Put the caret before/after text in an editor, or select it',
  params: CARET_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (typeof v === 'string') {
      if (!v) throw new ParamError('"caret" needs the text to find');
      return { text: v, position: 'after' };
    }
    if (!isObj(v)) throw new ParamError(`caret takes "text" or {text, position, occurrence, in}, got ${describe(v)}`);
    const o = obj(v, keysOf(CARET_PARAMS), 'caret');
    const text = reqString(o, 'text', { nonEmpty: true, maxLength: 1_000 });
    const where = optString(o, 'in');
    const occurrence = optNumber(o, 'occurrence', { min: 1, max: 10_000, integer: true });
    return {
      text,
      position: optEnum(o, 'position', POSITIONS) ?? 'after',
      ...(occurrence !== undefined ? { occurrence } : {}),
      ...(where !== undefined ? { in: stringTarget(where, 'in') } : {}),
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const r = await placeCaret(ctx.scope, p, tab.entry, ctx.deadline);
    const { warnings, ...rest } = r;
    return { ...rest, ...(warnings.length ? { warnings } : {}) };
  },
});
