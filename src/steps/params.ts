// Parameter checking for step definitions: small typed readers that throw ParamError with the
// key at fault. The runner adds the step index and a "did you mean" for unknown keys.

import { markEndpointSecrets } from '../common/index.js';

export class ParamError extends Error {
  constructor(
    message: string,
    readonly unknownKey?: string,
    readonly knownKeys?: readonly string[],
  ) {
    super(message);
  }
}

export type Obj = Record<string, unknown>;

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/** A key as messages show it: a very long one (hostile input) is cut, never echoed whole. */
export function quoteKey(key: string): string {
  return `"${key.length > 60 ? `${key.slice(0, 60)}…` : key}"`;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object with only `allowed` keys. */
export function obj(v: unknown, allowed: readonly string[], what: string): Obj {
  if (!isObj(v)) throw new ParamError(`${what} must be an object, got ${describe(v)}`);
  for (const key of Object.keys(v)) {
    if (!allowed.includes(key)) {
      throw new ParamError(`unknown key ${quoteKey(key)} in ${what} (known: ${allowed.join(', ')})`, key, allowed);
    }
  }
  return v;
}

export function optString(
  o: Obj,
  key: string,
  opts: { nonEmpty?: boolean; maxLength?: number } = {},
): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new ParamError(`"${key}" must be a string, got ${describe(v)}`);
  if (opts.nonEmpty !== false && v.length === 0) throw new ParamError(`"${key}" must not be empty`);
  if (opts.maxLength && v.length > opts.maxLength)
    throw new ParamError(`"${key}" is longer than ${opts.maxLength} characters`);
  return v;
}

export function reqString(o: Obj, key: string, opts?: { nonEmpty?: boolean; maxLength?: number }): string {
  const v = optString(o, key, opts);
  if (v === undefined) throw new ParamError(`"${key}" is required`);
  return v;
}

export function optNumber(
  o: Obj,
  key: string,
  opts: { min?: number; max?: number; integer?: boolean } = {},
): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ParamError(`"${key}" must be a number, got ${describe(v)}`);
  if (opts.integer && !Number.isInteger(v)) throw new ParamError(`"${key}" must be a whole number, got ${v}`);
  if (opts.min !== undefined && v < opts.min) throw new ParamError(`"${key}" must be at least ${opts.min}, got ${v}`);
  if (opts.max !== undefined && v > opts.max) throw new ParamError(`"${key}" must be at most ${opts.max}, got ${v}`);
  return v;
}

export function optBool(o: Obj, key: string): boolean | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new ParamError(`"${key}" must be true or false, got ${describe(v)}`);
  return v;
}

export function optEnum<T extends string>(o: Obj, key: string, values: readonly T[]): T | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !values.includes(v as T)) {
    throw new ParamError(
      `"${key}" must be one of ${values.join(', ')}, got ${describe(v)}`,
      typeof v === 'string' ? v : undefined,
      values,
    );
  }
  return v as T;
}

export function optPort(o: Obj, key = 'port'): number | undefined {
  return optNumber(o, key, { min: 1, max: 65535, integer: true });
}

/** `ws://…` or `wss://…`. */
export function optWsEndpoint(o: Obj, key = 'wsEndpoint'): string | undefined {
  const v = optString(o, key);
  if (v === undefined) return undefined;
  markEndpointSecrets(v); // its credentials are never shown (issue 15 item 5), even in a refusal
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ParamError(`"${key}" must be a ws:// or wss:// URL, got ${describe(v)}`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new ParamError(`"${key}" must be a ws:// or wss:// URL, got ${describe(v)}`);
  return v;
}

/** A URL an agent may navigate to; bare hosts get https:// (an agent typing "example.com" means it). */
/**
 * A URL to navigate a tab to (goto, openTab). `javascript:` is refused (DECISIONS): it runs a
 * script in whatever page is open instead of navigating; use pageFunction for that.
 */
export function navigableUrl(raw: string, key: string): string {
  const url = normaliseUrl(raw, key);
  if (/^javascript:/i.test(url)) {
    throw new ParamError(
      `"${key}" is a javascript: URL, which runs a script instead of navigating; it is refused. Run the script with {"pageFunction": "…"} instead`,
    );
  }
  return url;
}

/** A browser host for host/port: a host name or IP address, nothing else (no port, path or scheme). */
export function optHost(o: Obj, key = 'host'): string | undefined {
  const v = optString(o, key, { maxLength: 253 });
  if (v === undefined) return undefined;
  if (!/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f]*:[0-9A-Fa-f:.]+|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(v)) {
    throw new ParamError(
      `"${key}" must be a host name or IP address such as "127.0.0.1" (give the port in "port"), got ${describe(v)}`,
    );
  }
  return v;
}

export function normaliseUrl(raw: string, key: string): string {
  const trimmed = raw.trim();
  if (!trimmed) throw new ParamError(`"${key}" must not be empty`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^/]+:\d+(\/|$)/.test(trimmed)) {
    try {
      return new URL(trimmed).href;
    } catch {
      throw new ParamError(`"${key}" is not a valid URL: ${describe(raw)}`);
    }
  }
  const local = /^(localhost|127\.|\[::1\])/i.test(trimmed);
  try {
    return new URL(`${local ? 'http' : 'https'}://${trimmed}`).href;
  } catch {
    throw new ParamError(`"${key}" is not a valid URL: ${describe(raw)}`);
  }
}
