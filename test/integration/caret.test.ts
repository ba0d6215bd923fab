// The caret step against real editors (CodeMirror 6, Monaco, Quill) and a plain contenteditable:
// place the caret by text or select a word with trusted clicks, type, and read the result from
// the editor's own model (view.state.doc, editor.getValue(), quill.getText()), not from our answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
const CM = 'let count = 10;\ncount -= 1;\nconst total = count * 2;\nconsole.log(total);';
const MONACO = 'function step(x) {\n  x -= 1;\n  return x;\n}';

beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('editors.html');
  await h.cli({ tab, steps: [{ wait: { selector: 'body[data-monaco=ready]', timeout: 20_000 } }] });
});
afterAll(async () => {
  await h?.close();
});

/** Resets every editor to its first text. */
async function reset(): Promise<void> {
  await h.value(
    tab,
    `(cmView.dispatch({changes: {from: 0, to: cmView.state.doc.length, insert: ${JSON.stringify(CM)}}}),
      monacoEditor.setValue(${JSON.stringify(MONACO)}), quill.setText('Hello brave new world, hello again.\\n'),
      document.querySelector('#plain').innerHTML = '<p>Total: <b>4</b><i>2</i> items, <span>total</span> price 9.99</p>', true)`,
  );
}

describe('caret in real editors', () => {
  it('CodeMirror 6: after "-=" then type; select a word split from its neighbours by token spans', async () => {
    await reset();
    const r = await h.cli({
      tab,
      steps: [
        { caret: { text: '-=', in: '#cm', position: 'after' } },
        { type: '+' },
        { caret: { text: 'count * 2', in: '#cm', position: 'select' } },
        { type: 'n' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({ at: 'count -=| 1;', occurrence: 1, of: 1, readFrom: 'selection' });
    expect(r.out.steps[2].output).toMatchObject({ selected: 'count * 2', at: 'const total = [count * 2];' });
    expect(await h.value(tab, 'cmView.state.doc.toString()')).toBe(
      'let count = 10;\ncount -=+ 1;\nconst total = n;\nconsole.log(total);',
    );
  });

  it('Monaco: before "-=" then type; select a word and replace it (the editor draws its caret)', async () => {
    await reset();
    const r = await h.cli({
      tab,
      steps: [
        { caret: { text: '-=', in: '#monaco', position: 'before' } },
        { type: '*' },
        { caret: { text: 'return', in: '#monaco', position: 'select' } },
        { type: 'yield' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({ at: '  x |-= 1;', readFrom: 'editor' });
    expect(r.out.steps[2].output).toMatchObject({ selected: 'return' });
    expect(await h.value(tab, 'monacoEditor.getValue()')).toBe('function step(x) {\n  x *-= 1;\n  yield x;\n}');
    // The editor's own selection agrees with the answer: the caret sits after "yield".
    expect(await h.value(tab, 'monacoEditor.getPosition().toString()')).toBe('(3,8)');
  });

  it('Quill and a plain contenteditable: select a word and type over it; text split across <b><i>', async () => {
    await reset();
    const r = await h.cli({
      tab,
      steps: [
        { caret: { text: 'brave', in: '#quill', position: 'select' } },
        { type: 'bold' },
        { caret: { text: '42', in: '#plain', position: 'after' } },
        { type: '0' },
        { caret: { text: 'total', in: '#plain', position: 'select' } },
        { type: 'sum' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[2].output.at).toBe('Total: 42| items, total price 9.99');
    expect(await h.value(tab, 'quill.getText()')).toBe('Hello bold new world, hello again.\n');
    expect(await h.value(tab, 'document.querySelector("#plain").innerText.trim()')).toBe(
      'Total: 420 items, sum price 9.99',
    );
  });

  it('an ambiguous text fails and lists the occurrences; occurrence picks one, counted top to bottom', async () => {
    await reset();
    const bad = await h.cli({ tab, steps: [{ caret: { text: 'count', in: '#cm' } }] });
    expect(bad.out.status).toBe('error');
    expect(bad.out.steps[0].error).toMatch(/occurs 3 times.*1: "let \[count\] = 10;".*"occurrence"/);
    const r = await h.cli({
      tab,
      steps: [{ caret: { text: 'count', in: '#cm', occurrence: 3, position: 'before' } }, { type: '2*' }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({ occurrence: 3, of: 3, at: 'const total = |count * 2;' });
    expect(await h.value(tab, 'cmView.state.doc.toString()')).toContain('const total = 2*count * 2;');
  });

  it('fails truthfully when the editor puts the caret elsewhere', async () => {
    const r = await h.cli({ tab, steps: [{ caret: { text: 'caret', in: '#stubborn', position: 'after' } }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/caret is at "\|Every click.*put it elsewhere/);
    expect(await h.value(tab, 'getSelection().anchorOffset')).toBe(0);
  });

  it('a line Monaco has not rendered is found by turning the wheel over the editor; a missing one fails', async () => {
    const r = await h.cli({
      tab,
      steps: [{ caret: { text: 'line120 =', in: '#monaco-long', position: 'after' } }, { type: ' 1 +' }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.at).toBe('line120 =| 120;');
    expect(await h.value(tab, 'monacoLong.getModel().getLineContent(120)')).toBe('line120 = 1 + 120;');
    const back = await h.cli({ tab, steps: [{ caret: { text: 'line3 =', in: '#monaco-long', position: 'before' } }] });
    expect(back.out.status, back.stdout).toBe('ok');
    expect(await h.value(tab, 'monacoLong.getPosition().toString()')).toBe('(3,1)');
    const missing = await h.cli({ tab, steps: [{ caret: { text: 'line999 =', in: '#monaco-long' } }] });
    expect(missing.out.status).toBe('error');
    expect(missing.out.steps[0].error).toMatch(/not in the text of Monaco editor in #monaco-long.*scrolled through/);
  });
});

describe('caret in a frame', () => {
  it('selects across two lines in a contenteditable inside a frame below the fold, then types over it', async () => {
    const t = await h.open('editor-frame.html');
    const r = await h.cli({
      tab: t,
      steps: [
        { frame: '#notes' },
        { caret: { text: 'milk', position: 'select' } },
        { type: 'eggs' },
        { caret: { text: 'bread\nCall', position: 'select' } },
        { type: 'tea. Phone' },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[3].output).toMatchObject({ selected: 'bread\nCall', at: 'Buy eggs and [bread\nCall] Ann at 5' });
    // The chosen frame stays with the tab: the page's own world of the frame reads its text.
    expect(await h.value(t, 'document.querySelector("#note").innerText')).toBe('Buy eggs and tea. Phone Ann at 5');
  });
});

/** The editors' first texts, caret at the start and nothing focused: a click's effect is then the click's. */
async function resetForClicks(): Promise<void> {
  await reset();
  await h.value(
    tab,
    '(cmView.dispatch({selection: {anchor: 0}}), monacoEditor.setPosition({lineNumber: 1, column: 1}), document.activeElement.blur(), true)',
  );
}

// Issue 22 item 10: a click in a code editor does what a person's click does. `click` on Monaco's
// editor gives it focus; `click {text}` on text inside CodeMirror 6 or Monaco puts the caret at that
// text (the caret step's trusted click before it). Oracles: Monaco's hasTextFocus()/getPosition(),
// CodeMirror's view.hasFocus and document.
describe('clicks in code editors', () => {
  it("click on Monaco's editor gives it focus", async () => {
    await resetForClicks();
    expect(await h.value(tab, 'monacoEditor.hasTextFocus()')).toBe(false);
    const r = await h.cli({ tab, steps: [{ click: '#monaco' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await h.value(tab, 'monacoEditor.hasTextFocus()')).toBe(true);
  });

  it('click {text} in CodeMirror puts the caret at that text', async () => {
    await resetForClicks();
    const r = await h.cli({ tab, steps: [{ click: { text: 'console.log' } }, { type: '// ' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.method).toBe('caret');
    expect(await h.value(tab, 'cmView.hasFocus')).toBe(true);
    // The editor's own document: the typed text landed just before "console.log".
    expect(await h.value(tab, 'cmView.state.doc.line(4).text')).toBe('// console.log(total);');
  });

  it('click {text} in Monaco puts the caret at that text', async () => {
    await resetForClicks();
    const r = await h.cli({ tab, steps: [{ click: { text: 'return' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.method).toBe('caret');
    expect(await h.value(tab, 'monacoEditor.hasTextFocus()')).toBe(true);
    // "  return x;": "return" starts at column 3.
    expect(await h.value(tab, 'monacoEditor.getPosition()')).toEqual({ lineNumber: 3, column: 3 });
  });

  it('click {text} on a heading outside the editors is an ordinary click', async () => {
    await resetForClicks();
    const r = await h.cli({ tab, steps: [{ click: { text: 'Quill' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.method).not.toBe('caret');
  });
});
