// Concurrency: several agents (CLI processes) at once on one Chrome, or on a port with none yet.
// Aliases stay distinct, the registry keeps every write, one Chrome is launched, old tabs stay fast,
// and agents working their own tabs at once never act on each other's (bench/concurrency.mjs: 8 × 25).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type Harness } from './harness.js';

const AGENTS = 8;
let h: Harness;
let cold: Harness | undefined;

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}
const SHELL = /^(\S*\/)?(sh|dash|bash)$/;

/** Every process (browser, renderers, helpers) whose command line names this debugging port. */
function chromeProcesses(port: number): Proc[] {
  const r = spawnSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }))
    .filter((p) => p.args.split(' ').includes(`--remote-debugging-port=${port}`));
}

/**
 * Launched browsers: not a renderer or helper (`--type=`), not the wrapper script still in its
 * shell, and not a short-lived fork of a Chrome (those share the browser's command line).
 */
function launchedBrowsers(port: number): number[] {
  const procs = chromeProcesses(port);
  const chrome = new Set(procs.map((p) => p.pid));
  return procs
    .filter((p) => !p.args.includes('--type=') && !SHELL.test(p.args.split(' ')[0]) && !chrome.has(p.ppid))
    .map((p) => p.pid);
}

/** Runs `work` while sampling launched browsers; a duplicate that aborts within ~60 ms is still seen. */
async function whileWatchingLaunches<T>(port: number, work: Promise<T>): Promise<{ result: T; seen: Set<number> }> {
  const seen = new Set<number>();
  let done = false;
  const watcher = (async () => {
    while (!done) {
      for (const pid of launchedBrowsers(port)) seen.add(pid);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  try {
    return { result: await work, seen };
  } finally {
    done = true;
    await watcher;
  }
}

function openTabs(harness: Harness, count: number, path: string): Promise<CliResult[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      harness.cli({ steps: [{ openTab: { url: `${harness.baseUrl}/${path}?agent=${i}`, port: harness.port } }] }),
    ),
  );
}

function expectAllOpened(results: CliResult[]): string[] {
  for (const r of results) {
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.status).toBe('ok');
  }
  const aliases = results.map((r) => r.out.tab as string);
  for (const a of aliases) expect(a).toMatch(/^t\d+$/);
  expect(new Set(aliases).size).toBe(results.length);
  return aliases;
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await cold?.close();
  await h?.close();
});

describe('concurrency', () => {
  it('gives eight agents opening tabs at once eight distinct aliases, all registered', async () => {
    const results = await openTabs(h, AGENTS, 'basic.html');
    const aliases = expectAllOpened(results);
    results.forEach((r, i) => expect(r.out.context.url).toBe(`${h.baseUrl}/basic.html?agent=${i}`));
    const registry = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
    // Exactly the eight: none lost, none made up (the browser's own first tab has no alias).
    expect(Object.keys(registry.tabs).sort()).toEqual([...aliases].sort());
    const targetIds = aliases.map((a) => registry.tabs[a].targetId);
    expect(new Set(targetIds).size).toBe(AGENTS);
    // Each alias points at the tab its agent opened.
    const check = await h.cli({ tab: aliases[AGENTS - 1], steps: [{ pageFunction: 'location.search' }] });
    expect(check.out.steps?.[0].output).toEqual({ type: 'string', value: `?agent=${AGENTS - 1}` });
  }, 90_000);

  it('answers on the oldest of six background tabs about as fast as on the newest', async () => {
    const tabs: string[] = [];
    for (let i = 0; i < 6; i++) tabs.push(await h.open(`page2.html?order=${i}`));
    const timed = async (tab: string): Promise<CliResult> => {
      // The page changes (an attribute), so the answer carries the screenshot of the tab (capture by effect).
      const r = await h.cli({ tab, steps: [{ pageFunction: 'document.body.dataset.seen = "yes"; document.title' }] });
      expect(r.out.status).toBe('ok');
      expect(r.out.steps[0].output).toEqual({ type: 'string', value: 'Second page' });
      expect(r.out.screenshot).toBe(join(h.tmp, 'cdp-skill', `${tab}.after.png`));
      expect(existsSync(r.out.screenshot)).toBe(true);
      return r;
    };
    const oldest = await timed(tabs[0]);
    const newest = await timed(tabs[5]);
    console.log(`pageFunction + screenshot: oldest tab ${oldest.ms}ms, newest tab ${newest.ms}ms`);
    // A stalled background tab takes many seconds; on a loaded machine every command slows down
    // alike, so the bound is 3 s or three times the newest tab's time, whichever is larger.
    expect(oldest.ms).toBeLessThan(Math.max(3_000, 3 * newest.ms));
  }, 90_000);

  it('launches exactly one Chrome when eight agents start on a port with none running', async () => {
    cold = await startHarness({ launch: false });
    expect(launchedBrowsers(cold.port)).toEqual([]);
    const { result: results, seen } = await whileWatchingLaunches(cold.port, openTabs(cold, AGENTS, 'page2.html'));
    expectAllOpened(results);
    const browsers = launchedBrowsers(cold.port);
    expect(browsers).toHaveLength(1);
    // A second launch on the same profile would abort at once; the sampling would still catch it.
    expect([...seen]).toEqual(browsers);
    const status = await cold.cli({ steps: [{ chromeStatus: { port: cold.port, autoLaunch: false } }] });
    expect(status.out.steps[0].output).toMatchObject({ running: true, launched: false });
    const pages = status.out.steps[0].output.tabs.filter((t: { url: string }) => t.url.includes('/page2.html?agent='));
    expect(pages).toHaveLength(AGENTS);
  }, 90_000);

  it('keeps four agents making five calls each on their own tabs apart: no lost or duplicated alias, no cross-tab action', async () => {
    const agents = 4;
    const run = async (i: number): Promise<{ tab: string; seen: unknown }> => {
      const opened = await h.cli({
        steps: [{ openTab: { url: `${h.baseUrl}/actions.html?agent=${i}`, port: h.port } }],
      });
      expect(opened.out.status).toBe('ok');
      const tab = opened.out.tab as string;
      for (const k of [1, 2]) {
        const filled = await h.cli({ tab, steps: [{ fill: { selector: '#name', value: `agent${i}-${k}` } }] });
        expect(filled.out.status).toBe('ok');
      }
      expect((await h.cli({ tab, steps: [{ click: '#save' }] })).out.status).toBe('ok');
      const check = await h.cli({
        tab,
        steps: [
          {
            pageFunction:
              "JSON.stringify([location.search, document.querySelector('#name').value, window.__events.filter((e) => e === 'save')])",
          },
        ],
      });
      return { tab, seen: JSON.parse(check.out.steps[0].output.value) };
    };
    const results = await Promise.all(Array.from({ length: agents }, (_, i) => run(i)));
    const aliases = results.map((r) => r.tab);
    expect(new Set(aliases).size).toBe(agents);
    results.forEach((r, i) => expect(r.seen).toEqual([`?agent=${i}`, `agent${i}-2`, ['save']]));
    const registry = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
    const targets = aliases.map((a) => registry.tabs[a]?.targetId);
    expect(targets.every(Boolean)).toBe(true);
    expect(new Set(targets).size).toBe(agents);
  }, 90_000);
});
