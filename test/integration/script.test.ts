// Dynamic execution (SPEC §12): pageFunction with refs and shell-mangling tips, poll, pipeline —
// effects checked in the page (script.html records input/change/click events).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('script.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], extra: Record<string, unknown> = {}) => h.cli({ tab, steps, ...extra });
const reload = () => run([{ goto: `${h.baseUrl}/script.html` }]);

describe('pageFunction', () => {
  beforeEach(async () => {
    await reload();
  });

  it('passes the ref map with refs: true, and finds a re-rendered element again by its ref', async () => {
    const snap = await run([{ snapshot: true }]);
    const ref = /textbox "Name" \[ref=(s\d+e\d+)\]/.exec(snap.out.steps[0].output.yaml)![1]!;
    // Replace the field with an equal one: the stored element is gone, the ref re-resolves.
    await run([
      {
        pageFunction:
          '() => { const old = document.getElementById("name"); const n = old.cloneNode(); n.dataset.fresh = "yes"; old.replaceWith(n); }',
      },
    ]);
    const r = await run([
      {
        pageFunction: {
          fn: `(refs) => { const el = refs.get("${ref}"); el.value = "via ref"; return [refs.has("${ref}"), el.dataset.fresh, refs instanceof Map] }`,
          refs: true,
        },
      },
    ]);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toEqual({ type: 'array', value: [true, 'yes', true] });
    expect(await h.value(tab, 'document.getElementById("name").value')).toBe('via ref');
  });

  it('says why a ref cannot be used', async () => {
    const r = await run([{ pageFunction: { fn: '(refs) => refs.get("s99e999")', refs: true } }]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0].error).toMatch(/ref s99e999 is unknown in this document; take a new snapshot/);
  });

  it('awaits a promise with serialize: false instead of answering {}', async () => {
    const r = await run([
      { pageFunction: { expression: 'new Promise(r => setTimeout(() => r({a: [1, 2]}), 30))', serialize: false } },
    ]);
    expect(r.out.steps[0].output).toEqual({ a: [1, 2] });
    const plain = await run([{ pageFunction: { expression: '({b: "x"})', serialize: false } }]);
    expect(plain.out.steps[0].output).toEqual({ b: 'x' });
  });

  it('terminates a runaway page function (expression mode too) and the tab stays usable', async () => {
    const fn = await run([{ pageFunction: { fn: '() => window.spin()', timeout: 1000 } }]);
    expect(fn.out.steps[0].errorType).toBe('TimeoutError');
    const expr = await run([{ pageFunction: { expression: 'spin()', timeout: 1000 } }]);
    expect(expr.out.steps[0].errorType).toBe('TimeoutError');
    expect(expr.ms).toBeLessThan(8_000);
    expect(await h.value(tab, 'document.title')).toBe('Script');
  });

  it('explains code the shell mangled: typographic quotes, an eaten $, $$ turned into a pid', async () => {
    const smart = await run([{ pageFunction: 'document.querySelector(“#name”)' }]);
    expect(smart.out.steps[0].errorType).toBe('StepValidationError');
    expect(smart.out.steps[0].error).toMatch(/typographic quotes/);
    const eaten = await run([{ pageFunction: 'const  = document.title; .length' }]);
    expect(eaten.out.steps[0].error).toMatch(/declaration without a name.*shell expanded "\$name"/);
    const member = await run([{ pageFunction: '.click()' }]);
    expect(member.out.steps[0].error).toMatch(/member access with nothing before it/);
    const pid = await run([{ pageFunction: '48213("a").length' }]);
    expect(pid.out.steps[0].errorType).toBe('EvaluationError');
    expect(pid.out.steps[0].error).toMatch(/"\$\$" by its process id.*single quotes/);
  });
});

describe('poll', () => {
  beforeEach(async () => {
    await reload();
  });

  it('returns the first truthy value', async () => {
    const r = await run([
      { click: '#later' },
      { poll: { fn: '() => window.readyValue', interval: 50, timeout: 5000 } },
    ]);
    const out = r.out.steps[1].output;
    expect(out).toMatchObject({ resolved: true, value: { type: 'object', value: { ok: true, n: 3 } } });
    expect(out.elapsed).toBeGreaterThanOrEqual(200);
  });

  it('accepts a bare expression and treats a throw as not yet', async () => {
    const r = await run([
      { click: '#go' },
      { poll: '!document.querySelector("#result").hidden && document.querySelector("#result").textContent' },
    ]);
    expect(r.out.steps[1].output).toMatchObject({ resolved: true, value: { type: 'string', value: 'Sent!' } });
  });

  it('times out as a step error that carries the last value', async () => {
    const r = await run([{ poll: { fn: '() => document.querySelectorAll("nope").length', timeout: 500 } }]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0]).toMatchObject({
      status: 'error',
      errorType: 'TimeoutError',
      output: { resolved: false, lastValue: { type: 'number', value: 0 } },
    });
    expect(r.out.steps[0].output.elapsed).toBeGreaterThanOrEqual(500);
    expect(r.out.steps[0].error).toMatch(/still falsy after 500ms/);
  });

  it('terminates a runaway predicate', async () => {
    const r = await run([{ poll: { fn: '() => window.spin()', timeout: 500 } }]);
    expect(r.out.steps[0].errorType).toBe('TimeoutError');
    expect(r.ms).toBeLessThan(10_000);
    expect(await h.value(tab, 'document.title')).toBe('Script');
  });

  it('refuses a mangled predicate before anything runs', async () => {
    const r = await run([{ click: '#go' }, { poll: '() => document.querySelector("#x).value' }]);
    expect(r.out.error.type).toBe('VALIDATION');
    expect(r.out.error.message).toMatch(/Step 2 \(poll\).*odd number of double quotes/);
    expect(await h.value(tab, 'window.__events')).toEqual([]);
  });
});

describe('pipeline', () => {
  beforeEach(async () => {
    await reload();
  });

  it('fills, types, checks, selects, clicks, waits and returns in one evaluation', async () => {
    const r = await run([
      {
        pipeline: [
          { find: '#email', fill: 'ann@example.com' },
          { find: '#name', type: 'Ann' },
          { find: '#agree', check: true },
          { find: '#plan', select: 'Pro plan' },
          { find: '#go', click: true },
          { waitFor: '() => !document.getElementById("result").hidden', timeout: 3000 },
          { return: 'document.getElementById("result").textContent' },
        ],
      },
    ]);
    expect(r.out.status).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out).toMatchObject({ completed: true, steps: 7 });
    expect(out.results.slice(0, 5)).toEqual([
      { value: 'ann@example.com' },
      { value: 'Ann' },
      { checked: true },
      { value: 'pro' },
      { clicked: true },
    ]);
    expect(out.results[6]).toEqual({ type: 'string', value: 'Sent!' });
    // The page saw it: the framework-style tracker took the native-setter value, events fired.
    const page = await h.value(
      tab,
      '({ state: window.__emailState, typed: document.getElementById("typed").textContent, events: window.__events, plan: document.getElementById("plan").value, agree: document.getElementById("agree").checked })',
    );
    expect(page).toMatchObject({ state: 'ann@example.com', typed: 'Ann', plan: 'pro', agree: true });
    expect(page.events).toEqual([
      'input:email',
      'change:email',
      'input:name',
      'input:name',
      'input:name',
      'input:agree',
      'change:agree',
      'input:plan',
      'change:plan',
      'click:go',
    ]);
  });

  it('stops at the failing operation with failedAt and the results so far', async () => {
    const r = await run([
      {
        pipeline: {
          steps: [
            { find: '#name', fill: 'Bo' },
            { find: '#missing', click: true },
            { find: '#email', fill: 'never@x.y' },
          ],
        },
      },
    ]);
    expect(r.code).toBe(1);
    const step = r.out.steps[0];
    expect(step).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
    expect(step.error).toBe('pipeline operation 1 (click "#missing") failed: no element matches "#missing"');
    expect(step.output).toEqual({
      completed: false,
      failedAt: 1,
      error: 'no element matches "#missing"',
      results: [{ value: 'Bo' }],
    });
    expect(
      await h.value(tab, '[document.getElementById("name").value, document.getElementById("email").value]'),
    ).toEqual(['Bo', '']);
  });

  it('names a waitFor timeout, a missing option and a read-only field', async () => {
    const wait = await run([{ pipeline: [{ waitFor: '() => false', timeout: 300 }] }]);
    expect(wait.out.steps[0]).toMatchObject({ errorType: 'TimeoutError', output: { failedAt: 0 } });
    const option = await run([{ pipeline: [{ find: '#plan', select: 'gold' }] }]);
    expect(option.out.steps[0].error).toMatch(/has no option "gold" \(values: "", "basic", "pro"\)/);
    const ro = await run([{ pipeline: [{ find: '#ro', fill: 'x' }] }]);
    expect(ro.out.steps[0]).toMatchObject({ errorType: 'ElementNotEditableError' });
    expect(await h.value(tab, 'document.getElementById("ro").value')).toBe('fixed');
  });

  it('terminates a runaway operation and still reports where it stopped', async () => {
    const r = await run([
      { pipeline: { steps: [{ find: '#name', fill: 'x' }, { return: '() => window.spin()' }], timeout: 800 } },
    ]);
    expect(r.out.steps[0]).toMatchObject({
      errorType: 'TimeoutError',
      output: { completed: false, failedAt: 1, results: [{ value: 'x' }] },
    });
    expect(r.ms).toBeLessThan(10_000);
    expect(await h.value(tab, 'document.getElementById("name").value')).toBe('x');
  });

  it('validates operations before anything runs', async () => {
    const r = await run([
      {
        pipeline: [
          { find: '#name', fill: 'x' },
          { find: '#go', tap: true },
        ],
      },
    ]);
    expect(r.out.error.type).toBe('VALIDATION');
    expect(r.out.error.message).toMatch(
      /pipeline operation 1: "find" needs exactly one of fill, click, type, check, select/,
    );
    expect(await h.value(tab, 'document.getElementById("name").value')).toBe('');
  });

  it('runs in the chosen frame', async () => {
    await run([{ goto: `${h.baseUrl}/frames.html` }]);
    const r = await run([{ frame: 0 }, { pipeline: [{ return: 'location.pathname' }] }, { frame: 'top' }]);
    expect(r.out.steps[1].output.results[0].value).not.toBe('/frames.html');
  });
});
