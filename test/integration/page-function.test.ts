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
afterAll(async () => { await h?.close(); });

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
    expect(r.out.steps[0].output).toEqual({
      type: 'array', length: 3,
      value: [{ type: 'number', value: 1 }, { type: 'string', value: 'a' }, { type: 'null', value: null }],
    });
  });

  it('evaluates a bare expression, statements included', async () => {
    expect((await pf('document.querySelectorAll("input").length')).out.steps[0].output).toEqual({ type: 'number', value: 2 });
    expect((await pf('const a = 20; a + 22')).out.steps[0].output).toEqual({ type: 'number', value: 42 });
  });

  it('awaits a promise returned by an expression', async () => {
    const r = await pf({ expression: 'new Promise(r => setTimeout(() => r("late"), 30))' });
    expect(r.out.steps[0].output).toEqual({ type: 'string', value: 'late' });
  });

  it('serializes special values the way the spec lists', async () => {
    const r = await pf('() => ({ n: NaN, inf: -Infinity, u: undefined, d: new Date(0), re: /x/g, m: new Map([[1, 2]]), s: new Set(["a"]) })');
    const v = r.out.steps[0].output.value;
    expect(v.n).toEqual({ type: 'number', value: 'NaN' });
    expect(v.inf).toEqual({ type: 'number', value: '-Infinity' });
    expect(v.u).toEqual({ type: 'undefined' });
    expect(v.d).toMatchObject({ type: 'Date', value: '1970-01-01T00:00:00.000Z' });
    expect(v.re).toMatchObject({ type: 'RegExp', value: '/x/g' });
    expect(v.m).toMatchObject({ type: 'Map', size: 1 });
    expect(v.s).toMatchObject({ type: 'Set', size: 1 });
  });

  it('serializes DOM elements and node lists', async () => {
    const el = (await pf('document.getElementById("heading")')).out.steps[0].output;
    expect(el).toMatchObject({ type: 'Element', tag: 'h1', id: 'heading', text: 'Basic page', isConnected: true });
    const list = (await pf('() => document.querySelectorAll("input")')).out.steps[0].output;
    expect(list).toMatchObject({ type: 'NodeList', length: 2 });
    expect(list.items[1]).toMatchObject({ type: 'Element', tag: 'input', id: 'secret' });
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
    expect(r.out.context.activeElement).toMatchObject({ tag: 'input', selector: '#secret', type: 'password', value: '••••', editable: true });
  });

  it('reports console errors of the command only', async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/console.html` }] });
    const r = await h.cli({ tab, steps: [{ pageFunction: '() => { document.getElementById("err").click(); console.warn("w1"); console.log("ignored"); }' }] });
    expect(r.out.console.warnings).toEqual(['w1']);
    expect(r.out.console.errors).toHaveLength(1);
    expect(r.out.console.errors[0]).toMatch(new RegExp(`^button error 42 \\(${h.baseUrl}/console.html:4:\\d+\\)$`));
    const quiet = await pf('1');
    expect(quiet.out.console).toBeUndefined(); // earlier messages are not repeated
  });

  it('reports uncaught exceptions', async () => {
    const r = await h.cli({ tab, steps: [{ pageFunction: 'document.getElementById("throw").click()' }, { wait: 100 }] });
    expect(r.out.console.errors[0]).toMatch(/TypeError: thrown in timeout/);
  });

  it('detects a modal dialog in the context', async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/dialog.html` }] });
    const r = await pf('document.getElementById("open-modal").click()');
    expect(r.out.context.modal).toEqual({ title: 'Settings' });
  });

  it('answers alert and confirm dialogs and reports them', async () => {
    await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/dialog.html` }] });
    const r = await pf('() => { document.getElementById("confirm").click(); return document.getElementById("answer").textContent }');
    expect(r.out.steps[0].output.value).toBe('confirm=true');
    expect(r.out.dialogs).toEqual([{ type: 'confirm', message: 'Sure?', action: 'accepted', step: 1 }]);
  });
});
