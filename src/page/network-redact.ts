// Secrets in what the page sent and got: credential headers (Authorization, Cookie, Set-Cookie, API
// keys and tokens) shown as ••••, and token-like values in JSON and form bodies too. Each value
// hidden here is also marked secret (common/secrets.ts), so it is •••• wherever else it shows.

import { markEndpointSecrets, markSecret } from '../common/index.js';
import { isSecretText, REDACTED } from '../shared/index.js';

/** Headers that carry credentials whatever their value looks like. */
const CREDENTIAL_HEADERS =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-auth-token|x-csrf-token|x-xsrf-token|x-access-token|x-amz-security-token)$/i;

/** A value shorter than this is not marked secret everywhere: hiding every "1" or "dark" in an answer would hide too much. */
const MIN_MARKED = 6;

function mark(value: string): void {
  if (value.length >= MIN_MARKED) markSecret(value);
}

/** Whether a header's value is a credential: by its name (Authorization, Cookie, *-Token, *-Key, …). */
export function isSecretHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.test(name) || isSecretText(name) || /(^|-)(key|session|sid|jwt|signature)$/i.test(name);
}

/** Hides a credential header's value, marking it (and its parts: a bearer token, each cookie's value) secret. */
function hideHeader(name: string, value: string): string {
  for (const line of value.split('\n')) {
    mark(line);
    const bearer = /^\s*\w+\s+(\S+)\s*$/.exec(line)?.[1];
    if (bearer) mark(bearer);
    if (name.toLowerCase().includes('cookie'))
      for (const m of line.matchAll(/(?:^|;)\s*[^=;]+=([^;]*)/g)) if (m[1]) mark(m[1].trim());
  }
  return REDACTED;
}

/** Headers as `{name: value}`, credentials hidden, each value capped. */
export function redactHeaders(headers: Record<string, unknown> | undefined, maxValue = 1000): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = String(raw);
    out[name] = isSecretHeader(name)
      ? hideHeader(name, value)
      : value.length > maxValue
        ? `${value.slice(0, maxValue - 1)}…`
        : value;
  }
  return out;
}

/** The values of credential-like keys of a URL's query (?token=…, ?api_key=…) are marked secret: •••• in every answer. */
export function markUrlSecrets(url: string): void {
  if (url.includes('?')) markEndpointSecrets(url);
}

function redactJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJsonValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isSecretText(k) && (typeof v === 'string' || typeof v === 'number')) {
        mark(String(v));
        out[k] = REDACTED;
      } else out[k] = redactJsonValue(v);
    }
    return out;
  }
  return value;
}

/**
 * A text body with token-like values hidden: JSON keys and form fields named password, token,
 * api key, secret… Their values are marked secret first, so a prefix cut later can't show them.
 * Other text is left as the page sent it (known secrets are hidden at output).
 */
export function redactBody(text: string, mimeType = ''): string {
  const trimmed = text.trimStart();
  if (/json/i.test(mimeType) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const redacted = JSON.stringify(redactJsonValue(JSON.parse(text)));
      return redacted === JSON.stringify(JSON.parse(text)) ? text : redacted;
    } catch {
      // not JSON after all: the form and text rules below
    }
  }
  if (/x-www-form-urlencoded/i.test(mimeType) || /^[\w.%-]+=[^&\s]*(&[\w.%-]+=[^&\s]*)*$/.test(trimmed)) {
    return text.replace(/(^|&)([^=&]+)=([^&]*)/g, (all, sep: string, key: string, value: string) => {
      if (!isSecretText(decodeURIComponentSafe(key))) return all;
      mark(value);
      mark(decodeURIComponentSafe(value));
      return `${sep}${key}=${REDACTED}`;
    });
  }
  return text;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
