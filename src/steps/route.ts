// The route step: mock or block requests (Fetch domain) for the rest of the command's steps; with
// `persist` the rule stays with the tab and is armed again at every later command's attach. Between
// commands no CDP client is attached, so nothing intercepts then (DECISIONS: the CLI stays stateless).

import { markSecret } from '../common/index.js';
import { patchTab, type RouteRule } from '../cdp/index.js';
import { isSecretHeader } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, isObj, obj, optBool, optNumber, optString, ParamError, reqString, type Obj } from './params.js';

type RouteParams = { clear: true } | { rule: RouteRule };

/** A mocked body's most characters; one kept with the tab (written to the registry each change) is smaller. */
const MAX_BODY_CHARS = 1_000_000;
const MAX_PERSISTED_BODY_CHARS = 64_000;

const ROUTE_PARAMS: ParamSchema = {
  forms: ['false'],
  keys: { url: '', status: '', body: '', contentType: '-', headers: '-', abort: 'true', persist: 'true' },
  note: 'persist: later calls too (none between)',
};

function parseHeaders(v: unknown): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObj(v)) throw new ParamError(`"headers" must be an object of header names to values, got ${describe(v)}`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new ParamError(`"headers" has an invalid header name ${describe(name)}`);
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new ParamError(`header "${name}" must be a string, got ${describe(value)}`);
    out[name] = String(value);
    // A credential the agent mocks (Authorization, a token) is never echoed back, not even in a failed step's params.
    if (isSecretHeader(name)) markSecret(out[name]);
  }
  return out;
}

/** The body as text, and the content type it implies: JSON values are sent as JSON. */
function parseBody(o: Obj): { body?: string; implied?: string } {
  const v = o.body;
  if (v === undefined) return {};
  if (typeof v === 'string') {
    const t = v.trimStart();
    const json = (t.startsWith('{') || t.startsWith('[')) && isJson(v);
    return { body: v, implied: json ? 'application/json' : 'text/plain; charset=utf-8' };
  }
  return { body: JSON.stringify(v), implied: 'application/json' };
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

function parseRoute(v: unknown): RouteParams {
  if (v === false) return { clear: true };
  if (!isObj(v))
    throw new ParamError(`route takes {url, status, body, …}, {url, abort: true} or false (clear), got ${describe(v)}`);
  const o = obj(v, keysOf(ROUTE_PARAMS), 'route');
  const url = reqString(o, 'url', { maxLength: 2000 });
  const abort = optBool(o, 'abort') ?? false;
  const persist = optBool(o, 'persist') ?? false;
  const status = optNumber(o, 'status', { min: 100, max: 599, integer: true });
  const headers = parseHeaders(o.headers);
  const contentType = optString(o, 'contentType', { maxLength: 200 });
  const { body, implied } = parseBody(o);
  if (abort && (status !== undefined || body !== undefined || headers || contentType))
    throw new ParamError('"abort": true fails the request: it takes no status, body, headers or contentType');
  if (!abort && status === undefined && body === undefined)
    throw new ParamError('route needs what to answer: "status", "body", or "abort": true');
  const max = persist ? MAX_PERSISTED_BODY_CHARS : MAX_BODY_CHARS;
  if (body !== undefined && body.length > max)
    throw new ParamError(
      `"body" is longer than ${max} characters${persist ? ' (the most a persisted route keeps)' : ''}`,
    );
  const type =
    contentType ?? (Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'content-type') ? undefined : implied);
  return {
    rule: {
      url,
      ...(abort ? { abort: true } : { status: status ?? 200 }),
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
      ...(type ? { contentType: type } : {}),
      ...(persist ? { persist: true } : {}),
    },
  };
}

defineStep<RouteParams>({
  name: 'route',
  summary: 'Mock or block requests: this call, or with persist every later call',
  params: ROUTE_PARAMS,
  needsTab: true,
  readOnly: true,
  parse: parseRoute,
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { routes } = tab.page;
    const wasPersisted = (tab.entry.routes ?? []).length > 0;
    if ('clear' in p) {
      const cleared = await tab.page.guard(routes.clear());
      if (wasPersisted) await patchTab(tab.alias, { routes: undefined });
      tab.entry.routes = undefined;
      return { cleared };
    }
    await tab.page.guard(routes.add(p.rule));
    const kept = routes.persisted;
    if (wasPersisted || kept.length) {
      await patchTab(tab.alias, { routes: kept.length ? kept : undefined });
      tab.entry.routes = kept.length ? kept : undefined;
    }
    const { rule } = p;
    return {
      url: rule.url,
      ...(rule.abort ? { abort: true } : { status: rule.status }),
      ...(rule.persist ? { persist: true } : {}),
      rules: routes.rules.length,
    };
  },
});
