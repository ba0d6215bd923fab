// Values that must never be echoed: what was typed into secret fields (DECISIONS: passwords,
// one-time codes, API keys, card numbers…). Which fields and names are secret is shared/secrets.ts;
// steps mark what they typed there, and every answer and --debug log has those values replaced by
// •••• (runner/output.ts, capture/debug-log.ts).

import { isSecretText, REDACTED } from '../shared/index.js';

/** The process's secrets: one command per process, so this never outlives what it protects. */
const secrets = new Set<string>();
/** Of which the values of fields (typed, or held by a secret field), in the order marked: the page keeps them for the next command. */
const fieldValues: string[] = [];

/** Remembers a value typed into (or read back from) a secret field, so no answer or log shows it. */
export function markSecret(value: string): void {
  if (value.length === 0 || secrets.has(value)) return;
  secrets.add(value);
  fieldValues.push(value);
}

export function knownSecrets(): readonly string[] {
  return [...secrets];
}

/**
 * The secret values of fields marked since `mark` (a count from fieldSecretsMark): never an
 * endpoint's credentials, and in a warm process (mcp) never another command's, on another page.
 */
export function fieldSecrets(mark = 0): string[] {
  return fieldValues.slice(mark);
}

export function fieldSecretsMark(): number {
  return fieldValues.length;
}

/** Query keys whose values are credentials in an endpoint: ?token=…, ?apiKey=…, ?sig=… */
function isCredentialKey(key: string): boolean {
  return (
    isSecretText(key) || /^(key|sig|signature|session|sessionid|jwt|access|credentials?|code|auth[-_]?key)$/i.test(key)
  );
}

function markCredential(value: string): void {
  if (value.length > 0) secrets.add(value);
}

/**
 * Marks the credentials of a browser endpoint the agent gave (wsEndpoint, host): the password of
 * its userinfo and the values of token-like query keys (issue 15 item 5). They are then shown as
 * •••• in every answer and log; only the private registry keeps the endpoint whole.
 */
export function markEndpointSecrets(endpoint: string): void {
  for (const m of endpoint.matchAll(/[?&]([^=&#]+)=([^&#]*)/g)) {
    if (!isCredentialKey(m[1]!)) continue;
    markCredential(m[2]!);
    try {
      markCredential(decodeURIComponent(m[2]!));
    } catch {
      /* not %-encoded text: marked as written */
    }
  }
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(endpoint)?.[1];
  const password = userinfo?.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : undefined;
  if (password) {
    markCredential(password);
    try {
      markCredential(decodeURIComponent(password));
    } catch {
      /* as written */
    }
  }
}

/** user:password@ of any URL in a text, which never needs showing. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;

/**
 * `value` with the userinfo of every URL and every known secret replaced by ••••, in every string
 * it holds (keys too). Longest first, so a secret that contains another is replaced whole. Values
 * of one or two characters are replaced only where they are a whole string: inside text they
 * would blank out too much.
 */
export function redactSecrets<T>(value: T): T {
  const list = [...secrets].sort((a, b) => b.length - a.length);
  const scrub = (s: string): string => {
    if (secrets.has(s)) return REDACTED;
    const text = s.includes('@') && s.includes('://') ? s.replace(USERINFO, `$1${REDACTED}@`) : s;
    return list.reduce(
      (acc, secret) => (secret.length >= 3 && acc.includes(secret) ? acc.split(secret).join(REDACTED) : acc),
      text,
    );
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v))
        Object.defineProperty(out, scrub(k), { value: walk(x), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
