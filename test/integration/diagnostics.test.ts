// Failure diagnostics (SPEC §16.3, §6.8): a failed step says what kind of failure it was, shows
// the page as it was left (buttons, links, errors, near matches with refs), and suggests one
// step to run next — which, run as given, does what the agent meant.
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

describe('failure context', () => {
  it('lists near matches with refs, and the suggested step clicks the meant button', async () => {
    const tab = await h.open('near-miss.html');
    const r = await h.cli({ tab, steps: [{ click: { text: 'Sumbit order', timeout: 300 } }] });
    expect(r.code).toBe(1);
    const step = r.out.steps[0];
    expect(step).toMatchObject({
      status: 'error',
      errorType: 'ElementNotFoundError',
      category: 'selector-not-found',
      params: { text: 'Sumbit order', timeout: 300 },
    });
    const ctx = step.context;
    expect(ctx).toMatchObject({ title: 'Checkout', scrollPosition: { x: 0, y: 0 } });
    expect(ctx.url).toMatch(/near-miss\.html$/);
    expect(ctx.nearMatches[0]).toMatchObject({ role: 'button', name: 'Submit order' });
    expect(ctx.nearMatches[0].score).toBeGreaterThanOrEqual(50);
    expect(ctx.nearMatches.length).toBeLessThanOrEqual(5);
    expect(ctx.visibleButtons.length).toBeLessThanOrEqual(8);
    expect(ctx.visibleButtons.map((b: { name: string }) => b.name)).toEqual(
      expect.arrayContaining(['Submit order', 'Cancel', 'Accept all']),
    );
    expect(ctx.visibleLinks.map((l: { name: string }) => l.name)).toEqual(['Help', 'Terms']);
    expect(ctx.visibleErrors).toEqual(['Your session expires in 5 minutes', 'Email: Enter a complete email address']);
    expect(step.nextStep).toEqual({ click: { ref: ctx.nearMatches[0].ref, timeout: 300 } });
    const again = await h.cli({ tab, steps: [step.nextStep] });
    expect(again.out.status).toBe('ok');
    expect(await events(tab)).toEqual(['submit']);
  });

  it('matches a mistyped CSS id against ids and names', async () => {
    const tab = await h.open('near-miss.html');
    const r = await h.cli({ tab, steps: [{ fill: { selector: '#emial', value: 'bob@example.com', timeout: 200 } }] });
    const step = r.out.steps[0];
    expect(step.category).toBe('selector-not-found');
    expect(step.context.nearMatches[0]).toMatchObject({ role: 'textbox', name: 'Email' });
    expect(step.nextStep).toEqual({
      fill: { ref: step.context.nearMatches[0].ref, value: 'bob@example.com', timeout: 200 },
    });
    const again = await h.cli({ tab, steps: [step.nextStep] });
    expect(again.out.status).toBe('ok');
    expect(await h.value(tab, 'document.getElementById("email").value')).toBe('bob@example.com');
  });

  it('names a covering cookie banner and suggests its accept button', async () => {
    const tab = await h.open('near-miss.html');
    const r = await h.cli({ tab, steps: [{ click: { selector: '#checkout', nativeOnly: true, timeout: 300 } }] });
    const step = r.out.steps[0];
    expect(step.category).toBe('covered');
    expect(step.context.coveredBy).toMatchObject({
      kind: 'cookie-banner',
      selector: '#cookie-banner',
      dismiss: { name: 'Accept all' },
    });
    expect(step.nextStep).toEqual({ click: step.context.coveredBy.dismiss.ref });
    expect(await events(tab)).toEqual([]); // nothing was clicked
    const dismissed = await h.cli({
      tab,
      steps: [step.nextStep, { click: { selector: '#checkout', nativeOnly: true } }],
    });
    expect(dismissed.out.status).toBe('ok');
    expect(await events(tab)).toEqual(['accept', 'checkout']);
  });

  it('categorises a disabled target and a stale ref', async () => {
    const tab = await h.open('near-miss.html');
    const r = await h.cli({
      tab,
      stopOnError: false,
      steps: [{ click: { selector: '#save-later', timeout: 200 } }, { click: 's1e999' }],
    });
    expect(r.out.steps[0]).toMatchObject({ category: 'disabled' });
    expect(r.out.steps[0].nextStep.readyWhen).toContain('#save-later');
    expect(r.out.steps[1]).toMatchObject({ category: 'stale-ref', nextStep: { snapshot: true } });
  });

  it('gives an optional step only its category, and keeps a failure context bounded in time', async () => {
    const tab = await h.open('near-miss.html');
    const r = await h.cli({
      tab,
      steps: [
        { click: { text: 'Nope', timeout: 100 }, optional: true },
        { click: { text: 'Nothing like it', timeout: 100 } },
      ],
    });
    expect(r.out.steps[0]).toEqual({
      action: 'click',
      status: 'skipped',
      error: expect.any(String),
      errorType: 'ElementNotFoundError',
      category: 'selector-not-found',
    });
    expect(r.out.steps[1].context.nearMatches).toBeUndefined();
    expect(r.out.steps[1].nextStep).toEqual({
      click: { text: 'Nothing like it', timeout: 100, scrollUntilVisible: true },
    });
  });

  it('gathers the context in the chosen frame', async () => {
    const tab = await h.open('frames.html');
    const r = await h.cli({ tab, steps: [{ frame: 0 }, { click: { text: 'No such thing here', timeout: 100 } }] });
    const step = r.out.steps[1];
    expect(step.category).toBe('selector-not-found');
    expect(step.context.url).not.toMatch(/frames\.html$/);
  });

  it('a wait for text that never showed suggests the near text that did', async () => {
    const tab = await h.open('near-miss.html');
    const r = await h.cli({ tab, steps: [{ wait: { text: 'Submit ordr' }, timeout: 300 }] });
    expect(r.out.steps[0]).toMatchObject({ category: 'timeout', nextStep: { wait: { text: 'Submit order' } } });
    const again = await h.cli({ tab, steps: [r.out.steps[0].nextStep] });
    expect(again.out.status).toBe('ok');
  });

  it('suggests steps that run as given: the closest option, a click for a checkbox, text for a :contains selector', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      stopOnError: false,
      steps: [
        { selectOption: { selector: '#country', label: 'Germny' } },
        { fill: { selector: '#news', value: 'yes' } },
        { click: "button:contains('Save draft')" },
      ],
    });
    const [select, fill, click] = r.out.steps;
    expect(select).toMatchObject({
      category: 'option-not-found',
      nextStep: { selectOption: { selector: '#country', label: 'Germany' } },
    });
    expect(fill).toMatchObject({ category: 'not-editable', nextStep: { click: { selector: '#news' } } });
    expect(click).toMatchObject({ category: 'invalid-selector', nextStep: { click: { text: 'Save draft' } } });
    const again = await h.cli({ tab, steps: [select.nextStep, fill.nextStep, click.nextStep] });
    expect(again.out.status).toBe('ok');
    expect(await h.value(tab, 'document.getElementById("country").value')).toBe('de');
    expect(await h.value(tab, 'document.getElementById("news").checked')).toBe(true);
    expect(await events(tab)).toContain('save-draft');
  });

  it('suggests upload for a file input given to fill, from the kind of control the page found (issue 17)', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ fill: { selector: '#file', value: 'a.txt' } }] });
    expect(r.out.steps[0]).toMatchObject({
      category: 'not-editable',
      nextStep: { upload: { selector: '#file', files: ['/path/to/file'] } },
    });
    expect(await h.value(tab, 'document.getElementById("file").files.length')).toBe(0);
  });
});
