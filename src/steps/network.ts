// The network step: the tab's requests, newest first — this command's from Chrome, earlier ones from
// the page's own resource timing (no method, headers or bodies) — filtered by url, status, type;
// one request of the command in detail (headers, bodies); or a HAR of the command's traffic.

import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { StepValidationError } from '../common/index.js';
import { listRequests, requestDetail, RESOURCE_TYPES, type RequestFilter, type StatusFilter } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, obj, optBool, optNumber, optString, ParamError, type Obj } from './params.js';
import { pdfPath } from './pdf.js';

type NetworkParams =
  | { kind: 'list'; filter: RequestFilter; limit: number }
  | { kind: 'detail'; id?: string; url?: string; body: boolean }
  | { kind: 'har'; path: string; filter: RequestFilter };

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 200;

const NETWORK_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: {
    url: '',
    status: '">=400"|"failed"',
    type: '',
    limit: '-',
    id: '-',
    body: '',
    har: '',
  },
  returns: '{requests}',
  note: 'also between calls; body: with url or id',
};

/** `404`, `"404"`, `"4xx"`, `">=400"`, `"!=200"`, `"failed"` (≥ 400 or no response). */
export function parseStatus(v: unknown): StatusFilter {
  const bad = (): ParamError =>
    new ParamError(
      `"status" must be a status (404), a class ("4xx"), a comparison (">=400", "<300", "!=200") or "failed", got ${describe(v)}`,
    );
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 100 || v > 599) throw bad();
    return { op: '=', value: v };
  }
  if (typeof v !== 'string') throw bad();
  const s = v.trim().toLowerCase();
  if (s === 'failed') return { op: 'failed' };
  const cls = /^([1-5])xx$/.exec(s);
  if (cls) return { op: 'class', value: Number(cls[1]) };
  const cmp = /^(>=|<=|!=|=|>|<)?\s*([1-5]\d\d)$/.exec(s);
  if (!cmp) throw bad();
  return { op: (cmp[1] ?? '=') as '=', value: Number(cmp[2]) };
}

function parseTypes(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (!list.length) throw new ParamError('"type" must not be empty');
  return list.map((t) => {
    const name = typeof t === 'string' ? t.toLowerCase() : t;
    if (typeof name !== 'string' || !(RESOURCE_TYPES as readonly string[]).includes(name))
      throw new ParamError(
        `"type" must be one of ${RESOURCE_TYPES.join(', ')} (or a list of them), got ${describe(t)}`,
        typeof t === 'string' ? t : undefined,
        RESOURCE_TYPES,
      );
    return name;
  });
}

function parseFilter(o: Obj): RequestFilter {
  const url = optString(o, 'url', { maxLength: 2000 });
  const types = parseTypes(o.type);
  return {
    ...(url !== undefined ? { url } : {}),
    ...(o.status !== undefined ? { status: parseStatus(o.status) } : {}),
    ...(types ? { types } : {}),
  };
}

function only(o: Obj, keys: string[], what: string, allowed: string): void {
  const extra = keys.filter((k) => o[k] !== undefined);
  if (extra.length) throw new ParamError(`${what} takes ${allowed}, not ${extra.map((k) => `"${k}"`).join(', ')}`);
}

function parseNetwork(v: unknown): NetworkParams {
  if (v === true) return { kind: 'list', filter: {}, limit: DEFAULT_LIMIT };
  if (v === false || typeof v !== 'object' || v === null)
    throw new ParamError(`network takes true or {url, status, type, id, body, har}, got ${describe(v)}`);
  const o = obj(v, keysOf(NETWORK_PARAMS), 'network');
  const har = optString(o, 'har', { maxLength: 4096 });
  if (har !== undefined) {
    only(o, ['id', 'body', 'limit'], '{"har"}', 'url, status and type (which requests the file keeps)');
    return { kind: 'har', path: har, filter: parseFilter(o) };
  }
  const body = optBool(o, 'body') ?? false;
  const id = optString(o, 'id', { maxLength: 100 });
  if (id !== undefined || body) {
    const url = optString(o, 'url', { maxLength: 2000 });
    if (id !== undefined && url !== undefined)
      throw new ParamError('network takes "id" or "url" for one request, not both');
    if (id === undefined && url === undefined)
      throw new ParamError('"body": true needs the request: "url" (its newest match) or "id" (from a list)');
    only(o, ['status', 'type', 'limit'], 'network {url|id, body}', 'one request');
    return { kind: 'detail', ...(id !== undefined ? { id } : { url }), body };
  }
  const limit = optNumber(o, 'limit', { min: 1, max: MAX_LIMIT, integer: true }) ?? DEFAULT_LIMIT;
  return { kind: 'list', filter: parseFilter(o), limit };
}

/** The HAR's folder must take a file now: a path that can't be written fails the step, not the end of the command. */
function checkWritable(path: string): void {
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (err) {
    throw new StepValidationError(
      `Cannot write the HAR to ${path}: its folder is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Name a path in a folder that exists, or a bare file name (the temp dir).`,
    );
  }
}

defineStep<NetworkParams>({
  name: 'network',
  summary: "The tab's requests (also between calls); one in detail; a HAR",
  params: NETWORK_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: parseNetwork,
  async run(ctx, p) {
    const { page } = ctx.command.requireTab();
    if (p.kind === 'list') return page.guard(listRequests(page, p.filter, p.limit, ctx.deadline));
    if (p.kind === 'detail') return page.guard(requestDetail(page, p, p.body, ctx.deadline));
    const path = pdfPath(p.path, p.path);
    checkWritable(path);
    page.requests.harAsked.push({ path, filter: p.filter, step: ctx.index });
    return { path, written: 'when the command ends, with all its requests' };
  },
});
