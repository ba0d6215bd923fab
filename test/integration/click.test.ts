// Clicking as a person does, checked by its effect: the events that reached the page (recorded in
// window.__events), exactly once, trusted, on the element meant — and truthful output.
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

describe('click', () => {
  it('clicks by CSS with trusted mouse events, exactly once', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: '#save' }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toEqual({
      clicked: true,
      target: 'button "Save"',
      method: 'cdp',
      targetReceived: true,
    });
    expect((await events(tab)).filter((e) => e.includes('save') && !e.includes('draft'))).toEqual([
      'mousedown:save',
      'mouseup:save',
      'click:save',
      'save',
    ]);
  });

  it('prefers an exact text match over a partial one, and buttons over other elements', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: { text: 'save' } }, { click: { text: 'Save dr' } }] });
    expect(r.out.status).toBe('ok');
    expect((await events(tab)).filter((e) => !e.includes(':'))).toEqual(['save', 'save-draft']);
  });

  it('clicks by ref from a snapshot and by the first matching of several selectors', async () => {
    const tab = await h.open('actions.html');
    const snap = await h.cli({ tab, steps: [{ snapshot: true }] });
    const ref = /button "Save draft" \[ref=(s\d+e\d+)\]/.exec(snap.out.steps[0].output.yaml)![1];
    const r = await h.cli({ tab, steps: [{ click: ref }, { click: { selectors: ['#missing', '#save'] } }] });
    expect(r.out.steps[1].output.selectorIndex).toBe(1);
    expect((await events(tab)).filter((e) => !e.includes(':'))).toEqual(['save-draft', 'save']);
  });

  it('fails an invalid selector at once instead of waiting', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: 'button[[' }] });
    expect(r.code).toBe(1);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    expect(r.out.steps[0].error).toMatch(/Invalid CSS selector/);
    expect(r.ms).toBeLessThan(4_000);
  });

  it('says how long it waited for an element that never came', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: { text: 'Launch rockets', timeout: 400 } }] });
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
    expect(r.out.steps[0].error).toMatch(/No element matches text "Launch rockets" \(waited 4\d\dms\)/);
    // A command timeout shorter than the 5 s action wait still ends in "not found", not a step timeout.
    const short = await h.cli({ tab, timeout: 1500, steps: [{ click: '#nope' }] });
    expect(short.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
  });

  it('waits for an element that appears later', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: '#late' }] });
    expect(r.out.status).toBe('ok');
    expect(await events(tab)).toContain('late');
  });

  it('toggles a visually hidden checkbox through its label and confirms the new state', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: '#agree' }] });
    expect(r.out.steps[0].output).toMatchObject({ clicked: true, viaLabel: true, checked: true });
    expect(r.out.steps[0].warning).toBeUndefined();
    expect(await h.value(tab, 'document.querySelector("#agree").checked')).toBe(true);
    expect((await events(tab)).filter((e) => e.startsWith('agree'))).toEqual(['agree:true']);
    const again = await h.cli({ tab, steps: [{ click: '#agree' }] });
    expect(again.out.steps[0].output.checked).toBe(false);
  });

  it('refuses to click a disabled button, saying so', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: { selector: '#disabled', timeout: 300 } }] });
    expect(r.out.steps[0].status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/is disabled/);
    expect(await events(tab)).not.toContain('disabled');
  });

  it('clicks inside a scrollable list, scrolling the container', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: '#item-40' }] });
    expect(r.out.steps[0].output.method).toBe('cdp');
    expect(await events(tab)).toContain('item-40');
  });

  it('double-clicks with click counts 1 and 2', async () => {
    const tab = await h.open('covered.html');
    await h.cli({ tab, steps: [{ click: '#close' }] });
    const r = await h.cli({ tab, steps: [{ click: { selector: '#under', doubleClick: true } }] });
    expect(r.out.status).toBe('ok');
    expect((await events(tab)).filter((e) => e.endsWith(':under'))).toEqual([
      'mousedown:under',
      'click:under',
      'mousedown:under',
      'click:under',
      'dblclick:under',
    ]);
  });

  it('names the modal covering the target, and without nativeOnly clicks it through JavaScript once', async () => {
    const tab = await h.open('covered.html');
    const strict = await h.cli({ tab, steps: [{ click: { selector: '#under', timeout: 300, nativeOnly: true } }] });
    expect(strict.out.steps[0].status).toBe('error');
    expect(strict.out.steps[0].error).toMatch(/covered by .*\(modal\)/);
    // The timeout ends with its call log: what the wait tried, repeated checks counted (issue 17).
    expect(strict.out.steps[0].error).toMatch(
      /\. Call log: waiting for "#under" to be ready for click; .*is covered by /,
    );
    // element.click() reaches the button, which does nothing: an untrusted click nothing followed is a
    // failure, and the next step is the modal's own close button.
    const forced = await h.cli({ tab, steps: [{ click: { selector: '#under', timeout: 300 } }] });
    expect(forced.out.steps[0]).toMatchObject({ status: 'error', category: 'no-effect' });
    expect(forced.out.steps[0].error).toMatch(
      /element\.click\(\) \(untrusted\), because it is covered by .*\(modal\).*nothing followed/,
    );
    const next = forced.out.steps[0].nextStep;
    expect(next).toEqual({ click: forced.out.steps[0].context.coveredBy.dismiss.ref });
    expect((await h.cli({ tab, steps: [next] })).out.status).toBe('ok');
    expect(await h.value(tab, 'document.getElementById("backdrop")')).toBeNull(); // the nextStep closed the modal
    const seen = await events(tab);
    expect(seen.filter((e) => e.includes('under'))).toEqual(['click:under:untrusted']);
    expect(seen.filter((e) => e.includes('backdrop'))).toEqual([]);
  });

  it('never lets a click land on what slid under the pointer; it retries on the target', async () => {
    const tab = await h.open('shift.html');
    const r = await h.cli({ tab, steps: [{ click: '#target' }] });
    expect(r.out.steps[0].output).toMatchObject({ clicked: true, method: 'cdp', targetReceived: true });
    const seen = await events(tab);
    expect(seen).toContain('target');
    expect(seen).not.toContain('intruder');
    expect(seen.filter((e) => e === 'target')).toHaveLength(1);
  });

  it('clicks a button hidden behind a sticky header, with a trusted click', async () => {
    const tab = await h.open('sticky.html');
    // Scroll so the button sits under the header, as after a jump to an anchor.
    await h.cli({
      tab,
      steps: [
        { pageFunction: 'scrollTo(0, document.querySelector("#buy-17").getBoundingClientRect().top + scrollY - 10)' },
      ],
    });
    expect(
      await h.value(
        tab,
        'document.elementFromPoint(50, document.querySelector("#buy-17").getBoundingClientRect().top + 5).closest("header") !== null',
      ),
    ).toBe(true);
    const r = await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            'window.__clicks = []; document.addEventListener("click", (e) => __clicks.push(e.target.id + (e.isTrusted ? "" : ":untrusted")))',
        },
        { click: '#buy-17' },
      ],
    });
    expect(r.out.steps[1].output).toMatchObject({ method: 'cdp', targetReceived: true });
    expect(r.out.steps[1].output.autoForced).toBeUndefined();
    expect(await h.value(tab, 'window.__clicks')).toEqual(['buy-17']);
  });

  it('reports a pushState route as navigation with the new URL', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: '#route' }] });
    expect(r.out.steps[0].output).toMatchObject({ navigated: true, newUrl: `${h.baseUrl}/app/route` });
  });

  it('follows a link to a new document and reports where it landed', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: { text: 'Go to page 2' } }] });
    expect(r.out.steps[0].output).toMatchObject({ navigated: true, newUrl: `${h.baseUrl}/page2.html` });
    expect(r.out.context.title).toBe('Second page');
  });

  it('registers a tab opened by target=_blank under a new alias the agent can use', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ click: '#blank' }] });
    const [opened] = r.out.steps[0].output.newTabs;
    expect(opened).toMatchObject({ url: `${h.baseUrl}/page2.html` });
    expect(opened.tab).toMatch(/^t\d+$/);
    expect(r.out.steps[0].output.navigated).toBeUndefined();
    const there = await h.cli({ tab: opened.tab, steps: [{ pageFunction: 'document.title' }] });
    expect(there.out.steps[0].output.value).toBe('Second page');
  });

  it('finds a row of an infinite list by scrolling its container', async () => {
    const tab = await h.open('lazy.html');
    const r = await h.cli({ tab, steps: [{ click: { text: 'Row 45', exact: true, scrollUntilVisible: true } }] });
    expect(r.out.status).toBe('ok');
    expect(await events(tab)).toEqual(['row-45']);
  });

  it('clicks at viewport coordinates', async () => {
    const tab = await h.open('actions.html');
    const box = await h.value(
      tab,
      '(() => { const r = document.querySelector("#save").getBoundingClientRect(); return { x: r.x + 5, y: r.y + 5 }; })()',
    );
    const r = await h.cli({ tab, steps: [{ click: box }] });
    expect(r.out.steps[0].output).toMatchObject({ clicked: true });
    expect(await events(tab)).toContain('save');
  });

  it('hovers a menu trigger and lists what appeared, with refs that click', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({
      tab,
      steps: [{ wait: '#late' }, { hover: { selector: '#menu-trigger', captureResult: true } }],
    });
    const [menu] = r.out.steps[1].output.capturedResult.visibleElements;
    expect(menu.role).toBe('menu');
    expect(menu.items.map((i: { name: string }) => i.name)).toEqual(['Alpha', 'Beta']);
    const click = await h.cli({ tab, steps: [{ hover: '#menu-trigger' }, { click: menu.items[0].ref }] });
    expect(click.out.status, JSON.stringify(click.out.steps)).toBe('ok');
    expect(await events(tab)).toContain('menu-a');
  });
});
