// Interaction answers include their effect (issue 14 item 11): keys typed into a same-origin
// iframe's editor answer with `changes`, and `scroll to bottom` of an infinite feed says whether more
// posts loaded or the end was reached. The truth is read by this test over its own CDP socket
// (Runtime.evaluate in the page's main world), never from our answer.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Evaluates `expression` in the page at `url` over a socket of the test's own. */
async function pageEval(url: string, expression: string): Promise<unknown> {
  const list = (await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as {
    url: string;
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(list.find((t) => t.url === url)!.webSocketDebuggerUrl);
  await new Promise((r) => ws.on('open', r));
  try {
    const reply = await new Promise<any>((resolve) => {
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id === 1) resolve(m.result);
      });
      ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } }));
    });
    return reply.result.value;
  } finally {
    ws.close();
  }
}

describe('changes for keys in a framed editor', () => {
  it('a frame step, a click and typing in the iframe answer with the editor change', async () => {
    const tab = await h.open('feed.html');
    const url = `${h.baseUrl}/feed.html`;
    const r = await h.cli({
      tab,
      steps: [{ frame: { selector: '#editor-frame' } }, { click: '#ed' }, { press: 'End' }, { type: ' world' }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.changes?.summary, r.stdout).toMatch(/Hello world/);
    const text = await pageEval(
      url,
      'document.getElementById("editor-frame").contentDocument.getElementById("ed").textContent',
    );
    expect(text).toBe('Hello world');
    const p = await h.cli({ tab, steps: [{ press: 'Backspace' }] });
    expect(p.out.changes?.summary, p.stdout).toMatch(/Hello worl\b/);
    expect(
      await pageEval(url, 'document.getElementById("editor-frame").contentDocument.getElementById("ed").textContent'),
    ).toBe('Hello worl');
  });
});

describe('scroll to the bottom of an infinite feed', () => {
  it('says how many posts loaded each time, then that the end was reached', async () => {
    const tab = await h.open('feed.html');
    const url = `${h.baseUrl}/feed.html`;
    const count = () => pageEval(url, 'document.querySelectorAll("#feed .post").length');
    expect(await count()).toBe(20);
    const first = await h.cli({ tab, steps: [{ scroll: { to: 'bottom' } }] });
    expect(first.out.steps[0].output, first.stdout).toMatchObject({ loaded: 20 });
    expect(await count()).toBe(40);
    const second = await h.cli({ tab, steps: [{ scroll: 'bottom' }] });
    expect(second.out.steps[0].output).toMatchObject({ loaded: 20 });
    expect(await count()).toBe(60);
    // The feed has no more: it shows its end marker (content grew, no post), then nothing at all.
    const third = await h.cli({ tab, steps: [{ scroll: 'bottom' }] });
    expect(third.out.steps[0].output.loaded ?? 0).toBe(0);
    const last = await h.cli({ tab, steps: [{ scroll: 'bottom' }] });
    expect(last.out.steps[0].output).toMatchObject({ end: true });
    expect(last.out.steps[0].output.loaded).toBeUndefined();
    expect(await count()).toBe(60);
    expect(await pageEval(url, 'document.getElementById("end").hidden')).toBe(false);
  });

  it('waits for a loader the page put behind a timer longer than the quiet window (a slow fetch on a loaded machine)', async () => {
    // 900 ms: more than the 400 ms the bottom is watched when no request is under way.
    const tab = await h.open('feed.html?delayMs=900');
    const url = `${h.baseUrl}/feed.html?delayMs=900`;
    const r = await h.cli({ tab, steps: [{ scroll: 'bottom' }] });
    expect(r.out.steps[0].output, r.stdout).toMatchObject({ loaded: 20 });
    expect(await pageEval(url, 'document.querySelectorAll("#feed .post").length')).toBe(40);
  });
});
