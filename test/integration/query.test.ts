// snapshotSearch, query, queryAll and elementsAt: every form, exact outputs, and refs that are the
// same refs a later snapshot shows (and never repeat across documents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type Harness } from './harness.js';

let h: Harness;
let tab: string;
let points: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('query-page.html');
  points = await h.open('query-points.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], on = tab) => h.cli({ tab: on, steps });
const output = (r: CliResult, i = 0) => r.out.steps[i].output;
const REF = /^s\d+e\d+$/;
const refNumber = (ref: string): number => Number(/e(\d+)$/.exec(ref)![1]);
/** Drops refs (checked separately) so the rest compares exactly. */
const withoutRefs = <T extends { ref?: string }>(items: T[]): Omit<T, 'ref'>[] =>
  items.map(({ ref, ...rest }) => {
    if (ref !== undefined) expect(ref).toMatch(REF);
    return rest;
  });

function expectStepValidation(r: CliResult, message: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
  expect(r.out.steps[0].error).toMatch(message);
  expect(r.ms).toBeLessThan(5_000);
}

describe('query: CSS', () => {
  it('returns text by default, trimmed with clean, several outputs, attributes and hrefs', async () => {
    const r = await run([
      { query: 'li.order' },
      { query: { selector: ' li.order ', clean: true, output: ['text', 'tag'], limit: 2 } },
      { query: { selector: 'li.order', output: { attribute: ['data-id', 'class'] }, limit: 1 } },
      { query: { selector: 'li.order', output: { attribute: 'data-id' } } },
      { query: { selector: 'nav a', output: 'href' } },
      { query: { selector: '#q', output: 'value' } },
    ]);
    expect(output(r, 0)).toEqual({
      selector: 'li.order',
      total: 3,
      showing: 3,
      results: [
        { index: 1, value: '  Order   #7 $12' },
        { index: 2, value: 'Order #8 $30' },
        { index: 3, value: 'Order #9 $5' },
      ],
    });
    expect(output(r, 1)).toEqual({
      selector: 'li.order',
      total: 3,
      showing: 2,
      results: [
        { index: 1, value: { text: 'Order #7 $12', tag: 'li' } },
        { index: 2, value: { text: 'Order #8 $30', tag: 'li' } },
      ],
    });
    expect(output(r, 2).results).toEqual([{ index: 1, value: { 'data-id': '7', class: 'order' } }]);
    expect(output(r, 3).results.map((x: { value: string }) => x.value)).toEqual(['7', '8', '9']);
    const hrefs = output(r, 4).results.map((x: { value: string }) => x.value.replace(h.baseUrl, 'BASE'));
    expect(hrefs).toEqual(['BASE/basic.html', 'BASE/page2.html?x=1']);
    expect(withoutRefs(output(r, 5).results)).toEqual([{ index: 1, value: 'blue shoes' }]);
  });

  it('adds tag, attributes and box with metadata', async () => {
    const r = await run([{ query: { selector: '#help', metadata: true } }], points);
    const [item] = output(r).results;
    expect(item.ref).toMatch(REF);
    expect(item).toEqual({
      index: 1,
      value: 'Help',
      ref: item.ref,
      tag: 'a',
      attributes: {
        class: 'abs',
        id: 'help',
        href: '/basic.html',
        style: 'left: 100px; top: 200px; width: 80px; height: 20px',
      },
      box: { x: 100, y: 200, width: 80, height: 20 },
    });
  });

  it('gives refs to rendered interactive matches, the same refs a later snapshot shows', async () => {
    const r = await run([{ reload: true }, { query: 'form button' }, { snapshot: true }]);
    const results = output(r, 1).results;
    expect(withoutRefs(results)).toEqual([
      { index: 1, value: 'Save' },
      { index: 2, value: 'Save draft' },
      { index: 3, value: 'Delete' },
      { index: 4, value: 'Save hidden' },
    ]);
    expect(results[3].ref).toBeUndefined(); // display: none — nothing to act on
    const yaml: string = output(r, 2).yaml;
    expect(yaml).toContain(`button "Save" [ref=${results[0].ref}]`);
    expect(yaml).toContain(`button "Save draft" [ref=${results[1].ref}]`);
    expect(yaml).toContain(`button "Delete" [disabled] [ref=${results[2].ref}]`);
  });

  it('finds elements inside open shadow roots', async () => {
    const r = await run([{ query: 'button' }, { query: '#shadow-save' }]);
    expect(output(r, 0).total).toBe(5);
    expect(output(r, 0).results[4].value).toBe('Shadow save');
    expect(withoutRefs(output(r, 1).results)).toEqual([{ index: 1, value: 'Shadow save' }]);
  });

  it('fails fast on an invalid selector with StepValidationError', async () => {
    expectStepValidation(await run([{ query: 'li[' }]), /^Invalid CSS selector "li\[": .*not a valid selector/);
  });

  it('rejects bad parameters before running anything', async () => {
    const r = await run([{ query: { selector: 'li', output: 'json' } }]);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'VALIDATION' } });
    expect(r.out.error.message).toMatch(/"output" modes are text, html, href, value, tag/);
  });
});

describe('query: roles', () => {
  it('finds every button with its states and a ref, shadow DOM included', async () => {
    const r = await run([{ query: { role: 'button' } }]);
    const out = output(r);
    expect({ ...out, results: withoutRefs(out.results) }).toEqual({
      role: 'button',
      total: 4,
      showing: 4,
      results: [
        { index: 1, role: 'button', name: 'Save' },
        { index: 2, role: 'button', name: 'Save draft' },
        { index: 3, role: 'button', name: 'Delete', disabled: true },
        { index: 4, role: 'button', name: 'Shadow save' },
      ],
    });
    expect(out.results.every((x: { ref?: string }) => x.ref)).toBe(true);
  });

  it('filters by name substring, exact name and regex, case-insensitively', async () => {
    const names = (r: CliResult, i: number) => output(r, i).results.map((x: { name: string }) => x.name);
    const r = await run([
      { query: { role: 'button', name: 'SAVE' } },
      { query: { role: 'button', name: 'save', nameExact: true } },
      { query: { role: 'button', nameExact: 'Save draft' } },
      { query: { role: 'button', nameRegex: '^save( draft)?$' } },
    ]);
    expect(names(r, 0)).toEqual(['Save', 'Save draft', 'Shadow save']);
    expect(names(r, 1)).toEqual(['Save']);
    expect(names(r, 2)).toEqual(['Save draft']);
    expect(names(r, 3)).toEqual(['Save', 'Save draft']);
  });

  it('filters by level, checked and disabled, and counts only', async () => {
    const r = await run([
      { query: { role: 'heading', level: 2 } },
      { query: { role: 'checkbox', checked: true } },
      { query: { role: 'checkbox', checked: false } },
      { query: { role: 'button', disabled: false, limit: 2 } },
      { query: { roles: ['link', 'heading'], countOnly: true } },
      { query: { role: 'checkbox', countOnly: true } },
    ]);
    expect(withoutRefs(output(r, 0).results)).toEqual([{ index: 1, role: 'heading', name: 'Open orders', level: 2 }]);
    expect(withoutRefs(output(r, 1).results)).toEqual([
      { index: 1, role: 'checkbox', name: 'Paid', checked: 'true', field: 'paid' },
    ]);
    expect(withoutRefs(output(r, 2).results)).toEqual([
      { index: 1, role: 'checkbox', name: 'Shipped', checked: 'false', field: 'shipped' },
      { index: 2, role: 'checkbox', name: 'Express', checked: 'false' },
    ]);
    expect(output(r, 3)).toMatchObject({ role: 'button', total: 3, showing: 2 });
    expect(output(r, 4)).toEqual({ total: 5 });
    expect(output(r, 5)).toEqual({ total: 3 });
  });

  it('gives refs a later snapshot shows, and never repeats one after the page reloads', async () => {
    const before = await run([{ query: { role: 'checkbox' } }]);
    const oldRefs: string[] = output(before).results.map((x: { ref: string }) => x.ref);
    const r = await run([{ reload: true }, { query: { role: 'checkbox' } }, { snapshot: true }]);
    const results = output(r, 1).results;
    const yaml: string = output(r, 2).yaml;
    expect(yaml).toContain(`checkbox "Paid" [checked] [name=paid] [ref=${results[0].ref}]`);
    expect(yaml).toContain(`checkbox "Shipped" [name=shipped] [ref=${results[1].ref}]`);
    expect(yaml).toContain(`checkbox "Express" [ref=${results[2].ref}]`);
    const newest = Math.max(...oldRefs.map(refNumber));
    for (const x of results) expect(refNumber(x.ref)).toBeGreaterThan(newest);
  });

  it('fails fast on an invalid nameRegex with StepValidationError', async () => {
    expectStepValidation(
      await run([{ query: { role: 'button', nameRegex: '(save' } }]),
      /^Invalid nameRegex \/\(save\/: .*Unterminated group/,
    );
  });
});

describe('queryAll', () => {
  it('runs selector and role queries together, keyed by label', async () => {
    const r = await run([
      {
        queryAll: {
          prices: '.price',
          heads: { role: 'heading', level: 2 },
          paid: { role: 'checkbox', checked: true, countOnly: true },
          firstOrder: { selector: 'li.order', clean: true, limit: 1 },
        },
      },
    ]);
    const out = output(r);
    expect(out.heads.results[0].ref).toMatch(REF);
    expect({ ...out, heads: { ...out.heads, results: withoutRefs(out.heads.results) } }).toEqual({
      prices: {
        selector: '.price',
        total: 3,
        showing: 3,
        results: [
          { index: 1, value: '$12' },
          { index: 2, value: '$30' },
          { index: 3, value: '$5' },
        ],
      },
      heads: {
        role: 'heading',
        total: 1,
        showing: 1,
        results: [{ index: 1, role: 'heading', name: 'Open orders', level: 2 }],
      },
      paid: { total: 1 },
      firstOrder: { selector: 'li.order', total: 3, showing: 1, results: [{ index: 1, value: 'Order #7 $12' }] },
    });
  });

  it('names the label of an invalid selector', async () => {
    expectStepValidation(
      await run([{ queryAll: { ok: 'li', bad: 'li[' } }]),
      /^Invalid CSS selector "li\[" in "bad": /,
    );
  });
});

describe('snapshotSearch', () => {
  it('matches names case-insensitively, with the ancestor path and refs', async () => {
    const r = await run([
      { snapshotSearch: { text: 'save' } },
      { snapshotSearch: { text: 'save', limit: 1, context: 1 } },
    ]);
    const out = output(r, 0);
    expect({ ...out, matches: withoutRefs(out.matches) }).toEqual({
      matches: [
        { path: 'main > form "Filters"', role: 'button', name: 'Save' },
        { path: 'main > form "Filters"', role: 'button', name: 'Save draft' },
        { path: 'main', role: 'button', name: 'Shadow save' },
      ],
      matchCount: 3,
      searchedElements: 22,
      criteria: { text: 'save' },
    });
    expect(out.matches.every((m: { ref?: string }) => m.ref)).toBe(true);
    expect(withoutRefs(output(r, 1).matches)).toEqual([{ path: 'form "Filters"', role: 'button', name: 'Save' }]);
    expect(output(r, 1).matchCount).toBe(3);
  });

  it('matches values, exact names, roles and regular expressions over text', async () => {
    const r = await run([
      { snapshotSearch: { text: 'BLUE' } },
      { snapshotSearch: { text: 'save', exact: true, context: 0 } },
      { snapshotSearch: { role: 'heading' } },
      { snapshotSearch: { pattern: '^order #\\d', context: 1 } },
      { snapshotSearch: { role: 'link', pattern: 'docs' } },
    ]);
    expect(withoutRefs(output(r, 0).matches)).toEqual([
      { path: 'main > form "Filters"', role: 'textbox', name: 'Search orders', value: 'blue shoes' },
    ]);
    expect(withoutRefs(output(r, 1).matches)).toEqual([{ path: '', role: 'button', name: 'Save' }]);
    expect(output(r, 1).criteria).toEqual({ text: 'save', exact: true });
    // Every match carries a ref (issue 22 item 11): headings and text runs too, to scroll to or act on.
    for (const i of [2, 3]) expect(output(r, i).matches.every((m: { ref?: string }) => m.ref)).toBe(true);
    expect(withoutRefs(output(r, 2).matches)).toEqual([
      { path: 'main', role: 'heading', name: 'Orders' },
      { path: 'main', role: 'heading', name: 'Open orders' },
      { path: 'main', role: 'heading', name: 'Filters' },
    ]);
    expect(withoutRefs(output(r, 3).matches)).toEqual([
      { path: 'listitem', role: 'text', name: 'Order #7 $12' },
      { path: 'listitem', role: 'text', name: 'Order #8 $30' },
      { path: 'listitem', role: 'text', name: 'Order #9 $5' },
    ]);
    expect(withoutRefs(output(r, 4).matches)).toEqual([{ path: 'navigation "Main"', role: 'link', name: 'Docs' }]);
  });

  it('returns refs a later snapshot shows', async () => {
    const r = await run([{ reload: true }, { snapshotSearch: { text: 'save' } }, { snapshot: true }]);
    const [save, draft, shadow] = output(r, 1).matches;
    const yaml: string = output(r, 2).yaml;
    expect(yaml).toContain(`button "Save" [ref=${save.ref}]`);
    expect(yaml).toContain(`button "Save draft" [ref=${draft.ref}]`);
    expect(yaml).toContain(`button "Shadow save" [ref=${shadow.ref}]`);
  });

  it('keeps only matches near a point, with their boxes', async () => {
    const r = await run(
      [
        { snapshotSearch: { role: 'button', near: { x: 160, y: 120, radius: 50 } } },
        { snapshotSearch: { role: 'button', near: { x: 650, y: 120, radius: 30 } } },
        { snapshotSearch: { text: 'e', near: { x: 0, y: 700, radius: 10 } } },
      ],
      points,
    );
    expect(withoutRefs(output(r, 0).matches)).toEqual([
      { path: '', role: 'button', name: 'Go', box: { x: 100, y: 100, width: 120, height: 40 } },
    ]);
    expect(output(r, 0).criteria).toEqual({ role: 'button', near: { x: 160, y: 120, radius: 50 } });
    expect(withoutRefs(output(r, 1).matches)).toEqual([
      { path: '', role: 'button', name: 'Inside', box: { x: 600, y: 100, width: 100, height: 40 } },
    ]);
    expect(output(r, 2)).toMatchObject({ matches: [], matchCount: 0 });
  });

  it('fails fast on an invalid pattern, and needs text, pattern or role', async () => {
    expectStepValidation(await run([{ snapshotSearch: { pattern: '[a-' } }]), /^Invalid pattern \/\[a-\/: /);
    const r = await run([{ snapshotSearch: { limit: 3 } }]);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'VALIDATION' } });
    expect(r.out.error.message).toMatch(/at least one of "text", "pattern", "role"/);
  });
});

describe('elementsAt', () => {
  it('answers for the control under a point with a new ref that click-ready steps and snapshots share', async () => {
    const r = await run(
      [{ reload: true }, { elementsAt: { x: 160, y: 120 } }, { elementsAt: { x: 160, y: 120 } }, { snapshot: true }],
      points,
    );
    const first = output(r, 1);
    expect(first).toEqual({
      ref: first.ref,
      existing: false,
      tag: 'button',
      selector: '#go',
      clickable: true,
      role: 'button',
      name: 'Go',
      box: { x: 100, y: 100, width: 120, height: 40 },
    });
    expect(output(r, 2)).toEqual({ ...first, existing: true });
    expect(output(r, 3).yaml).toContain(`button "Go" [ref=${first.ref}]`);
    const box = await run([{ getBox: first.ref }], points);
    expect(output(box)).toEqual({ x: 100, y: 100, width: 120, height: 40, center: { x: 160, y: 120 } });
  });

  it('resolves a batch of points, inside shadow roots too, with an error where nothing is', async () => {
    const r = await run(
      [
        {
          elementsAt: [
            { x: 160, y: 120 },
            { x: 400, y: 150 },
            { x: 650, y: 120 },
            { x: -5, y: -5 },
          ],
        },
      ],
      points,
    );
    const out = output(r);
    expect(out.count).toBe(3);
    expect(withoutRefs(out.elements.slice(0, 3))).toEqual([
      {
        x: 160,
        y: 120,
        existing: true,
        tag: 'button',
        selector: '#go',
        clickable: true,
        role: 'button',
        name: 'Go',
        box: { x: 100, y: 100, width: 120, height: 40 },
      },
      {
        x: 400,
        y: 150,
        existing: false,
        tag: 'div',
        selector: '#panel',
        clickable: false,
        role: 'generic',
        name: '',
        text: 'Panel text',
        box: { x: 300, y: 100, width: 200, height: 100 },
      },
      {
        x: 650,
        y: 120,
        existing: true,
        tag: 'button',
        selector: '#inside',
        clickable: true,
        role: 'button',
        name: 'Inside',
        box: { x: 600, y: 100, width: 100, height: 40 },
      },
    ]);
    expect(Object.keys(out.elements[3])).toEqual(['x', 'y', 'error']);
    expect(out.elements[3].error).toMatch(/^No element at \(-5, -5\); the viewport is \d+x\d+$/);
    // The panel is not interactive, yet the agent pointed at it: it gets a ref all the same.
    const panel = out.elements[1].ref;
    const again = await run([{ elementsAt: { x: 450, y: 190 } }], points);
    expect(output(again)).toMatchObject({ ref: panel, existing: true });
  });

  it('lists visible elements near a point, closest first, with distances', async () => {
    const r = await run(
      [{ elementsAt: { x: 160, y: 120, radius: 100 } }, { elementsAt: { x: 160, y: 120, limit: 1 } }],
      points,
    );
    const out = output(r, 0);
    expect({ ...out, elements: withoutRefs(out.elements) }).toEqual({
      center: { x: 160, y: 120 },
      radius: 100,
      count: 3,
      elements: [
        {
          existing: true,
          tag: 'button',
          selector: '#go',
          clickable: true,
          role: 'button',
          name: 'Go',
          distance: 0,
          box: { x: 100, y: 100, width: 120, height: 40 },
        },
        {
          existing: false,
          tag: 'span',
          selector: 'span',
          clickable: false,
          role: 'generic',
          name: '',
          text: 'Go',
          distance: 0,
          box: { x: 100, y: 100, width: 120, height: 40 },
        },
        {
          existing: true,
          tag: 'a',
          selector: '#help',
          clickable: true,
          role: 'link',
          name: 'Help',
          distance: 92,
          box: { x: 100, y: 200, width: 80, height: 20 },
        },
      ],
    });
    expect(output(r, 1)).toMatchObject({ radius: 50, count: 1, elements: [{ selector: '#go' }] });
  });

  it('numbers new refs so that a re-rendered twin is found again, whichever step made them', async () => {
    const r = await run(
      [
        { reload: true },
        { query: { role: 'button', name: 'Edit', nameExact: true, limit: 2 } },
        { elementsAt: { x: 840, y: 390 } },
        { pageFunction: 'rerenderEdits()' },
      ],
      points,
    );
    const [first, second] = output(r, 1).results.map((x: { ref: string }) => x.ref);
    const third = output(r, 2).ref;
    expect(output(r, 2)).toMatchObject({ existing: false, name: 'Edit', box: { x: 800, y: 380 } });
    const boxes = output(await run([{ getBox: [first, second, third] }], points));
    expect(
      [boxes[first], boxes[second], boxes[third]].map((b: { y: number; reResolved?: true }) => [b.y, b.reResolved]),
    ).toEqual([
      [300, true],
      [340, true],
      [380, true],
    ]);
  });

  it('fails with ElementNotFoundError for a single point outside the page', async () => {
    const r = await run([{ elementsAt: { x: 5000, y: 5000 } }], points);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
    expect(r.out.steps[0].error).toMatch(/^No element at \(5000, 5000\)/);
  });
});
