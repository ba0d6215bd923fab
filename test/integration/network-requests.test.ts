// Issue 21 items 1, 2, 8 against real Chromium: what the page asked for and what it got (also
// between commands), the failed request's body in the answer of the click that caused it, mocking
// with `route` (persisted across calls, cleared), and a HAR of a command. Oracles: the fixture
// server's own record of what reached it (GET /net/log), the page's DOM read over the test's own
// CDP socket, the HAR file parsed from disk, the tab registry file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NET_SECRETS } from '../fixtures/routes/network.mjs';
import { rng } from '../fuzz/cases.js';
import { CLI, cdpToPage, startHarness, type Harness } from './harness.js';

interface Logged {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** What reached the server under /net/ since the last call (the log is then cleared). */
async function serverLog(): Promise<Logged[]> {
  return (await (await fetch(`${h.baseUrl}/net/log?clear=1`)).json()) as Logged[];
}

/** The server's log once `done` holds for it, polled (the page's own timer makes the requests). */
async function serverLogWhen(done: (log: Logged[]) => boolean, what: string): Promise<Logged[]> {
  const seen: Logged[] = [];
  for (let i = 0; i < 100; i++) {
    seen.push(...(await serverLog()));
    if (done(seen)) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server never saw ${what}: ${JSON.stringify(seen.map((l) => l.path))}`);
}

/** The CLI run in `cwd` (its --debug log goes to cwd/log). */
function cliIn(cwd: string, args: string[]): Promise<{ stdout: string; out: any }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: h.env });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.on('close', () => resolve({ stdout, out: JSON.parse(stdout) }));
  });
}

function expectNoSecrets(text: string, where: string): void {
  for (const [name, value] of Object.entries(NET_SECRETS)) expect(text, `${name} in ${where}`).not.toContain(value);
}

async function pageText(url: string, selector: string): Promise<string> {
  const page = await cdpToPage(h.port, url);
  try {
    return await page.value(`document.querySelector(${JSON.stringify(selector)}).textContent`);
  } finally {
    page.close();
  }
}

describe('why does Save fail: the click answers it', () => {
  let tab: string;
  beforeAll(async () => {
    tab = await h.open('net/settings');
    await serverLog();
  });

  it("lists the PUT that answered 422 with the start of the server's body", async () => {
    const r = await h.cli({ tab, steps: [{ click: '#save' }] });
    const [put] = await serverLog();
    expect(put).toMatchObject({ method: 'PUT', path: '/net/api/settings' });
    const sent = JSON.parse(put!.body);
    expect(sent).toEqual({ timezone: 'Mars/Olympus', theme: 'dark' });
    expect(r.out.network).toEqual({
      failed: [
        {
          method: 'PUT',
          url: `${h.baseUrl}/net/api/settings`,
          status: 422,
          type: 'fetch',
          body: JSON.stringify({ error: 'timezone: unknown zone', field: 'timezone', got: sent.timezone }),
        },
      ],
    });
  });

  it('quotes a body the page never reads (a no-store response Chrome never finishes loading)', async () => {
    const r = await h.cli({
      tab,
      steps: [
        {
          pageFunction:
            "fetch('/net/api/settings', {method: 'PUT', body: '{\"timezone\":\"Nowhere\"}'}).then(r => r.status)",
        },
      ],
    });
    expect(r.out.steps[0].output.value).toBe(422);
    expect(r.out.network.failed[0]).toMatchObject({ status: 422, body: expect.stringContaining('"got":"Nowhere"') });
    await serverLog();
  });

  it('has no network field when nothing failed', async () => {
    const r = await h.cli({ tab, steps: [{ click: '#profile' }, { wait: { text: 'Hello ann' } }] });
    expect(r.out.network).toBeUndefined();
    await serverLog();
  });

  it('gives headers and bodies of a request of the command, credentials as •••• — never in stdout or the --debug log', async () => {
    const cwd = mkdtempSync(join(h.tmp, 'debug-'));
    const command = { tab, steps: [{ click: '#profile' }, { network: { url: '/api/profile', body: true } }] };
    const { stdout, out } = await cliIn(cwd, ['--debug', JSON.stringify(command)]);
    const [got] = await serverLog();
    const detail = out.steps[1].output;
    expect(detail).toMatchObject({ method: 'GET', url: `${h.baseUrl}/net/api/profile`, status: 200, type: 'fetch' });
    // What the server received, header by header, except the credentials.
    for (const [name, value] of Object.entries(got!.headers)) {
      if (['authorization', 'x-api-key', 'cookie'].includes(name)) expect(detail.request.headers[name]).toBe('••••');
      else if (/^(user-agent|sec-|accept-|connection)/.test(name))
        expect(detail.request.headers[name], name).toBeUndefined();
      else expect(detail.request.headers[name], name).toBe(value);
    }
    expect(got!.headers.authorization).toBe(`Bearer ${NET_SECRETS.bearer}`);
    expect(got!.headers.cookie).toContain(NET_SECRETS.cookie);
    expect(detail.response.headers['set-cookie']).toBe('••••');
    expect(JSON.parse(detail.response.body)).toEqual({ user: 'ann', token: '••••', theme: 'dark' });
    expectNoSecrets(stdout, 'stdout');
    const logs = readdirSync(join(cwd, 'log'));
    expect(logs).toHaveLength(1);
    expectNoSecrets(readFileSync(join(cwd, 'log', logs[0]!), 'utf8'), 'the --debug log');
  });

  it('describes a binary response instead of dumping it, and fails plainly for a request of no command', async () => {
    const r = await h.cli({
      tab,
      steps: [{ click: '#logo' }, { wait: 'img[alt=logo]' }, { network: { url: '/logo.png', body: true } }],
    });
    expect(r.out.steps[2].output.response).toMatchObject({
      mimeType: 'image/png',
      bodyNote: 'binary image/png, 68 bytes',
    });
    const missing = await h.cli({ tab, steps: [{ network: { url: '/api/settings', body: true } }] });
    expect(missing.code).toBe(1);
    expect(missing.out.steps[0]).toMatchObject({ errorType: 'RequestNotFoundError', category: 'request-not-found' });
    expect(missing.out.steps[0].error).toMatch(/same command/);
    await serverLog();
  });
});

describe('requests made between commands', () => {
  it('lists what a page fetched on its timer while no command ran, as the server saw it', async () => {
    const tab = await h.open('net/poll?count=12&every=60');
    const log = await serverLogWhen((l) => l.filter((x) => x.path.startsWith('/net/api/')).length >= 11, '11 polls');
    const api = log.filter((x) => x.path.startsWith('/net/api/')).reverse();
    const r = await h.cli({ tab, steps: [{ network: { url: '/net/api/' } }, { network: { status: 'failed' } }] });
    const listed = r.out.steps[0].output;
    // The same requests as the server saw, newest first in the page's own order (its counter n): under
    // load the server may receive two from different connections the other way round.
    const urls: string[] = listed.requests.map((x: any) => x.url);
    expect([...urls].sort()).toEqual(api.map((x) => `${h.baseUrl}${x.path}`).sort());
    const n = urls.map((u) => Number(new URL(u).searchParams.get('n')));
    expect(n).toEqual([...n].sort((a, b) => b - a));
    for (const x of listed.requests) {
      expect(x.status).toBe(x.url.includes('/gone') ? 404 : 200);
      expect(x).toMatchObject({ type: 'fetch', bytes: expect.any(Number), ms: expect.any(Number) });
      expect(x.id).toBeUndefined(); // no detail is kept between commands: said, not faked
      expect(x.method).toBeUndefined();
    }
    expect(listed.note).toMatch(/before this command.*without method, headers or bodies/);
    // The one request the server never saw: the page's fetch to a port Chrome refuses.
    // (The browser's own favicon request may fail too when this tab is the first page of its Chrome.)
    const failed = r.out.steps[1].output.requests.filter((x: any) => !x.url.endsWith('/favicon.ico'));
    expect(failed[failed.length - 1]).toMatchObject({
      url: 'http://127.0.0.1:1/down',
      error: expect.stringMatching(/^net::ERR_/),
    });
    const gone = api.filter((x) => x.path.includes('/gone')).map((x) => `${h.baseUrl}${x.path}`);
    expect(failed.slice(0, -1).map((x: any) => x.url)).toEqual(urls.filter((u) => gone.includes(u)));
  });

  it('filters by type and caps the list, saying how many more', async () => {
    const tab = await h.open('net/poll?count=6&every=20');
    await serverLogWhen((l) => l.filter((x) => x.path.startsWith('/net/api/')).length >= 5, '5 polls');
    const r = await h.cli({
      tab,
      steps: [
        { network: { type: 'document' } },
        { network: { limit: 2 } },
        { network: { status: '4xx', type: 'xhr' } },
      ],
    });
    const [docs, capped, none] = r.out.steps.map((s: any) => s.output);
    expect(docs.requests).toEqual([
      expect.objectContaining({ url: `${h.baseUrl}/net/poll?count=6&every=20`, status: 200 }),
    ]);
    expect(capped.requests).toHaveLength(2);
    expect(capped.more).toBe(5); // the document, 5 fetches the server saw and the refused one: 7, 2 shown
    expect(none.requests).toEqual([]);
  });
});

describe('route: mocking and blocking', () => {
  let tab: string;
  const url = () => `${h.baseUrl}/net/mock`;
  beforeAll(async () => {
    tab = await h.open('net/mock');
    await serverLog();
  });

  it('fulfils a request with the mock: the page shows it, the server never sees it', async () => {
    const r = await h.cli({
      tab,
      steps: [
        { route: { url: '/net/api/data', body: { source: 'mock' } } },
        { click: '#fetch' },
        { wait: { text: 'mock' } },
      ],
    });
    expect(await pageText(url(), '#out')).toBe('200 {"source":"mock"}');
    expect(await serverLog()).toEqual([]);
    expect(r.out.steps[0].output).toEqual({ url: '/net/api/data', status: 200, rules: 1 });
    expect(r.out.network).toEqual({
      routed: [{ url: '/net/api/data', status: 200, count: 1, urls: [`${h.baseUrl}/net/api/data`] }],
    });
    // Not persisted: the next command reaches the server again.
    await h.cli({ tab, steps: [{ click: '#fetch' }, { wait: { text: 'server' } }] });
    expect((await serverLog()).map((l) => l.path)).toEqual(['/net/api/data']);
    expect(await pageText(url(), '#out')).toBe('200 {"source":"server"}');
  });

  it('aborts a request: the page sees a network error, the answer lists it as routed', async () => {
    const r = await h.cli({
      tab,
      steps: [{ route: { url: '*/api/other', abort: true } }, { click: '#other' }, { wait: { text: 'error' } }],
    });
    expect(await pageText(url(), '#out')).toBe('error Failed to fetch');
    expect(await serverLog()).toEqual([]);
    expect(r.out.network.failed).toEqual([
      { method: 'GET', url: `${h.baseUrl}/net/api/other`, error: 'net::ERR_FAILED', type: 'fetch', routed: 'aborted' },
    ]);
    expect(r.out.network.routed).toEqual([
      { url: '*/api/other', abort: true, count: 1, urls: [`${h.baseUrl}/net/api/other`] },
    ]);
  });

  it('keeps a persist rule with the tab, armed at each later call, until {"route": false}', async () => {
    const set = await h.cli({
      tab,
      steps: [{ route: { url: '/net/api/data', status: 503, body: 'down for maintenance', persist: true } }],
    });
    expect(set.out.steps[0].output).toEqual({ url: '/net/api/data', status: 503, persist: true, rules: 1 });
    const registry = () => JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8')).tabs[tab];
    expect(registry().routes).toEqual([
      {
        url: '/net/api/data',
        status: 503,
        body: 'down for maintenance',
        contentType: 'text/plain; charset=utf-8',
        persist: true,
      },
    ]);
    for (let call = 0; call < 2; call++) {
      const r = await h.cli({ tab, steps: [{ click: '#fetch' }, { wait: { text: '503' } }] });
      expect(await pageText(url(), '#out')).toBe('503 down for maintenance');
      expect(r.out.network.failed[0]).toMatchObject({ status: 503, body: 'down for maintenance', routed: 'fulfilled' });
    }
    expect(await serverLog()).toEqual([]);
    const cleared = await h.cli({ tab, steps: [{ route: false }] });
    expect(cleared.out.steps[0].output).toEqual({ cleared: 1 });
    expect(registry().routes).toBeUndefined();
    const after = await h.cli({ tab, steps: [{ click: '#fetch' }, { wait: { text: 'server' } }] });
    expect(after.out.network).toBeUndefined();
    expect((await serverLog()).map((l) => l.path)).toEqual(['/net/api/data']);
  });

  it('mocks a cross-origin request (its CORS preflight too) with the headers given', async () => {
    const other = h.baseUrl.replace('127.0.0.1', 'localhost');
    const put = `fetch('${other}/net/api/data', {method: 'PUT', headers: {'X-Custom': '1', 'Content-Type': 'application/json'}, body: '{}'})`;
    const r = await h.cli({
      tab,
      steps: [
        { route: { url: 'localhost:', body: { cross: true }, headers: { 'X-Mocked': 'yes' } } },
        { pageFunction: `${put}.then(async (r) => [r.status, r.headers.get('x-mocked'), await r.text()])` },
      ],
    });
    expect(r.out.steps[1].output.value).toEqual([200, 'yes', '{"cross":true}']);
    expect(await serverLog()).toEqual([]);
    expect(r.out.network.routed[0]).toMatchObject({ url: 'localhost:', count: 1 });
  });

  it("pauses exactly the requests a pattern names, as Chrome's own Fetch patterns do (seeded random cases)", async () => {
    const paths = ['/net/api/data', '/net/api/data?x=1', '/net/api/other', '/net/api/tick?n=2', '/net/api/gone?n=4'];
    const pieces = ['/net/', 'api/', 'data', '?x=1', 'other', 'tick?n=', '.png', 'n=4', 'API', 'http://127.0.0.1:'];
    const { urlMatcher } = await import('../../src/page/network-match.js');
    for (const seed of [21, 22, 23]) {
      const next = rng(seed);
      const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
      const patterns = Array.from({ length: 6 }, () => {
        const a = pick(pieces);
        const b = pick(pieces);
        if (next() < 0.5) return `${a}${b === a ? '' : b}`;
        return `${a.startsWith('http') ? '' : '*'}${a}*${next() < 0.5 ? '' : `${b}*`}`;
      });
      const routes = patterns.map((p, i) => ({ route: { url: p, body: `rule ${i}` } }));
      const fetches = `Promise.all(${JSON.stringify(paths)}.map((p) => fetch(p).then((r) => r.text())))`;
      const r = await h.cli({ tab, steps: [...routes, { pageFunction: fetches }] });
      const answered: string[] = r.out.steps[routes.length].output.value;
      // Our matcher's choice (the newest matching rule) must be what Chrome paused and we answered.
      paths.forEach((p, i) => {
        const rule = [...patterns.keys()].reverse().find((k) => urlMatcher(patterns[k]!)(`${h.baseUrl}${p}`));
        const why = `seed ${seed}: ${p} vs ${JSON.stringify(patterns)}`;
        if (rule === undefined) expect(answered[i], why).not.toMatch(/^rule/);
        else expect(answered[i], why).toBe(`rule ${rule}`);
      });
    }
    await serverLog();
  });
});

describe('HAR of a command', () => {
  it("writes the whole command's traffic (also after the har step) as HAR 1.2 matching the server's record", async () => {
    const tab = await h.open('net/settings');
    await serverLog();
    const path = join(h.tmp, 'run.har');
    const cwd = mkdtempSync(join(h.tmp, 'har-'));
    const command = {
      tab,
      steps: [
        { network: { har: path } },
        { click: '#save' },
        { wait: { text: 'Save failed' } },
        { click: '#profile' },
        { wait: { text: 'Hello' } },
      ],
    };
    const { stdout, out } = await cliIn(cwd, ['--debug', JSON.stringify(command)]);
    const text = readFileSync(path, 'utf8');
    expect(out.steps[0].output).toEqual({ path, entries: 2, bytes: Buffer.byteLength(text) });
    const har = JSON.parse(text);
    expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'cdp-skill' } });
    const seen = await serverLog();
    expect(har.log.entries.map((e: any) => [e.request.method, e.request.url])).toEqual(
      seen.map((l) => [l.method, `${h.baseUrl}${l.path}`]),
    );
    const [put, profile] = har.log.entries;
    for (const e of har.log.entries) {
      expect(e).toMatchObject({
        startedDateTime: expect.stringMatching(/^\d{4}-/),
        time: expect.any(Number),
        cache: {},
      });
      expect(e.timings).toMatchObject({
        send: expect.any(Number),
        wait: expect.any(Number),
        receive: expect.any(Number),
      });
    }
    expect(put.request.postData).toEqual({ mimeType: 'application/json', text: seen[0]!.body });
    expect(put.response).toMatchObject({ status: 422, content: { mimeType: 'application/json' } });
    expect(JSON.parse(put.response.content.text)).toMatchObject({ error: 'timezone: unknown zone' });
    expect(put.request.headers).toContainEqual({ name: 'authorization', value: '••••' });
    expect(profile.response.cookies).toEqual([{ name: 'refresh', value: '••••' }]);
    expect(JSON.parse(profile.response.content.text).token).toBe('••••');
    expectNoSecrets(text, 'the HAR');
    expectNoSecrets(stdout, 'stdout');
    for (const f of readdirSync(join(cwd, 'log'))) expectNoSecrets(readFileSync(join(cwd, 'log', f), 'utf8'), f);
  });

  it('refuses bad input before anything runs, and a folder it cannot write at the step', async () => {
    const bad = await h.cli({ tab: 't1', steps: [{ network: { status: 'bad' } }] });
    expect(bad.code).toBe(1);
    expect(bad.out.error).toMatchObject({
      type: 'VALIDATION',
      message: expect.stringMatching(/Step 1 \(network\): "status"/),
    });
    const route = await h.cli({ tab: 't1', steps: [{ route: { url: '/x' } }] });
    expect(route.out.error).toMatchObject({
      type: 'VALIDATION',
      message: expect.stringMatching(/route needs what to answer/),
    });
    const tab = await h.open('net/mock');
    const nowhere = await h.cli({ tab, steps: [{ network: { har: '/nonexistent-dir/x.har' } }] });
    expect(nowhere.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
  });
});
