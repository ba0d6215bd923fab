// Faults: a killed Chrome, a page that never yields, a load that never ends, a refused
// connection, an alert, a reader that goes away. Each must answer (or exit) in bounded time.
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, freePort, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

/** Every process (browser, renderers, helpers) whose command line names this debugging port. */
function chromePids(port: number): number[] {
  const r = spawnSync('pgrep', ['-f', `remote-debugging-port=${port}( |$)`], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

async function waitUntilDead(pids: number[], timeoutMs: number): Promise<void> {
  const endsAt = Date.now() + timeoutMs;
  while (pids.some(isAlive) && Date.now() < endsAt) await new Promise((r) => setTimeout(r, 50));
}

describe('faults', () => {
  it('answers CONNECTION on a tab whose Chrome was killed, then auto-launches a new Chrome', async () => {
    const tab = await h.open('basic.html');
    const pids = chromePids(h.port);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await waitUntilDead(pids, 5_000);
    const r = await h.cli({ tab, steps: [{ pageFunction: 'document.title' }] });
    expect(r.code).toBe(1);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'CONNECTION' } });
    expect(r.ms).toBeLessThan(5_000);
    const reopened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/page2.html`, port: h.port } }] });
    expect(reopened.code).toBe(0);
    expect(reopened.out.status).toBe('ok');
    expect(reopened.out.context).toMatchObject({ title: 'Second page' });
    const fresh = chromePids(h.port);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.filter((p) => pids.includes(p))).toEqual([]);
  });

  it('times out a pageFunction stuck in an infinite loop and keeps the tab usable', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, timeout: 2_000, steps: [{ pageFunction: '() => { while (true) {} }' }] });
    expect(r.code).toBe(1);
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'TimeoutError' });
    expect(r.out.steps[0].error).toMatch(/Timed out after 2000ms/);
    expect(r.ms).toBeLessThan(5_000);
    const next = await h.cli({ tab, steps: [{ pageFunction: 'document.title' }] });
    expect(next.out.status).toBe('ok');
    expect(next.out.steps[0].output).toEqual({ type: 'string', value: 'Basic page' });
  });

  it('honours a per-step timeout on an infinite loop', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ pageFunction: '() => { while (true) {} }', timeout: 2_000 }] });
    expect(r.code).toBe(1);
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'TimeoutError' });
    expect(r.ms).toBeLessThan(5_000);
    const next = await h.cli({ tab, steps: [{ pageFunction: '1 + 1' }] });
    expect(next.out.steps?.[0].output).toEqual({ type: 'number', value: 2 });
  });

  it('times out a goto whose page never finishes loading, naming the load event', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ goto: { url: `${h.baseUrl}/never` }, timeout: 2_000 }] });
    expect(r.code).toBe(1);
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0]).toMatchObject({ errorType: 'TimeoutError', error: `Timed out after 2000ms waiting for the load event of ${h.baseUrl}/never` });
    expect(r.ms).toBeLessThan(6_000);
    const next = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html` }, { pageFunction: 'document.title' }] });
    expect(next.out.status).toBe('ok');
    expect(next.out.steps[1].output).toEqual({ type: 'string', value: 'Second page' });
  });

  it('reports a refused connection on goto as a NavigationError', async () => {
    // Not port 1 itself: Chrome blocks it as ERR_UNSAFE_PORT before trying to connect.
    const closedPort = await freePort();
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ goto: `http://127.0.0.1:${closedPort}/` }] });
    expect(r.code).toBe(1);
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0]).toMatchObject({ status: 'error', errorType: 'NavigationError' });
    expect(r.out.steps[0].error).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it('does not hang on an alert opened by a pageFunction and reports the dialog', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ pageFunction: "() => { alert('hi'); return 'after' }" }] });
    expect(r.code).toBe(0);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[0].output).toEqual({ type: 'string', value: 'after' });
    expect(r.out.dialogs[0]).toMatchObject({ type: 'alert', message: 'hi' });
  });

  it('exits without a stack trace when its stdout is closed early', async () => {
    const tab = await h.open('basic.html');
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, JSON.stringify({ tab, timeout: 5_000, steps: [{ pageFunction: 'document.title' }] })],
      { env: h.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      child.on('close', (c, s) => resolve([c, s]));
    });
    clearTimeout(killer);
    expect(signal).toBeNull(); // not killed by our watchdog
    expect(typeof code).toBe('number');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
