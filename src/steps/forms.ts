// Form steps: fill (SPEC §9.2, all its forms), selectOption (SPEC §9.8) and upload (SPEC §19.13).

import { ExecutionError, errorMessage } from '../common/index.js';
import { fill, selectOption, upload, type FillOptions, type OptionChoice, type TargetSpec } from '../dom/index.js';
import { defineStep, keysOf, type ParamSchema, type StepContext } from './registry.js';
import { describe, isObj, obj, optBool, optNumber, ParamError, type Obj } from './params.js';
import { actionOptions, hasTarget, objectTarget, stringTarget, TARGET_KEYS } from './targets.js';
import { settledOutput } from './interaction.js';
import { isCellForm, parseCells, runCells, type CellsParams } from './fill-cells.js';

// ── fill ───────────────────────────────────────────────────────────────────────────────────
interface FillField {
  key: string;
  target: TargetSpec | undefined;
  value: string;
}
interface FieldsParams {
  fields: FillField[];
  opts: FillOptions;
  batch: boolean;
}
/** Fields of a form, or cells of a grid (fill-cells.ts): the two kinds of target fill acts on. */
type FillParams = ({ kind: 'fields' } & FieldsParams) | ({ kind: 'cells' } & CellsParams);

const FILL_TARGET_KEYS = TARGET_KEYS.filter((k) => k !== 'selectors' && k !== 'x' && k !== 'y' && k !== 'text');

function fillValue(v: unknown, key: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ParamError(`the value for ${key} must be a string, got ${describe(v)}`);
}

function fillOptions(o: Obj): FillOptions {
  const clear = optBool(o, 'clear');
  return {
    ...actionOptions(o),
    ...(clear !== undefined ? { clear } : {}),
    ...(optBool(o, 'react') ? { react: true } : {}),
  };
}

function batchFields(map: Obj): FillField[] {
  const entries = Object.entries(map);
  if (!entries.length) throw new ParamError('fill needs at least one field');
  return entries.map(([key, v]) => {
    const t = stringTarget(key, 'field');
    // Keys are refs, CSS selectors or — when no element matches as CSS — field labels.
    return { key, target: t.by === 'ref' ? t : { by: 'field', key: key.trim() }, value: fillValue(v, `"${key}"`) };
  });
}

const FILL_PARAMS: ParamSchema = {
  forms: ['{"#a"|"s1e4"|"Email": "x"}', '"text" (focused)', '{cells: [{row, column, value}]}'],
  keys: {
    cell: '-',
    cells: '-',
    selector: '',
    ref: '',
    label: '',
    exact: '',
    withinSelector: '',
    value: '',
    clear: '',
    react: '-',
    fields: '-',
    force: '-',
    timeout: '-',
    stable: '-',
  },
};

/** The field forms: a string for the focused element, one target + value, `fields`, or a map of fields. */
function parseFields(v: unknown): FieldsParams {
  if (typeof v === 'string' || typeof v === 'number')
    return { fields: [{ key: 'focused', target: undefined, value: String(v) }], opts: {}, batch: false };
  if (!isObj(v))
    throw new ParamError(
      `fill takes {selector|ref|label, value}, a map of fields, {cell|cells} of a grid, or a string for the focused element; got ${describe(v)}`,
    );
  if (v.fields !== undefined) {
    const o = obj(v, ['fields', 'react', 'clear', 'force', 'timeout'], 'fill');
    if (!isObj(o.fields))
      throw new ParamError(`"fields" must be an object of selector → value, got ${describe(o.fields)}`);
    return { fields: batchFields(o.fields), opts: fillOptions(o), batch: true };
  }
  if ('value' in v || hasTarget(v, FILL_TARGET_KEYS)) {
    const o = obj(
      v,
      keysOf(FILL_PARAMS).filter((k) => k !== 'fields' && k !== 'cell' && k !== 'cells'),
      'fill',
    );
    if (o.value === undefined) throw new ParamError('fill needs "value"');
    const target = hasTarget(o, FILL_TARGET_KEYS) ? objectTarget(o, 'fill', FILL_TARGET_KEYS) : undefined;
    return {
      fields: [{ key: target ? 'field' : 'focused', target, value: fillValue(o.value, '"value"') }],
      opts: fillOptions(o),
      batch: false,
    };
  }
  return { fields: batchFields(v), opts: {}, batch: true };
}

async function runField(ctx: StepContext, p: FieldsParams): Promise<Record<string, unknown>> {
  const tab = ctx.command.requireTab();
  const f = p.fields[0]!;
  const r = await fill(ctx.scope, f.target, f.value, tab.entry, p.opts, ctx.deadline);
  return {
    filled: true,
    target: r.target,
    method: r.method,
    ...(await settledOutput(tab, r)),
    ...(r.value !== undefined ? { value: r.value } : {}),
    ...(r.reResolved ? { reResolved: true } : {}),
    ...(r.autoForced ? { autoForced: true } : {}),
    ...(r.warnings.length ? { warnings: r.warnings } : {}),
  };
}

async function runFields(ctx: StepContext, p: FieldsParams): Promise<Record<string, unknown>> {
  const tab = ctx.command.requireTab();
  const done: Record<string, string> = {};
  const warnings: string[] = [];
  for (const f of p.fields) {
    try {
      const r = await fill(ctx.scope, f.target, f.value, tab.entry, p.opts, ctx.deadline);
      done[f.key] = r.method;
      warnings.push(...r.warnings);
    } catch (err) {
      // Say what did land, so the agent retries only the rest.
      const landed = Object.keys(done);
      throw new ExecutionError(
        `Filled ${landed.length} of ${p.fields.length} fields${landed.length ? ` (${landed.join(', ')})` : ''}; "${f.key}" failed: ${errorMessage(err)}`,
        { ...(err as { details?: Record<string, unknown> }).details, filled: landed },
        { cause: err },
      );
    }
  }
  return { filled: p.fields.length, methods: done, ...(warnings.length ? { warnings } : {}) };
}

defineStep<FillParams>({
  name: 'fill',
  verb: 'Filled',
  summary: 'Fill fields, or grid cells by row and column',
  params: FILL_PARAMS,
  target: { keys: ['selector', 'ref', 'label', 'exact', 'withinSelector'], fieldMap: true, byWords: 'label' },
  needsTab: true,
  readOnly: false,
  parse(v) {
    // `cell`/`cells` name a grid's cells; the map form would read them as field names (issue 23).
    if (isObj(v) && isCellForm(v)) return { kind: 'cells', ...parseCells(v) };
    return { kind: 'fields', ...parseFields(v) };
  },
  run(ctx, p) {
    if (p.kind === 'cells') return runCells(ctx.command.requireTab(), ctx.scope, p, ctx.deadline);
    return p.batch ? runFields(ctx, p) : runField(ctx, p);
  },
});

// ── selectOption ───────────────────────────────────────────────────────────────────────────
interface SelectParams {
  target: TargetSpec;
  choice: OptionChoice;
  opts: ReturnType<typeof actionOptions>;
}

const SELECT_OPTION_PARAMS: ParamSchema = {
  keys: {
    selector: '',
    ref: '',
    withinSelector: '',
    value: '',
    label: '',
    index: '',
    values: '',
    force: '-',
    timeout: '-',
    stable: '-',
  },
  returns: '{selected}',
};

defineStep<SelectParams>({
  name: 'selectOption',
  verb: 'Selected',
  summary: 'Choose in a <select>',
  params: SELECT_OPTION_PARAMS,
  target: { keys: ['selector', 'ref', 'withinSelector'] },
  remedyFor: { 'field:select': (t, value) => ({ ...t, label: value ?? '' }) },
  needsTab: true,
  readOnly: false,
  parse(v) {
    const o = obj(v, keysOf(SELECT_OPTION_PARAMS), 'selectOption');
    const target = objectTarget(o, 'selectOption', ['selector', 'ref', 'withinSelector']);
    const forms = ['value', 'label', 'index', 'values'].filter((k) => o[k] !== undefined);
    if (forms.length !== 1)
      throw new ParamError('selectOption needs exactly one of "value", "label", "index", "values"');
    let choice: OptionChoice;
    if (o.values !== undefined) {
      if (!Array.isArray(o.values) || !o.values.length || o.values.some((x) => typeof x !== 'string'))
        throw new ParamError(`"values" must be a non-empty array of strings, got ${describe(o.values)}`);
      choice = { values: o.values as string[] };
    } else if (o.index !== undefined) {
      choice = { indexes: [optNumber(o, 'index', { min: 0, integer: true })!] };
    } else if (o.label !== undefined) {
      choice = { labels: [fillValue(o.label, '"label"')] };
    } else {
      choice = { values: [fillValue(o.value, '"value"')] };
    }
    return { target, choice, opts: actionOptions(o) };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const r = await selectOption(ctx.scope, p.target, p.choice, tab.entry, p.opts, ctx.deadline);
    return {
      selected: r.selected,
      target: r.target,
      multiple: r.multiple,
      ...(await settledOutput(tab, r)),
      ...(r.reResolved ? { reResolved: true } : {}),
    };
  },
});

// ── upload ─────────────────────────────────────────────────────────────────────────────────
interface UploadParams {
  target: TargetSpec;
  files: string[];
  opts: ReturnType<typeof actionOptions>;
}

const UPLOAD_PARAMS: ParamSchema = {
  keys: {
    selector: '',
    ref: '',
    label: '',
    exact: '',
    withinSelector: '',
    files: '"path"|[…]',
    file: '-',
    timeout: '-',
  },
  returns: '{uploaded, target, via}',
  note: 'T: the input or what opens the chooser',
};

defineStep<UploadParams>({
  name: 'upload',
  verb: 'Uploaded',
  summary: 'Set files on a file input, or on the chooser any control opens (Dropzone, drop areas)',
  params: UPLOAD_PARAMS,
  target: { keys: ['selector', 'ref', 'label', 'exact', 'withinSelector'] },
  remedyFor: { 'field:file': (t) => ({ ...t, files: ['/path/to/file'] }) },
  needsTab: true,
  readOnly: false,
  parse(v) {
    const o = obj(v, keysOf(UPLOAD_PARAMS), 'upload');
    const raw = o.files ?? o.file;
    const files = typeof raw === 'string' ? [raw] : raw;
    if (!Array.isArray(files) || !files.length || files.some((f) => typeof f !== 'string' || !f))
      throw new ParamError(`"files" must be a path or a non-empty array of paths, got ${describe(raw)}`);
    return {
      target: objectTarget(o, 'upload', ['selector', 'ref', 'label', 'exact', 'withinSelector']),
      files: files as string[],
      opts: actionOptions(o),
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const r = await upload(ctx.scope, p.target, p.files, tab.entry, p.opts, ctx.deadline);
    return {
      uploaded: r.uploaded,
      target: r.target,
      via: r.via,
      ...(r.input ? { input: r.input } : {}),
      ...(await settledOutput(tab, r)),
      ...(r.reResolved ? { reResolved: true } : {}),
    };
  },
});
