// goto (every waitUntil, hash-only, HTTP status, failures), back, forward, reload, navigated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('basic.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], extra: Record<string, unknown> = {}) => h.cli({ tab, steps, ...extra });

describe('goto', () => {
  it.each(['commit', 'domcontentloaded', 'load', 'networkidle'])('navigates with waitUntil %s', async (waitUntil) => {
    const r = await run([{ goto: { url: `${h.baseUrl}/page2.html?w=${waitUntil}`, waitUntil } }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.navigated).toBe(true);
    expect(r.out.steps[0].output.url).toBe(`${h.baseUrl}/page2.html?w=${waitUntil}`);
    if (waitUntil !== 'commit') expect(r.out.context.title).toBe('Second page');
  });

  it('reports the HTTP status of the document, 404 included', async () => {
    const r = await run([{ goto: `${h.baseUrl}/status/404` }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toEqual({ url: `${h.baseUrl}/status/404`, status: 404 });
  });

  it('changes only the hash in place, without reloading', async () => {
    await run([{ goto: `${h.baseUrl}/basic.html` }, { pageFunction: 'window.__marker = 42' }]);
    const r = await run([{ goto: `${h.baseUrl}/basic.html#section` }, { pageFunction: 'window.__marker' }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[1].output).toEqual({ type: 'number', value: 42 }); // same document
    expect(r.out.navigated).toBeUndefined(); // hash-only is not navigation
    expect(r.out.changes?.summary).toBeTruthy(); // same document: diffed against the page before the step
    expect(r.out.context.url).toBe(`${h.baseUrl}/basic.html#section`);
    expect(r.out.context.scroll.y).toBeGreaterThan(1000);
  });

  it('follows redirects and reports where it landed', async () => {
    const r = await run([{ goto: `${h.baseUrl}/redirect?to=/page2.html` }]);
    expect(r.out.steps[0].output).toMatchObject({ url: `${h.baseUrl}/page2.html`, status: 200 });
  });

  it('fails with NavigationError when the server refuses the connection', async () => {
    const r = await run([{ goto: `http://127.0.0.1:${await freePort()}/` }]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'NavigationError' });
    expect(r.out.errors[0]).toMatchObject({ step: 1, action: 'goto', type: 'NavigationError' });
    expect(r.out.errors[0].error).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it('times out on a page that never loads, naming what it waited for', async () => {
    const r = await run([{ goto: `${h.baseUrl}/never`, timeout: 1500 }]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0].errorType).toBe('TimeoutError');
    expect(r.out.steps[0].error).toMatch(
      /Timed out after (1500ms|\d+ms \(timeout 1500ms\)) waiting for the load event of/,
    );
    const after = await run([{ goto: `${h.baseUrl}/basic.html` }]);
    expect(after.out.status).toBe('ok');
  });

  it('waits for the load event by default, so late content is there', async () => {
    const r = await run([
      { goto: `${h.baseUrl}/slow?ms=300` },
      { pageFunction: "document.getElementById('done').textContent" },
    ]);
    expect(r.out.steps[1].output.value).toBe('waited 300ms');
  });
});

describe('history', () => {
  it('goes back and forward between documents', async () => {
    await run([{ goto: `${h.baseUrl}/basic.html` }, { goto: `${h.baseUrl}/page2.html` }]);
    const back = await run([{ back: true }]);
    expect(back.out.steps[0].output).toEqual({ url: `${h.baseUrl}/basic.html` });
    expect(back.out.navigated).toBe(true);
    const fwd = await run([{ forward: { waitUntil: 'domcontentloaded' } }]);
    expect(fwd.out.steps[0].output).toEqual({ url: `${h.baseUrl}/page2.html` });
  });

  it('says noHistory instead of failing when there is nothing to go back to', async () => {
    const fresh = await h.open('basic.html');
    const r = await h.cli({ tab: fresh, steps: [{ back: true }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toMatchObject({ noHistory: true });
  });

  it('reloads the document', async () => {
    await run([{ goto: `${h.baseUrl}/basic.html` }, { pageFunction: 'window.__marker = 1' }]);
    const r = await run([{ reload: { ignoreCache: true } }, { pageFunction: 'typeof window.__marker' }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[1].output.value).toBe('undefined');
    expect(r.out.navigated).toBe(true); // a new document was committed
  });
});

describe('navigated', () => {
  it('is true for a pushState route change', async () => {
    await run([{ goto: `${h.baseUrl}/spa.html` }]);
    const r = await run([{ pageFunction: "document.getElementById('go').click()" }]);
    expect(r.out.navigated).toBe(true);
    expect(r.out.context.url).toBe(`${h.baseUrl}/spa/about`);
  });

  it('is absent when nothing navigated', async () => {
    await run([{ goto: `${h.baseUrl}/basic.html` }]);
    const r = await run([{ pageFunction: '1 + 1' }]);
    expect(r.out.navigated).toBeUndefined();
  });
});
