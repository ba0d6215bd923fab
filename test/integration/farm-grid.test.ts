// Selenium Grid as a farm (issue 24), against real Grids started here on loopback: a standalone one
// (a short idle timeout, to see a session kept alive by calls and another reaped) and a hub with a
// node (which reports se:cdp at an address this machine cannot reach). Every answer is checked
// against the Grid's own session list and the browser's own targets over the test's own CDP socket.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examples } from './examples-md.js';
import { startHarness, type Harness } from './harness.js';
import {
  announceSkip,
  farmsMissing,
  gridSessionIds,
  pageUrls,
  rawCdp,
  startHubAndNode,
  startStandaloneGrid,
  type Farm,
} from './farms.js';

const missing = farmsMissing().grid;
if (missing) announceSkip('Selenium Grid farm tests (test/integration/farm-grid.test.ts)', missing);

/** Idle timeout of the standalone Grid: short, so a reap happens within the test (its reaper runs every 30 s). */
const STANDALONE_IDLE_S = 15;
const CAPS = { 'goog:chromeOptions': { args: ['--headless=new', '--no-sandbox', '--disable-gpu'] } };

let h: Harness;
let standalone: Farm;
let hub: Farm;

const cdpOf = (grid: Farm, session: string) => rawCdp(`${grid.url.replace('http', 'ws')}/session/${session}/se/cdp`);
const registry = () => JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));

async function openOn(grid: Farm, url: string, extra: object = { capabilities: CAPS }) {
  const r = await h.cli({ timeout: 75_000, steps: [{ openTab: { url, grid: grid.url, ...extra } }] });
  expect(r.out.status, r.stdout).toBe('ok');
  return { tab: r.out.tab as string, session: r.out.steps[0].output.session as string };
}

/** The Grid's own list, until it has no session (a loaded Grid takes a while to stop a Chrome). */
async function untilGridEmpty(grid: Farm): Promise<void> {
  const endsAt = Date.now() + 60_000;
  while ((await gridSessionIds(grid.url)).length && Date.now() < endsAt) await new Promise((r) => setTimeout(r, 500));
  expect(await gridSessionIds(grid.url)).toEqual([]);
}

describe.skipIf(missing)('Selenium Grid farms', () => {
  beforeAll(async () => {
    h = await startHarness({ launch: false });
    [standalone, hub] = await Promise.all([startStandaloneGrid(STANDALONE_IDLE_S, h.tmp), startHubAndNode(300, h.tmp)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([standalone?.stop(), hub?.stop()]);
    await h?.close();
  }, 60_000);

  it('runs the Grid examples of EXAMPLES.md, and the Grid lists no session after them', async () => {
    const grid = examples('grid');
    expect(grid.length).toBeGreaterThanOrEqual(2);
    for (const ex of grid) {
      const command = ex.command.replaceAll('http://hub:4444', hub.url).replaceAll('http://localhost:8080', h.baseUrl);
      const r = await h.cli(command);
      expect(r.out.status, `${ex.command}\n→ ${r.stdout}`).toBe(ex.expectError ? 'error' : 'ok');
    }
    await untilGridEmpty(hub);
  });

  it('opens, acts and closes through a standalone Grid: the Grid lists the session made, then deleted', async () => {
    const url = `${h.baseUrl}/basic.html?grid=standalone`;
    const { tab, session } = await openOn(standalone, url);
    expect(await gridSessionIds(standalone.url)).toContain(session);
    expect(registry().tabs[tab]).toMatchObject({ grid: { sessionId: session, created: true } });
    const cdp = await cdpOf(standalone, session);
    try {
      expect(await pageUrls(cdp)).toContain(url);
      // The Grid's Chrome was started without the WebUI pages each window would carry (a core busy).
      const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
      expect(targetInfos.filter((t: { type: string }) => t.type === 'browser_ui')).toEqual([]);
      const r = await h.cli({ tab, steps: [{ click: '#reveal' }, { fill: { selector: '#name', value: 'grid' } }] });
      expect(r.out.status, r.stdout).toBe('ok');
      expect(await cdp.valueIn(url, 'window.__events')).toContain('click:reveal');
      expect(await cdp.valueIn(url, "document.querySelector('#name').value")).toBe('grid');
    } finally {
      cdp.close();
    }
    const closed = await h.cli({ steps: [{ closeTab: tab }] });
    expect(closed.out.steps[0].output).toEqual({ closed: tab, gridSession: 'deleted' });
    // The Grid frees the slot by an event after DELETE answers: its /status catches up (under load, seconds).
    await untilGridEmpty(standalone);
  });

  it('reaches a hub-and-node session through the hub, though the Grid reports se:cdp elsewhere', async () => {
    const url = `${h.baseUrl}/page2.html?grid=hub`;
    const { tab, session } = await openOn(hub, url);
    // The Grid's own answer names an address of its own (not this hub's host:port); we went through the hub.
    const created = await fetch(`${hub.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ capabilities: { alwaysMatch: { browserName: 'chrome', ...CAPS } } }),
    }).then((res) => res.json());
    const reported = new URL(created.value.capabilities['se:cdp']);
    await fetch(`${hub.url}/session/${created.value.sessionId}`, { method: 'DELETE' });
    expect(reported.host).not.toBe(new URL(hub.url).host);
    expect(new URL(registry().tabs[tab].wsEndpoint).host).toBe(new URL(hub.url).host);

    const status = await h.cli({ steps: [{ chromeStatus: { grid: hub.url } }] });
    const out = status.out.steps[0].output;
    expect(out).toMatchObject({ running: true, version: expect.stringMatching(/^Selenium Grid 4\./) });
    expect(out.grid.sessions).toBe((await gridSessionIds(hub.url)).length);
    expect(out.tabs.find((t: { tab?: string }) => t.tab === tab)).toMatchObject({ url, session });
    const listed = await h.cli({ steps: [{ listTabs: { grid: hub.url } }] });
    const cdp = await cdpOf(hub, session);
    try {
      const own = (await pageUrls(cdp)).sort();
      expect(listed.out.steps[0].output.tabs.map((t: { url: string }) => t.url).sort()).toEqual(own);
    } finally {
      cdp.close();
    }
    expect((await h.cli({ steps: [{ closeTab: tab }] })).out.steps[0].output.gridSession).toBe('deleted');
    await untilGridEmpty(hub); // the hub frees the slot by an event after DELETE answers
  });

  it("answers CONNECTION with the Grid's reason when it cannot create the session", async () => {
    const before = await gridSessionIds(hub.url);
    const r = await h.cli({
      steps: [
        {
          openTab: {
            url: `${h.baseUrl}/basic.html`,
            grid: hub.url,
            capabilities: { 'goog:chromeOptions': { args: '--bad' } },
          },
        },
      ],
    });
    expect(r.out.error.type).toBe('CONNECTION');
    expect(r.out.error.message).toMatch(/did not create a session \(session not created: .*invalid argument/);
    expect(await gridSessionIds(hub.url)).toEqual(before);
  });

  it('keeps a session alive while calls come, and tells a reaped one as such', async () => {
    const kept = await openOn(standalone, `${h.baseUrl}/basic.html?grid=kept`);
    const idle = await openOn(standalone, `${h.baseUrl}/basic.html?grid=idle`);
    // The idle session is reaped at the Grid's next sweep after 15 s without a command; the other
    // gets cdp-skill calls one after another (CDP through se:cdp only, no WebDriver command).
    const endsAt = Date.now() + 90_000;
    while ((await gridSessionIds(standalone.url)).includes(idle.session) && Date.now() < endsAt) {
      const r = await h.cli({ tab: kept.tab, steps: [{ pageFunction: 'location.search' }] });
      expect(r.out.status, r.stdout).toBe('ok');
    }
    const live = await gridSessionIds(standalone.url);
    expect(live).not.toContain(idle.session);
    expect(live).toContain(kept.session);

    const r = await h.cli({ tab: idle.tab, steps: [{ pageFunction: '1' }] });
    expect(r.code).toBe(1);
    expect(r.out.error.type).toBe('CONNECTION');
    expect(r.out.error.message).toContain(`session ${idle.session} is gone`);
    expect(r.out.error.message).toContain('timed out due to inactivity');
    expect(r.out.error.message).toContain('--session-timeout');
    expect(registry().tabs[idle.tab]).toBeUndefined();
    expect((await h.cli({ steps: [{ closeTab: kept.tab }] })).out.steps[0].output.gridSession).toBe('deleted');
    expect(await gridSessionIds(standalone.url)).not.toContain(kept.session);
  }, 180_000);

  it('serves four agents at once, one session each', async () => {
    const agents = [1, 2, 3, 4].map(async (i) => {
      const url = `${h.baseUrl}/basic.html?agent=${i}`;
      const { tab, session } = await openOn(hub, url);
      const r = await h.cli({ tab, steps: [{ fill: { selector: '#name', value: `agent ${i}` } }] });
      expect(r.out.status, r.stdout).toBe('ok');
      const cdp = await cdpOf(hub, session);
      try {
        expect(await cdp.valueIn(url, "document.querySelector('#name').value")).toBe(`agent ${i}`);
      } finally {
        cdp.close();
      }
      return { tab, session };
    });
    const opened = await Promise.all(agents);
    expect(new Set(opened.map((o) => o.session)).size).toBe(4);
    expect(await gridSessionIds(hub.url)).toEqual(expect.arrayContaining(opened.map((o) => o.session)));
    const closed = await Promise.all(opened.map((o) => h.cli({ steps: [{ closeTab: o.tab }] })));
    for (const c of closed) expect(c.out.status, c.stdout).toBe('ok');
    await untilGridEmpty(hub);
  }, 240_000);

  it('serves four agents sharing one session, each in its own tab, and deletes it with the last tab', async () => {
    const first = await openOn(hub, `${h.baseUrl}/page2.html?shared=0`);
    const urls = [1, 2, 3, 4].map((i) => `${h.baseUrl}/basic.html?shared=${i}`);
    const tabs = await Promise.all(
      urls.map(async (url, i) => {
        const { tab, session } = await openOn(hub, url, { session: first.session });
        expect(session).toBe(first.session);
        const r = await h.cli({ tab, steps: [{ fill: { selector: '#name', value: `shared ${i + 1}` } }] });
        expect(r.out.status, r.stdout).toBe('ok');
        return tab;
      }),
    );
    expect(await gridSessionIds(hub.url)).toEqual([first.session]);
    const cdp = await cdpOf(hub, first.session);
    try {
      expect(await pageUrls(cdp)).toEqual(expect.arrayContaining(urls));
      for (const [i, url] of urls.entries())
        expect(await cdp.valueIn(url, "document.querySelector('#name').value")).toBe(`shared ${i + 1}`);
    } finally {
      cdp.close();
    }
    const closed = await Promise.all([first.tab, ...tabs].map((tab) => h.cli({ steps: [{ closeTab: tab }] })));
    for (const c of closed) expect(c.out.status, c.stdout).toBe('ok');
    // One close, the last, ends the session (a loaded Grid may not confirm it in time: then it says so).
    const ending = closed.filter((c) => c.out.steps[0].output.gridSession === 'deleted' || c.out.steps[0].warning);
    expect(ending.length).toBeGreaterThanOrEqual(1);
    await untilGridEmpty(hub);
  }, 240_000);
});
