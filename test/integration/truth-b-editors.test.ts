// Issue 22 item 10: a click in a code editor does what a person's click does. `click` on Monaco's
// editor gives it focus; `click {text}` on text inside CodeMirror 6 or Monaco puts the caret at that
// text (the caret step's trusted click before it). Oracles: the editors' own models — Monaco's
// hasTextFocus()/getPosition(), CodeMirror's view.hasFocus and selection — never our answer.
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

async function reset(): Promise<void> {
  await h.value(
    tab,
    `(cmView.dispatch({changes: {from: 0, to: cmView.state.doc.length, insert: ${JSON.stringify(CM)}}, selection: {anchor: 0}}),
      monacoEditor.setValue(${JSON.stringify(MONACO)}), monacoEditor.setPosition({lineNumber: 1, column: 1}),
      document.activeElement.blur(), true)`,
  );
}

describe('clicks in code editors', () => {
  it("click on Monaco's editor gives it focus", async () => {
    await reset();
    expect(await h.value(tab, 'monacoEditor.hasTextFocus()')).toBe(false);
    const r = await h.cli({ tab, steps: [{ click: '#monaco' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await h.value(tab, 'monacoEditor.hasTextFocus()')).toBe(true);
  });

  it('click {text} in CodeMirror puts the caret at that text', async () => {
    await reset();
    const r = await h.cli({ tab, steps: [{ click: { text: 'console.log' } }, { type: '// ' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.method).toBe('caret');
    expect(await h.value(tab, 'cmView.hasFocus')).toBe(true);
    // The editor's own document: the typed text landed just before "console.log".
    expect(await h.value(tab, 'cmView.state.doc.line(4).text')).toBe('// console.log(total);');
  });

  it('click {text} in Monaco puts the caret at that text', async () => {
    await reset();
    const r = await h.cli({ tab, steps: [{ click: { text: 'return' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.method).toBe('caret');
    expect(await h.value(tab, 'monacoEditor.hasTextFocus()')).toBe(true);
    // "  return x;": "return" starts at column 3.
    expect(await h.value(tab, 'monacoEditor.getPosition()')).toEqual({ lineNumber: 3, column: 3 });
  });

  it('click {text} on a heading outside the editors is an ordinary click', async () => {
    await reset();
    const r = await h.cli({ tab, steps: [{ click: { text: 'Quill' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.method).not.toBe('caret');
  });
});
