// pageFunction: function and expression modes, awaiting, the value serializer, errors, runaway
// scripts, and the page context reported afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('basic.html');
});
afterAll(async () => {
  await h?.close();
});

const pf = async (value: unknown, extra: Record<string, unknown> = {}) => {
  const r = await h.cli({ tab, steps: [{ pageFunction: value, ...extra }] });
  return r;
};

describe('pageFunction', () => {
  it('calls a function and serializes its result', async () => {
    const r = await pf('() => document.title');
    expect(r.out.steps[0].output).toEqual({ type: 'string', value: 'Basic page' });
  });

  it('awaits an async function', async () => {
    const r = await pf('async () => { await new Promise(r => setTimeout(r, 50)); return [1, "a", null]; }');
    expect(r.out.steps[0].output).toEqual({ type: 'array', value: [1, 'a', null] });
  });

  it('evaluates a bare expression, statements included', async () => {
    expect((await pf('document.querySelectorAll("input").length')).out.steps[0].output).toEqual({
      type: 'number',
      value: 2,
    });
    expect((await pf('const a = 20; a + 22')).out.steps[0].output).toEqual({ type: 'number', value: 42 });
  });

  it('awaits a promise returned by an expression', async () => {
    const r = await pf({ expression: 'new Promise(r => setTimeout(() => r("late"), 30))' });
    expect(r.out.steps[0].output).toEqual({ type: 'string', value: 'late' });
  });

  it('returns JSON values as plain JSON, as JSON.stringify in the page gives them (issue 13)', async () => {
    const src =
      '() => ({ name: document.title, inputs: [...document.querySelectorAll("input")].map((i) => ({ id: i.id, type: i.type })), n: 1.5, ok: true, none: null })';
    const r = await pf(src);
    expect(r.out.steps[0].output.type).toBe('object');
    expect(r.out.steps[0].output.value).toEqual(JSON.parse(await h.value(tab, `JSON.stringify((${src})())`)));
  });

  it('tags only the values JSON cannot carry, where they occur', async () => {
    const r = await pf(
      '() => ({ n: NaN, inf: -Infinity, u: undefined, d: new Date(0), re: /x/g, m: new Map([[1, 2]]), s: new Set(["a"]), e: new RangeError("far") })',
    );
    expect(r.out.steps[0].output).toEqual({
      type: 'object',
      value: {
        n: { $type: 'number', value: 'NaN' },
        inf: { $type: 'number', value: '-Infinity' },
        u: { $type: 'undefined' },
        d: { $type: 'date', value: '1970-01-01T00:00:00.000Z' },
        re: { $type: 'regexp', value: '/x/g' },
        m: { $type: 'map', size: 1, entries: [[1, 2]] },
        s: { $type: 'set', size: 1, values: ['a'] },
        e: { $type: 'error', name: 'RangeError', message: 'far' },
      },
    });
  });

  it('gives elements as a ref and a description, and the ref acts on that element', async () => {
    const el = (await pf('document.getElementById("reveal")')).out.steps[0].output;
    expect(el).toEqual({ type: 'element', ref: expect.stringMatching(/^s\d+e\d+$/), desc: 'button "Reveal"' });
    const list = (await pf('() => document.querySelectorAll("h1, input")')).out.steps[0].output;
    expect(list.type).toBe('array');
    expect(list.value.map((e: { desc: string }) => e.desc)).toEqual([
      'heading "Basic page"',
      'textbox "Your name"',
      'textbox <input#secret>',
    ]);
    // The oracle: the page's own click log, after clicking by the ref the value carried.
    await h.value(tab, 'window.__events.length = 0');
    await h.cli({ tab, steps: [{ click: el.ref }] });
    expect(await h.value(tab, 'window.__events')).toEqual(['click:reveal']);
    const detached = (await pf('() => document.createElement("span")')).out.steps[0].output;
    expect(detached).toEqual({ type: 'element', desc: 'span', connected: false });
  });

  it('knows refs by name and as the parameter, in functions and expressions (issue 13)', async () => {
    const ref = (await pf('document.getElementById("heading")')).out.steps[0].output.ref;
    for (const source of [
      `() => refs.get("${ref}").id`,
      `(refs) => refs.get("${ref}").id`,
      `refs.get("${ref}").id`,
      `const el = refs.get("${ref}"); el.id`,
    ]) {
      const r = await pf(source);
      expect(r.out.steps[0], source).toMatchObject({ status: 'ok', output: { type: 'string', value: 'heading' } });
    }
    expect((await pf({ fn: `(r) => r.get("${ref}").tagName`, refs: true })).out.steps[0].output).toEqual({
      type: 'string',
      value: 'H1',
    });
  });

  it('caps long strings and says how much was cut', async () => {
    const r = await pf('() => ({ s: "x".repeat(2500) })');
    expect(r.out.steps[0].output.value.s).toBe(`${'x'.repeat(2000)}…[+500 chars]`);
  });

  it('passes the value through untouched with serialize: false', async () => {
    const r = await pf({ expression: '({a: [1, 2]})', serialize: false });
    expect(r.out.steps[0].output).toEqual({ a: [1, 2] });
  });

  it('reports a thrown error with the source', async () => {
    const r = await pf('() => { throw new RangeError("too far") }');
    expect(r.code).toBe(1);
    expect(r.out.steps[0].error).toMatch(/RangeError: too far — in: \(\) => \{ throw new RangeError/);
  });

  it('explains a syntax error that shell quoting caused', async () => {
    const r = await pf('document.querySelector("a).click()');
    expect(r.code).toBe(1);
    expect(r.out.steps[0].errorType).toBe('StepValidationError');
    expect(r.out.steps[0].error).toMatch(/odd number of double quotes.*shell quoting/);
  });

  it('terminates a runaway loop at its timeout and leaves the tab usable', async () => {
    const r = await pf({ fn: '() => { while (true) {} }', timeout: 1000 });
    expect(r.code).toBe(1);
    expect(r.out.steps[0].errorType).toBe('TimeoutError');
    expect(r.ms).toBeLessThan(8_000);
    const next = await pf('document.title');
    expect(next.out.steps[0].output.value).toBe('Basic page');
  });

  it('reports focus and masks a password value in the context', async () => {
    const r = await pf('document.getElementById("secret").focus()');
    expect(r.out.context.activeElement).toMatchObject({
      tag: 'input',
      selector: '#secret',
      type: 'password',
      value: '••••',
      editable: true,
    });
  });

  it('reports console errors of the command only', async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/console.html` }] });
    const r = await h.cli({
      tab,
      steps: [
        {
          pageFunction: '() => { document.getElementById("err").click(); console.warn("w1"); console.log("ignored"); }',
        },
      ],
    });
    expect(r.out.console.warnings).toEqual(['w1']);
    expect(r.out.console.errors).toHaveLength(1);
    expect(r.out.console.errors[0]).toMatch(new RegExp(`^button error 42 \\(${h.baseUrl}/console.html:4:\\d+\\)$`));
    const quiet = await pf('1');
    expect(quiet.out.console).toBeUndefined(); // earlier messages are not repeated
  });

  it('reports uncaught exceptions', async () => {
    const r = await h.cli({
      tab,
      steps: [{ pageFunction: 'document.getElementById("throw").click()' }, { wait: 100 }],
    });
    expect(r.out.console.errors[0]).toMatch(/TypeError: thrown in timeout/);
  });

  it('detects a modal dialog in the context', async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/dialog.html` }] });
    const r = await pf('document.getElementById("open-modal").click()');
    expect(r.out.context.modal).toEqual({ title: 'Settings' });
  });

  it('answers alert and confirm dialogs and reports them', async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/dialog.html` }] });
    const r = await pf(
      '() => { document.getElementById("confirm").click(); return document.getElementById("answer").textContent }',
    );
    expect(r.out.steps[0].output.value).toBe('confirm=true');
    expect(r.out.dialogs).toEqual([{ type: 'confirm', message: 'Sure?', action: 'accepted', step: 1 }]);
  });
});
