// The step reference, rendered from the registry's definitions: one line of parameters per step
// for --help (every key) and the SKILL.md table (the short form; scripts/docs.mjs writes it).

import { allSteps, type StepDefinition } from './registry.js';

/** Target keys the docs fold into `…T` (SKILL.md defines T once). */
const T_KEYS = new Set(['selector', 'ref', 'text', 'label', 'exact', 'withinSelector']);

function objectForm(def: StepDefinition, full: boolean): string | undefined {
  const keys = Object.entries(def.params.keys ?? {});
  const shown: string[] = [];
  let folded = false;
  for (const [key, hint] of keys) {
    if (hint === '-' && !full) continue;
    if (def.target?.keys.includes(key) && T_KEYS.has(key)) {
      if (!folded) shown.push('…T');
      folded = true;
    } else {
      shown.push(hint && hint !== '-' ? `${key}: ${hint}` : key);
    }
  }
  return shown.length ? `{${shown.join(', ')}}` : undefined;
}

/** `forms | {keys} → returns; note`: the step's parameters, short (SKILL.md) or with every key (--help). */
export function paramsLine(def: StepDefinition, full = false): string {
  const { forms = [], returns, note } = def.params;
  const object = objectForm(def, full);
  const all = [...forms, ...(object ? [object] : [])].join(' | ');
  return `${all}${returns ? ` → ${returns}` : ''}${note ? `; ${note}` : ''}`;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** The SKILL.md step table: one row per step, in registry order. */
export function stepTable(): string {
  const rows = allSteps().map((def) => `| \`${def.name}\` | ${cell(paramsLine(def))} |`);
  return ['| step | params → output |', '| --- | --- |', ...rows].join('\n');
}
