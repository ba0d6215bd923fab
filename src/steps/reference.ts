// The step reference, rendered from the registry's definitions: one line of parameters per step
// for --help (every key) and the SKILL.md step list (the short form; scripts/docs.mjs writes it).

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

/** The SKILL.md step list: one line per step, in registry order (a list: no table cells to escape). */
export function stepTable(): string {
  return allSteps()
    .map((def) => `- \`${def.name}\` ${paramsLine(def)}`)
    .join('\n');
}

/** The step list of the MCP tool's description: the same lines, without SKILL.md's markup (every byte is context). */
export function compactStepList(): string {
  return allSteps()
    .map((def) => `${def.name} ${paramsLine(def)}`)
    .join('\n');
}
