// Issue 15 items 1–2, as an attacker would try them: a fake DevTools server on 9222 and on the
// port of our dead Chrome. Each test checks that the attack failed and the normal path still works.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
/** The CLI with no port named anywhere: our own Chrome. */
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  h = await startHarness({ launch: false });
  env = { ...h.env };
  delete env.CDP_SKILL_PORT;
});
afterAll(async () => {
  await h?.close();
});

const registry = (): any => JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));

/** A fake DevTools server: answers /json/version and any WebSocket path, and records everything it gets. */
interface FakeDevTools {
  server: Server;
  http: string[];
  ws: string[];
  methods: () => string[];
  close: () => Promise<void>;
}
function fakeDevTools(port: number): Promise<FakeDevTools> {
  const http: string[] = [];
  const ws: string[] = [];
  const server = createServer((req, res) => {
    http.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        Browser: 'Chrome/999',
        'Protocol-Version': '1.3',
        webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/fake`,
      }),
    );
  });
  const onConnection = (socket: WebSocket, req: import('node:http').IncomingMessage): void => {
    ws.push(`open ${req.url}`);
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data));
      ws.push(String(data));
      const result =
        msg.method === 'Target.getBrowserContexts'
          ? { browserContextIds: [], defaultBrowserContextId: 'F00D'.repeat(8) }
          : msg.method === 'Target.createTarget'
            ? { targetId: 'F'.repeat(32) }
            : msg.method === 'Target.getTargets'
              ? { targetInfos: [] }
              : {};
      socket.send(JSON.stringify({ id: msg.id, result, ...(msg.sessionId ? { sessionId: msg.sessionId } : {}) }));
    });
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const wss = new WebSocketServer({ server });
      wss.on('error', () => {
        /* the server's own errors: nothing to record */
      });
      wss.on('connection', onConnection);
      resolve({
        server,
        http,
        ws,
        methods: () => ws.filter((m) => m.startsWith('{')).map((m) => JSON.parse(m).method),
        close: () =>
          new Promise((r) => {
            for (const c of wss.clients) c.terminate();
            wss.close();
            server.close(() => r());
          }),
      });
    });
  });
}

/** Chrome's own answer over the test's own socket: the URLs of its page targets. */
function pageUrls(wsUrl: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'Target.getTargets' })));
    ws.on('message', (m) => {
      ws.close();
      resolve(
        JSON.parse(String(m))
          .result.targetInfos.filter((t: any) => t.type === 'page')
          .map((t: any) => t.url),
      );
    });
    ws.on('error', reject);
  });
}

function ownChromePids(): number[] {
  const r = spawnSync('pgrep', ['-f', join(h.tmp, 'cdp-skill', 'chrome-profile-own')], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

async function killOwnChrome(): Promise<void> {
  const pids = ownChromePids();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('issue 15 items 1–2: only our browser, on a port Chrome picks', () => {
  let fake9222: FakeDevTools | undefined;
  beforeAll(async () => {
    // Another test run may hold 9222; the own Chrome's port is then still checked below.
    fake9222 = await fakeDevTools(9222).catch(() => undefined);
  });
  afterAll(async () => {
    await fake9222?.close();
  });

  it('an auto-launched Chrome never talks to a fake DevTools server on 9222 and listens on a port of its own', async () => {
    const url = `${h.baseUrl}/basic.html`;
    const r = await h.cli({ steps: [{ openTab: url }] }, { env });
    expect(r.out, r.stdout).toMatchObject({ status: 'ok', context: { title: 'Basic page' } });
    if (fake9222) expect({ http: fake9222.http, ws: fake9222.ws }).toEqual({ http: [], ws: [] });
    const reg = registry();
    const entry = reg.tabs[r.out.tab];
    expect(entry).toMatchObject({ own: true, host: '127.0.0.1' });
    expect(entry.port).not.toBe(9222);
    // The port and browser path are Chrome's own DevToolsActivePort in our private profile.
    const active = readFileSync(join(h.tmp, 'cdp-skill', 'chrome-profile-own-headless', 'DevToolsActivePort'), 'utf8')
      .trim()
      .split('\n');
    expect(reg.own.wsUrl).toBe(`ws://127.0.0.1:${active[0]}${active[1]}`);
    expect(Number(active[0])).toBe(entry.port);
    expect(await pageUrls(reg.own.wsUrl)).toContain(url);
    // Later calls reach it again (the check passes for the real browser).
    const again = await h.cli({ tab: r.out.tab, steps: [{ pageFunction: 'document.title' }] }, { env });
    expect(again.out.steps?.[0]?.output, again.stdout).toEqual({ type: 'string', value: 'Basic page' });
    if (fake9222) expect(fake9222.ws).toEqual([]);
  });

  it('an impostor that takes the port of our dead Chrome receives no command but the identity check; a new Chrome is launched', async () => {
    await h.cli({ steps: [{ chromeStatus: true }] }, { env });
    const before = registry().own;
    const port = Number(new URL(before.wsUrl).port);
    await killOwnChrome();
    const fake = await fakeDevTools(port);
    try {
      const url = `${h.baseUrl}/page2.html`;
      const r = await h.cli({ steps: [{ openTab: url }] }, { env });
      expect(r.out, r.stdout).toMatchObject({ status: 'ok', context: { title: 'Second page' } });
      // The impostor saw the handshake to the path it could have read anyway, and the one question it cannot answer.
      // (asked once before the launch lock and once under it)
      expect(fake.methods().length).toBeGreaterThan(0);
      expect(new Set(fake.methods())).toEqual(new Set(['Target.getBrowserContexts']));
      expect(fake.http).toEqual([]);
      const after = registry();
      expect(after.own.wsUrl).not.toBe(before.wsUrl);
      expect(after.tabs[r.out.tab].port).not.toBe(port);
      expect(await pageUrls(after.own.wsUrl)).toContain(url);
    } finally {
      await fake.close();
    }
  });

  it('a registry that lost the record (rebuilt after damage) finds the same live Chrome through its profile, not a new one', async () => {
    const before = registry();
    const port = Number(new URL(before.own.wsUrl).port);
    delete before.own;
    writeFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), JSON.stringify(before), { mode: 0o600 });
    const r = await h.cli({ steps: [{ chromeStatus: { autoLaunch: false } }] }, { env });
    expect(r.out.steps?.[0]?.output, r.stdout).toMatchObject({ running: true, launched: false, port });
    expect(Number(new URL(registry().own.wsUrl).port)).toBe(port);
  });

  it("with the record lost too, a dead Chrome's DevToolsActivePort is not followed to an impostor on its port", async () => {
    await h.cli({ steps: [{ chromeStatus: true }] }, { env });
    const before = registry();
    const port = Number(new URL(before.own.wsUrl).port);
    await killOwnChrome();
    delete before.own;
    writeFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), JSON.stringify(before), { mode: 0o600 });
    const fake = await fakeDevTools(port);
    try {
      const r = await h.cli({ steps: [{ openTab: `${h.baseUrl}/page2.html` }] }, { env });
      expect(r.out, r.stdout).toMatchObject({ status: 'ok', context: { title: 'Second page' } });
      expect({ http: fake.http, ws: fake.ws }).toEqual({ http: [], ws: [] });
      expect(Number(new URL(registry().own.wsUrl).port)).not.toBe(port);
    } finally {
      await fake.close();
    }
  });

  it('eight agents starting at once with no Chrome running launch one Chrome of our own and all use it', async () => {
    const tmp = join(h.tmp, 'eight');
    mkdirSync(join(tmp, 'home'), { recursive: true });
    const env8 = { ...env, TMPDIR: tmp, HOME: join(tmp, 'home') };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => h.cli({ steps: [{ openTab: `${h.baseUrl}/basic.html` }] }, { env: env8 })),
    );
    for (const r of results) expect(r.out.status, r.stdout.slice(0, 400)).toBe('ok');
    const reg = JSON.parse(readFileSync(join(tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
    expect(new Set(Object.values(reg.tabs).map((t: any) => t.port)).size).toBe(1);
    expect(Object.keys(reg.tabs).length).toBe(8);
    const browsers = spawnSync('pgrep', ['-f', `${join(tmp, 'cdp-skill', 'chrome-profile-own')}`], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .filter((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type='));
    expect(browsers.length).toBe(1);
    for (const pid of browsers) process.kill(Number(pid), 'SIGKILL');
  }, 120_000);

  it('a port the user names (CDP_SKILL_PORT, port) is used as given', async () => {
    const ownPort = Number(new URL(registry().own.wsUrl).port);
    const viaEnv = await h.cli({ steps: [{ listTabs: true }] }, { env: { ...env, CDP_SKILL_PORT: String(ownPort) } });
    expect(
      viaEnv.out.steps?.[0]?.output?.tabs?.map((t: any) => t.url),
      viaEnv.stdout,
    ).toContain(`${h.baseUrl}/page2.html`);
    const fake = await fakeDevTools(0);
    try {
      const fakePort = (fake.server.address() as { port: number }).port;
      const named = await h.cli({ steps: [{ listTabs: { port: fakePort } }] }, { env });
      expect(named.out.status, named.stdout).toBe('ok'); // the user's choice: the fake answers
      expect(fake.http).toContain('GET /json/version');
      expect(fake.methods()).toContain('Target.getTargets');
    } finally {
      await fake.close();
    }
  });
});
