// Registry faults: a tabs.json of every broken shape (wrong counter, wrong entry types, a
// directory, a symlink, empty), aliases that are not aliases ("__proto__"), and two agents racing
// closeTab against a running command. The oracle is Chrome itself: each page is read over this
// test's own WebSocket by target id, never through the alias under test.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const stateDir = (): string => join(h.tmp, 'cdp-skill');
const registryFile = (): string => join(stateDir(), 'tabs.json');
const registry = (): { nextId: number; tabs: Record<string, { targetId: string }> } =>
  JSON.parse(readFileSync(registryFile(), 'utf8'));

/** Evaluates `expression` in a target over a WebSocket of this test's own (Chrome is the oracle). */
async function evalIn(targetId: string, expression: string): Promise<unknown> {
  const list = (await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as {
    id: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = list.find((t) => t.id === targetId);
  if (!target) throw new Error(`no target ${targetId}`);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    ws.on('open', () =>
      ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } })),
    );
    ws.on('message', (m) => {
      ws.close();
      resolve((JSON.parse(m.toString()) as { result: { result: { value: unknown } } }).result.result.value);
    });
    ws.on('error', reject);
  });
}

async function openedTarget(path: string): Promise<{ tab: string; targetId: string }> {
  const tab = await h.open(path);
  return { tab, targetId: registry().tabs[tab]!.targetId };
}

const highestAlias = (): number =>
  Math.max(0, ...Object.keys(registry().tabs).map((a) => Number(a.slice(1))), registry().nextId - 1);

describe('a registry of a broken shape', () => {
  it("never hands a second agent the alias of the first: the first agent's fill lands in its own page", async () => {
    const a = await openedTarget('basic.html?agent=a');
    writeFileSync(registryFile(), JSON.stringify({ nextId: 'x', tabs: {}, browsers: {} }));
    const b = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html?agent=b`, port: h.port } }] });
    expect(b.out.status, b.stdout).toBe('ok');
    expect(b.out.tab).not.toBe(a.tab);
    expect(Number(b.out.tab.slice(1))).toBeGreaterThan(Number(a.tab.slice(1)));
    const fill = await h.cli({ tab: a.tab, steps: [{ fill: { selector: '#name', value: 'typed by A' } }] });
    expect(fill.out.status, fill.stdout).toBe('ok');
    expect(await evalIn(a.targetId, "document.querySelector('#name').value")).toBe('typed by A');
    const bTarget = registry().tabs[b.out.tab]!.targetId;
    expect(await evalIn(bTarget, "document.querySelector('#name').value")).toBe('');
    expect(await evalIn(bTarget, 'location.search')).toBe('?agent=b');
  }, 60_000);

  const shapes: [string, string][] = [
    ['a counter of 0', JSON.stringify({ nextId: 0, tabs: {}, browsers: {} })],
    ['an array of tabs', JSON.stringify({ nextId: 3, tabs: [], browsers: {} })],
    [
      'an entry with a string port',
      JSON.stringify({ nextId: 3, tabs: { t1: { targetId: 'X', host: '127.0.0.1', port: '9222' } }, browsers: {} }),
    ],
    [
      'an alias "__proto__"',
      '{"nextId":2,"tabs":{"__proto__":{"targetId":"X","host":"127.0.0.1","port":1}},"browsers":{}}',
    ],
    ['a browser URL that is a number', JSON.stringify({ nextId: 2, tabs: {}, browsers: { x: 5 } })],
    ['null', 'null'],
    ['an empty file', ''],
  ];
  it.each(shapes)(
    'heals %s: the agent keeps its alias, a new tab gets a number never handed out',
    async (_, text) => {
      const mine = await openedTarget('page2.html?shape=1');
      const highest = highestAlias();
      writeFileSync(registryFile(), text);
      const r = await h.cli({ tab: mine.tab, steps: [{ pageFunction: 'location.search' }] });
      expect(r.out, r.stdout).toMatchObject({
        status: 'ok',
        tab: mine.tab,
        steps: [{ output: { value: '?shape=1' } }],
      });
      expect(registry().tabs[mine.tab]!.targetId).toBe(mine.targetId);
      const fresh = await h.open('basic.html');
      expect(Number(fresh.slice(1))).toBeGreaterThan(highest);
    },
    60_000,
  );

  it('a registry rewritten with a low counter and no tabs (valid shape) hands out no old alias, and the old alias still works', async () => {
    const mine = await openedTarget('page2.html?low=1');
    const highest = highestAlias();
    writeFileSync(registryFile(), JSON.stringify({ nextId: 1, tabs: {}, browsers: {} }));
    const fresh = await h.open('basic.html');
    expect(Number(fresh.slice(1))).toBeGreaterThan(highest);
    const r = await h.cli({ tab: mine.tab, steps: [{ pageFunction: 'location.search' }] });
    expect(r.out, r.stdout).toMatchObject({ status: 'ok', steps: [{ output: { value: '?low=1' } }] });
  }, 60_000);

  it("moves a directory in tabs.json's place aside and heals; no temp files pile up", async () => {
    const mine = await openedTarget('page2.html?dir=1');
    rmSync(registryFile());
    mkdirSync(join(registryFile(), 'inside'), { recursive: true });
    for (let i = 0; i < 2; i++) {
      const r = await h.cli({ tab: mine.tab, steps: [{ pageFunction: 'location.search' }] });
      expect(r.out, r.stdout).toMatchObject({ status: 'ok', steps: [{ output: { value: '?dir=1' } }] });
    }
    expect(statSync(registryFile()).isFile()).toBe(true);
    expect(readdirSync(stateDir()).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const fresh = await h.open('basic.html');
    expect(registry().tabs[fresh]).toBeDefined();
  }, 60_000);

  it("moves a symlink in tabs.json's place aside without writing through it", async () => {
    const mine = await openedTarget('page2.html?link=1');
    const elsewhere = join(h.tmp, 'elsewhere.json');
    writeFileSync(elsewhere, 'keep');
    rmSync(registryFile());
    symlinkSync(elsewhere, registryFile());
    const r = await h.cli({ tab: mine.tab, steps: [{ pageFunction: 'location.search' }] });
    expect(r.out, r.stdout).toMatchObject({ status: 'ok', steps: [{ output: { value: '?link=1' } }] });
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep');
    expect(statSync(registryFile()).isFile()).toBe(true);
  }, 60_000);
});

describe('aliases that are not aliases', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '"tab" and closeTab given %s are VALIDATION errors, never "closed"',
    async (name) => {
      const asTab = await h.cli({ tab: name, steps: [{ pageFunction: '1' }] });
      expect(asTab.out.error).toMatchObject({ type: 'VALIDATION' });
      expect(asTab.stdout).not.toMatch(/TypeError|Cannot read/);
      for (const step of [{ closeTab: name }, { closeTab: { tab: name } }, { closeTab: { targetId: name } }]) {
        const r = await h.cli({ steps: [step] });
        expect(r.out.status).toBe('error');
        expect(r.out.error).toMatchObject({ type: 'VALIDATION' });
        expect(r.stdout).not.toMatch(/"closed"/);
      }
    },
  );

  it('closeTab of an alias never handed out, or a target id Chrome does not have, fails and closes nothing', async () => {
    const unknown = await h.cli({ steps: [{ closeTab: 't99999' }] });
    expect(unknown.out).toMatchObject({ status: 'error', error: { type: 'CONNECTION' } });
    expect(unknown.out.error.message).toMatch(/Unknown tab alias "t99999"/);
    const noTarget = await h.cli({
      steps: [{ closeTab: { targetId: 'ABCDEF0123456789ABCDEF0123456789', port: h.port } }],
    });
    expect(noTarget.out).toMatchObject({ status: 'error', error: { type: 'CONNECTION' } });
    expect(noTarget.out.error.message).toMatch(/No tab with target id/);
  });
});

describe('closeTab against a running command', () => {
  /** A command that holds its tab for about `ms`, marking the page when it starts. */
  function holdTab(tab: string, ms: number) {
    return h.cli({
      tab,
      steps: [{ pageFunction: "document.title = 'held'" }, { wait: ms }, { pageFunction: 'document.title' }],
    });
  }
  async function whenHeld(targetId: string): Promise<void> {
    await expect.poll(async () => evalIn(targetId, 'document.title'), { timeout: 15_000, interval: 50 }).toBe('held');
  }

  it('waits for the command on the tab to finish, then closes it; the command ends normally', async () => {
    const { tab, targetId } = await openedTarget('basic.html');
    const running = holdTab(tab, 2_500);
    await whenHeld(targetId);
    const closedAt = Date.now();
    const close = await h.cli({ timeout: 15_000, steps: [{ closeTab: tab }] });
    const done = await running;
    expect(done.out, done.stdout).toMatchObject({ status: 'ok', steps: [{}, {}, { output: { value: 'held' } }] });
    expect(close.out).toMatchObject({ status: 'ok', steps: [{ output: { closed: tab } }] });
    expect(Date.now() - closedAt).toBeGreaterThan(1_000); // it waited for the lock
    await expect
      .poll(
        async () =>
          ((await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as { id: string }[]).some(
            (t) => t.id === targetId,
          ),
        { timeout: 5_000 },
      )
      .toBe(false);
  }, 60_000);

  it('gives up at its own timeout with "Tab busy" and leaves the tab open', async () => {
    const { tab, targetId } = await openedTarget('basic.html');
    const running = holdTab(tab, 3_000);
    await whenHeld(targetId);
    const close = await h.cli({ timeout: 800, steps: [{ closeTab: tab }] });
    expect(close.out).toMatchObject({ status: 'error', error: { type: 'CONNECTION' } });
    expect(close.out.error.message).toMatch(new RegExp(`Tab busy: ${tab}`));
    expect(close.ms).toBeLessThan(800 + 1_500);
    expect((await running).out.status).toBe('ok');
    expect(await evalIn(targetId, 'document.title')).toBe('held');
    expect(existsSync(registryFile())).toBe(true);
    expect(registry().tabs[tab]!.targetId).toBe(targetId);
  }, 60_000);
});
