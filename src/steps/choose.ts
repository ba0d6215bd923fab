// DATES-BRANCH STAND-IN for the choose step, handling only {field, date} (issue 23 item 3). The lead
// replaces this file at merge with the "choose" engineer's src/steps/choose.ts, which owns the step
// (options, paths, menus) and dispatches `date` to dom/choose-date.ts's chooseDate the same way.

import { chooseDate, type TargetSpec } from '../dom/index.js';
import { settledOutput } from './interaction.js';
import { describe, isObj, obj, ParamError } from './params.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { objectTarget, REF_PATTERN } from './targets.js';

interface ChooseDateParams {
  field: TargetSpec;
  /** A day, or the two ends of a range. */
  dates: string[];
}

const PARAMS: ParamSchema = {
  keys: { field: 'T', date: '"YYYY-MM-DD"|[from, to]' },
  returns: '{chosen, shows, via}',
};

const FIELD_KEYS = ['selector', 'ref', 'text', 'label', 'exact', 'withinSelector'];

/** A string is a ref, else a CSS selector or — when nothing matches as CSS — the field's label. */
function fieldTarget(v: unknown): TargetSpec {
  if (typeof v === 'string' && v.trim())
    return REF_PATTERN.test(v.trim()) ? { by: 'ref', ref: v.trim() } : { by: 'field', key: v.trim() };
  if (!isObj(v))
    throw new ParamError(`"field" is a ref, a CSS selector, a label or {label|text|selector|ref}, got ${describe(v)}`);
  return objectTarget(obj(v, FIELD_KEYS, '"field"'), '"field"', FIELD_KEYS);
}

function day(v: unknown): string {
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v) : null;
  if (!m || new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)).toISOString().slice(0, 10) !== v)
    throw new ParamError(`"date" takes days as "YYYY-MM-DD", got ${describe(v)}`);
  return v as string;
}

function dates(v: unknown): string[] {
  if (typeof v === 'string') return [day(v)];
  if (!Array.isArray(v) || v.length !== 2)
    throw new ParamError(`"date" is "YYYY-MM-DD" or a range [from, to], got ${describe(v)}`);
  const [from, to] = [day(v[0]), day(v[1])];
  if (from > to) throw new ParamError(`the range in "date" ends (${to}) before it starts (${from})`);
  return [from, to];
}

defineStep<ChooseDateParams>({
  name: 'choose',
  verb: 'Chose',
  summary: 'Pick a day or a range in a date picker (its calendar, or a date input typed), by trusted clicks and keys',
  params: PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    const o = obj(v, keysOf(PARAMS), 'choose');
    if (o.field === undefined)
      throw new ParamError('choose needs "field": the date field, as a ref, CSS, label or {label}');
    if (o.date === undefined) throw new ParamError('choose needs "date": "YYYY-MM-DD" or [from, to]');
    return { field: fieldTarget(o.field), dates: dates(o.date) };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const r = await chooseDate(ctx.scope, p.field, p.dates, ctx.deadline, tab.entry);
    return {
      field: r.field,
      chosen: r.chosen,
      shows: r.shows,
      via: r.via,
      ...(r.turns ? { turns: r.turns } : {}),
      ...(await settledOutput(tab, r)),
      ...(r.warnings.length ? { warnings: r.warnings } : {}),
    };
  },
});
