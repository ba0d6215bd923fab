// The click keys that say how the mouse is pressed: `button` (left, right, middle), `modifiers`
// held during the click, and `clickCount` (doubleClick is clickCount 2).

import { MODIFIERS, type ClickOptions, type ModifierName } from '../dom/index.js';
import { describe, optBool, optEnum, optNumber, ParamError, type Obj } from './params.js';

export type PressOptions = Pick<ClickOptions, 'button' | 'modifiers' | 'clickCount'>;

function readModifiers(v: unknown): ModifierName[] | undefined {
  if (v === undefined) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list))
    throw new ParamError(`"modifiers" must be a list such as ["Control", "Shift"], got ${describe(v)}`);
  for (const m of list)
    if (typeof m !== 'string' || !(MODIFIERS as string[]).includes(m))
      throw new ParamError(
        `unknown modifier ${describe(m)} in "modifiers" (known: ${MODIFIERS.join(', ')})`,
        typeof m === 'string' ? m : undefined,
        MODIFIERS,
      );
  return [...new Set(list as ModifierName[])];
}

/** button, modifiers and clickCount of a click's object form. */
export function readPointerPress(o: Obj): PressOptions {
  const button = optEnum(o, 'button', ['left', 'right', 'middle'] as const);
  const modifiers = readModifiers(o.modifiers);
  const count = optNumber(o, 'clickCount', { min: 1, max: 3, integer: true });
  const double = optBool(o, 'doubleClick');
  if (double && count !== undefined && count !== 2)
    throw new ParamError(`"doubleClick" and "clickCount": ${count} contradict each other`);
  const clickCount = count ?? (double ? 2 : undefined);
  if (optBool(o, 'jsClick') && ((button && button !== 'left') || modifiers?.length))
    throw new ParamError('"jsClick" runs element.click(), a plain left click: it cannot carry "button" or "modifiers"');
  return {
    ...(button && button !== 'left' ? { button } : {}),
    ...(modifiers?.length ? { modifiers } : {}),
    ...(clickCount && clickCount > 1 ? { clickCount } : {}),
  };
}

/** A click that may open the link in a new tab (Chrome: middle click, or Control/Meta/Shift held). */
export function mayOpenTab(p: PressOptions): boolean {
  return p.button === 'middle' || !!p.modifiers?.some((m) => m !== 'Alt');
}
