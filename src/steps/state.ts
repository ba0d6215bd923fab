// Browser state of the tab: cookies, web storage (of the chosen frame's origin) and an emulated
// geolocation that stays with the tab (DECISIONS). Each change is read back before it is reported.

import { ExecutionError, StepValidationError } from '../common/index.js';
import { patchTab, type GeolocationSetting } from '../cdp/index.js';
import {
  applyGeolocation,
  clearCookies,
  clearGeolocation,
  getCookies,
  grantGeolocation,
  setCookies,
  type CookieFilter,
  type CookieSpec,
  type Scope,
} from '../page/index.js';
import type { StorageKind, StorageOp } from '../injected/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import {
  describe,
  isObj,
  normaliseUrl,
  obj,
  optBool,
  optEnum,
  optNumber,
  optString,
  ParamError,
  reqString,
} from './params.js';

type CookiesParams =
  | { kind: 'get'; urls?: string[] }
  | { kind: 'set'; cookies: CookieSpec[] }
  | { kind: 'clear'; filter: CookieFilter };

const MAX_COOKIES_SHOWN = 50;

/** The URL the steps work on: the chosen frame's, else the tab's. */
function currentUrl(scope: Scope): string {
  return scope.url;
}

function oneOf(o: Record<string, unknown>, keys: readonly string[], what: string): string {
  const given = keys.filter((k) => o[k] !== undefined);
  if (given.length !== 1)
    throw new ParamError(
      `${what} needs exactly one of ${keys.map((k) => `"${k}"`).join(', ')}${given.length ? ` (got ${given.join(' and ')})` : ''}`,
    );
  return given[0]!;
}

function readCookie(v: unknown, i: number): CookieSpec {
  const o = obj(
    v,
    ['name', 'value', 'url', 'domain', 'path', 'secure', 'httpOnly', 'sameSite', 'expires'],
    `cookie ${i}`,
  );
  const url = optString(o, 'url');
  const c: CookieSpec = {
    name: reqString(o, 'name'),
    value: typeof o.value === 'number' ? String(o.value) : reqString(o, 'value', { nonEmpty: false }),
  };
  if (url) c.url = normaliseUrl(url, 'url');
  const rest = {
    domain: optString(o, 'domain'),
    path: optString(o, 'path'),
    secure: optBool(o, 'secure'),
    httpOnly: optBool(o, 'httpOnly'),
    sameSite: optEnum(o, 'sameSite', ['Strict', 'Lax', 'None'] as const),
    expires: optNumber(o, 'expires', { min: 0 }),
  };
  for (const [k, val] of Object.entries(rest))
    if (val !== undefined) (c as unknown as Record<string, unknown>)[k] = val;
  return c;
}

const COOKIES_PARAMS: ParamSchema = {
  keys: { get: 'true', set: '[{name, value, url}]', clear: 'true' },
  note: 'one key',
};

defineStep<CookiesParams>({
  name: 'cookies',
  summary: 'Cookies of the page',
  params: COOKIES_PARAMS,
  needsTab: true,
  readOnly: (p) => p.kind === 'get',
  parse(v) {
    const o = obj(v, keysOf(COOKIES_PARAMS), 'cookies');
    const kind = oneOf(o, ['get', 'set', 'clear'], 'cookies');
    if (kind === 'get') {
      if (o.get === true) return { kind };
      const g = obj(o.get, ['urls'], 'cookies.get');
      const urls = typeof g.urls === 'string' ? [g.urls] : g.urls;
      if (!Array.isArray(urls) || !urls.length || urls.some((u) => typeof u !== 'string'))
        throw new ParamError(`"get.urls" must be a URL or a list of URLs, got ${describe(g.urls)}`);
      return { kind, urls: urls.map((u: string) => normaliseUrl(u, 'urls')) };
    }
    if (kind === 'set') {
      const list = Array.isArray(o.set) ? o.set : [o.set];
      if (!list.length) throw new ParamError('"set" must list at least one cookie');
      return { kind, cookies: list.map(readCookie) };
    }
    if (o.clear === true) return { kind: 'clear', filter: {} };
    const f = obj(o.clear, ['name', 'domain', 'path'], 'cookies.clear');
    const filter: CookieFilter = {};
    for (const key of ['name', 'domain', 'path'] as const) {
      const val = optString(f, key);
      if (val) filter[key] = val;
    }
    if (!filter.name && !filter.domain)
      throw new ParamError('"clear" is true (the page\'s cookies) or {name, domain, path}');
    return { kind: 'clear', filter };
  },
  async run(ctx, p) {
    const page = ctx.command.requireTab().page;
    const session = page.session;
    if (p.kind === 'get') {
      const cookies = await page.guard(getCookies(session, p.urls ?? [currentUrl(ctx.scope)], ctx.deadline));
      const shown = cookies.slice(0, MAX_COOKIES_SHOWN);
      return { cookies: shown, ...(cookies.length > shown.length ? { more: cookies.length - shown.length } : {}) };
    }
    if (p.kind === 'set')
      return { set: await page.guard(setCookies(session, p.cookies, currentUrl(ctx.scope), ctx.deadline)) };
    return { cleared: await page.guard(clearCookies(session, p.filter, currentUrl(ctx.scope), ctx.deadline)) };
  },
});

interface StorageParams {
  type: StorageKind;
  op: StorageOp;
}

function keyList(v: unknown, key: string): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.length || list.some((k) => typeof k !== 'string' || !k))
    throw new ParamError(`"${key}" must be a key or a list of keys, got ${describe(v)}`);
  return list as string[];
}

const STORAGE_PARAMS: ParamSchema = {
  keys: { get: 'true|"k"', set: '{k: v}', remove: '', clear: 'true', type: 'local|session' },
};

defineStep<StorageParams>({
  name: 'storage',
  summary: 'localStorage / sessionStorage of the page',
  params: STORAGE_PARAMS,
  needsTab: true,
  readOnly: (p) => p.op.kind === 'get',
  parse(v) {
    const o = obj(v, keysOf(STORAGE_PARAMS), 'storage');
    const type = optEnum(o, 'type', ['local', 'session'] as const) ?? 'local';
    const kind = oneOf(o, ['get', 'set', 'remove', 'clear'], 'storage');
    switch (kind) {
      case 'get':
        return { type, op: o.get === true ? { kind: 'get' } : { kind: 'get', keys: keyList(o.get, 'get') } };
      case 'remove':
        return { type, op: { kind: 'remove', keys: keyList(o.remove, 'remove') } };
      case 'clear':
        if (o.clear !== true) throw new ParamError('"clear" must be true');
        return { type, op: { kind: 'clear' } };
      default: {
        if (!isObj(o.set) || !Object.keys(o.set).length)
          throw new ParamError(`"set" must be an object of key → value, got ${describe(o.set)}`);
        // Storage holds strings: anything else is stored as its JSON, as pages usually do.
        const items = Object.fromEntries(
          Object.entries(o.set).map(([k, val]) => [k, typeof val === 'string' ? val : JSON.stringify(val)]),
        );
        return { type, op: { kind: 'set', items } };
      }
    }
  },
  async run(ctx, p) {
    const r = await ctx.scope.call((rt, a) => rt.webStorage.webStorage(a.type, a.op), p, {
      deadline: ctx.deadline,
    });
    if (!r.ok)
      throw r.reason === 'denied'
        ? new StepValidationError(r.message)
        : new ExecutionError(`${p.type}Storage: ${r.message}`);
    const base = { type: p.type, origin: r.origin };
    switch (p.op.kind) {
      case 'get':
        return { ...base, items: r.items, ...(r.more ? { more: r.more } : {}) };
      case 'set':
        return { ...base, set: r.count };
      case 'remove':
        return { ...base, removed: r.count };
      default:
        return { ...base, cleared: r.count };
    }
  },
});

type GeolocationParams = GeolocationSetting | false;

const GEOLOCATION_PARAMS: ParamSchema = { forms: ['false'], keys: { latitude: '', longitude: '', accuracy: '-' } };

defineStep<GeolocationParams>({
  name: 'geolocation',
  summary: 'Emulate the position; stays with the tab',
  params: GEOLOCATION_PARAMS,
  needsTab: true,
  readOnly: false,
  parse(v) {
    if (v === false) return false;
    const o = obj(v, keysOf(GEOLOCATION_PARAMS), 'geolocation');
    const latitude = optNumber(o, 'latitude', { min: -90, max: 90 });
    const longitude = optNumber(o, 'longitude', { min: -180, max: 180 });
    if (latitude === undefined || longitude === undefined)
      throw new ParamError('geolocation needs "latitude" and "longitude" (or false to clear)');
    const accuracy = optNumber(o, 'accuracy', { min: 0 });
    return { latitude, longitude, ...(accuracy !== undefined ? { accuracy } : {}) };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { page } = tab;
    if (p === false) {
      await page.guard(clearGeolocation(page.session));
      await patchTab(tab.alias, { geolocation: undefined });
      tab.entry.geolocation = undefined;
      return { cleared: true };
    }
    await page.guard(Promise.all([grantGeolocation(tab.conn, page.targetId), applyGeolocation(page.session, p)]));
    await patchTab(tab.alias, { geolocation: p });
    tab.entry.geolocation = p;
    const secure = await ctx.scope.call(() => isSecureContext, undefined, { deadline: ctx.deadline });
    return {
      ...p,
      ...(secure
        ? {}
        : {
            warnings: [
              'this page is not a secure context (https or localhost): its navigator.geolocation refuses to answer',
            ],
          }),
    };
  },
});
