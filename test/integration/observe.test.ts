// inspect, extract, getDom and assert: exact outputs on fixture pages, inside a chosen frame too,
// and a large generated table (/table?rows=N).
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('observe.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], on = tab) => h.cli({ tab: on, steps, stopOnError: false });
const output = (r: CliResult, i = 0) => r.out.steps[i].output;

describe('inspect', () => {
  it('counts the common elements and custom selectors, with texts up to limit', async () => {
    const r = await run([{ inspect: true }, { inspect: { selectors: ['p.note', 'li', '!!bad'], limit: 2 } }]);
    expect(r.out.status).toBe('ok');
    expect(output(r, 0)).toEqual({
      title: 'Observe page',
      url: `${h.baseUrl}/observe.html`,
      elements: {
        a: 2,
        button: 2,
        input: 1,
        textarea: 0,
        select: 0,
        h1: 1,
        h2: 2,
        h3: 1,
        img: 1,
        form: 1,
        table: 3,
        iframe: 1,
      },
    });
    expect(output(r, 1).custom).toEqual({
      'p.note': { count: 2, items: ['Note one', 'Note two'] },
      li: { count: 6, items: ['Apple', 'Banana Ripe'] },
      '!!bad': { error: 'invalid selector' },
    });
    // Read-only: no screenshot, no snapshot.
    expect(r.out.screenshot).toBeUndefined();
    expect(r.out.viewportSnapshot).toBeUndefined();
  });

  it('counts without texts when no limit is given', async () => {
    const r = await run([{ inspect: { selectors: ['tr'] } }]);
    expect(output(r).custom).toEqual({ tr: 9 });
  });
});

describe('extract', () => {
  it('reads a table: thead headers, body rows, block children and <br> as spaces', async () => {
    const r = await run([{ extract: '#orders' }]);
    expect(output(r)).toEqual({
      type: 'table',
      headers: ['Order #', 'Customer', 'Total'],
      rows: [
        ['7', 'Ann Lee', '$12'],
        ['8', 'Bob Stone', '$30'],
        ['9', 'Cy Young', '$5'],
      ],
      rowCount: 3,
    });
  });

  it('takes a first row of th as headers, and no headers when the first row has none', async () => {
    const r = await run([{ extract: '#plain' }, { extract: '#headless' }]);
    expect(output(r, 0)).toEqual({
      type: 'table',
      headers: ['Key', 'Value'],
      rows: [
        ['a', '1'],
        ['b', '2'],
      ],
      rowCount: 2,
    });
    expect(output(r, 1)).toEqual({
      type: 'table',
      headers: [],
      rows: [
        ['x', '1'],
        ['y', '2'],
      ],
      rowCount: 2,
    });
  });

  it('reads a role=grid of role=row and gridcells', async () => {
    const r = await run([{ extract: '#grid' }]);
    expect(output(r)).toEqual({
      type: 'table',
      headers: ['Name', 'Role'],
      rows: [
        ['Dana', 'Admin'],
        ['Eli', 'Editor'],
      ],
      rowCount: 2,
    });
  });

  it('reads lists: direct items, role=list with wrappers, a list inside a container', async () => {
    const r = await run([
      { extract: '#fruits' },
      { extract: '#wrapped' },
      { extract: '#cards' },
      { extract: { selector: '#fruits', limit: 1 } },
    ]);
    expect(output(r, 0)).toEqual({ type: 'list', items: ['Apple', 'Banana Ripe', 'Cherry'], itemCount: 3 });
    expect(output(r, 1)).toEqual({ type: 'list', items: ['One', 'Two'], itemCount: 2 });
    expect(output(r, 2)).toEqual({ type: 'list', items: ['First', 'Second'], itemCount: 2 });
    expect(output(r, 3)).toEqual({ type: 'list', items: ['Apple'], itemCount: 3 });
  });

  it('finds the first table of the page without a selector, and honours an explicit type', async () => {
    const r = await run([{ extract: true }, { extract: { selector: 'main', type: 'list', limit: 2 } }]);
    expect(output(r, 0).headers).toEqual(['Order #', 'Customer', 'Total']);
    expect(output(r, 1)).toEqual({ type: 'list', items: ['Apple', 'Banana Ripe'], itemCount: 3 });
  });

  it('says what is missing when there is no table or list', async () => {
    const r = await run([{ extract: '#nothing' }, { extract: { selector: '#cards', type: 'table' } }]);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    expect(r.out.steps[0].error).toMatch(/No table or list found in <div>; give "type"/);
    expect(r.out.steps[1]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
  });

  it('works inside the chosen frame', async () => {
    const r = await run([
      { frame: '#child' },
      { extract: true },
      { extract: 'ul' },
      { inspect: true },
      { frame: 'top' },
    ]);
    expect(output(r, 1)).toEqual({ type: 'table', headers: ['In'], rows: [['frame']], rowCount: 1 });
    expect(output(r, 2)).toEqual({ type: 'list', items: ['framed'], itemCount: 1 });
    expect(output(r, 3).elements.table).toBe(1);
  });

  it('reads a 1,000-row table, capped by limit, with the total counted', async () => {
    const big = await h.open('table?rows=1000');
    const r = await run([{ extract: { selector: '#accounts', limit: 1000 } }, { extract: '#accounts' }], big);
    const all = output(r, 0);
    expect(all.headers).toEqual(['ID', 'Name', 'Email', 'Amount', 'Status']);
    expect(all.rowCount).toBe(1000);
    expect(all.rows).toHaveLength(1000);
    expect(all.rows[999]).toEqual(['1000', 'User 1000', 'user1000@example.com', '7250.00', 'active']);
    expect(output(r, 1).rows).toHaveLength(100);
    expect(output(r, 1).rowCount).toBe(1000);
  });
});

describe('getDom', () => {
  it('returns outer or inner HTML of an element', async () => {
    const r = await run([{ getDom: '#box' }, { getDom: { selector: '#box', outer: false } }]);
    const inner =
      '<p class="note">Note <em>one</em></p><p class="note">Note two</p><script>var hidden = \'script text\';</script>';
    expect(output(r, 0)).toEqual({
      html: `<div id="box">${inner}</div>`,
      tagName: 'div',
      selector: '#box',
      length: inner.length + 20,
    });
    expect(output(r, 1)).toEqual({ html: inner, tagName: 'div', selector: '#box', length: inner.length });
  });

  it('cuts long HTML, says so, and saves the whole of it to a file', async () => {
    const r = await run([{ getDom: true }, { getDom: { selector: 'main', maxLength: 200 } }]);
    const page = output(r, 0);
    expect(page.tagName).toBe('html');
    expect(page.html.startsWith('<html lang="en"><head>')).toBe(true);
    expect(page.truncated).toBeUndefined();
    const cut = output(r, 1);
    expect(cut.html).toHaveLength(200);
    expect(cut.truncated).toBe(true);
    expect(r.out.steps[1].warning).toMatch(/HTML is \d+ characters: the first 200 are inline/);
    expect(existsSync(cut.path)).toBe(true);
    expect(readFileSync(cut.path, 'utf8')).toHaveLength(cut.length);
  });

  it('fails with ElementNotFoundError for a selector that matches nothing', async () => {
    const r = await run([{ getDom: { selector: '#nope' }, timeout: 2000 }]);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'ElementNotFoundError' });
  });
});

describe('assert', () => {
  it('passes URL and text checks in every form, and lists them', async () => {
    const r = await run([
      { assert: { url: { contains: 'observe', startsWith: 'http://', endsWith: '.html' } } },
      { assert: { urlContains: '/observe', urlMatches: '^http://127\\.0\\.0\\.1:\\d+/observe' } },
      {
        assert: [
          { text: 'ann LEE', selector: '#orders', caseSensitive: false },
          { text: 'Note one' },
          { url: { equals: `${h.baseUrl}/observe.html` } },
        ],
      },
      { assert: { text: 'Eli', selector: '[role=row]' } },
    ]);
    expect(r.out.status).toBe('ok');
    const url = `${h.baseUrl}/observe.html`;
    expect(output(r, 0)).toEqual({
      passed: true,
      assertions: [
        { type: 'url.contains', expected: 'observe', actual: url, passed: true },
        { type: 'url.startsWith', expected: 'http://', actual: url, passed: true },
        { type: 'url.endsWith', expected: '.html', actual: url, passed: true },
      ],
    });
    expect(output(r, 2).assertions).toEqual([
      { type: 'text', expected: 'ann LEE', selector: '#orders', passed: true },
      { type: 'text', expected: 'Note one', passed: true },
      { type: 'url.equals', expected: url, actual: url, passed: true },
    ]);
    expect(output(r, 3).passed).toBe(true);
    expect(r.out.screenshot).toBeUndefined();
  });

  it('fails with AssertionError naming each failed check with expected and actual', async () => {
    const r = await run([
      {
        assert: [
          { urlContains: 'checkout' },
          { text: 'Ann Lee' },
          { text: 'Orders', selector: 'h1' },
          { text: 'x', selector: '#missing' },
        ],
      },
    ]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'AssertionError' });
    expect(r.out.steps[0].error).toBe(
      `3 of 4 assertions failed: url contains "checkout" — actual: "${h.baseUrl}/observe.html"; ` +
        'text "Orders" in h1 — actual: "Observe"; text "x" in #missing — actual: "no element matches \\"#missing\\""',
    );
  });

  it('is case-sensitive by default and rejects malformed checks before running', async () => {
    const r = await run([{ assert: { text: 'ann lee' } }]);
    expect(r.out.steps[0].errorType).toBe('AssertionError');
    for (const bad of [{ url: { has: 'x' } }, { urlMatches: '(' }, { selector: 'h1' }, []]) {
      const v = await run([{ assert: bad }]);
      expect(v.out.error?.type, JSON.stringify(bad)).toBe('VALIDATION');
    }
  });
});
