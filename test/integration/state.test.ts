// Browser state (DECISIONS): cookies, web storage and a geolocation that stays with the tab —
// each checked from inside the page.
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

const run = (steps: unknown[]) => h.cli({ tab, steps });
const docCookies = () => h.value(tab, 'document.cookie.split("; ").filter(Boolean).sort()');

describe('cookies', () => {
  it('sets cookies for the page, reads them (httpOnly too) and clears them by name and all at once', async () => {
    const set = await run([
      {
        cookies: {
          set: [
            { name: 'a', value: '1' },
            { name: 'b', value: 'two', path: '/' },
            { name: 'h', value: 'x', httpOnly: true, sameSite: 'Lax' },
          ],
        },
      },
    ]);
    expect(set.out.steps[0].output).toEqual({ set: 3 });
    expect(await docCookies()).toEqual(['a=1', 'b=two']); // httpOnly is hidden from the page

    const get = await run([{ cookies: { get: true } }]);
    const host = new URL(h.baseUrl).hostname;
    expect(
      get.out.steps[0].output.cookies.sort((x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name)),
    ).toEqual([
      { name: 'a', value: '1', domain: host, path: '/' },
      { name: 'b', value: 'two', domain: host, path: '/' },
      { name: 'h', value: 'x', domain: host, path: '/', httpOnly: true, sameSite: 'Lax' },
    ]);
    expect(get.out.screenshot).toBeUndefined(); // cookies get is read-only

    const one = await run([{ cookies: { clear: { name: 'a' } } }]);
    expect(one.out.steps[0].output).toEqual({ cleared: 1 });
    expect(await docCookies()).toEqual(['b=two']);

    const all = await run([{ cookies: { clear: true } }]);
    expect(all.out.steps[0].output).toEqual({ cleared: 2 });
    expect(await docCookies()).toEqual([]);
  });

  it('sets a cookie for another domain and reads it by URL', async () => {
    const r = await run([
      { cookies: { set: [{ name: 'far', value: 'y', domain: 'example.test', expires: 4102444800 }] } },
      { cookies: { get: { urls: ['http://example.test/'] } } },
      { cookies: { clear: { name: 'far', domain: 'example.test' } } },
    ]);
    expect(r.out.status).toBe('ok');
    const [far] = r.out.steps[1].output.cookies;
    expect(far).toMatchObject({ name: 'far', value: 'y', domain: 'example.test', path: '/' });
    expect(far.expires).toBeGreaterThan(Date.now() / 1000 + 300 * 86_400); // Chrome caps expiry at 400 days
    expect(r.out.steps[2].output).toEqual({ cleared: 1 });
  });

  it('reports a cookie Chrome refused instead of claiming it was set', async () => {
    const r = await run([
      { cookies: { set: [{ name: 'bad', value: 'v', url: 'http://127.0.0.1/', domain: 'example.com' }] } },
    ]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0].error).toMatch(/refused|did not keep/);
    expect(await docCookies()).toEqual([]);
  });

  it('validates the shape', async () => {
    const r = await run([{ cookies: { get: true, clear: true } }]);
    expect(r.out.error.type).toBe('VALIDATION');
    expect(r.out.error.message).toMatch(/exactly one of "get", "set", "clear"/);
  });
});

describe('storage', () => {
  it('sets, reads, removes and clears localStorage, as the page sees it', async () => {
    const r = await run([
      { storage: { set: { theme: 'dark', prefs: { a: 1 }, n: 3 } } },
      { storage: { get: ['theme', 'missing'] } },
      { storage: { remove: 'theme' } },
    ]);
    expect(r.out.steps.map((s: { output: unknown }) => s.output)).toEqual([
      { type: 'local', origin: h.baseUrl, set: 3 },
      { type: 'local', origin: h.baseUrl, items: { theme: 'dark', missing: null } },
      { type: 'local', origin: h.baseUrl, removed: 1 },
    ]);
    expect(
      await h.value(tab, '[localStorage.getItem("theme"), localStorage.getItem("prefs"), localStorage.getItem("n")]'),
    ).toEqual([null, '{"a":1}', '3']);
    const all = await run([{ storage: { get: true } }, { storage: { clear: true } }]);
    expect(all.out.steps[0].output.items).toEqual({ n: '3', prefs: '{"a":1}' });
    expect(all.out.steps[1].output.cleared).toBe(2);
    expect(await h.value(tab, 'localStorage.length')).toBe(0);
  });

  it('works on sessionStorage', async () => {
    const r = await run([{ storage: { type: 'session', set: { s: 'v' } } }]);
    expect(r.out.steps[0].output).toMatchObject({ type: 'session', set: 1 });
    expect(await h.value(tab, '[sessionStorage.getItem("s"), localStorage.getItem("s")]')).toEqual(['v', null]);
  });
});

describe('geolocation', () => {
  const position =
    'new Promise((r) => navigator.geolocation.getCurrentPosition((p) => r([p.coords.latitude, p.coords.longitude, p.coords.accuracy]), (e) => r("error " + e.code), { timeout: 1000 }))';
  const read = async () =>
    (await run([{ pageFunction: { expression: position, serialize: false } }])).out.steps[0].output;

  it('emulates the position now and in later calls (kept with the tab), until false', async () => {
    const r = await run([
      { geolocation: { latitude: 48.8584, longitude: 2.2945, accuracy: 25 } },
      { pageFunction: { expression: position, serialize: false } },
    ]);
    expect(r.out.steps[0].output).toEqual({ latitude: 48.8584, longitude: 2.2945, accuracy: 25 });
    expect(r.out.steps[1].output).toEqual([48.8584, 2.2945, 25]);
    // A new invocation attaches a new session: the override is re-applied from the registry.
    expect(await read()).toEqual([48.8584, 2.2945, 25]);
    const cleared = await run([{ geolocation: false }]);
    expect(cleared.out.steps[0].output).toEqual({ cleared: true });
    expect(await read()).toMatch(/^error/);
  });

  it('rejects a latitude out of range', async () => {
    const r = await run([{ geolocation: { latitude: 123, longitude: 0 } }]);
    expect(r.out.error.message).toMatch(/"latitude" must be at most 90/);
  });
});
