// Filling forms the way a person does — by label, in React and Vue, contenteditable and textareas —
// and checking what the page holds afterwards, not only what the CLI says.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const fieldValue = (tab: string, sel: string): Promise<string> =>
  h.value(tab, `document.querySelector(${JSON.stringify(sel)}).value`);

describe('fill', () => {
  it('finds fields by every link of the label chain', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      steps: [
        { fill: { label: 'Email address', value: 'ann@example.com' } }, // <label for>
        { fill: { label: 'full name', value: 'Ann Lee' } }, // nested in a label, case-insensitive
        { fill: { label: 'City of residence', value: 'Paris' } }, // aria-label
        { fill: { label: 'Postal code', value: '75001' } }, // aria-labelledby
        { fill: { label: 'Phone number', value: '+33 1' } }, // placeholder
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps.map((s: { output: { method: string } }) => s.output.method)).toEqual(
      Array(5).fill('insertText'),
    );
    for (const [sel, v] of [
      ['#email', 'ann@example.com'],
      ['#name', 'Ann Lee'],
      ['#city', 'Paris'],
      ['#zip', '75001'],
      ['#phone', '+33 1'],
    ]) {
      expect(await fieldValue(tab, sel!)).toBe(v);
    }
    const events: string[] = await h.value(tab, 'window.__events');
    expect(events).toContain('input:email');
    expect(events).toContain('change:email');
  });

  it('replaces existing text by default and appends with clear: false', async () => {
    const tab = await h.open('actions.html');
    await h.cli({
      tab,
      steps: [{ fill: { selector: '#name', value: 'first' } }, { fill: { selector: '#name', value: 'second' } }],
    });
    expect(await fieldValue(tab, '#name')).toBe('second');
    await h.cli({ tab, steps: [{ fill: { selector: '#name', value: ' more', clear: false } }] });
    expect(await fieldValue(tab, '#name')).toBe('second more');
    await h.cli({ tab, steps: [{ fill: { selector: '#name', value: '' } }] });
    expect(await fieldValue(tab, '#name')).toBe('');
  });

  it('fills a map of fields in one step, by selector, by ref and by label', async () => {
    const tab = await h.open('actions.html');
    const snap = await h.cli({ tab, steps: [{ snapshot: true }] });
    const ref = /textbox "Notes" \[ref=(s\d+e\d+)\]/.exec(snap.out.steps[0].output.yaml)![1]!;
    const r = await h.cli({
      tab,
      steps: [{ fill: { '#city': 'Oslo', [ref]: 'two\nlines', 'Email address': 'a@b.co' } }],
    });
    expect(r.out.steps[0].output).toEqual({
      filled: 3,
      methods: { '#city': 'insertText', [ref]: 'insertText', 'Email address': 'insertText' },
    });
    expect(await fieldValue(tab, '#notes')).toBe('two\nlines');
    expect(await fieldValue(tab, '#email')).toBe('a@b.co');
  });

  it('says which fields of a batch landed when one fails', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ fill: { fields: { '#city': 'Rome', '#nope': 'x' }, timeout: 300 } }] });
    expect(r.out.steps[0].status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/Filled 1 of 2 fields \(#city\); "#nope" failed: No element matches "#nope"/);
    expect(await fieldValue(tab, '#city')).toBe('Rome');
  });

  it('types into the focused element, a contenteditable editor and a date input', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      steps: [
        { click: '#phone' },
        { fill: '555' },
        { fill: { label: 'Editor', value: 'Hello editor' } },
        { fill: { label: 'When', value: '2024-05-06' } },
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(await fieldValue(tab, '#phone')).toBe('555');
    expect(await h.value(tab, 'document.querySelector("#editor").innerText.trim()')).toBe('Hello editor');
    expect(await fieldValue(tab, '#when')).toBe('2024-05-06');
    expect(r.out.steps[3].output.method).toBe('nativeSetter');
  });

  it('reports what a maxlength field kept', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ fill: { label: 'Short code', value: 'abcdefgh' } }] });
    expect(r.out.steps[0].output.value).toBe('abcde');
    expect(r.out.steps[0].warning).toMatch(/maxlength/);
  });

  it('refuses read-only, disabled and file inputs with the reason', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      stopOnError: false,
      steps: [
        { fill: { label: 'Read only', value: 'x', timeout: 300 } },
        { fill: { label: 'Switched off', value: 'x', timeout: 300 } },
        { fill: { selector: '#file', value: 'x' } },
      ],
    });
    expect(r.out.steps.map((s: { errorType: string }) => s.errorType)).toEqual([
      'ElementNotEditableError',
      'ElementNotEditableError',
      'ElementNotEditableError',
    ]);
    expect(r.out.steps[0].error).toMatch(/read-only/);
    expect(r.out.steps[1].error).toMatch(/disabled/);
    expect(r.out.steps[2].error).toMatch(/upload/);
    expect(await fieldValue(tab, '#ro')).toBe('fixed');
  });

  it('updates React and Vue state, and keeps what the page rewrote', async () => {
    const tab = await h.open('frameworks.html');
    const r = await h.cli({
      tab,
      steps: [
        { fill: { label: 'React name', value: 'Ann' } },
        { fill: { label: 'Shouting', value: 'hey' } },
        { fill: { label: 'Vue city', value: 'Lyon' } },
        { click: { text: 'Send' } },
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[1].output.value).toBe('HEY');
    expect(await h.value(tab, 'document.querySelector("#react-echo").textContent')).toBe('React says: Ann');
    expect(await h.value(tab, 'document.querySelector("#vue-echo").textContent')).toBe('Vue says: Lyon');
    expect(await h.value(tab, 'window.__submitted')).toEqual({ name: 'Ann', upper: 'HEY' });
    const react = await h.cli({ tab, steps: [{ fill: { label: 'React name', value: 'Bob', react: true } }] });
    expect(react.out.steps[0].output.method).toBe('nativeSetter');
    expect(await h.value(tab, 'document.querySelector("#react-echo").textContent')).toBe('React says: Bob');
  });
});

describe('selectOption', () => {
  it('selects by label, value, index and several values, firing change', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      steps: [
        { selectOption: { selector: '#country', label: 'germany' } },
        { selectOption: { selector: '#country', value: 'fr' } },
        { selectOption: { selector: '#country', index: 0 } },
        { selectOption: { selector: '#langs', values: ['en', 'de'] } },
      ],
    });
    expect(r.out.steps.map((s: { output: unknown }) => s.output)).toEqual([
      { selected: ['de'], target: 'combobox "Country"', multiple: false },
      { selected: ['fr'], target: 'combobox "Country"', multiple: false },
      { selected: [''], target: 'combobox "Country"', multiple: false },
      { selected: ['en', 'de'], target: 'listbox "Languages"', multiple: true },
    ]);
    expect((await h.value(tab, 'window.__events')).filter((e: string) => e.startsWith('change:country'))).toHaveLength(
      3,
    );
  });

  it('lists the options when none matches, and refuses a disabled one', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      stopOnError: false,
      steps: [
        { selectOption: { selector: '#country', value: 'es' } },
        { selectOption: { selector: '#country', value: 'it' } },
      ],
    });
    expect(r.out.steps[0].error).toMatch(
      /no option with value "es".*Options: "" \(Choose…\), fr \(France\), de \(Germany\), it \(Italy\)/,
    );
    expect(r.out.steps[1].error).toMatch(/"Italy" is disabled/);
  });
});

describe('upload', () => {
  it('sets a file through the chooser a styled button opens for its hidden input, firing change', async () => {
    const tab = await h.open('actions.html');
    const file = join(h.tmp, 'report.txt');
    writeFileSync(file, 'hello');
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#pick', files: file } }] });
    expect(r.out.steps[0].output).toMatchObject({
      uploaded: ['report.txt'],
      target: 'button "Choose file"',
      via: 'file chooser',
    });
    expect(await h.value(tab, 'window.__events')).toContain('file:report.txt');
  });

  it('sets files on a plain file input directly', async () => {
    const tab = await h.open('actions.html');
    const file = join(h.tmp, 'plain.txt');
    writeFileSync(file, 'hello');
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#file', files: file } }] });
    expect(r.out.steps[0].output).toMatchObject({ uploaded: ['plain.txt'], via: 'input', input: 'input#file' });
    expect(await h.value(tab, 'window.__events')).toContain('file:plain.txt');
  });

  it('checks that the files exist before touching the page', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#file', files: ['/nonexistent/a.pdf'] } }] });
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    expect(r.out.steps[0].error).toMatch(/No such file: \/nonexistent\/a.pdf/);
  });
});

describe('scroll', () => {
  it('scrolls to the bottom, the top, by a delta, to a position and to an element', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      steps: [
        { scroll: 'bottom' },
        { scroll: 'top' },
        { scroll: { deltaY: 300 } },
        { scroll: { x: 0, y: 120 } },
        { scroll: '#far' },
      ],
    });
    const ys = r.out.steps.map((s: { output: { scrollY: number } }) => s.output.scrollY);
    expect(ys[0]).toBeGreaterThan(1000);
    expect(ys.slice(1, 4)).toEqual([0, 300, 120]);
    expect(ys[4]).toBeGreaterThan(1000);
  });

  it('scrolls inside a container', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ scroll: { container: '#list', deltaY: 200 } }] });
    expect(r.out.steps[0].output).toEqual({ scrollX: 0, scrollY: 200 });
    expect(await h.value(tab, 'document.querySelector("#list").scrollTop')).toBe(200);
  });
});
