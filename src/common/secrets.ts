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

/**
 * A secret the agent asked to see (the clipboard it read): the step's answer shows it, and every
 * other place — changes, context, warnings, --debug logs — shows ••••, as for any marked secret.
 * Serialised any other way than through redactSecrets, it is •••• too.
 */
export class AskedSecret {
  constructor(readonly text: string) {
    markSecret(text);
  }
  toJSON(): string {
    return REDACTED;
  }
}

/** Query keys whose values are credentials in an endpoint: ?token=…, ?apiKey=…, ?sig=… */
function isCredentialKey(key: string): boolean {
  return (
    isSecretText(key) || /^(key|sig|signature|session|sessionid|jwt|access|credentials?|code|auth[-_]?key)$/i.test(key)
  );
}

/**
 * The credentials in a browser endpoint (wsEndpoint, grid, host): the password of its userinfo and
 * the values of token-like query keys (issue 15 item 5), as written and %-decoded.
 */
export function endpointSecrets(endpoint: string): string[] {
  const found: string[] = [];
  const add = (raw: string): void => {
    found.push(raw);
    try {
      found.push(decodeURIComponent(raw));
    } catch {
      /* not %-encoded text: kept as written */
    }
  };
  for (const m of endpoint.matchAll(/[?&]([^=&#]+)=([^&#]*)/g)) if (isCredentialKey(m[1]!)) add(m[2]!);
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(endpoint)?.[1];
  const password = userinfo?.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : undefined;
  if (password) add(password);
  return found.filter((s) => s.length > 0);
}

/** Credentials in any URL of a text (a --debug log of a command that did not parse or validate). */
export function urlSecretsIn(text: string): string[] {
  return [...text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>\\]+/gi)].flatMap((m) => endpointSecrets(m[0]));
}

/**
 * Marks the credentials of a browser endpoint the agent gave: they are then shown as •••• in every
 * answer and log; only the private registry (and the alias claims) keep the endpoint whole.
 */
export function markEndpointSecrets(endpoint: string): void {
  // Not a field's value: never handed to a page (fieldSecrets).
  for (const secret of endpointSecrets(endpoint)) secrets.add(secret);
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
    if (v instanceof AskedSecret) return v.text;
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
