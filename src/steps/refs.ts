// Steps that read refs: getBox (SPEC §11.8).

import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, ParamError } from './params.js';
import { isRef } from '../shared/index.js';

function readRefs(v: unknown): { refs: string[]; single: boolean } {
  const check = (r: unknown): string => {
    if (typeof r !== 'string' || !isRef(r)) throw new ParamError(`refs look like "s1e4", got ${describe(r)}`);
    return r;
  };
  if (typeof v === 'string') return { refs: [check(v)], single: true };
  if (Array.isArray(v)) {
    if (!v.length) throw new ParamError('getBox needs at least one ref');
    return { refs: v.map(check), single: false };
  }
  if (isObj(v)) {
    const o = obj(v, keysOf(GET_BOX_PARAMS), 'getBox');
    if (o.ref !== undefined) return { refs: [check(o.ref)], single: true };
    if (Array.isArray(o.refs) && o.refs.length) return { refs: o.refs.map(check), single: false };
  }
  throw new ParamError(`getBox takes "s1e4", ["s1e4", …], {ref} or {refs}, got ${describe(v)}`);
}

const GET_BOX_PARAMS: ParamSchema = { forms: ['"s1e4"', '[…]'], keys: { ref: '-', refs: '-' }, returns: 'boxes' };

defineStep({
  name: 'getBox',
  summary: 'Boxes of refs',
  params: GET_BOX_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: readRefs,
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const boxes = await ctx.scope.call(
      (rt, a) => rt.refBox.refBoxes(a.refs, a.counters),
      { refs: p.refs, counters: tab.entry.counters },
      { deadline: ctx.deadline, what: 'the boxes' },
    );
    return p.single ? boxes[p.refs[0]!] : boxes;
  },
});
