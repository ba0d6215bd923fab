// --debug: one JSON file per command in ./log/, named {seq}-{tab}-{actions}.{status}.json.
// Secrets never reach it: values typed into password or auth-like fields are redacted.
// Never allowed to disturb the command: every failure here is swallowed.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { knownSecrets, redactSecrets } from '../common/index.js';
import { isSecretText, REDACTED } from '../shared/index.js';

export function debugLogName(seq: number, tab: string | undefined, actions: string[], status: string): string {
  const shown = actions.slice(0, 3);
  const more = actions.length > 3 ? [`plus${actions.length - 3}`] : [];
  const parts = [String(seq).padStart(3, '0'), ...(tab ? [tab] : []), ...shown, ...more];
  return `${parts.join('-')}.${status}.json`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value a fill/type step types, keyed by its parameter name. */
const TYPED_KEY: Record<string, string> = { fill: 'value', type: 'text' };

/** True when the command ended with focus in a secret field (so a target-less fill/type typed a secret). */
function focusIsSecret(response: unknown): boolean {
  const active = isObj(response) && isObj(response.context) ? response.context.activeElement : undefined;
  return (
    isObj(active) &&
    (active.type === 'password' || (typeof active.selector === 'string' && isSecretText(active.selector)))
  );
}

/** Values the request typed into secret fields: by the target's selector/label, a field map's key, or the focus. */
function typedSecrets(request: unknown, focusSecret: boolean): string[] {
  const found: string[] = [];
  const add = (v: unknown): void => {
    if (typeof v === 'string' || typeof v === 'number') found.push(String(v));
  };
  const steps = isObj(request) && Array.isArray(request.steps) ? request.steps : [];
  for (const step of steps.filter(isObj)) {
    for (const [action, key] of Object.entries(TYPED_KEY)) {
      const p = step[action];
      if (p === undefined) continue;
      if (!isObj(p)) {
        if (focusSecret) add(p);
        continue;
      }
      const fields = isObj(p.fields) ? p.fields : key in p ? undefined : p;
      if (fields) {
        for (const [k, v] of Object.entries(fields)) if (isSecretText(k)) add(v);
        continue;
      }
      const { [key]: typed, ...target } = p;
      const targeted = ['selector', 'ref', 'label', 'withinSelector'].some((t) => t in target);
      if (isSecretText(JSON.stringify(target)) || (!targeted && focusSecret)) add(typed);
    }
  }
  return found;
}

/** Every string under a key that names a secret (`password`, `authToken`, …), anywhere in the request. */
function keyedSecrets(value: unknown, found: string[]): void {
  if (Array.isArray(value)) value.forEach((v) => keyedSecrets(v, found));
  else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && isSecretText(k)) found.push(v);
      else keyedSecrets(v, found);
    }
  }
}

function replaceSecrets(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') {
    if (secrets.includes(value)) return REDACTED;
    return secrets.reduce((s, secret) => (secret.length >= 4 ? s.split(secret).join(REDACTED) : s), value);
  }
  if (Array.isArray(value)) return value.map((v) => replaceSecrets(v, secrets));
  if (isObj(value)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: replaceSecrets(v, secrets),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

/** The request and response as the log may show them: every secret typed or named replaced by ••••. */
export function redactForLog(request: unknown, response: unknown): { request: unknown; response: unknown } {
  const secrets = [...knownSecrets(), ...typedSecrets(request, focusIsSecret(response))];
  keyedSecrets(request, secrets);
  const unique = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  // redactSecrets: the userinfo of any URL, and what the steps marked (endpoint tokens among them).
  if (!unique.length) return { request: redactSecrets(request), response: redactSecrets(response) };
  return {
    request: redactSecrets(replaceSecrets(request, unique)),
    response: redactSecrets(replaceSecrets(response, unique)),
  };
}

export function writeDebugLog(
  tab: string | undefined,
  actions: string[],
  status: string,
  request: unknown,
  response: unknown,
): void {
  try {
    const dir = join(process.cwd(), 'log');
    mkdirSync(dir, { recursive: true });
    const seqs = readdirSync(dir)
      .map((f) => Number.parseInt(f.slice(0, 3), 10))
      .filter(Number.isFinite);
    const seq = (seqs.length ? Math.max(...seqs) : 0) + 1;
    const body = JSON.stringify({ ts: new Date().toISOString(), ...redactForLog(request, response) }, null, 2);
    writeFileSync(join(dir, debugLogName(seq, tab, actions, status)), body, { mode: 0o600 });
  } catch {
    // SPEC §17.5: debug logging failures never affect the command.
  }
}
