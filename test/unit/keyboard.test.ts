// The US key table, key combinations, editing commands and the typing plan (no browser).
import { describe, expect, it } from 'vitest';
import { editingCommands, parseCombo } from '../../src/dom/key-combo.js';
import { displayName, knownKeyNames, lookupKey, withShift } from '../../src/dom/key-definitions.js';
import { typingPlan, unknownKeyWarning } from '../../src/dom/keyboard.js';

const combo = (s: string) => {
  const p = parseCombo(s);
  if (!p.ok) throw new Error(`${s}: ${JSON.stringify(p)}`);
  return p.combo;
};

describe('key definitions', () => {
  it('defines every printable ASCII character, typing itself', () => {
    for (let c = 32; c < 127; c++) {
      const ch = String.fromCharCode(c);
      const def = lookupKey(ch);
      expect(def, ch).toBeDefined();
      expect(def!.text).toBe(ch);
      expect(def!.key).toBe(ch);
    }
  });

  it('gives shifted characters the code and keyCode of the key they are on', () => {
    expect(lookupKey('a')).toEqual({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(lookupKey('A')).toEqual({ key: 'A', code: 'KeyA', keyCode: 65, text: 'A', shifted: true });
    expect(lookupKey('!')).toMatchObject({ code: 'Digit1', keyCode: 49, shifted: true });
    expect(lookupKey('?')).toMatchObject({ code: 'Slash', keyCode: 191, shifted: true });
    expect(lookupKey('"')).toMatchObject({ code: 'Quote', keyCode: 222 });
    expect(lookupKey('+')).toMatchObject({ code: 'Equal', keyCode: 187 });
    expect(lookupKey('7')).toEqual({ key: '7', code: 'Digit7', keyCode: 55, text: '7' });
  });

  it('defines named keys with their codes, text and locations', () => {
    expect(lookupKey('Enter')).toEqual({ key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    expect(lookupKey('\n')).toEqual(lookupKey('Enter'));
    expect(lookupKey('\t')).toEqual({ key: 'Tab', code: 'Tab', keyCode: 9 });
    expect(lookupKey('Escape')).toEqual({ key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(lookupKey('Backspace')!.keyCode).toBe(8);
    expect(lookupKey('Delete')!.keyCode).toBe(46);
    expect(lookupKey('Insert')!.keyCode).toBe(45);
    expect(['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown'].map((k) => lookupKey(k)!.keyCode)).toEqual([
      37, 38, 39, 40,
    ]);
    expect(['PageUp', 'PageDown', 'End', 'Home'].map((k) => lookupKey(k)!.keyCode)).toEqual([33, 34, 35, 36]);
    expect(lookupKey('F1')!.keyCode).toBe(112);
    expect(lookupKey('F12')).toEqual({ key: 'F12', code: 'F12', keyCode: 123 });
    expect(lookupKey('Space')).toEqual({ key: ' ', code: 'Space', keyCode: 32, text: ' ' });
    expect(lookupKey('Shift')).toEqual({ key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 });
    expect(lookupKey('ShiftRight')).toEqual({ key: 'Shift', code: 'ShiftRight', keyCode: 16, location: 2 });
    expect(lookupKey('Control')).toMatchObject({ code: 'ControlLeft', keyCode: 17, location: 1 });
    expect(lookupKey('Alt')).toMatchObject({ code: 'AltLeft', keyCode: 18, location: 1 });
    expect(lookupKey('Meta')).toMatchObject({ code: 'MetaLeft', keyCode: 91, location: 1 });
    expect(lookupKey('MetaRight')).toMatchObject({ keyCode: 92, location: 2 });
    expect(lookupKey('Numpad5')).toEqual({ key: '5', code: 'Numpad5', keyCode: 101, text: '5', location: 3 });
    expect(lookupKey('NumpadEnter')).toEqual({
      key: 'Enter',
      code: 'NumpadEnter',
      keyCode: 13,
      text: '\r',
      location: 3,
    });
  });

  it('reads names case-insensitively and by alias, characters case-sensitively', () => {
    expect(lookupKey('enter')).toEqual(lookupKey('Enter'));
    expect(lookupKey('ARROWDOWN')).toEqual(lookupKey('ArrowDown'));
    expect(lookupKey('pagedown')).toEqual(lookupKey('PageDown'));
    expect(lookupKey('Esc')).toEqual(lookupKey('Escape'));
    expect(lookupKey('ctrl')).toEqual(lookupKey('Control'));
    expect(lookupKey('Cmd')).toEqual(lookupKey('Meta'));
    expect(lookupKey('Option')).toEqual(lookupKey('Alt'));
    expect(lookupKey('keya')).toEqual(lookupKey('a'));
    expect(lookupKey('a')).not.toEqual(lookupKey('A'));
    expect(lookupKey('é')).toBeUndefined();
    expect(lookupKey('Entr')).toBeUndefined();
  });

  it('shifts a key to what Shift types on it', () => {
    expect(withShift(lookupKey('p')!).key).toBe('P');
    expect(withShift(lookupKey('1')!).key).toBe('!');
    expect(withShift(lookupKey('Enter')!)).toEqual(lookupKey('Enter'));
    expect(displayName(lookupKey(' ')!)).toBe('Space');
  });
});

describe('key combinations', () => {
  it('normalises modifier names and keeps their order', () => {
    expect(combo('Control+Shift+P').name).toBe('Control+Shift+P');
    expect(combo('ctrl+shift+p').name).toBe('Control+Shift+P');
    expect(combo('Cmd+a').name).toBe('Meta+a');
    expect(combo('Command+Option+i').name).toBe('Meta+Alt+i');
    expect(combo('Shift+Control+z').name).toBe('Shift+Control+Z');
    expect(combo('Control + a').name).toBe('Control+a');
    expect(combo('enter').name).toBe('Enter');
    expect(combo('a').name).toBe('a');
    expect(combo(' ').name).toBe('Space');
    expect(combo('Shift').name).toBe('Shift');
    expect(combo('Ctrl+Control+a').name).toBe('Control+a');
  });

  it('holds the modifiers, then the key, shifted when Shift is held', () => {
    const c = combo('Control+Shift+p');
    expect(c.keys.map((k) => [k.key, k.code])).toEqual([
      ['Control', 'ControlLeft'],
      ['Shift', 'ShiftLeft'],
      ['P', 'KeyP'],
    ]);
    expect(combo('Shift+Tab').keys.map((k) => k.key)).toEqual(['Shift', 'Tab']);
  });

  it('reads "+" as a key when alone or last', () => {
    expect(combo('+').keys.map((k) => k.code)).toEqual(['Equal']);
    expect(combo('Control++').name).toBe('Control++');
  });

  it('tells an unknown key from a malformed combination', () => {
    expect(parseCombo('Control+Entr')).toEqual({ ok: false, reason: 'unknown', token: 'Entr' });
    expect(parseCombo('Ctl+a')).toEqual({ ok: false, reason: 'unknown', token: 'Ctl' });
    expect(parseCombo('a+b')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parseCombo('Control+')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(parseCombo('')).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('suggests the nearest key name for an unknown one', async () => {
    expect(await unknownKeyWarning('Entr', 'Control+Entr')).toBe(
      'Unknown key "Entr" in "Control+Entr": nothing was pressed. Did you mean "Enter"?',
    );
    expect(await unknownKeyWarning('ArowDown', 'ArowDown')).toBe(
      'Unknown key "ArowDown": nothing was pressed. Did you mean "ArrowDown"?',
    );
    expect(await unknownKeyWarning('Zyxwvut', 'Zyxwvut')).toBe('Unknown key "Zyxwvut": nothing was pressed.');
    expect(knownKeyNames()).toContain('PageDown');
  });
});

describe('editing commands', () => {
  const CTRL = 2,
    META = 4,
    SHIFT = 8,
    ALT = 1;
  it('sends the shortcut for Control or Meta alike', () => {
    expect(editingCommands('KeyA', CTRL)).toEqual(['selectAll']);
    expect(editingCommands('KeyA', META)).toEqual(['selectAll']);
    expect(editingCommands('KeyC', CTRL)).toEqual(['copy']);
    expect(editingCommands('KeyX', META)).toEqual(['cut']);
    expect(editingCommands('KeyV', CTRL)).toEqual(['paste']);
    expect(editingCommands('KeyZ', CTRL)).toEqual(['undo']);
    expect(editingCommands('KeyZ', CTRL | SHIFT)).toEqual(['redo']);
    expect(editingCommands('KeyY', CTRL)).toEqual(['redo']);
    expect(editingCommands('KeyA', CTRL | META)).toEqual([]);
    expect(editingCommands('KeyA', 0)).toEqual([]);
  });

  it('deletes by character, word or line', () => {
    expect(editingCommands('Backspace', 0)).toEqual(['deleteBackward']);
    expect(editingCommands('Backspace', CTRL)).toEqual(['deleteWordBackward']);
    expect(editingCommands('Backspace', ALT)).toEqual(['deleteWordBackward']);
    expect(editingCommands('Backspace', META)).toEqual(['deleteToBeginningOfLine']);
    expect(editingCommands('Delete', 0)).toEqual(['deleteForward']);
    expect(editingCommands('Delete', CTRL)).toEqual(['deleteWordForward']);
  });

  it('moves the caret, extending the selection with Shift', () => {
    expect(editingCommands('ArrowLeft', 0)).toEqual(['moveLeft']);
    expect(editingCommands('ArrowLeft', SHIFT)).toEqual(['moveLeftAndModifySelection']);
    expect(editingCommands('ArrowRight', CTRL | SHIFT)).toEqual(['moveWordRightAndModifySelection']);
    expect(editingCommands('ArrowLeft', META)).toEqual(['moveToBeginningOfLine']);
    expect(editingCommands('ArrowDown', META)).toEqual(['moveToEndOfDocument']);
    expect(editingCommands('Home', 0)).toEqual(['moveToBeginningOfLine']);
    expect(editingCommands('End', SHIFT)).toEqual(['moveToEndOfLineAndModifySelection']);
    expect(editingCommands('Home', CTRL)).toEqual(['moveToBeginningOfDocument']);
    expect(editingCommands('Enter', 0)).toEqual([]);
    expect(editingCommands('KeyQ', CTRL)).toEqual([]);
  });
});

describe('typing plan', () => {
  it('keys what the keyboard types and inserts runs of what it does not', () => {
    const plan = typingPlan('hé ✓日本\r\nA!');
    expect(plan.map((s) => ('insert' in s ? { insert: s.insert } : s.key.code))).toEqual([
      'KeyH',
      { insert: 'é' },
      'Space',
      { insert: '✓日本' },
      'Enter',
      'KeyA',
      'Digit1',
    ]);
  });

  it('keeps surrogate pairs whole', () => {
    expect(typingPlan('a😀b')).toMatchObject([{ char: 'a' }, { insert: '😀' }, { char: 'b' }]);
  });
});
