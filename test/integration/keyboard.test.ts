// press and type against real Chromium: trusted events with real key definitions reach the
// document, and the effects a person's keyboard has (text, selection, deletion, focus, submit)
// happen. The fixture page records every keyboard and input event in window.__events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('keyboard.html');
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await run([{ pageFunction: 'window.__reset()' }]);
});

interface KeyEventRecord {
  type: string;
  key: string;
  code: string;
  keyCode: number;
  location: number;
  inputType?: string;
  data?: string | null;
  ctrl: boolean;
  shift: boolean;
  meta: boolean;
  alt: boolean;
  repeat: boolean;
  trusted: boolean;
  target: string;
  t: number;
}

const run = (steps: unknown[]) => h.cli({ tab, steps });

/** Runs the steps, then reads a page value; fails with the CLI's answer when a step failed. */
async function runThenRead<T>(steps: unknown[], read: string): Promise<{ outputs: any[]; value: T }> {
  const r = await run([...steps, { pageFunction: { fn: read, serialize: false } }]);
  expect(r.out.status, r.stdout).toBe('ok');
  const outputs = r.out.steps.map((s: { output?: unknown }) => s.output);
  return { outputs: outputs.slice(0, -1), value: outputs[outputs.length - 1] as T };
}

const events = (type?: string) => `() => window.__events${type ? `.filter((e) => e.type === '${type}')` : ''}`;
const keydowns = (list: KeyEventRecord[]) => list.filter((e) => e.type === 'keydown');

describe('type', () => {
  it('types into an input, a textarea and a contenteditable, with trusted key events', async () => {
    const { outputs, value } = await runThenRead<[string, string, string, KeyEventRecord[]]>(
      [
        { type: { selector: '#field', text: 'Hi there' } },
        { type: { selector: '#area', text: 'one\ntwo' } },
        { type: { selector: '#editor', text: 'rich' } },
      ],
      `() => [document.getElementById('field').value, document.getElementById('area').value,
      document.getElementById('editor').textContent, window.__events]`,
    );
    expect(outputs).toEqual([
      { typed: 'Hi there', target: 'textbox "Field"' },
      { typed: 'one\ntwo', target: 'textbox "Notes"' },
      { typed: 'rich', target: 'textbox "Editor"' },
    ]);
    const [field, area, editor, all] = value;
    expect([field, area, editor]).toEqual(['Hi there', 'one\ntwo', 'rich']);
    expect(all.every((e) => e.trusted)).toBe(true);
    const downs = keydowns(all).filter((e) => e.target === 'field');
    expect(downs.map((e) => e.key).join('')).toBe('Hi there');
    expect(downs[0]).toMatchObject({ key: 'H', code: 'KeyH', keyCode: 72, shift: false, ctrl: false });
    expect(downs[2]).toMatchObject({ key: ' ', code: 'Space', keyCode: 32 });
    // keydown, keypress, beforeinput, input, keyup for a character key; Enter in a textarea is a line break.
    expect(
      all
        .filter((e) => e.target === 'field')
        .slice(0, 5)
        .map((e) => e.type),
    ).toEqual(['keydown', 'keypress', 'beforeinput', 'input', 'keyup']);
    expect(all.find((e) => e.target === 'area' && e.type === 'keydown' && e.key === 'Enter')).toMatchObject({
      code: 'Enter',
      keyCode: 13,
    });
    expect(
      all.find((e) => e.target === 'area' && e.type === 'beforeinput' && e.inputType === 'insertLineBreak'),
    ).toBeDefined();
  });

  it('types to the focused element without a target, appending after existing text', async () => {
    const { value } = await runThenRead<string>(
      [
        {
          pageFunction:
            'const f = document.getElementById("other"); f.value = "abc"; f.focus(); f.setSelectionRange(3, 3)',
        },
        { type: 'def' },
      ],
      `() => document.getElementById('other').value`,
    );
    expect(value).toBe('abcdef');
  });

  it('lands text with accents, symbols and CJK intact', async () => {
    const { outputs, value } = await runThenRead<[string, string]>(
      [{ type: { selector: '#field', text: 'héllo ✓ 日本' } }, { type: { selector: '#editor', text: 'héllo ✓ 日本' } }],
      `() => [document.getElementById('field').value, document.getElementById('editor').textContent]`,
    );
    expect(value).toEqual(['héllo ✓ 日本', 'héllo ✓ 日本']);
    expect(outputs[0]).toEqual({ typed: 'héllo ✓ 日本', target: 'textbox "Field"', insertedAsText: 4 });
  });

  it('spaces keystrokes by the delay (event timestamps, not wall time)', async () => {
    const { value } = await runThenRead<KeyEventRecord[]>(
      [{ type: { selector: '#field', text: 'abcd', delay: 60 } }],
      events('keydown'),
    );
    expect(value.map((e) => e.key)).toEqual(['a', 'b', 'c', 'd']);
    for (let i = 1; i < value.length; i++) expect(value[i]!.t - value[i - 1]!.t).toBeGreaterThanOrEqual(59);
  });

  it('refuses a delay that cannot finish within the step timeout, before typing anything', async () => {
    const r = await run([{ type: { selector: '#field', text: 'abcdef', delay: 500 }, timeout: 1000 }]);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    expect(r.out.steps[0].error).toMatch(/takes 2500ms, more than the step timeout \(1000ms\)/);
    const read = await run([
      { pageFunction: { fn: `() => document.getElementById('field').value`, serialize: false } },
    ]);
    expect(read.out.steps[0].output).toBe('');
  });

  it('echoes long text cut short, with its length', async () => {
    const text = 'x'.repeat(100);
    const { outputs, value } = await runThenRead<number>(
      [{ type: { selector: '#area', text } }],
      `() => document.getElementById('area').value.length`,
    );
    expect(outputs[0]).toMatchObject({ typed: `${'x'.repeat(80)}…`, length: 100 });
    expect(value).toBe(100);
  });

  it('fails on a missing target, an invalid selector and an element that takes no focus', async () => {
    // A short wait: what is tested is the kind of failure, not the default 5 s wait before it.
    const missing = await run([{ type: { selector: '#nope', text: 'a', timeout: 1000 } }]);
    expect(missing.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
    const invalid = await run([{ type: { selector: '[[bad', text: 'a' } }]);
    expect(invalid.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    const plain = await run([{ type: { selector: '#plain', text: 'a', timeout: 1000 } }]);
    expect(plain.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotEditableError' });
    const unknownRef = await run([{ type: { ref: 's99e999', text: 'a' } }]);
    expect(unknownRef.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
  });

  it('text typed into an element that takes none, with nothing reacting, is no-effect — never ok', async () => {
    const r = await run([{ type: { selector: '#send', text: 'abc' } }]);
    expect(r.out.steps[0], r.stdout).toMatchObject({ status: 'error', category: 'no-effect' });
    expect(r.out.steps[0].error).toMatch(/went to button "Send", which takes no text, and nothing reacted/);
    // The page's own record: the keys did reach the button, and no field got text.
    const events = await h.value(
      tab,
      "__events.filter((e) => e.type === 'keydown').map((e) => e.target + ':' + e.key)",
    );
    expect(events).toEqual(['send:a', 'send:b', 'send:c']);
    expect(
      await h.value(tab, "['field', 'other', 'area'].map((id) => document.getElementById(id).value).join('')"),
    ).toBe('');
  });

  it('focuses a target given by ref', async () => {
    const snap = await run([{ snapshot: true }]);
    const ref = /textbox "Notes" \[ref=(s\d+e\d+)\]/.exec(snap.out.steps[0].output.yaml)?.[1];
    expect(ref, snap.out.steps[0].output.yaml).toBeDefined();
    const { value } = await runThenRead<string>(
      [{ type: { ref, text: 'by ref' } }],
      `() => document.getElementById('area').value`,
    );
    expect(value).toBe('by ref');
  });
});

describe('press', () => {
  it('Control+a then Backspace clears an input', async () => {
    const { outputs, value } = await runThenRead<[string, KeyEventRecord[]]>(
      [
        { type: { selector: '#field', text: 'some text' } },
        { pageFunction: 'window.__events = []' },
        { press: 'Control+a' },
        { press: 'Backspace' },
      ],
      `() => [document.getElementById('field').value, window.__events.filter((e) => e.type === 'keydown')]`,
    );
    expect(outputs.slice(2)).toEqual([
      { pressed: 'Control+a', target: 'textbox "Field"' },
      { pressed: 'Backspace', target: 'textbox "Field"' },
    ]);
    const [text, downs] = value;
    expect(text).toBe('');
    expect(downs.map((e) => [e.key, e.code, e.ctrl, e.trusted, e.location])).toEqual([
      ['Control', 'ControlLeft', true, true, 1],
      ['a', 'KeyA', true, true, 0],
      ['Backspace', 'Backspace', false, true, 0],
    ]);
  });

  it('Meta+a selects all too, and events carry metaKey', async () => {
    const { value } = await runThenRead<[number, number, KeyEventRecord[]]>(
      [{ type: { selector: '#field', text: 'hello' } }, { pageFunction: 'window.__events = []' }, { press: 'Meta+a' }],
      `() => { const f = document.getElementById('field'); return [f.selectionStart, f.selectionEnd, window.__events.filter((e) => e.type === 'keydown')] }`,
    );
    expect(value[0]).toBe(0);
    expect(value[1]).toBe(5);
    expect(value[2][1]).toMatchObject({ key: 'a', code: 'KeyA', meta: true, ctrl: false });
  });

  it('edits once per press: Backspace, Shift+ArrowLeft, Control+Backspace, Control+z', async () => {
    const { value } = await runThenRead<[string, number, number]>(
      [
        { type: { selector: '#field', text: 'one two three' } },
        { press: 'Backspace' },
        { press: { key: 'Shift+ArrowLeft', times: 2 } },
        { press: 'Delete' },
      ],
      `() => { const f = document.getElementById('field'); return [f.value, f.selectionStart, f.selectionEnd] }`,
    );
    expect(value).toEqual(['one two th', 10, 10]);
    const words = await runThenRead<string>(
      [{ press: 'Control+Backspace' }],
      `() => document.getElementById('field').value`,
    );
    expect(words.value).toBe('one two ');
    const undo = await runThenRead<string>([{ press: 'Control+z' }], `() => document.getElementById('field').value`);
    expect(undo.value).toBe('one two th');
  });

  it('copies and pastes once per press', async () => {
    const { value } = await runThenRead<string>(
      [
        { type: { selector: '#field', text: 'ab' } },
        { press: 'Control+a' },
        { press: 'Control+c' },
        { press: 'End' },
        { press: 'Control+v' },
      ],
      `() => document.getElementById('field').value`,
    );
    expect(value).toBe('abab');
  });

  it('Home and End move the caret', async () => {
    const { value } = await runThenRead<number[]>(
      [
        { type: { selector: '#field', text: 'abc' } },
        { press: 'Home' },
        { pageFunction: 'window.__home = document.getElementById("field").selectionStart' },
        { press: 'Shift+End' },
      ],
      `() => { const f = document.getElementById('field'); return [window.__home, f.selectionStart, f.selectionEnd] }`,
    );
    expect(value).toEqual([0, 0, 3]);
  });

  it('Shift+Tab moves focus backwards', async () => {
    const { outputs, value } = await runThenRead<[string, KeyEventRecord[]]>(
      [{ press: { key: 'Shift+Tab', selector: '#other' } }],
      `() => [document.activeElement.id, window.__events.filter((e) => e.type === 'keydown')]`,
    );
    expect(outputs[0]).toEqual({ pressed: 'Shift+Tab', target: 'textbox "Other"' });
    expect(value[0]).toBe('send');
    expect(value[1].map((e) => [e.key, e.shift, e.target])).toEqual([
      ['Shift', true, 'other'],
      ['Tab', true, 'other'],
    ]);
  });

  it('Control+Shift+P reaches a document-level shortcut handler with nothing focused', async () => {
    const { outputs, value } = await runThenRead<[boolean, KeyEventRecord[]]>(
      [{ press: 'ctrl+shift+p' }],
      `() => [document.getElementById('palette').hidden, window.__events.filter((e) => e.type === 'keydown')]`,
    );
    // Keys to the body stand when the page reacted (the palette opened).
    expect(outputs[0]).toEqual({ pressed: 'Control+Shift+P', target: 'the page body (no element has focus)' });
    expect(value[0]).toBe(false);
    expect(value[1].at(-1)).toMatchObject({
      key: 'P',
      code: 'KeyP',
      ctrl: true,
      shift: true,
      meta: false,
      alt: false,
      trusted: true,
      target: 'body',
    });
  });

  it('arrow keys outside a text field scroll the page as usual', async () => {
    const { outputs, value } = await runThenRead<number>(
      [{ press: { key: 'ArrowDown', times: 3 } }],
      '() => new Promise((resolve) => { const check = () => scrollY > 0 ? resolve(scrollY) : requestAnimationFrame(check); check(); })',
    );
    expect(outputs[0]).toEqual({ pressed: 'ArrowDown', target: 'the page body (no element has focus)', times: 3 });
    expect(value).toBeGreaterThan(0);
  });

  it('Enter in a form field submits the form', async () => {
    const { value } = await runThenRead<string[]>(
      [{ type: { selector: '#field', text: 'query' } }, { press: 'Enter' }],
      '() => window.__submits',
    );
    expect(value).toEqual(['query']);
  });

  it('releases modifiers in reverse order, each keyup without its own flag', async () => {
    const { value } = await runThenRead<KeyEventRecord[]>(
      [{ press: { key: 'Control+Shift+x', selector: '#field' } }],
      events('keyup'),
    );
    expect(value.map((e) => [e.key, e.ctrl, e.shift])).toEqual([
      ['X', true, true],
      ['Shift', true, false],
      ['Control', false, false],
    ]);
  });

  it('warns about an unknown key, suggests the near one, and dispatches nothing', async () => {
    const r = await run([{ press: 'Control+Entr' }]);
    expect(r.out.steps[0]).toEqual({
      action: 'press',
      status: 'ok',
      warning: 'Unknown key "Entr" in "Control+Entr": nothing was pressed. Did you mean "Enter"?',
    });
    const { value } = await runThenRead<KeyEventRecord[]>([], events());
    expect(value).toEqual([]);
  });

  it('times out on a page busy in its keydown handler instead of hanging', async () => {
    await run([
      {
        pageFunction: `document.getElementById('other').addEventListener('keydown', () => { const t = Date.now(); while (Date.now() - t < 3000); }, { once: true })`,
      },
    ]);
    const r = await run([{ press: { key: 'Control+a', selector: '#other' }, timeout: 800 }]);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'TimeoutError' });
    // The step's own wait, or the runner's hard stop just after it (the page holds its main thread): either names the 800 ms.
    expect(r.out.steps[0].error).toMatch(
      /Timed out after 800ms waiting for the page to take the press of "Control"|did not finish within its 800ms timeout/,
    );
    expect(r.ms).toBeLessThan(8_000);
    // The keys were released: the next press sees no modifier held.
    const { value } = await runThenRead<KeyEventRecord[]>(
      [{ pageFunction: 'window.__events = []' }, { press: 'x' }],
      events('keydown'),
    );
    expect(value.map((e) => [e.key, e.ctrl])).toEqual([['x', false]]);
  });

  it('rejects a combination that is not one before anything runs', async () => {
    const r = await run([{ pageFunction: 'window.__ran = true' }, { press: 'a+b' }]);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'VALIDATION' } });
    expect(r.out.error.message).toMatch(/"a" in "a\+b" is not a modifier/);
  });
});
