// Key combinations as agents write them ("Control+Shift+P", "Meta+a", "Enter") and the editing
// commands Chrome needs with them. Pure; keyboard.ts dispatches what this parses.

import {
  displayName,
  lookupKey,
  modifierBit,
  MODIFIERS,
  withShift,
  type KeyDefinition,
  type ModifierName,
} from './key-definitions.js';

export interface KeyCombo {
  /** Normalised: canonical modifier names in the order given, then the key ("Control+Shift+P"). */
  name: string;
  /** Keys held in order; the last one is the key pressed (it may itself be a modifier). */
  keys: KeyDefinition[];
}

export type ComboParse =
  | { ok: true; combo: KeyCombo }
  /** A name that is no key: press dispatches nothing and warns. */
  | { ok: false; reason: 'unknown'; token: string }
  /** Not a combination at all (empty part, a plain key before the last): the agent must fix it. */
  | { ok: false; reason: 'malformed'; message: string };

function modifierOf(def: KeyDefinition): ModifierName | undefined {
  return (MODIFIERS as string[]).includes(def.key) ? (def.key as ModifierName) : undefined;
}

/** "Control+Shift+P" → tokens; a "+" key is written "+" alone or last ("Control++"). */
function tokens(combo: string): string[] | undefined {
  if (combo === '+') return ['+'];
  const endsWithPlus = combo.endsWith('++');
  const parts = (endsWithPlus ? combo.slice(0, -2) : combo).split('+').map((p) => p.trim() || p);
  if (endsWithPlus) parts.push('+');
  return parts.every((p) => p.length > 0) ? parts : undefined;
}

export function parseCombo(combo: string): ComboParse {
  const parts = tokens(combo);
  if (!parts)
    return {
      ok: false,
      reason: 'malformed',
      message: `"${combo}" is not a key combination: write keys joined by "+", modifiers first ("Control+Shift+P", "Enter")`,
    };
  const keys: KeyDefinition[] = [];
  const held = new Set<ModifierName>();
  for (const [i, part] of parts.entries()) {
    // A single space is the Space key; other parts were trimmed, so "Control + a" works too.
    const def = lookupKey(part);
    if (!def) return { ok: false, reason: 'unknown', token: part };
    const modifier = modifierOf(def);
    const last = i === parts.length - 1;
    if (!last && !modifier) {
      return {
        ok: false,
        reason: 'malformed',
        message: `"${part}" in "${combo}" is not a modifier: only Control, Alt, Meta and Shift can be held before the key (press other keys one after another)`,
      };
    }
    if (modifier && held.has(modifier)) continue;
    if (modifier) held.add(modifier);
    // With Shift held a person gets the shifted character: Control+Shift+p gives key "P".
    keys.push(last && !modifier && held.has('Shift') ? withShift(def) : def);
  }
  const name = keys.map((k) => modifierOf(k) ?? displayName(k)).join('+');
  return { ok: true, combo: { name, keys } };
}

const ALT = 1,
  CONTROL = 2,
  META = 4,
  SHIFT = 8;

/** Commands for a caret movement: plain, by word, to the line's or document's edge; Shift extends. */
function movement(code: string, mods: number): string | undefined {
  const word = (mods & (CONTROL | ALT)) !== 0 && !(mods & META);
  const line = (mods & META) !== 0 && !(mods & (CONTROL | ALT));
  const plain = !(mods & (CONTROL | ALT | META));
  switch (code) {
    case 'ArrowLeft':
      return plain ? 'moveLeft' : word ? 'moveWordLeft' : line ? 'moveToBeginningOfLine' : undefined;
    case 'ArrowRight':
      return plain ? 'moveRight' : word ? 'moveWordRight' : line ? 'moveToEndOfLine' : undefined;
    case 'ArrowUp':
      return plain ? 'moveUp' : line ? 'moveToBeginningOfDocument' : undefined;
    case 'ArrowDown':
      return plain ? 'moveDown' : line ? 'moveToEndOfDocument' : undefined;
    case 'Home':
      return plain
        ? 'moveToBeginningOfLine'
        : mods & (CONTROL | META) && !(mods & ALT)
          ? 'moveToBeginningOfDocument'
          : undefined;
    case 'End':
      return plain ? 'moveToEndOfLine' : mods & (CONTROL | META) && !(mods & ALT) ? 'moveToEndOfDocument' : undefined;
    default:
      return undefined;
  }
}

function deletion(code: string, mods: number): string | undefined {
  const m = mods & ~SHIFT;
  if (code === 'Backspace')
    return m === 0
      ? 'deleteBackward'
      : m === CONTROL || m === ALT
        ? 'deleteWordBackward'
        : m === META
          ? 'deleteToBeginningOfLine'
          : undefined;
  if (code === 'Delete')
    return m === 0
      ? 'deleteForward'
      : m === CONTROL || m === ALT
        ? 'deleteWordForward'
        : m === META
          ? 'deleteToEndOfLine'
          : undefined;
  return undefined;
}

/** Control+… on Linux and Windows, Meta+… on macOS: either means the shortcut to an agent. */
function clipboardAndHistory(code: string, mods: number): string | undefined {
  const primary = mods & (CONTROL | META);
  if ((primary !== CONTROL && primary !== META) || mods & ALT) return undefined;
  const shift = (mods & SHIFT) !== 0;
  switch (code) {
    case 'KeyA':
      return shift ? undefined : 'selectAll';
    case 'KeyC':
      return shift ? undefined : 'copy';
    case 'KeyX':
      return shift ? undefined : 'cut';
    case 'KeyV':
      return shift ? 'pasteAndMatchStyle' : 'paste';
    case 'KeyZ':
      return shift ? 'redo' : 'undo';
    case 'KeyY':
      return shift ? undefined : 'redo';
    default:
      return undefined;
  }
}

/**
 * Chrome's editing commands for the key pressed with `mods` held (Alt=1, Control=2, Meta=4,
 * Shift=8). Chrome on macOS runs shortcuts like Meta+a only from commands sent with the key
 * event, so they are sent on every platform; Chrome runs them as the key's default action, after
 * the page's keydown listeners, and not at all when a listener calls preventDefault().
 */
export function editingCommands(code: string, mods: number): string[] {
  const shortcut = clipboardAndHistory(code, mods) ?? deletion(code, mods);
  if (shortcut) return [shortcut];
  const move = movement(code, mods & ~SHIFT);
  if (!move) return [];
  return [mods & SHIFT ? `${move}AndModifySelection` : move];
}

/** The editing commands a combination runs (Control+V → paste), from the modifiers it holds. */
export function comboCommands(combo: KeyCombo): string[] {
  const key = combo.keys[combo.keys.length - 1];
  if (!key) return [];
  const mods = combo.keys
    .slice(0, -1)
    .reduce((bits, def) => bits | (modifierOf(def) ? modifierBit(modifierOf(def)!) : 0), 0);
  return editingCommands(key.code, mods);
}
