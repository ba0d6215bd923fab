// The choose step (issue 23): an option, a path of levels or several options in any select-like
// widget (dom/choose.ts), or a date or range in a date picker (dom/choose-date.ts). One step per
// intent: "set Location to South America / Argentina / Ushuaia".

import { ExecutionError } from '../common/index.js';
import { choose, chooseDate, type TargetSpec } from '../dom/index.js';
import { settledOutput } from './interaction.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, ParamError, type Obj } from './params.js';
import { actionOptions, objectTarget, REF_PATTERN } from './targets.js';

interface ChooseParams {
  field: TargetSpec;
  /** One option, or a path of levels. */
  path?: string[];
  /** Several options of a multi-select. */
  many?: string[];
  /** A day, or the two ends of a range. */
  dates?: string[];
  exact: boolean;
  opts: ReturnType<typeof actionOptions>;
}

const CHOOSE_PARAMS: ParamSchema = {
  keys: {
    field: 'T',
    option: '"x"|[levels]',
    options: '',
    date: '',
    exact: '',
    force: '-',
    timeout: '-',
  },
  returns: '{chosen, shows}',
};

const FIELD_KEYS = ['selector', 'ref', 'text', 'label', 'exact', 'withinSelector'];

/** A string is a ref, else a CSS selector or — when nothing matches as CSS — the field's label. */
function fieldTarget(v: unknown): TargetSpec {
  if (typeof v === 'string') {
    const key = v.trim();
    if (!key) throw new ParamError('"field" must not be empty');
    return REF_PATTERN.test(key) ? { by: 'ref', ref: key } : { by: 'field', key };
  }
  if (!isObj(v))
    throw new ParamError(`"field" is a ref, a CSS selector, a label or {label|text|selector|ref}, got ${describe(v)}`);
  return objectTarget(obj(v, FIELD_KEYS, '"field"'), '"field"', FIELD_KEYS);
}

function texts(v: unknown, key: string): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.length || list.some((x) => typeof x !== 'string' || !x.trim()))
    throw new ParamError(`"${key}" must be a non-empty string or array of non-empty strings, got ${describe(v)}`);
  return list as string[];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function day(v: unknown): string {
  const m = typeof v === 'string' ? DAY.exec(v) : null;
  const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : undefined;
  if (!m || !d || d.toISOString().slice(0, 10) !== v)
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

/** The target back in the form an agent writes it, for a suggested next step. */
function fieldAsWritten(t: TargetSpec): unknown {
  switch (t.by) {
    case 'ref':
      return t.ref;
    case 'css':
      return t.selector;
    case 'field':
      return t.key;
    case 'label':
      return { label: t.label };
    case 'text':
      return { text: t.text };
    case 'selectors':
      return { selectors: t.selectors };
    default:
      return { x: t.x, y: t.y };
  }
}

/** An option not found: the same step again with the nearest option seen in its place. */
function withNextStep(err: unknown, p: ChooseParams): unknown {
  if (!(err instanceof ExecutionError) || err.details.category !== 'option-not-found') return err;
  const { near, level, want } = err.details as { near?: string; level?: number; want?: string };
  if (near === undefined || level === undefined) return err;
  const swap = (list: string[], at: number): string[] => list.map((x, i) => (i === at ? near : x));
  const choice: Obj = p.many
    ? { options: swap(p.many, p.many.indexOf(want ?? '')) }
    : { option: p.path!.length === 1 ? near : swap(p.path!, level) };
  err.details.nextStep = { choose: { field: fieldAsWritten(p.field), ...choice, ...(p.exact ? { exact: true } : {}) } };
  return err;
}

defineStep<ChooseParams>({
  name: 'choose',
  verb: 'Chose',
  summary:
    'Choose in any select-like: <select>, combobox, listbox, cascader, menu, radio group; by trusted clicks and keys',
  params: CHOOSE_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    const o = obj(v, keysOf(CHOOSE_PARAMS), 'choose');
    if (o.field === undefined)
      throw new ParamError('choose needs "field": the control, as a ref, CSS, label or {label|text}');
    const given = ['option', 'options', 'date'].filter((k) => o[k] !== undefined);
    if (given.length !== 1) throw new ParamError('choose needs exactly one of "option", "options", "date"');
    return {
      field: fieldTarget(o.field),
      ...(o.option !== undefined ? { path: texts(o.option, 'option') } : {}),
      ...(o.options !== undefined ? { many: texts(o.options, 'options') } : {}),
      ...(o.date !== undefined ? { dates: dates(o.date) } : {}),
      exact: optBool(o, 'exact') ?? false,
      opts: actionOptions(o),
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    if (p.dates) {
      const d = await chooseDate(ctx.scope, p.field, p.dates, ctx.deadline, tab.entry);
      const { chosen, shows, field, via, turns, warnings } = d;
      const more = { ...(turns ? { turns } : {}), ...(await settledOutput(tab, d)) };
      return { chosen, shows, field, via, ...more, ...(warnings.length ? { warnings } : {}) };
    }
    const req = {
      field: p.field,
      exact: p.exact,
      opts: p.opts,
      ...(p.path ? { path: p.path } : {}),
      ...(p.many ? { many: p.many } : {}),
    };
    const r = await choose(ctx.scope, req, tab.entry, ctx.deadline).catch((err: unknown) => {
      throw withNextStep(err, p);
    });
    return {
      chosen: r.chosen,
      ...(r.shows !== undefined ? { shows: r.shows } : {}),
      field: r.field,
      ...(r.checked !== undefined ? { checked: r.checked } : {}),
      ...(r.wasChecked !== undefined ? { wasChecked: r.wasChecked } : {}),
      ...(r.typed !== undefined ? { typed: r.typed } : {}),
      ...(r.scrolled ? { scrolled: r.scrolled } : {}),
      ...(await settledOutput(tab, r)),
      ...(r.warnings.length ? { warnings: r.warnings } : {}),
    };
  },
});
