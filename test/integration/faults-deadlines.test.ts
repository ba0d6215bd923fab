// Deadlines under real faults: a frozen Chrome (its browser process stopped with SIGSTOP), a page
// that opens alerts in a loop, a load that never ends, and the CLI itself interrupted by SIGTERM.
// Each answer comes within the timeout given plus a small margin, says how long really passed and
// what was pending, and leaves the tab and the registry usable.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Process start, JSON, exit: allowed beyond the timeout on a loaded 2-core machine. */
const MARGIN_MS = 1_300;

const registry = (): { tabs: Record<string, { targetId: string }> } =>
  JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));

/** The browser process (not a renderer or helper) of the harness's Chrome. */
function browserPid(): number {
  const r = spawnSync('pgrep', ['-f', `remote-debugging-port=${h.port}( |$)`], { encoding: 'utf8' });
  for (const pid of r.stdout.split('\n').filter(Boolean).map(Number)) {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('--type=')) return pid;
  }
  throw new Error('no browser process');
}

describe('a frozen Chrome (SIGSTOP)', () => {
  it('openTab, a command on a tab and goto each answer within timeout + margin, naming elapsed time and what was pending', async () => {
    const tab = await h.open('basic.html');
    const before = registry();
    const pid = browserPid();
    process.kill(pid, 'SIGSTOP');
    try {
      const cases: [unknown, number][] = [
        [{ timeout: 2_000, steps: [{ openTab: { url: `${h.baseUrl}/page2.html`, port: h.port } }] }, 2_000],
        [{ tab, timeout: 2_000, steps: [{ pageFunction: 'document.title' }] }, 2_000],
        [{ tab, timeout: 3_000, steps: [{ goto: `${h.baseUrl}/page2.html` }] }, 3_000],
      ];
      for (const [command, timeout] of cases) {
        const r = await h.cli(command, { timeoutMs: 30_000 });
        expect(r.ms, r.stdout).toBeLessThan(timeout + MARGIN_MS);
        expect(r.out.status).toBe('error');
        expect(r.out.error?.type, r.stdout).toMatch(/CONNECTION|EXECUTION/);
        const message = String(r.out.error?.message ?? r.out.steps?.[0]?.error);
        expect(message).toMatch(new RegExp(`${timeout}ms timeout`));
        expect(message).toMatch(/\d+ms (have )?passed/);
        expect(message).toMatch(/waiting for .*(Chrome|WebSocket|HTTP)/);
      }
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Thawed, the same tab answers, under the same alias, and no lock was left behind.
    const next = await h.cli({ tab, steps: [{ pageFunction: 'document.title' }] });
    expect(next.out, next.stdout).toMatchObject({ status: 'ok', steps: [{ output: { value: 'Basic page' } }] });
    expect(registry().tabs[tab]).toEqual(before.tabs[tab]);
  }, 90_000);
});

describe('a page that will not let go', () => {
  it('an alert loop: the command answers within timeout + margin and does not claim a navigation', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli(
      { tab, timeout: 2_000, steps: [{ goto: 'data:text/html,<title>storm</title><script>for(;;)alert(1)</script>' }] },
      { timeoutMs: 30_000 },
    );
    expect(r.ms, r.stdout).toBeLessThan(2_000 + MARGIN_MS);
    expect(r.out.status).toBe('error');
    expect(r.out.navigated).toBeUndefined();
    expect(JSON.stringify(r.out)).toMatch(/2000ms/);
    const fresh = await h.open('page2.html');
    expect(await h.value(fresh, 'document.title')).toBe('Second page');
  }, 60_000);

  it('a load that never ends: goto answers within timeout + margin', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, timeout: 3_000, steps: [{ goto: `${h.baseUrl}/never` }] }, { timeoutMs: 30_000 });
    expect(r.ms, r.stdout).toBeLessThan(3_000 + MARGIN_MS);
    // The goto's timeout, or — on a machine so loaded that start-up and attach used the 3 s —
    // an answer that says the time ran out before the step started (and so says nothing of the page).
    if (r.out.steps.length) expect(r.out.steps[0]).toMatchObject({ errorType: 'TimeoutError' });
    else
      expect(r.out.error.message, r.stdout).toMatch(
        /^(No answer within the 3000ms timeout of step 1 \(goto\), counted from the command's start .* before the step started|The tab did not answer within the \d+ms left of the 3000ms timeout after starting and connecting)/,
      );
  }, 60_000);
});

describe('the CLI interrupted', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s mid-command answers JSON saying so and frees the tab at once',
    async (signal) => {
      const tab = await h.open('basic.html');
      const targetId = registry().tabs[tab]!.targetId;
      const child = spawn(
        process.execPath,
        [CLI, JSON.stringify({ tab, steps: [{ pageFunction: "document.title = 'held'" }, { wait: 20_000 }] })],
        { env: h.env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
      });
      const lock = join(h.tmp, 'cdp-skill', 'locks', `tab-${targetId}.lock`);
      await expect
        .poll(
          async () =>
            (
              (await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as { id: string; title: string }[]
            ).find((t) => t.id === targetId)?.title,
          { timeout: 15_000, interval: 50 },
        )
        .toBe('held');
      expect(existsSync(lock)).toBe(true);
      const sentAt = Date.now();
      child.kill(signal);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(Date.now() - sentAt).toBeLessThan(2_000);
      expect(code).toBe(1);
      const out = JSON.parse(stdout);
      expect(out).toMatchObject({ status: 'error', tab, error: { type: 'EXECUTION' } });
      expect(out.error.message).toMatch(new RegExp(`Interrupted by ${signal}`));
      expect(existsSync(lock)).toBe(false);
      // The lock is gone (above), so the next command does not wait on it: it answers well within
      // its timeout however slow the machine is to start the CLI.
      const next = await h.cli({ tab, timeout: 10_000, steps: [{ pageFunction: 'document.title' }] });
      expect(next.out, next.stdout).toMatchObject({ status: 'ok', steps: [{ output: { value: 'held' } }] });
      expect(next.ms).toBeLessThan(10_000);
    },
    60_000,
  );
});
