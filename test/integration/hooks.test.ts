// Step hooks (SPEC §10.2): readyWhen before the action, settledWhen after it (a warning when it
// never holds), observe at the end — checked by what happened in the page, not only the output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const events = (tab: string): Promise<string[]> => h.value(tab, 'window.__events');

describe('hooks', () => {
  it('readyWhen holds the click until the app is wired', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({ tab, steps: [{ click: '#start', readyWhen: '() => window.appReady === true' }] });
    expect(r.out.status).toBe('ok');
    expect(await events(tab)).toEqual(['start']);
  });

  it('settledWhen waits out the spinner and observe reads the result', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({
      tab,
      steps: [
        {
          click: '#load',
          settledWhen: "() => !document.querySelector('.spinner')",
          observe: "document.querySelector('#result')?.textContent",
        },
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0]).toMatchObject({ status: 'ok', observation: { type: 'string', value: 'Loaded 3 orders' } });
    expect(r.out.steps[0].warning).toBeUndefined();
  });

  it('takes hooks inside the action object too, and observes structured values', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({
      tab,
      steps: [
        {
          click: {
            selector: '#load',
            settledWhen: "() => document.querySelector('#result')",
            observe: '() => ({ events: window.__events, n: 3, el: document.querySelector("#result") })',
          },
        },
      ],
    });
    expect(r.out.status).toBe('ok');
    const obs = r.out.steps[0].observation;
    expect(obs).toMatchObject({
      type: 'object',
      value: { events: ['load'], n: 3, el: { $type: 'element', desc: expect.stringContaining('<p#result>') } },
    });
  });

  it('a settledWhen that never holds is a warning, the step stands, observe still runs', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({
      tab,
      // A first step takes the start-up and attach, which count against the first step's timeout:
      // the hook step's 1.5 s are its own however slow the machine is to start the CLI.
      steps: [
        { pageFunction: '1' },
        { click: '#load', timeout: 1500, settledWhen: '() => window.neverSet', observe: '() => 42' },
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[1]).toMatchObject({ status: 'ok', observation: { type: 'number', value: 42 } });
    expect(r.out.steps[1].warning).toMatch(/settledWhen was not truthy after \d+ms \(last value: undefined\)/);
    expect(await events(tab)).toContain('load');
  });

  it('a readyWhen that never holds fails the step as a timeout and the action does not run', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({
      tab,
      // The first step takes the start-up and attach (they count against the first step's timeout).
      steps: [
        { pageFunction: '1' },
        { click: '#load', timeout: 800, readyWhen: "document.querySelector('#nope').textContent" },
      ],
    });
    expect(r.code).toBe(1);
    const step = r.out.steps[1];
    expect(step).toMatchObject({ status: 'error', errorType: 'TimeoutError', category: 'timeout' });
    expect(step.error).toMatch(
      /readyWhen was not truthy within \d+ms \(it threw TypeError: Cannot read properties of null/,
    );
    expect(step.nextStep).toEqual({
      click: '#load',
      readyWhen: "document.querySelector('#nope').textContent",
      timeout: 1600,
    });
    // It gave up at its 800 ms (the poll ends a little before the deadline), not later; the wall
    // clock only has to show no hang: CLI start-up on a loaded machine is no part of the claim.
    expect(Number(/within (\d+)ms/.exec(step.error)?.[1])).toBeLessThanOrEqual(800);
    expect(r.ms).toBeLessThan(20_000);
    expect(await events(tab)).toEqual([]);
  });

  it('polls settledWhen across a navigation', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({
      tab,
      steps: [
        {
          click: '#next',
          settledWhen: "() => location.pathname.endsWith('page2.html') && document.readyState === 'complete'",
          observe: 'document.title',
        },
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].warning).toBeUndefined();
    expect(r.out.steps[0].observation).toEqual({ type: 'string', value: await h.value(tab, 'document.title') });
  });

  it('reports a hook with a syntax error as a validation failure', async () => {
    const tab = await h.open('hooks.html');
    const r = await h.cli({ tab, steps: [{ click: '#load', readyWhen: '() => document.querySelector(' }] });
    expect(r.out.steps[0]).toMatchObject({ status: 'error', category: 'validation' });
    expect(r.out.steps[0].error).toMatch(/^readyWhen: SyntaxError/);
    expect(await events(tab)).toEqual([]);
  });
});
