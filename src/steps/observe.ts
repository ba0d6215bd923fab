// Read-only observation steps: inspect (SPEC §11.5), extract (§11.6), getDom (§11.7) and console
// (§11.14, §17.2). Page work runs in the chosen frame; outputs stay compact.

import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ElementNotFoundError, ensureStateDir, StaleElementError, StepValidationError } from '../common/index.js';
import { readConsoleLog, type ConsoleMessage } from '../capture/index.js';
import { locate, lookupWindowMs, type TargetSpec } from '../dom/index.js';
import type { ExtractKind } from '../injected/index.js';
import { defineStep, keysOf, type ParamSchema, type AttachedTab, type StepContext } from './registry.js';
import { describe, isObj, obj, optBool, optEnum, optNumber, optString, ParamError } from './params.js';
import { objectTarget, stringTarget } from './targets.js';

/** Longest text of one table cell or list item. */
const CELL_MAX_CHARS = 500;
const DEFAULT_EXTRACT_LIMIT = 100;
const MAX_EXTRACT_LIMIT = 10_000;
/** getDom answers inline up to this many characters; the whole HTML then goes to a file. */
const DEFAULT_DOM_MAX_CHARS = 20_000;
/** Most HTML brought out of the page at all. */
const DOM_TRANSFER_MAX_CHARS = 5_000_000;
const DEFAULT_CONSOLE_LIMIT = 50;

/** Finds a read step's element (css, ref, text, label) with the usual short wait for it to appear. */
async function held(ctx: StepContext, tab: AttachedTab, target: TargetSpec | undefined): Promise<number | undefined> {
  if (!target) return undefined;
  return (await locate(ctx.scope, target, tab.entry, { timeoutMs: lookupWindowMs(ctx.deadline) }, ctx.deadline)).handle;
}

/** A target as a string (css or ref) or {selector|ref|text|label}. */
function readTarget(o: Record<string, unknown>, what: string): TargetSpec | undefined {
  const forms = ['selector', 'ref', 'text', 'label'].filter((k) => o[k] !== undefined);
  return forms.length ? objectTarget(o, what, ['selector', 'ref', 'text', 'label', 'exact']) : undefined;
}

// ── inspect ────────────────────────────────────────────────────────────────────────────────
interface InspectParams {
  selectors?: string[];
  limit?: number;
}

const INSPECT_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: { selectors: '', limit: '' },
  returns: 'element counts',
};

defineStep<InspectParams>({
  name: 'inspect',
  summary: 'Page overview: counts of links, buttons, inputs, headings, forms',
  params: INSPECT_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (v === true) return {};
    const o = obj(v, keysOf(INSPECT_PARAMS), 'inspect');
    const s = o.selectors;
    if (s !== undefined && (!Array.isArray(s) || s.some((x) => typeof x !== 'string' || !x.trim()))) {
      throw new ParamError(`"selectors" must be an array of CSS selectors, got ${describe(s)}`);
    }
    const limit = optNumber(o, 'limit', { min: 1, max: 100, integer: true });
    return { ...(s ? { selectors: (s as string[]).map((x) => x.trim()) } : {}), ...(limit ? { limit } : {}) };
  },
  async run(ctx, p) {
    return ctx.scope.call((rt, r) => rt.observe.inspectPage(r), p, {
      deadline: ctx.deadline,
      what: 'the page overview',
    });
  },
});

// ── extract ────────────────────────────────────────────────────────────────────────────────
interface ExtractParams {
  target?: TargetSpec;
  type?: ExtractKind;
  limit: number;
}

const EXTRACT_PARAMS: ParamSchema = {
  forms: ['"css"'],
  keys: { selector: '', ref: '-', text: '-', label: '-', exact: '-', type: 'table|list', limit: '' },
  returns: '{headers, rows} | {items}',
};

defineStep<ExtractParams>({
  name: 'extract',
  summary: 'Table or list as data',
  params: EXTRACT_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (v === true) return { limit: DEFAULT_EXTRACT_LIMIT };
    if (typeof v === 'string') return { target: stringTarget(v, 'extract'), limit: DEFAULT_EXTRACT_LIMIT };
    if (!isObj(v))
      throw new ParamError(`extract takes a selector, a ref or {selector, type, limit}; got ${describe(v)}`);
    const o = obj(v, keysOf(EXTRACT_PARAMS), 'extract');
    const type = optEnum(o, 'type', ['table', 'list'] as const);
    return {
      target: readTarget(o, 'extract'),
      ...(type ? { type } : {}),
      limit: optNumber(o, 'limit', { min: 1, max: MAX_EXTRACT_LIMIT, integer: true }) ?? DEFAULT_EXTRACT_LIMIT,
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const handle = await held(ctx, tab, p.target);
    const r = await ctx.scope.call(
      (rt, a) => rt.observe.extractData(a),
      { handle, type: p.type, limit: p.limit, cellMax: CELL_MAX_CHARS },
      { deadline: ctx.deadline, what: 'the data to extract' },
    );
    if (r.ok) {
      const { ok, ...data } = r;
      return data;
    }
    if (r.reason === 'gone')
      throw new StaleElementError('The element was removed from the page before its data could be read');
    const where = p.target ? `<${r.tag}>` : 'the page';
    if (r.reason === 'no-structure')
      throw new StepValidationError(
        `No table or list found in ${where}; give "type": "table" or "list", or a selector of the table or list`,
      );
    throw new ElementNotFoundError(
      `No ${r.reason === 'no-table' ? 'table (<table>, tr or role=row)' : 'list (ul, ol, li or role=listitem)'} in ${where}`,
    );
  },
});

// ── getDom ─────────────────────────────────────────────────────────────────────────────────
interface DomParams {
  target?: TargetSpec;
  outer: boolean;
  maxLength: number;
}

const GET_DOM_PARAMS: ParamSchema = {
  forms: ['true', '"css"'],
  keys: { selector: '', ref: '-', text: '-', label: '-', exact: '-', outer: 'false', maxLength: '-' },
  returns: '{html}',
  note: 'long: cut, whole in `path`',
};

defineStep<DomParams>({
  name: 'getDom',
  summary: 'Raw HTML',
  params: GET_DOM_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (v === true) return { outer: true, maxLength: DEFAULT_DOM_MAX_CHARS };
    if (typeof v === 'string')
      return { target: stringTarget(v, 'getDom'), outer: true, maxLength: DEFAULT_DOM_MAX_CHARS };
    if (!isObj(v)) throw new ParamError(`getDom takes true, a selector or {selector, outer}; got ${describe(v)}`);
    const o = obj(v, keysOf(GET_DOM_PARAMS), 'getDom');
    return {
      target: readTarget(o, 'getDom'),
      outer: optBool(o, 'outer') ?? true,
      maxLength:
        optNumber(o, 'maxLength', { min: 100, max: DOM_TRANSFER_MAX_CHARS, integer: true }) ?? DEFAULT_DOM_MAX_CHARS,
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const handle = await held(ctx, tab, p.target);
    const r = await ctx.scope.call(
      (rt, a) => rt.observe.domHtml(a),
      { handle, outer: p.outer, max: DOM_TRANSFER_MAX_CHARS },
      { deadline: ctx.deadline, what: 'the HTML' },
    );
    if (!r.ok) throw new StaleElementError('The element was removed from the page before its HTML could be read');
    const selector = p.target
      ? p.target.by === 'css'
        ? p.target.selector
        : p.target.by === 'ref'
          ? p.target.ref
          : undefined
      : undefined;
    const base = { tagName: r.tagName, ...(selector ? { selector } : {}), length: r.length };
    if (r.html.length <= p.maxLength && r.length === r.html.length) return { html: r.html, ...base };
    // Too long to answer inline: the start inline, the whole (up to the transfer cap) in a file.
    const complete = r.html.length === r.length;
    // Past the cap the file ends before the tag that was cut, never in the middle of one.
    const saved = complete ? r.html : r.html.slice(0, Math.max(r.html.lastIndexOf('<'), 0) || r.html.length);
    const path = join(ensureStateDir('dom'), `${tab.alias}-${Date.now()}.html`);
    writeFileSync(path, saved, { mode: 0o600 });
    return {
      html: r.html.slice(0, p.maxLength),
      ...base,
      truncated: true,
      path,
      pathLength: saved.length,
      ...(complete ? {} : { pathTruncated: true }),
      warnings: [
        complete
          ? `HTML is ${r.length} characters: the first ${p.maxLength} are inline, all of it in "path"`
          : `HTML is ${r.length} characters: the first ${p.maxLength} are inline; "path" holds only the first ${saved.length} (at most ${DOM_TRANSFER_MAX_CHARS} are read out of the page, cut before a tag). Use a selector for the part you need.`,
      ],
    };
  },
});

// ── console ────────────────────────────────────────────────────────────────────────────────
interface ConsoleParams {
  limit: number;
  levels?: string[];
  type?: string;
  since?: number;
  stackTrace: boolean;
  clear: boolean;
}
const LEVELS = ['error', 'warning', 'info', 'log', 'debug'];

function readLevels(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const list = (Array.isArray(v) ? v : [v]).map((x) => (x === 'warn' ? 'warning' : x));
  if (!list.length || list.some((x) => typeof x !== 'string' || !LEVELS.includes(x))) {
    throw new ParamError(
      `"level" is one of ${LEVELS.join(', ')} (or an array of them), got ${describe(v)}`,
      typeof v === 'string' ? v : undefined,
      LEVELS,
    );
  }
  return list as string[];
}

function readSince(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return Date.parse(v);
  throw new ParamError(
    `"since" is a timestamp (ms since 1970, as messages carry) or a date string, got ${describe(v)}`,
  );
}

const CONSOLE_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: { level: '', type: '', since: '', limit: '', clear: '', stackTrace: '-' },
  returns: 'messages',
};

defineStep<ConsoleParams>({
  name: 'console',
  summary: "Console messages the page logged, earlier calls' too",
  params: CONSOLE_PARAMS,
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (v === true) return { limit: DEFAULT_CONSOLE_LIMIT, stackTrace: false, clear: false };
    const o = obj(v, keysOf(CONSOLE_PARAMS), 'console');
    const levels = readLevels(o.level);
    const type = optString(o, 'type');
    const since = readSince(o.since);
    return {
      limit: optNumber(o, 'limit', { min: 1, max: 10_000, integer: true }) ?? DEFAULT_CONSOLE_LIMIT,
      ...(levels ? { levels } : {}),
      ...(type ? { type } : {}),
      ...(since !== undefined ? { since } : {}),
      stackTrace: optBool(o, 'stackTrace') ?? false,
      clear: optBool(o, 'clear') ?? false,
    };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const all = await tab.page.guard(readConsoleLog(tab.conn, tab.page.targetId, p.clear, ctx.deadline));
    const match = all.filter(
      (m) =>
        (!p.levels || p.levels.includes(m.level)) &&
        (!p.type || m.type === p.type) &&
        (p.since === undefined || m.timestamp > p.since),
    );
    const shown = match
      .slice(-p.limit)
      .map(({ stack, ...m }): ConsoleMessage => (p.stackTrace && stack ? { ...m, stack } : m));
    return { total: match.length, showing: shown.length, messages: shown, ...(p.clear ? { cleared: all.length } : {}) };
  },
});
