// Remote browsers: a second Chromium started by the test, reached by wsEndpoint or host/port.
// cdp-skill must remember the endpoint per alias and never launch a Chrome of its own for it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromeArgs } from '../../build/cdp/launcher.js';
import { findChrome } from '../../build/cdp/chrome-finder.js';
import { freePort, startHarness, type Harness } from './harness.js';

interface Target {
  id: string;
  type: string;
  url: string;
}

let h: Harness;
let remotePort: number;
let remotePid: number | undefined;
let remoteProfile: string;
let wsEndpoint: string;

/**
 * Browser processes on `port`: not renderers or helpers (`--type=`), not the wrapper script,
 * and not a short-lived fork of a Chrome (it shares the browser's command line).
 */
function browserPids(port: number): number[] {
  const r = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const procs = r.stdout
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }))
    .filter((p) => p.args.split(' ').includes(`--remote-debugging-port=${port}`));
  const chrome = new Set(procs.map((p) => p.pid));
  return procs
    .filter(
      (p) =>
        !p.args.includes('--type=') && !/^(\S*\/)?(sh|dash|bash)$/.test(p.args.split(' ')[0]) && !chrome.has(p.ppid),
    )
    .map((p) => p.pid);
}

async function waitForVersion(port: number, timeoutMs: number): Promise<{ webSocketDebuggerUrl: string }> {
  const endsAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return (await res.json()) as { webSocketDebuggerUrl: string };
    } catch {
      // not up yet: poll again until the deadline
    }
    if (Date.now() > endsAt) throw new Error(`remote Chrome did not open port ${port} within ${timeoutMs}ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function remoteTargets(): Promise<Target[]> {
  const res = await fetch(`http://127.0.0.1:${remotePort}/json/list`);
  return (await res.json()) as Target[];
}

beforeAll(async () => {
  // No Chrome of the harness's own: every tab here must live in the remote one.
  h = await startHarness({ launch: false });
  remotePort = await freePort();
  remoteProfile = mkdtempSync(join(tmpdir(), 'cdp-skill-remote-'));
  const exe = findChrome();
  if (!exe) throw new Error('no Chrome executable found');
  const child = spawn(exe, chromeArgs(remotePort, remoteProfile, true), { detached: true, stdio: 'ignore' });
  child.unref();
  remotePid = child.pid;
  wsEndpoint = (await waitForVersion(remotePort, 10_000)).webSocketDebuggerUrl;
  expect(wsEndpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
});

afterAll(async () => {
  if (remotePid) {
    try {
      process.kill(-remotePid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    // Wait for it to die before removing the profile it may still be writing.
    const endsAt = Date.now() + 5_000;
    while (browserPids(remotePort).length && Date.now() < endsAt) await new Promise((r) => setTimeout(r, 50));
  }
  await h?.close();
  rmSync(remoteProfile, { recursive: true, force: true });
});

describe('remote browsers', () => {
  let alias: string;
  let targetId: string;

  it('opens a tab in a browser given by wsEndpoint', async () => {
    const url = `${h.baseUrl}/basic.html?remote=ws`;
    const r = await h.cli({ steps: [{ openTab: { url, wsEndpoint } }] });
    expect(r.code).toBe(0);
    expect(r.out.status).toBe('ok');
    expect(r.out.tab).toMatch(/^t\d+$/);
    expect(r.out.steps[0].output).toMatchObject({ url, status: 200 });
    alias = r.out.tab;
    const target = (await remoteTargets()).find((t) => t.url === url);
    expect(target).toBeDefined();
    targetId = target!.id;
    const registry = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
    expect(registry.tabs[alias]).toMatchObject({ targetId, wsEndpoint });
  });

  it('reaches a wsEndpoint tab later by its alias alone', async () => {
    const r = await h.cli({ tab: alias, steps: [{ pageFunction: 'document.title' }] });
    expect(r.code).toBe(0);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toEqual({ type: 'string', value: 'Basic page' });
  });

  it('lists the tabs of a wsEndpoint browser with their aliases', async () => {
    const r = await h.cli({ steps: [{ listTabs: { wsEndpoint } }] });
    expect(r.out.status).toBe('ok');
    const mine = r.out.steps[0].output.tabs.find((t: { tab?: string }) => t.tab === alias);
    expect(mine).toMatchObject({ targetId, title: 'Basic page' });
  });

  it('closes a wsEndpoint tab by alias, and the remote browser loses the target', async () => {
    const r = await h.cli({ steps: [{ closeTab: alias }] });
    expect(r.out).toMatchObject({ status: 'ok', steps: [{ output: { closed: alias } }] });
    expect((await remoteTargets()).map((t) => t.id)).not.toContain(targetId);
  });

  it('opens a tab in a browser given by host and port without launching another Chrome', async () => {
    const before = browserPids(remotePort);
    expect(before).toHaveLength(1);
    const url = `${h.baseUrl}/page2.html?remote=port`;
    const r = await h.cli({ steps: [{ openTab: { url, host: '127.0.0.1', port: remotePort } }] });
    expect(r.code).toBe(0);
    expect(r.out.status).toBe('ok');
    expect(r.out.context).toMatchObject({ url, title: 'Second page' });
    expect((await remoteTargets()).some((t) => t.url === url)).toBe(true);
    expect(browserPids(remotePort)).toEqual(before);
    // The harness port was never used: nothing may have been launched there either.
    expect(browserPids(h.port)).toEqual([]);
    const again = await h.cli({ tab: r.out.tab, steps: [{ pageFunction: 'location.search' }] });
    expect(again.out.steps?.[0].output).toEqual({ type: 'string', value: '?remote=port' });
  });

  it('answers a refused wsEndpoint with CONNECTION, quickly', async () => {
    const r = await h.cli({
      steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, wsEndpoint: 'ws://127.0.0.1:1/devtools/browser/x' } }],
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'CONNECTION' } });
    expect(r.ms).toBeLessThan(5_000);
    expect(r.stderr).toBe('');
  });
});
