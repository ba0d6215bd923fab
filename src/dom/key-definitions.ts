// The US keyboard layout: for every key a person can press, what Chrome reports for it (`key`,
// `code`, `keyCode` = windowsVirtualKeyCode, `text`, `location`). Pure; keyboard.ts dispatches.

export interface KeyDefinition {
  /** KeyboardEvent.key as this press produces it ("a", "A", "!", "Enter"). */
  key: string;
  /** The physical key ("KeyA", "Digit1", "ShiftLeft"). */
  code: string;
  /** windowsVirtualKeyCode / KeyboardEvent.keyCode. */
  keyCode: number;
  /** Text the key types, when it types any. */
  text?: string;
  /** 1 left, 2 right, 3 numpad; absent for standard keys. */
  location?: 1 | 2 | 3;
  /** This character is the key's Shift variant ("!" on Digit1). */
  shifted?: boolean;
}

/** A physical key: its unshifted and (when it has one) shifted output. */
interface PhysicalKey {
  code: string;
  keyCode: number;
  key: string;
  shiftKey?: string;
  text?: string;
  location?: 1 | 2 | 3;
}

const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type ModifierName = keyof typeof MODIFIER_BITS;
export const MODIFIERS = Object.keys(MODIFIER_BITS) as ModifierName[];

export function modifierBit(name: ModifierName): number {
  return MODIFIER_BITS[name];
}

function physicalKeys(): PhysicalKey[] {
  const keys: PhysicalKey[] = [
    { code: 'Backspace', keyCode: 8, key: 'Backspace' },
    { code: 'Tab', keyCode: 9, key: 'Tab' },
    { code: 'Enter', keyCode: 13, key: 'Enter', text: '\r' },
    { code: 'NumpadEnter', keyCode: 13, key: 'Enter', text: '\r', location: 3 },
    { code: 'ShiftLeft', keyCode: 16, key: 'Shift', location: 1 },
    { code: 'ShiftRight', keyCode: 16, key: 'Shift', location: 2 },
    { code: 'ControlLeft', keyCode: 17, key: 'Control', location: 1 },
    { code: 'ControlRight', keyCode: 17, key: 'Control', location: 2 },
    { code: 'AltLeft', keyCode: 18, key: 'Alt', location: 1 },
    { code: 'AltRight', keyCode: 18, key: 'Alt', location: 2 },
    { code: 'MetaLeft', keyCode: 91, key: 'Meta', location: 1 },
    { code: 'MetaRight', keyCode: 92, key: 'Meta', location: 2 },
    { code: 'Pause', keyCode: 19, key: 'Pause' },
    { code: 'CapsLock', keyCode: 20, key: 'CapsLock' },
    { code: 'Escape', keyCode: 27, key: 'Escape' },
    { code: 'Space', keyCode: 32, key: ' ', text: ' ' },
    { code: 'PageUp', keyCode: 33, key: 'PageUp' },
    { code: 'PageDown', keyCode: 34, key: 'PageDown' },
    { code: 'End', keyCode: 35, key: 'End' },
    { code: 'Home', keyCode: 36, key: 'Home' },
    { code: 'ArrowLeft', keyCode: 37, key: 'ArrowLeft' },
    { code: 'ArrowUp', keyCode: 38, key: 'ArrowUp' },
    { code: 'ArrowRight', keyCode: 39, key: 'ArrowRight' },
    { code: 'ArrowDown', keyCode: 40, key: 'ArrowDown' },
    { code: 'PrintScreen', keyCode: 44, key: 'PrintScreen' },
    { code: 'Insert', keyCode: 45, key: 'Insert' },
    { code: 'Delete', keyCode: 46, key: 'Delete' },
    { code: 'ContextMenu', keyCode: 93, key: 'ContextMenu' },
    { code: 'NumLock', keyCode: 144, key: 'NumLock' },
    { code: 'ScrollLock', keyCode: 145, key: 'ScrollLock' },
  ];
  // Digits with the symbols above them, then letters.
  const digitShift = ')!@#$%^&*(';
  for (let d = 0; d <= 9; d++)
    keys.push({ code: `Digit${d}`, keyCode: 48 + d, key: String(d), shiftKey: digitShift[d]! });
  for (let i = 0; i < 26; i++) {
    const lower = String.fromCharCode(97 + i);
    keys.push({ code: `Key${lower.toUpperCase()}`, keyCode: 65 + i, key: lower, shiftKey: lower.toUpperCase() });
  }
  const punctuation: [string, number, string, string][] = [
    ['Semicolon', 186, ';', ':'],
    ['Equal', 187, '=', '+'],
    ['Comma', 188, ',', '<'],
    ['Minus', 189, '-', '_'],
    ['Period', 190, '.', '>'],
    ['Slash', 191, '/', '?'],
    ['Backquote', 192, '`', '~'],
    ['BracketLeft', 219, '[', '{'],
    ['Backslash', 220, '\\', '|'],
    ['BracketRight', 221, ']', '}'],
    ['Quote', 222, "'", '"'],
  ];
  for (const [code, keyCode, key, shiftKey] of punctuation) keys.push({ code, keyCode, key, shiftKey });
  for (let f = 1; f <= 12; f++) keys.push({ code: `F${f}`, keyCode: 111 + f, key: `F${f}` });
  // The numpad comes last: a character typed on both (".", "+") is the main keyboard's.
  for (let d = 0; d <= 9; d++) keys.push({ code: `Numpad${d}`, keyCode: 96 + d, key: String(d), location: 3 });
  const numpad: [string, number, string][] = [
    ['NumpadMultiply', 106, '*'],
    ['NumpadAdd', 107, '+'],
    ['NumpadSubtract', 109, '-'],
    ['NumpadDecimal', 110, '.'],
    ['NumpadDivide', 111, '/'],
  ];
  for (const [code, keyCode, key] of numpad) keys.push({ code, keyCode, key, location: 3 });
  return keys;
}

/** A printable key types its `key`; named keys type nothing unless they say so (Enter, Space). */
function definitionOf(p: PhysicalKey, shifted: boolean): KeyDefinition {
  const key = shifted ? p.shiftKey! : p.key;
  const text = p.text ?? (key.length === 1 ? key : undefined);
  return {
    key,
    code: p.code,
    keyCode: p.keyCode,
    ...(text !== undefined ? { text } : {}),
    ...(p.location ? { location: p.location } : {}),
    ...(shifted ? { shifted: true } : {}),
  };
}

interface Tables {
  byKey: Map<string, KeyDefinition>;
  byCode: Map<string, KeyDefinition>;
  shiftOf: Map<string, KeyDefinition>;
}
let tables: Tables | undefined;

function build(): Tables {
  const byKey = new Map<string, KeyDefinition>();
  const byCode = new Map<string, KeyDefinition>();
  const shiftOf = new Map<string, KeyDefinition>();
  for (const p of physicalKeys()) {
    const plain = definitionOf(p, false);
    byCode.set(p.code, plain);
    // Left modifiers and the main keyboard are what a bare name means.
    if (!byKey.has(plain.key) && p.location !== 2) byKey.set(plain.key, plain);
    if (p.shiftKey) {
      const shifted = definitionOf(p, true);
      if (!byKey.has(shifted.key)) byKey.set(shifted.key, shifted);
      shiftOf.set(plain.key, shifted);
    }
  }
  return { byKey, byCode, shiftOf };
}

function getTables(): Tables {
  tables ??= build();
  return tables;
}

/** Characters typed with a named key. */
const CONTROL_CHARACTERS: Record<string, string> = { '\n': 'Enter', '\r': 'Enter', '\t': 'Tab' };

/** Other names people use for keys, lower-case → the key's name. */
const ALIASES: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  space: ' ',
  spacebar: ' ',
  del: 'Delete',
  ins: 'Insert',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  ctrl: 'Control',
  control: 'Control',
  option: 'Alt',
  cmd: 'Meta',
  command: 'Meta',
  win: 'Meta',
  super: 'Meta',
};

/**
 * The definition for a key name, code or character. Single characters are case-sensitive ("a"
 * vs "A"); names are not ("enter", "ArrowDown", "pagedown", "Esc"). Undefined when unknown.
 */
export function lookupKey(name: string): KeyDefinition | undefined {
  const t = getTables();
  if ([...name].length === 1) return t.byKey.get(CONTROL_CHARACTERS[name] ?? name);
  const exact = t.byKey.get(name) ?? t.byCode.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const alias = ALIASES[lower];
  if (alias) return t.byKey.get(alias);
  for (const [key, def] of t.byKey) if (key.length > 1 && key.toLowerCase() === lower) return def;
  for (const [code, def] of t.byCode) if (code.toLowerCase() === lower) return def;
  return undefined;
}

/** The key's Shift variant ("p" → "P", "1" → "!"), or the key itself when Shift changes nothing. */
export function withShift(def: KeyDefinition): KeyDefinition {
  return getTables().shiftOf.get(def.key) ?? def;
}

/** How a key is written in a normalised combination: "Space" for " ", else its `key`. */
export function displayName(def: KeyDefinition): string {
  return def.key === ' ' ? 'Space' : def.key;
}

/** Every key name, code and alias, for "did you mean" suggestions. */
export function knownKeyNames(): string[] {
  const t = getTables();
  const names = new Set<string>([...t.byKey.keys()].filter((k) => k.length > 1));
  for (const code of t.byCode.keys()) names.add(code);
  for (const alias of ['Esc', 'Space', 'Ctrl', 'Cmd', 'Command', 'Option']) names.add(alias);
  return [...names];
}
