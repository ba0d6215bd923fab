// Output assembly: the documented field order (small fields first, large YAML last), empty
// fields stripped so every byte an agent reads carries information, and the last guards: no value
// typed into a secret field (common/secrets.ts) in any field, and no answer over its ceiling
// (answer-bound.ts).

import { redactSecrets } from '../common/index.js';
import { boundAnswer } from './answer-bound.js';

export const OUTPUT_ORDER = [
  'status',
  'tab',
  'navigated',
  'context',
  'screenshot',
  'fullSnapshot',
  'changes',
  'console',
  'dialogs',
  'network',
  'betweenCommands',
  'steps',
  'errors',
  'error',
  'warning',
  'actionRequired',
  'siteProfile',
  'truncated',
  'viewportSnapshot',
] as const;

type Field = (typeof OUTPUT_ORDER)[number];

/** Drops undefined, null, false flags, empty strings, arrays and objects — recursively. */
export function stripEmpty(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(stripEmpty).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = stripEmpty(v);
      if (s !== undefined) out[k] = s;
    }
    return Object.keys(out).length ? out : undefined;
  }
  if (value === null || value === undefined || value === '') return undefined;
  return value;
}

/** Fields that are data as given: an empty string there means something ("from": ""). */
const VERBATIM = new Set<Field>(['steps', 'changes']);

/** `context` stripped like the rest, but a null field stays: it went away since the last answer (context-delta.ts). */
function contextFields(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return stripEmpty(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const s = v === null ? null : stripEmpty(v);
    if (s !== undefined) out[k] = s;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Orders the top-level fields and strips empties, except inside data fields. */
export function assemble(fields: Partial<Record<Field, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of OUTPUT_ORDER) {
    const v = VERBATIM.has(key)
      ? (fields[key] ?? undefined)
      : key === 'context'
        ? contextFields(fields[key])
        : stripEmpty(fields[key]);
    if (v !== undefined && v !== false) out[key] = v;
  }
  return boundAnswer(redactSecrets(out));
}
