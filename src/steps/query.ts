// Read-only steps that find elements: snapshotSearch (SPEC §7.10, §11.2), query (§11.3), queryAll
// (§11.4) and elementsAt (§11.9). Each is one page evaluation; the page hands back refs from the
// tab's ref map and the counters, which are stored with the tab so refs never repeat.

import { ElementNotFoundError, StepValidationError, type Deadline } from '../common/index.js';
import type { Counters } from '../injected/index.js';
import type { Scope } from '../page/index.js';
import {
  QUERY_OUTPUT_MODES,
  type QueryOutput,
  type QueryOutputMode,
  type QuerySpec,
  type RoleQuery,
  type SearchCriteria,
} from '../shared/index.js';
import { defineStep, keysOf, type ParamSchema, type AttachedTab } from './registry.js';
import { describe, isObj, obj, optBool, optNumber, optString, ParamError, reqString, type Obj } from './params.js';

const MAX_LIMIT = 1000;
const MAX_POINTS = 100;
/** The snapshot walker's limits (snapshot step defaults). */
const SEARCH_MAX_DEPTH = 50;
const SEARCH_MAX_ELEMENTS = 50_000;

/** snapshotSearch's parameters: the page's criteria but for the walk's bounds, which are the snapshot's. */
type SearchParams = Omit<SearchCriteria, 'maxDepth' | 'maxElements'>;

type AtParams =
  | { kind: 'point'; x: number; y: number }
  | { kind: 'batch'; points: { x: number; y: number }[] }
  | { kind: 'near'; x: number; y: number; radius: number; limit: number };

function limitOf(o: Obj, fallback: number): number {
  return optNumber(o, 'limit', { min: 1, max: MAX_LIMIT, integer: true }) ?? fallback;
}

function readOutput(v: unknown): QueryOutput {
  if (v === undefined) return 'text';
  const mode = (m: unknown): QueryOutputMode => {
    if (typeof m !== 'string' || !(QUERY_OUTPUT_MODES as readonly string[]).includes(m)) {
      throw new ParamError(
        `"output" modes are ${QUERY_OUTPUT_MODES.join(', ')}, got ${describe(m)}`,
        typeof m === 'string' ? m : undefined,
        QUERY_OUTPUT_MODES,
      );
    }
    return m as QueryOutputMode;
  };
  if (typeof v === 'string') return mode(v);
  if (Array.isArray(v) && v.length) return v.map(mode);
  if (isObj(v)) {
    const attribute = obj(v, ['attribute'], 'output').attribute;
    if (typeof attribute === 'string' && attribute) return { attribute };
    if (Array.isArray(attribute) && attribute.length && attribute.every((a) => typeof a === 'string' && a))
      return { attribute: attribute as string[] };
  }
  throw new ParamError(
    `"output" takes a mode (${QUERY_OUTPUT_MODES.join('|')}), an array of modes or {attribute: "name" | ["name", …]}, got ${describe(v)}`,
  );
}

function readRoles(o: Obj): string[] {
  if (o.role !== undefined && o.roles !== undefined) throw new ParamError('give "role" or "roles", not both');
  if (o.roles === undefined) return [reqString(o, 'role').trim().toLowerCase()];
  if (!Array.isArray(o.roles) || !o.roles.length || !o.roles.every((r) => typeof r === 'string' && r.trim())) {
    throw new ParamError(`"roles" must be a non-empty array of role names, got ${describe(o.roles)}`);
  }
  return o.roles.map((r: string) => r.trim().toLowerCase());
}

function readRoleQuery(o: Obj): RoleQuery {
  const roles = readRoles(o);
  let name = optString(o, 'name');
  let nameExact: boolean | undefined;
  if (typeof o.nameExact === 'string') {
    if (name !== undefined) throw new ParamError('give the name in "name" or in "nameExact", not both');
    name = optString(o, 'nameExact');
    nameExact = true;
  } else {
    nameExact = optBool(o, 'nameExact');
    if (nameExact && name === undefined) throw new ParamError('"nameExact": true needs "name"');
  }
  const checked = o.checked === 'mixed' ? ('mixed' as const) : optBool(o, 'checked');
  const q: RoleQuery = { kind: 'role', roles, countOnly: optBool(o, 'countOnly') ?? false, limit: limitOf(o, 10) };
  if (name !== undefined) q.name = name;
  if (nameExact) q.nameExact = true;
  const nameRegex = optString(o, 'nameRegex');
  if (nameRegex !== undefined) q.nameRegex = nameRegex;
  const level = optNumber(o, 'level', { min: 1, max: 6, integer: true });
  if (level !== undefined) q.level = level;
  if (checked !== undefined) q.checked = checked;
  const disabled = optBool(o, 'disabled');
  if (disabled !== undefined) q.disabled = disabled;
  return q;
}

function readCssSelector(v: unknown): string {
  if (typeof v !== 'string' || !v.trim())
    throw new ParamError(`"selector" must be a non-empty CSS selector, got ${describe(v)}`);
  return v.trim();
}

function readQuery(v: unknown): QuerySpec {
  if (typeof v === 'string')
    return { kind: 'css', selector: readCssSelector(v), limit: 10, output: 'text', clean: false, metadata: false };
  if (isObj(v) && ('role' in v || 'roles' in v)) {
    return readRoleQuery(
      obj(
        v,
        ['role', 'roles', 'name', 'nameExact', 'nameRegex', 'level', 'checked', 'disabled', 'countOnly', 'limit'],
        'query',
      ),
    );
  }
  const o = obj(v, ['selector', 'limit', 'output', 'clean', 'metadata'], 'query');
  return {
    kind: 'css',
    selector: readCssSelector(o.selector),
    limit: limitOf(o, 10),
    output: readOutput(o.output),
    clean: optBool(o, 'clean') ?? false,
    metadata: optBool(o, 'metadata') ?? false,
  };
}

function readQueryAll(v: unknown): [string, QuerySpec][] {
  if (!isObj(v) || !Object.keys(v).length)
    throw new ParamError(`queryAll takes {label: "selector" | {query params}, …}, got ${describe(v)}`);
  return Object.entries(v).map(([label, q]) => {
    try {
      return [label, readQuery(q)];
    } catch (err) {
      if (err instanceof ParamError)
        throw new ParamError(`in "${label}": ${err.message}`, err.unknownKey, err.knownKeys);
      throw err;
    }
  });
}

function readSearch(v: unknown): SearchParams {
  if (typeof v === 'string') return readSearch({ text: v });
  const o = obj(v, keysOf(SNAPSHOT_SEARCH_PARAMS), 'snapshotSearch');
  const p: SearchParams = {
    exact: optBool(o, 'exact') ?? false,
    limit: limitOf(o, 10),
    context: optNumber(o, 'context', { min: 0, max: 20, integer: true }) ?? 2,
  };
  const text = optString(o, 'text');
  if (text !== undefined) p.text = text;
  const pattern = optString(o, 'pattern');
  if (pattern !== undefined) p.pattern = pattern;
  const role = optString(o, 'role');
  if (role !== undefined) p.role = role.trim().toLowerCase();
  if (p.text === undefined && p.pattern === undefined && p.role === undefined)
    throw new ParamError('snapshotSearch needs at least one of "text", "pattern", "role"');
  if (p.exact && p.text === undefined) throw new ParamError('"exact" applies to "text"');
  if (o.near !== undefined) {
    const n = obj(o.near, ['x', 'y', 'radius'], 'near');
    const coord = (k: string): number => {
      const c = optNumber(n, k);
      if (c === undefined) throw new ParamError(`"near" needs "${k}"`);
      return c;
    };
    p.near = { x: coord('x'), y: coord('y'), radius: optNumber(n, 'radius', { min: 1 }) ?? 100 };
  }
  return p;
}

function readPoint(v: unknown, what: string, allowed: readonly string[] = ['x', 'y']): Obj & { x: number; y: number } {
  const o = obj(v, allowed, what);
  for (const k of ['x', 'y']) if (optNumber(o, k) === undefined) throw new ParamError(`${what} needs "${k}"`);
  return o as Obj & { x: number; y: number };
}

function readAt(v: unknown): AtParams {
  if (Array.isArray(v)) {
    if (!v.length || v.length > MAX_POINTS)
      throw new ParamError(`elementsAt takes 1 to ${MAX_POINTS} points, got ${v.length}`);
    return {
      kind: 'batch',
      points: v.map((p, i) => {
        const o = readPoint(p, `point ${i + 1}`);
        return { x: o.x, y: o.y };
      }),
    };
  }
  const o = readPoint(v, 'elementsAt', keysOf(ELEMENTS_AT_PARAMS));
  if (o.radius === undefined && o.limit === undefined) return { kind: 'point', x: o.x, y: o.y };
  return {
    kind: 'near',
    x: o.x,
    y: o.y,
    radius: optNumber(o, 'radius', { min: 1 }) ?? 50,
    limit: optNumber(o, 'limit', { min: 1, max: MAX_LIMIT, integer: true }) ?? 20,
  };
}

/** Stores the page's counters with the tab, so later refs continue from them. */
function keepCounters<T extends { counters: Counters }>(tab: AttachedTab, outcome: T): Omit<T, 'counters'> {
  const { counters, ...rest } = outcome;
  tab.entry.counters = counters;
  return rest;
}

function queryProblem(
  specs: QuerySpec[],
  failure: { reason: string; message: string; index: number },
  label?: string,
): StepValidationError {
  const q = specs[failure.index]!;
  const where = label === undefined ? '' : ` in "${label}"`;
  if (q.kind === 'css')
    return new StepValidationError(`Invalid CSS selector "${q.selector}"${where}: ${failure.message}`);
  return new StepValidationError(`Invalid nameRegex /${q.nameRegex}/${where}: ${failure.message}`);
}

async function runQueries(
  tab: AttachedTab,
  specs: QuerySpec[],
  ctx: { deadline: Deadline; scope: Scope },
  labels?: string[],
): Promise<unknown[]> {
  const outcome = await ctx.scope.call(
    (rt, a) => rt.elementQuery.runQueries(a.specs, a.counters),
    { specs, counters: tab.entry.counters },
    { deadline: ctx.deadline, what: 'the query' },
  );
  if (!outcome.ok) throw queryProblem(specs, outcome, labels?.[outcome.index]);
  return keepCounters(tab, outcome).results;
}

/** Time a snapshotSearch keeps back from its deadline when it scrolls a virtualised list. */
const SEARCH_SCAN_RESERVE_MS = 500;

const SNAPSHOT_SEARCH_PARAMS: ParamSchema = {
  forms: ['"text"'],
  keys: { text: '', pattern: '', role: '', exact: '', near: '{x, y, radius}', limit: '-', context: '-' },
  returns: 'matches with refs',
};

defineStep<SearchParams>({
  name: 'snapshotSearch',
  summary: 'Search the accessibility tree',
  params: SNAPSHOT_SEARCH_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: readSearch,
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const outcome = await ctx.scope.callSeeingClosedRoots(
      (rt, a) => rt.elementSearch.snapshotSearch(a.criteria, a.counters),
      {
        criteria: { ...p, maxDepth: SEARCH_MAX_DEPTH, maxElements: SEARCH_MAX_ELEMENTS },
        counters: tab.entry.counters,
      },
      { deadline: ctx.deadline, what: 'the snapshot search' },
    );
    if (!outcome.ok) throw new StepValidationError(`Invalid pattern /${p.pattern}/: ${outcome.message}`);
    const { limit: _limit, context: _context, exact, ...given } = p;
    const criteria = { ...given, ...(exact ? { exact } : {}) };
    // Nothing rendered matches: a virtualised list may hold it further down; scroll it to find out.
    const budgetMs = ctx.deadline.remainingMs() - SEARCH_SCAN_RESERVE_MS;
    if (outcome.matchCount === 0 && !p.near && (p.text !== undefined || p.pattern !== undefined) && budgetMs > 0) {
      const scanned = await ctx.scope.call(
        (rt, a) => rt.virtualScan.searchByScrolling(a.criteria, a.counters, a.budgetMs),
        {
          criteria: { ...p, maxDepth: SEARCH_MAX_DEPTH, maxElements: SEARCH_MAX_ELEMENTS },
          counters: outcome.counters,
          budgetMs,
        },
        { deadline: ctx.deadline, what: 'the snapshot search, scrolling a virtualised list' },
      );
      if (!('none' in scanned) && scanned.outcome.ok) {
        const { ok: _ok, ...found } = keepCounters(tab, scanned.outcome);
        return { ...found, criteria, scrolledToFind: scanned.report };
      }
    }
    const { ok: _ok, ...found } = keepCounters(tab, outcome);
    return { ...found, criteria };
  },
});

const QUERY_PARAMS: ParamSchema = {
  forms: ['"css"'],
  keys: {
    selector: '',
    output: 'text|html|value|…',
    role: '',
    name: '',
    limit: '-',
    clean: '-',
    metadata: '-',
    roles: '-',
    nameExact: '-',
    nameRegex: '-',
    level: '-',
    checked: '-',
    disabled: '-',
    countOnly: '-',
  },
  returns: '{total, results}',
};

defineStep<QuerySpec>({
  name: 'query',
  summary: 'Find elements, shadow DOM included',
  params: QUERY_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: readQuery,
  async run(ctx, p) {
    const [result] = await runQueries(ctx.command.requireTab(), [p], ctx);
    return result;
  },
});

const QUERY_ALL_PARAMS: ParamSchema = { forms: ['{label: query, …}'], returns: '{label: result}' };

defineStep<[string, QuerySpec][]>({
  name: 'queryAll',
  summary: 'Several queries in one call',
  params: QUERY_ALL_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: readQueryAll,
  async run(ctx, entries) {
    const labels = entries.map(([label]) => label);
    const results = await runQueries(
      ctx.command.requireTab(),
      entries.map(([, q]) => q),
      ctx,
      labels,
    );
    return Object.fromEntries(labels.map((label, i) => [label, results[i]]));
  },
});

const ELEMENTS_AT_PARAMS: ParamSchema = {
  forms: ['[{x, y}, …]'],
  keys: { x: '', y: '', radius: '', limit: '-' },
  returns: 'elements with refs',
};

defineStep<AtParams>({
  name: 'elementsAt',
  summary: 'Elements at viewport points, with refs',
  params: ELEMENTS_AT_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: readAt,
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const opts = { deadline: ctx.deadline, what: 'the elements at the point' };
    if (p.kind === 'near') {
      const found = keepCounters(
        tab,
        await ctx.scope.callSeeingClosedRoots(
          (rt, a) => rt.elementSearch.elementsNear(a.x, a.y, a.radius, a.limit, a.counters),
          { ...p, counters: tab.entry.counters },
          opts,
        ),
      );
      return { center: { x: p.x, y: p.y }, radius: p.radius, count: found.elements.length, elements: found.elements };
    }
    const points = p.kind === 'point' ? [{ x: p.x, y: p.y }] : p.points;
    const { elements } = keepCounters(
      tab,
      await ctx.scope.callSeeingClosedRoots(
        (rt, a) => rt.elementSearch.elementsAtPoints(a.points, a.counters),
        { points, counters: tab.entry.counters },
        opts,
      ),
    );
    if (p.kind === 'batch') return { count: elements.filter((e) => !('error' in e)).length, elements };
    const { x: _x, y: _y, ...one } = elements[0]!;
    if ('error' in one) throw new ElementNotFoundError(one.error, { x: p.x, y: p.y });
    return one;
  },
});
