// The MCP front (issue 25) through a real MCP client: the SDK's Client over StdioClientTransport,
// spawning `node dist/cli.js mcp` as a user's client does. Oracles: the page's own state over the
// test's own CDP socket, Chrome's target list, and the tab registry on disk.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows } from '../fixtures/routes/state.mjs';
import { CLI, cdpTo, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
const clients: Mcp[] = [];

interface Mcp {
  client: Client;
  transport: StdioClientTransport;
  /** One tool call: the answer (parsed) and whether the result was a tool error. */
  call(args: unknown): Promise<{ out: Record<string, any>; isError: boolean }>;
}

async function mcp(): Promise<Mcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: h.env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cdp-skill-test', version: '1' });
  await client.connect(transport);
  const m: Mcp = {
    client,
    transport,
    async call(args) {
      const r = (await client.callTool({ name: 'browser', arguments: args as Record<string, unknown> }, undefined, {
        timeout: 120_000,
      })) as { content: { type: string; text: string }[]; isError?: boolean };
      return { out: JSON.parse(r.content[0]!.text), isError: r.isError === true };
    },
  };
  clients.push(m);
  return m;
}

const registry = (): { tabs: Record<string, { targetId: string }> } =>
  JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
const targetOf = (alias: string): string => registry().tabs[alias]!.targetId;
const pageOf = (alias: string): Promise<CdpClient> =>
  cdpTo(h.port, (t) => (t as { id?: string }).id === targetOf(alias), alias);
const openTargets = async (): Promise<string[]> =>
  ((await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as { id: string; type: string }[])
    .filter((t) => t.type === 'page')
    .map((t) => t.id);

/** Polls the page (over the test's own socket) until `expression` is truthy. */
async function until(page: CdpClient, expression: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await page.value(expression)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never true: ${expression}`);
}

/** The server's own log of the /net/ requests since the last look (polled until one came), as `METHOD path`. */
async function serverLog(): Promise<string[]> {
  let logged: { method: string; path: string }[] = [];
  for (let i = 0; i < 50 && !logged.length; i++) {
    logged = (await (await fetch(`${h.baseUrl}/net/log?clear=1`)).json()) as typeof logged;
    if (!logged.length) await new Promise((r) => setTimeout(r, 100));
  }
  return logged.map((l) => `${l.method} ${l.path}`);
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const m of clients) await m.client.close().catch(() => undefined);
  await h?.close();
});

describe('the MCP server', () => {
  it('lists one tool within 5 KB whose description names every step', async () => {
    const m = await mcp();
    const listed = await m.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['browser']);
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(5 * 1024);
    const { stepNames } = await import('../../build/steps/index.js');
    const description = listed.tools[0]!.description ?? '';
    const missing = stepNames().filter((name: string) => !new RegExp(`^${name} `, 'm').test(description));
    expect(missing).toEqual([]);
    expect(listed.tools[0]!.inputSchema.required).toEqual(['steps']);
  });

  it('opens, acts, reads and closes a tab; the page, Chrome and the registry agree', async () => {
    const m = await mcp();
    const opened = await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/actions.html`, port: h.port } }] });
    expect(opened.out.status).toBe('ok');
    const tab = opened.out.tab as string;
    expect(await openTargets()).toContain(targetOf(tab));
    const page = await pageOf(tab);
    const clicked = await m.call({ tab, steps: [{ click: '#save' }] });
    expect(clicked.out.steps[0].output.clicked).toBe(true);
    expect(await page.value('window.__events.filter((e) => e === "save").length')).toBe(1);
    const read = await m.call({ tab, steps: [{ query: { selector: '#save', output: 'text' } }] });
    expect(read.out.steps[0].output.results.map((r: { value: string }) => r.value)).toEqual(['Save']);
    expect(read.out.screenshot).toBeUndefined(); // read-only: no capture
    page.close();
    const targetId = targetOf(tab);
    const closed = await m.call({ steps: [{ closeTab: tab }] });
    expect(closed.out.steps[0].output.closed).toBe(tab);
    expect(await openTargets()).not.toContain(targetId);
    expect(registry().tabs[tab]).toBeUndefined();
  });

  it('answers PARSE/VALIDATION failures as tool errors with the CLI message, running nothing', async () => {
    const m = await mcp();
    const bad = { steps: [{ clik: '#save' }] };
    const viaMcp = await m.call(bad);
    const viaCli = await h.cli(bad);
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.out).toEqual(viaCli.out);
    expect(viaMcp.out.error.type).toBe('VALIDATION');
    const notObject = await m.call({ steps: 'nope' });
    expect(notObject.isError).toBe(true);
    expect(notObject.out).toEqual((await h.cli({ steps: 'nope' })).out);
  });
});

describe('install', () => {
  it('prints the MCP entry, and --mcp cursor writes one whose server answers a real client', async () => {
    const printed = await h.cli(undefined, { args: ['install'] });
    expect(printed.out.mcp.server['cdp-skill'].args).toEqual([CLI, 'mcp']);
    expect(Object.keys(printed.out.mcp.clients)).toEqual(['claude', 'cursor', 'vscode']);
    const written = await h.cli(undefined, { args: ['install', '--mcp', 'cursor'] });
    expect(written.out).toMatchObject({ status: 'ok', mcp: [{ client: 'cursor', result: 'created' }] });
    const file = join(h.env.HOME!, '.cursor', 'mcp.json');
    const entry = JSON.parse(readFileSync(file, 'utf8')).mcpServers['cdp-skill'];
    expect((await h.cli(undefined, { args: ['install', '--mcp', 'cursor'] })).out.mcp[0].result).toBe('unchanged');
    // The entry as a client starts it: its command and arguments, nothing else.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: h.env as Record<string, string>,
    });
    const client = new Client({ name: 'cursor-like', version: '1' });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['browser']);
    await client.close();
    expect((await h.cli(undefined, { args: ['uninstall', '--mcp', 'cursor'] })).out.mcp[0].result).toBe('removed');
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers).toEqual({});
    const bad = await h.cli(undefined, { args: ['install', '--mcp', 'emacs'] });
    expect(bad.code).toBe(1);
    expect(bad.out.error.type).toBe('VALIDATION');
  });
});

/** An answer with what differs between two tabs and two runs left out: aliases, target ids, file paths, timings. */
function normalise(out: unknown, alias: string, targetId: string): unknown {
  const text = JSON.stringify(out)
    .replaceAll(targetId, '<target>')
    .replace(new RegExp(`"${alias}"`, 'g'), '"<tab>"')
    .replace(new RegExp(`/${alias}\\.`, 'g'), '/<tab>.')
    .replace(/"(elapsed|waited|waitedMs|ms|time_ms)":\d+/g, '"$1":0')
    .replace(/waited \d+ms/g, 'waited <n>ms');
  return JSON.parse(text);
}

describe('the same commands through both fronts', () => {
  it('give the same answers (timings, aliases and paths aside)', async () => {
    const m = await mcp();
    // The page adds a button 400 ms after load: both first looks wait for it, so refs are numbered alike.
    const opening = { steps: [{ openTab: { url: `${h.baseUrl}/actions.html`, port: h.port } }, { wait: '#late' }] };
    const viaCli = (await h.cli(opening)).out.tab as string;
    const viaMcp = (await m.call(opening)).out.tab as string;
    const commands: unknown[][] = [
      [{ snapshot: true }],
      [{ click: '#save' }],
      [{ fill: { label: 'Full name', value: 'Ann Lee' } }],
      [{ click: '#news' }, { query: { selector: '#news', output: 'value' } }],
      [{ pageFunction: 'window.__events.length' }],
      [{ click: { selector: '#no-such-button', timeout: 1500 } }],
      [{ formState: true }],
      [{ scroll: 'bottom' }],
      [{ snapshot: { detail: 'summary' } }],
    ];
    for (const steps of commands) {
      const a = await h.cli({ tab: viaCli, steps });
      const b = await m.call({ tab: viaMcp, steps });
      expect(b.isError, JSON.stringify(steps)).toBe(a.code !== 0);
      expect(normalise(b.out, viaMcp, targetOf(viaMcp)), JSON.stringify(steps)).toEqual(
        normalise(a.out, viaCli, targetOf(viaCli)),
      );
    }
  });

  it('answer session-less steps alike, and list the same tabs with the same aliases', async () => {
    const m = await mcp();
    const command = { steps: [{ listTabs: { port: h.port } }] };
    const [a, b] = [await h.cli(command), await m.call(command)];
    expect(b.isError).toBe(false);
    expect(b.out).toEqual(a.out);
    const listed = b.out.steps[0].output.tabs as { tab?: string; targetId: string }[];
    expect(new Set(listed.map((t) => t.targetId))).toEqual(new Set(await openTargets()));
    for (const t of listed.filter((x) => x.tab)) expect(registry().tabs[t.tab!]!.targetId).toBe(t.targetId);
  });

  it('share aliases, registry and locks: a tab opened through one front is driven through the other', async () => {
    const m = await mcp();
    const tab = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/actions.html`, port: h.port } }] })).out
      .tab as string;
    await m.call({ tab, steps: [{ click: '#save' }] });
    // The server holds the tab's lock only during a call: the CLI gets the tab at once.
    const r = await h.cli({ tab, steps: [{ click: '#save-draft' }], timeout: 3000 });
    expect(r.out.status).toBe('ok');
    const back = await m.call({ tab, steps: [{ click: '#save' }] });
    expect(back.out.status).toBe('ok');
    const page = await pageOf(tab);
    expect(await page.value('window.__events.filter((e) => !e.includes(":")).join()')).toBe('save,save-draft,save');
    page.close();
  });
});

describe('between calls', () => {
  it('answers a dialog that opens between calls and reports it, with the console, in the next answer', async () => {
    const m = await mcp();
    const tab = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/dialogs.html`, port: h.port } }] })).out
      .tab as string;
    // #late opens a confirm 1.5 s after the click, when this call has long answered.
    const first = await m.call({ tab, steps: [{ click: '#late' }] });
    expect(first.out.dialogs).toBeUndefined();
    const page = await pageOf(tab);
    // Logged surely between calls: by the test, over its own socket, after the call answered.
    await page.value("(console.error('logged between calls'), true)");
    await until(page, "document.title === 'Dialogs: answered later'"); // the page itself saw the answer
    expect(await page.value("document.getElementById('answer').textContent")).toBe('late=true');
    const next = await m.call({ tab, steps: [{ query: { selector: '#answer', output: 'text' } }] });
    expect(next.out.betweenCommands.dialogs).toEqual([
      { type: 'confirm', message: 'Later?', action: 'accepted', betweenCommands: true },
    ]);
    expect(next.out.betweenCommands.console.errors).toEqual(['logged between calls']);
    const again = await m.call({ tab, steps: [{ query: { selector: '#answer', output: 'text' } }] });
    expect(again.out.betweenCommands).toBeUndefined(); // told once
    page.close();
  });
  it('records the requests made between calls: the next answer tells the failed one with its body, and network gives its detail', async () => {
    const m = await mcp();
    const tab = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/net/settings`, port: h.port } }] })).out
      .tab as string;
    await fetch(`${h.baseUrl}/net/log?clear=1`);
    const first = await m.call({
      tab,
      steps: [
        {
          pageFunction:
            "setTimeout(() => fetch('/net/api/settings', { method: 'PUT', body: JSON.stringify({ timezone: 'Mars/Olympus' }) }).then((r) => r.text()).then((t) => { window.__put = t }), 300)",
        },
      ],
    });
    expect(first.out.network).toBeUndefined();
    // The server's own log: the PUT arrived after the call answered.
    expect(await serverLog()).toEqual(['PUT /net/api/settings']);
    const page = await pageOf(tab);
    await until(page, 'window.__put !== undefined'); // the page had its answer before the next call
    page.close();
    const next = await m.call({ tab, steps: [{ network: { url: '/net/api/settings', body: true } }] });
    expect(next.out.betweenCommands.network, JSON.stringify(next.out)).toMatchObject({
      requests: 1,
      failed: [{ method: 'PUT', status: 422, body: expect.stringContaining('Mars/Olympus') }],
    });
    expect(next.out.network).toBeUndefined(); // told once, as between calls
    expect(next.out.steps[0].output).toMatchObject({
      method: 'PUT',
      status: 422,
      request: { body: '{"timezone":"Mars/Olympus"}' },
      response: { body: expect.stringContaining('"field":"timezone"') },
    });
    const again = await m.call({ tab, steps: [{ query: { selector: 'h1', output: 'text' } }] });
    expect(again.out.betweenCommands).toBeUndefined();
    await m.call({ steps: [{ closeTab: tab }] });
  });
  it('tells a request made between calls and still unanswered as pending, and its failure in the call it comes in', async () => {
    const m = await mcp();
    const tab = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/net/settings`, port: h.port } }] })).out
      .tab as string;
    await fetch(`${h.baseUrl}/net/log?clear=1`);
    await m.call({
      tab,
      steps: [
        {
          pageFunction:
            "setTimeout(() => fetch('/net/api/settings?delay=2000', { method: 'PUT', body: JSON.stringify({ timezone: 'Mars/Olympus' }) }), 200)",
        },
      ],
    });
    expect(await serverLog()).toEqual(['PUT /net/api/settings?delay=2000']); // made, and not answered for 2 s
    const next = await m.call({ tab, steps: [{ wait: 2500 }] });
    expect(next.out.betweenCommands.network, JSON.stringify(next.out)).toEqual({ requests: 1, pending: 1 });
    expect(next.out.network, JSON.stringify(next.out)).toMatchObject({
      failed: [{ method: 'PUT', status: 422, betweenCommands: true, body: expect.stringContaining('Mars/Olympus') }],
    });
    const again = await m.call({ tab, steps: [{ query: { selector: 'h1', output: 'text' } }] });
    expect(again.out.betweenCommands).toBeUndefined();
    expect(again.out.network).toBeUndefined(); // told once
    await m.call({ steps: [{ closeTab: tab }] });
  });
});

describe('downloads between calls', () => {
  it('puts a file the page sends between calls under its name at once, and the next answer lists it once', async () => {
    const m = await mcp();
    const tab = (
      await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/state/downloads.html?lateMs=800`, port: h.port } }] })
    ).out.tab as string;
    const first = await m.call({ tab, steps: [{ click: '#late' }] });
    expect(first.out.downloads).toBeUndefined();
    // The file system is the oracle: whole and under its own name before any other call (a stateless
    // process could only find Chrome's guid file in .incoming with the next command).
    const downloads = join(h.tmp, 'cdp-skill', 'downloads');
    const file = join(downloads, 'late.csv');
    // Placed means: the file under its name, and Chrome's guid file and our record of it gone from .incoming.
    const left = (): string[] => readdirSync(join(downloads, '.incoming')).filter((f) => !f.startsWith('.'));
    for (let i = 0; i < 150 && !(existsSync(file) && !left().length); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(file, 'utf8')).toBe(csvRows(7));
    expect(left()).toEqual([]);
    const next = await m.call({ tab, steps: [{ query: { selector: 'h1', output: 'text' } }] });
    expect(next.out.betweenCommands?.downloads, JSON.stringify(next.out)).toEqual([
      { name: 'late.csv', path: file, bytes: Buffer.byteLength(csvRows(7)), state: 'completed' },
    ]);
    expect(next.out.downloads).toBeUndefined(); // told once, as between calls
    const again = await m.call({ tab, steps: [{ query: { selector: 'h1', output: 'text' } }] });
    expect(again.out.betweenCommands).toBeUndefined();
    await m.call({ steps: [{ closeTab: tab }] });
  });
});

describe('network and routes on a kept tab (issue 21)', () => {
  const netLog = async (): Promise<string[]> =>
    ((await (await fetch(`${h.baseUrl}/net/log?clear=1`)).json()) as { path: string }[]).map((l) => l.path);

  it("ends a call's own route with the call, keeps a persisted one, and lists each call's own requests", async () => {
    const m = await mcp();
    const opened = await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/net/mock`, port: h.port } }] });
    const tab = opened.out.tab as string;
    await netLog();
    const mocked = await m.call({
      tab,
      steps: [
        { route: { url: '/net/api/data', status: 500, body: { source: 'mock' } } },
        { click: '#fetch' },
        { wait: { text: 'mock' } },
      ],
    });
    expect(mocked.out.network).toMatchObject({
      failed: [{ status: 500, routed: 'fulfilled' }],
      routed: [{ url: '/net/api/data', count: 1 }],
    });
    expect(await netLog()).toEqual([]);
    // The session is kept, Fetch with it: the call's own rule must be gone, as with the CLI.
    const real = await m.call({
      tab,
      steps: [{ click: '#fetch' }, { wait: { text: 'server' } }, { network: { url: '/net/api/data', body: true } }],
    });
    expect(await netLog()).toEqual(['/net/api/data']);
    expect(real.out.network).toBeUndefined(); // the last call's failure was its own
    expect(real.out.steps[2].output).toMatchObject({ status: 200, response: { body: '{"source":"server"}' } });
    expect(real.out.steps[2].output.routed).toBeUndefined();
    // A persisted rule answers later calls; {route: false} ends it.
    await m.call({ tab, steps: [{ route: { url: '/net/api/data', body: { source: 'kept' }, persist: true } }] });
    const later = await m.call({ tab, steps: [{ click: '#fetch' }, { wait: { text: 'kept' } }] });
    expect(later.out.network.routed).toMatchObject([{ url: '/net/api/data', count: 1 }]);
    expect(await netLog()).toEqual([]);
    await m.call({ tab, steps: [{ route: false }] });
    await m.call({ tab, steps: [{ click: '#fetch' }, { wait: { text: 'server' } }] });
    expect(await netLog()).toEqual(['/net/api/data']);
    await m.call({ steps: [{ closeTab: tab }] });
  });
});

describe('several clients on one Chrome', () => {
  it('serves calls on different tabs side by side, and one call at a time on a tab', async () => {
    const [a, b] = [await mcp(), await mcp()];
    const open = (m: Mcp) => m.call({ steps: [{ openTab: { url: `${h.baseUrl}/actions.html`, port: h.port } }] });
    const [ta, tb] = (await Promise.all([open(a), open(b)])).map((r) => r.out.tab as string);
    expect(ta).not.toBe(tb);
    expect(registry().tabs[ta!]).toBeDefined();
    expect(registry().tabs[tb!]).toBeDefined();
    // Side by side in one server: a quick read on one tab answers while a long call runs on another.
    const order: string[] = [];
    const slow = a.call({ tab: ta, steps: [{ wait: 3000 }] }).then(() => order.push('slow'));
    const quick = a.call({ tab: tb, steps: [{ query: '#save' }] }).then(() => order.push('quick'));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['quick', 'slow']);
    // One at a time on a tab, from one server and from two: the page's own log never interleaves.
    await a.call({ tab: ta, steps: [{ pageFunction: 'window.__log = []' }] });
    const mark = (who: string) => [
      { pageFunction: `window.__log.push('${who}+')` },
      { wait: 300 },
      { pageFunction: `window.__log.push('${who}-')` },
    ];
    const answers = await Promise.all([
      a.call({ tab: ta, steps: mark('a1') }),
      a.call({ tab: ta, steps: mark('a2') }),
      b.call({ tab: ta, steps: mark('b1') }),
    ]);
    expect(answers.map((r) => r.out.status)).toEqual(['ok', 'ok', 'ok']);
    const page = await pageOf(ta!);
    const log = (await page.value('window.__log')) as string[];
    page.close();
    expect(log).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) expect(log[i + 1]).toBe(log[i]!.replace('+', '-'));
  });
});

/** The browser process of the Chrome on `port` (not a renderer or helper). */
function browserPid(port: number): number {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout.split('\n');
  const line = ps.find((l) => l.includes(`--remote-debugging-port=${port}`) && !l.includes('--type='));
  if (!line) throw new Error(`no Chrome on port ${port}`);
  return Number(line.trim().split(/\s+/)[0]);
}

describe('faults', () => {
  it('a tab closed outside the server: a CONNECTION error, the other aliases kept', async () => {
    const m = await mcp();
    const keep = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] })).out.tab;
    const gone = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] })).out.tab;
    await m.call({ tab: gone, steps: [{ snapshot: true }] }); // kept warm
    const browser = await cdpTo(h.port, (t) => t.type === 'page');
    await browser.send('Target.closeTarget', { targetId: targetOf(gone) });
    browser.close();
    const r = await m.call({ tab: gone, steps: [{ click: 'h1' }] });
    expect(r.isError).toBe(true);
    expect(r.out.error.type).toBe('CONNECTION');
    expect(r.out.error.message).toMatch(/no longer exists|closed/);
    expect(registry().tabs[keep]).toBeDefined();
    expect((await m.call({ tab: keep, steps: [{ query: 'h1' }] })).out.status).toBe('ok');
  });

  it('a server killed mid-call: the tab and its alias stay usable from the CLI', async () => {
    const m = await mcp();
    const tab = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/actions.html`, port: h.port } }] })).out.tab;
    const before = Object.keys(registry().tabs).sort();
    const pending = m.call({ tab, steps: [{ wait: 20_000 }] }).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 1000)); // the call holds the tab's lock now
    const pid = m.transport.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    expect(await pending).toBeInstanceOf(Error); // the client learns the server is gone
    expect(Object.keys(registry().tabs).sort()).toEqual(before);
    const r = await h.cli({ tab, steps: [{ click: '#save' }], timeout: 5000 });
    expect(r.out.status).toBe('ok');
  });

  it('a crashed Chrome: classified CONNECTION errors, no alias lost, and a new Chrome opens', async () => {
    const m = await mcp();
    const tab = (await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] })).out.tab;
    const aliases = Object.keys(registry().tabs).sort();
    process.kill(browserPid(h.port), 'SIGKILL');
    const r = await m.call({ tab, steps: [{ snapshot: true }] });
    expect(r.isError).toBe(true);
    expect(r.out.error.type).toBe('CONNECTION');
    expect(Object.keys(registry().tabs).sort()).toEqual(aliases);
    // The server goes on: an openTab launches Chrome again on the port.
    const reopened = await m.call({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] });
    expect(reopened.out.status).toBe('ok');
    const page = await pageOf(reopened.out.tab);
    expect(await page.value('document.title')).toBeTruthy();
    page.close();
  });
});
