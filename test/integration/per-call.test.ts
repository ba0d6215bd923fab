// Per-call overhead (issue 15 figures): a command's before-look goes to the isolated world the last
// command saw, in the same batch as the domain enables. These tests check it never looks at the
// wrong document: the world is remembered with the document it belongs to (oracle: Chrome's own
// frame tree, read over the test's own socket), and a document replaced between commands — by the
// page, not by us — still gets a true diff of what the step did (oracle: the field's value in Chrome).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('effects.html');
});
afterAll(async () => {
  await h?.close();
});

const entry = (): any => JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8')).tabs[tab];

/** One CDP command on the tab, over the test's own socket (the oracle; never our output). */
function cdp(method: string, params: Record<string, unknown> = {}): Promise<any> {
  const { port, targetId } = entry();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/devtools/page/${targetId}`);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method, params })));
    ws.on('message', (m) => {
      const msg = JSON.parse(String(m));
      if (msg.id !== 1) return;
      ws.close();
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve(msg.result);
    });
    ws.on('error', reject);
  });
}

const evaluate = async (expression: string): Promise<unknown> =>
  (await cdp('Runtime.evaluate', { expression, returnByValue: true })).result.value;

const loaderId = async (): Promise<string> => (await cdp('Page.getFrameTree')).frameTree.frame.loaderId;

describe('the before-look goes to the world the last command saw', () => {
  it('remembers that world with the document it belongs to', async () => {
    const r = await h.cli({ tab, steps: [{ pageFunction: '() => document.title' }] });
    expect(r.out.status).toBe('ok');
    expect(entry().world).toMatchObject({ uniqueId: expect.any(String), loaderId: await loaderId() });
    // The next visual command diffs against a before-look taken in this document.
    const before = (await evaluate('document.querySelectorAll("p").length')) as number;
    const click = await h.cli({ tab, steps: [{ click: '#add' }] });
    expect(click.out.status).toBe('ok');
    expect(await evaluate('document.querySelectorAll("p").length')).toBe(before + 1);
    expect(click.out.changes.summary).not.toBe('Nothing changed on the page.');
  });

  it('a document the page replaced between commands gets its own before-look and a true diff', async () => {
    const old = entry().world;
    expect(old).toBeTruthy();
    // The page navigates by itself (here: Chrome told over the test's socket), after our last command.
    await cdp('Page.navigate', { url: `${h.baseUrl}/effects.html?replaced` });
    const deadline = Date.now() + 10_000;
    while ((await evaluate('location.search + document.readyState')) !== '?replacedcomplete') {
      if (Date.now() > deadline) throw new Error('the page did not load');
      await new Promise((r) => setTimeout(r, 50));
    }
    const now = await loaderId();
    expect(now).not.toBe(old.loaderId);
    const r = await h.cli({ tab, steps: [{ fill: { selector: '#field', value: 'xyz' } }] });
    expect(r.out.status).toBe('ok');
    expect(await evaluate('document.getElementById("field").value')).toBe('xyz');
    // The diff names the fill: the before-look saw the new document's empty field.
    expect(r.out.changes.changed).toEqual(expect.arrayContaining([expect.objectContaining({ to: 'xyz' })]));
    expect(r.out.navigated).toBeUndefined();
    expect(entry().world).toMatchObject({ loaderId: now });
    expect(entry().world.uniqueId).not.toBe(old.uniqueId);
  });
});
