// The keys that name a browser farm (issue 24): "grid" (a Selenium Grid's URL), "capabilities"
// (merged into the WebDriver session's), "session" (join one), "wsEndpoint". Their credentials are
// marked never to be shown before anything else reads the command — a step refused for another
// key still leaves no token in the answer or the --debug log.

import { markEndpointSecrets, markSecret } from '../common/index.js';
import { isSecretText } from '../shared/index.js';
import { describe, isObj, optString, ParamError, type Obj } from './params.js';

/** Keys whose string values are browser endpoints, in any step. */
const ENDPOINT_KEYS = new Set(['wsEndpoint', 'grid', 'host']);
/** Largest capabilities object accepted (JSON characters). */
const MAX_CAPABILITIES_CHARS = 16_384;

/** A capability that holds a credential: sauce:options.accessKey, bstack:options.password, … */
const isCredentialCapability = (key: string): boolean =>
  isSecretText(key) || /(key|secret|token|password|passwd|credential)$/i.test(key);

function markCapabilitySecrets(value: unknown): void {
  if (Array.isArray(value)) value.forEach(markCapabilitySecrets);
  else if (isObj(value))
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && isCredentialCapability(k)) markSecret(v);
      else markCapabilitySecrets(v);
    }
}

/**
 * Marks every endpoint credential and credential capability in a raw command, wherever it sits
 * (unknown steps and keys included): called before validation, so nothing is echoed unmarked.
 */
export function markRequestSecrets(value: unknown, depth = 0): void {
  if (depth > 6) return; // commands are shallow; a deep structure here is not an endpoint
  if (Array.isArray(value)) {
    for (const v of value) markRequestSecrets(v, depth + 1);
    return;
  }
  if (!isObj(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && ENDPOINT_KEYS.has(k))
      markEndpointSecrets(k === 'host' && !v.includes('://') ? `ws://${v}` : v);
    else if (k === 'capabilities') markCapabilitySecrets(v);
    else markRequestSecrets(v, depth + 1);
  }
}

/** "grid": a Selenium Grid's http(s) URL (its credentials marked first). */
export function optGridUrl(o: Obj, key = 'grid'): string | undefined {
  const v = optString(o, key);
  if (v === undefined) return undefined;
  markEndpointSecrets(v);
  let url: URL | undefined;
  try {
    url = new URL(v);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ParamError(
      `"${key}" must be a Selenium Grid's http:// or https:// URL such as "http://hub:4444", got ${describe(v)}`,
    );
  return v;
}

/** "capabilities": WebDriver capabilities (an object; its credentials marked). */
export function optCapabilities(o: Obj, key = 'capabilities'): Record<string, unknown> | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (!isObj(v))
    throw new ParamError(
      `"${key}" must be an object of WebDriver capabilities such as {"browserName": "chrome"}, got ${describe(v)}`,
    );
  markCapabilitySecrets(v);
  if (JSON.stringify(v).length > MAX_CAPABILITIES_CHARS)
    throw new ParamError(`"${key}" is larger than ${MAX_CAPABILITIES_CHARS} characters of JSON`);
  return v;
}

/** "session": a WebDriver session id to join (Grid ids are 32 hex digits; other grids use UUIDs). */
export function optSessionId(o: Obj, key = 'session'): string | undefined {
  const v = optString(o, key);
  if (v !== undefined && !/^[A-Za-z0-9_-]{8,64}$/.test(v))
    throw new ParamError(`"${key}" must be a WebDriver session id (as openTab's answer gives it), got ${describe(v)}`);
  return v;
}

export interface GridParams {
  url: string;
  sessionId?: string;
  capabilities?: Record<string, unknown>;
}

/** grid + capabilities or session, checked against the other ways of naming a browser. */
export function readGrid(
  o: Obj,
  others: { host?: string; port?: number; wsEndpoint?: string },
): GridParams | undefined {
  const url = optGridUrl(o);
  const capabilities = 'capabilities' in o ? optCapabilities(o) : undefined;
  const sessionId = 'session' in o ? optSessionId(o) : undefined;
  if (!url) {
    if (capabilities || sessionId)
      throw new ParamError('"capabilities" and "session" go with "grid" (the Selenium Grid\'s URL)');
    return undefined;
  }
  if (others.host || others.port || others.wsEndpoint)
    throw new ParamError('give one way to reach the browser: "grid", "wsEndpoint" or "host"/"port"');
  if (capabilities && sessionId)
    throw new ParamError('give "capabilities" for a new session or "session" to join one, not both');
  return { url, ...(sessionId ? { sessionId } : {}), ...(capabilities ? { capabilities } : {}) };
}
