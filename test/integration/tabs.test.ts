// Tabs and browsers: auto-launch, openTab, listTabs, connectTab, closeTab, chromeStatus.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToBrowser, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The target id the registry holds for `alias`. */
const registryTarget = (alias: string): string =>
  JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8')).tabs[alias].targetId;

describe('tabs', () => {
  it("opens each tab in a window of its own without the browser's WebUI pages that keep a renderer busy", async () => {
    const a = await h.open('basic.html');
    const b = await h.open('basic.html');
    // Chrome's own list of what it runs, over the test's own socket: the tabs, no omnibox popup pages
    // (Chromium 156 builds two per window; 20 idle tabs then kept 1.6 of 2 cores busy).
    const version = (await (await fetch(`http://127.0.0.1:${h.port}/json/version`)).json()) as {
      webSocketDebuggerUrl: string;
    };
    const browser = await cdpToBrowser(version.webSocketDebuggerUrl);
    try {
      const { targetInfos } = await browser.send('Target.getTargets', { filter: [{}] });
      const ui = targetInfos.filter((t: { type: string }) => t.type === 'browser_ui');
      expect(ui.map((t: { url: string }) => t.url)).toEqual([]);
      const ours = [a, b].map((alias) => registryTarget(alias));
      const windows = await Promise.all(
        ours.map(async (targetId) => (await browser.send('Browser.getWindowForTarget', { targetId })).windowId),
      );
      expect(new Set(windows).size).toBe(2);
    } finally {
      browser.close();
    }
  });

  it('opens a tab, loads the page and reports context and an auto screenshot', async () => {
    const r = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] });
    expect(r.code).toBe(0);
    expect(r.out.status).toBe('ok');
    expect(r.out.tab).toMatch(/^t\d+$/);
    expect(r.out.steps[0].output).toMatchObject({ url: `${h.baseUrl}/basic.html`, status: 200 });
    expect(r.out.context).toMatchObject({
      url: `${h.baseUrl}/basic.html`,
      title: 'Basic page',
      scroll: { y: 0, percent: 0 },
    });
    expect(r.out.context.viewport.width).toBeGreaterThan(0);
    expect(r.out.screenshot).toBe(join(h.tmp, 'cdp-skill', `${r.out.tab}.after.png`));
    expect(readFileSync(r.out.screenshot).subarray(1, 4).toString()).toBe('PNG');
    // Output order: small fields first.
    expect(Object.keys(r.out)).toEqual([
      'status',
      'tab',
      'navigated',
      'context',
      'screenshot',
      'fullSnapshot',
      'steps',
      'viewportSnapshot',
    ]);
  });

  it('keeps the registry in a private directory', async () => {
    const dir = join(h.tmp, 'cdp-skill');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const registry = JSON.parse(readFileSync(join(dir, 'tabs.json'), 'utf8'));
    expect(Object.values(registry.tabs)[0]).toMatchObject({ host: '127.0.0.1', port: h.port });
  });

  it('never reuses an alias after a tab is closed', async () => {
    const a = await h.open('basic.html');
    const closed = await h.cli({ steps: [{ closeTab: a }] });
    expect(closed.out).toMatchObject({ status: 'ok', steps: [{ output: { closed: a } }] });
    const b = await h.open('basic.html');
    expect(Number(b.slice(1))).toBeGreaterThan(Number(a.slice(1)));
    const reuse = await h.cli({ tab: a, steps: [{ reload: true }] });
    expect(reuse.code).toBe(1);
    expect(reuse.out.error).toMatchObject({ type: 'CONNECTION' });
    expect(reuse.out.error.message).toMatch(new RegExp(`Unknown tab "${a}"`));
  });

  it('lists tabs with their aliases', async () => {
    const tab = await h.open('page2.html');
    const r = await h.cli({ steps: [{ listTabs: { port: h.port } }] });
    expect(r.out.status).toBe('ok');
    const mine = r.out.steps[0].output.tabs.find((t: { tab?: string }) => t.tab === tab);
    expect(mine).toMatchObject({ url: `${h.baseUrl}/page2.html`, title: 'Second page' });
    expect(mine.targetId).toMatch(/^[0-9A-F]{32}$/);
    expect(r.out.context).toBeUndefined(); // a session-less command has no page context
  });

  it('connects to a tab by URL pattern and by target id', async () => {
    const tab = await h.open('page2.html?connect=1');
    const byUrl = await h.cli({ steps: [{ connectTab: { url: 'connect=1', port: h.port } }] });
    expect(byUrl.out).toMatchObject({ status: 'ok', tab, steps: [{ output: { tab, title: 'Second page' } }] });
    const targetId = byUrl.out.steps[0].output.targetId;
    const byId = await h.cli({ steps: [{ connectTab: { targetId, port: h.port } }] });
    expect(byId.out).toMatchObject({ status: 'ok', tab });
    const byAlias = await h.cli({ steps: [{ connectTab: tab }] });
    expect(byAlias.out).toMatchObject({ status: 'ok', tab });
  });

  it('reports a tab closed outside cdp-skill as CONNECTION and forgets it', async () => {
    const tab = await h.open('basic.html');
    const listed = await h.cli({ steps: [{ listTabs: { port: h.port } }] });
    const { targetId } = listed.out.steps[0].output.tabs.find((t: { tab?: string }) => t.tab === tab);
    await fetch(`http://127.0.0.1:${h.port}/json/close/${targetId}`);
    const r = await h.cli({ tab, steps: [{ pageFunction: '1+1' }] });
    expect(r.code).toBe(1);
    expect(r.out.error.type).toBe('CONNECTION');
    expect(r.out.error.message).toMatch(/no longer exists/);
  });

  it('closes its own tab as the last step and skips capture', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ pageFunction: 'document.title' }, { closeTab: true }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[1].output).toEqual({ closed: tab });
    expect(r.out.screenshot).toBeUndefined();
    expect(r.out.tab).toBeUndefined();
  });

  it('chromeStatus reports a running Chrome with its tabs', async () => {
    const r = await h.cli({ steps: [{ chromeStatus: { port: h.port } }] });
    const out = r.out.steps[0].output;
    expect(out).toMatchObject({ running: true, launched: false, port: h.port });
    expect(out.version).toMatch(/Chrome/);
    expect(out.tabs.length).toBeGreaterThan(0);
  });

  it('chromeStatus opens a blank tab when Chrome has none', async () => {
    const list = (await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as { id: string; type: string }[];
    for (const t of list.filter((t) => t.type === 'page')) await fetch(`http://127.0.0.1:${h.port}/json/close/${t.id}`);
    const r = await h.cli({ steps: [{ chromeStatus: { port: h.port } }] });
    const out = r.out.steps[0].output;
    expect(out).toMatchObject({
      running: true,
      createdTab: true,
      note: 'Chrome had no tabs open. Created a blank tab.',
    });
    expect(out.tabs).toHaveLength(1);
    expect(out.tabs[0].url).toBe('about:blank');
  });

  it('chromeStatus without autoLaunch reports a port with no Chrome', async () => {
    const r = await h.cli({ steps: [{ chromeStatus: { port: 1, autoLaunch: false } }] });
    expect(r.out.steps[0].output).toMatchObject({ running: false, launched: false, port: 1 });
    expect(r.out.steps[0].output.error).toMatch(/not reachable/);
  });
});
