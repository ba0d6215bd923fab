// Out-of-process (cross-origin) frames in the snapshot (issue 13, "snapshots that show the
// choices"): the frame's content shows under its frame line, in the viewport snapshot after a
// command and in the snapshot step, with frame refs (f1s1e6) that act in the frame without a
// `frame` step. Oracles, read over the test's own CDP socket: Chrome's accessibility tree of the
// frame's own target, and the frame's and the host page's own state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

type Target = { url: string; type: string; webSocketDebuggerUrl: string };

async function targets(): Promise<Target[]> {
  return (await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as Target[];
}

/** One CDP command on a target picked by its URL, over our own socket. */
async function cdpOn(pick: (t: Target) => boolean, method: string, params: object = {}): Promise<any> {
  const target = (await targets()).find(pick);
  if (!target) throw new Error('no such target');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r) => ws.on('open', r));
  try {
    return await new Promise((resolve, reject) => {
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id !== 1) return;
        if (m.error) reject(new Error(JSON.stringify(m.error)));
        else resolve(m.result);
      });
      ws.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

/** Commands in turn on one socket; a command's `[, , key]` takes the previous answer's `key` as its contextId. */
async function cdpOnMany(pick: (t: Target) => boolean, calls: [string, object, string?][]): Promise<any> {
  const target = (await targets()).find(pick);
  if (!target) throw new Error('no such target');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r) => ws.on('open', r));
  const send = (id: number, method: string, params: object): Promise<any> =>
    new Promise((resolve, reject) => {
      const on = (d: WebSocket.RawData) => {
        const m = JSON.parse(d.toString());
        if (m.id !== id) return;
        ws.off('message', on);
        if (m.error) reject(new Error(JSON.stringify(m.error)));
        else resolve(m.result);
      };
      ws.on('message', on);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    let last: any;
    for (const [i, [method, params, key]] of calls.entries())
      last = await send(i + 1, method, key ? { ...params, contextId: last[key] } : params);
    return last;
  } finally {
    ws.close();
  }
}

const frameIs = (part: string) => (t: Target) => t.type === 'iframe' && t.url.includes(part);
const pageIs = (part: string) => (t: Target) => t.type === 'page' && t.url.includes(part);
const valueIn = async (pick: (t: Target) => boolean, expression: string): Promise<any> =>
  (await cdpOn(pick, 'Runtime.evaluate', { expression, returnByValue: true })).result.value;

/** The lines under `- iframe "title":` (deeper indented than it). */
function frameSection(yaml: string, title: string): string[] {
  const lines = yaml.split('\n');
  const at = lines.findIndex((l) => l.trimStart().startsWith(`- iframe "${title}"`));
  if (at < 0) return [];
  const indent = lines[at]!.length - lines[at]!.trimStart().length;
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.length - l.trimStart().length <= indent) break;
    out.push(l);
  }
  return out;
}

const refLines = (lines: string[]) =>
  lines
    .map((l) => /- (\w+)(?: "((?:[^"\\]|\\.)*)")?.*\[ref=(f\d+s\d+e\d+)\]/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ role: m[1]!, name: m[2] ?? '', ref: m[3]! }));

/** Chrome's own interactive nodes of the frame (role, name), from the frame's target. */
async function chromeControls(pick: (t: Target) => boolean): Promise<{ role: string; name: string }[]> {
  const { nodes } = await cdpOn(pick, 'Accessibility.getFullAXTree');
  return (nodes as any[])
    .filter((n) => !n.ignored && ['button', 'textbox', 'checkbox'].includes(n.role?.value))
    .map((n) => ({ role: n.role.value as string, name: (n.name?.value as string) ?? '' }));
}

describe('cross-origin frames in the snapshot', () => {
  it("shows the frame's controls under its frame, as Chrome's tree of that frame has them", async () => {
    const tab = await h.open('xframes.html');
    const r = await h.cli({ tab, steps: [{ snapshot: {} }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const yaml: string = r.out.steps[0].output.yaml;
    const title = await valueIn(pageIs('xframes.html'), 'document.getElementById("pay").title');
    const ours = refLines(frameSection(yaml, title));
    const chrome = await chromeControls(frameIs('xframe-pay.html'));
    expect(chrome.length).toBe(3);
    expect(ours.map(({ role, name }) => ({ role, name })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      chrome.sort((a, b) => a.name.localeCompare(b.name)),
    );
    // One frame prefix for the frame; the host's own refs stay plain.
    expect(new Set(ours.map((o) => o.ref.replace(/s.*/, ''))).size).toBe(1);
    expect(yaml).toMatch(/button "Top button" \[ref=s\d+e\d+\]/);
    // The <iframe> is marked with its frame's id in our isolated world only: the page's own world
    // sees nothing (Chrome hands back our world by its name; the frame's id is Chrome's own).
    const host = pageIs('xframes.html');
    const payId = (await targets()).find(frameIs('xframe-pay.html'))! as Target & { id: string };
    expect(await valueIn(host, 'document.getElementById("pay").__cdpSkillFrameId')).toBeUndefined();
    const { frameTree } = await cdpOn(host, 'Page.getFrameTree');
    const tag = await cdpOnMany(host, [
      ['Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'cdp-skill' }],
      [
        'Runtime.evaluate',
        { expression: 'document.getElementById("pay").__cdpSkillFrameId', returnByValue: true },
        'executionContextId',
      ],
    ]);
    expect(tag.result.value).toBe(payId.id);
  });

  it('acts by frame refs in later calls: the frame changes, the host page does not', async () => {
    // The first answer carries the frame's content in its viewport snapshot.
    const opened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/xframes.html?act`, port: h.port } }] });
    expect(opened.out.status, opened.stdout).toBe('ok');
    const tab: string = opened.out.tab;
    const view: string = opened.out.viewportSnapshot;
    const ours = refLines(frameSection(view, 'Payment'));
    const ref = (name: string) => ours.find((o) => o.name === name)!.ref;
    const pay = frameIs('xframe-pay.html');
    const host = pageIs('xframes.html?act');
    const filled = await h.cli({ tab, steps: [{ fill: { ref: ref('Card number'), value: '4242 4242' } }] });
    expect(filled.out.status, filled.stdout).toBe('ok');
    expect(await valueIn(pay, 'document.getElementById("number").value')).toBe('4242 4242');
    const checked = await h.cli({ tab, steps: [{ click: ref('Save card') }] });
    expect(checked.out.status, checked.stdout).toBe('ok');
    expect(await valueIn(pay, 'document.getElementById("save").checked')).toBe(true);
    const paid = await h.cli({ tab, steps: [{ click: ref('Pay now') }] });
    expect(paid.out.status, paid.stdout).toBe('ok');
    expect(await valueIn(pay, 'window.__pay')).toEqual({ trusted: 1, untrusted: 0 });
    expect(await valueIn(pay, 'window.__events')).toEqual(['paid:4242 4242']);
    // The diff tells it under the frame; steps still run at the top afterwards.
    expect(JSON.stringify(paid.out.changes)).toContain("in frame 'payment'");
    expect(await valueIn(host, 'window.__hostInput')).toEqual([]);
    expect(await valueIn(host, 'window.__events')).toEqual([]);
    const top = await h.cli({ tab, steps: [{ click: '#top-button' }] });
    expect(top.out.status, top.stdout).toBe('ok');
    expect(await valueIn(host, 'window.__events')).toEqual(['top']);
    // Hover by a frame ref reaches the frame's own element.
    await valueIn(
      pay,
      'window.__over = []; document.getElementById("pay-button").addEventListener("mouseover", (e) => __over.push(e.isTrusted)); 1',
    );
    const hovered = await h.cli({ tab, steps: [{ hover: ref('Pay now') }] });
    expect(hovered.out.status, hovered.stdout).toBe('ok');
    expect(await valueIn(pay, 'window.__over')).toContain(true);
    // An element the frame removed: the error names the ref as the agent gave it.
    await valueIn(pay, 'document.getElementById("save").closest("label").remove(); 1');
    const gone = await h.cli({ tab, steps: [{ click: { ref: ref('Save card'), timeout: 500 } }] });
    expect(gone.out.status).toBe('error');
    expect(gone.out.steps[0].error).toContain(ref('Save card'));
    expect(gone.out.steps[0].error).not.toContain('goes back to the page');
    // A frame ref the tab never handed out is stale, not a guess.
    const unknown = await h.cli({ tab, steps: [{ click: 'f9s1e1' }] });
    expect(unknown.out.status).toBe('error');
    expect(unknown.stdout).toMatch(/no longer knows|take a new snapshot/);
  });

  it('fills at most 5 frames, counts the rest, and skips a zero-size frame', async () => {
    const opened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/xframes-many.html`, port: h.port } }] });
    expect(opened.out.status, opened.stdout).toBe('ok');
    const tab: string = opened.out.tab;
    // The first answer's view holds the frames' lines within the inline budget (~4 KB).
    expect(refLines(frameSection(opened.out.viewportSnapshot, 'Ad 1')).length).toBe(3);
    expect(Buffer.byteLength(opened.out.viewportSnapshot)).toBeLessThanOrEqual(4_096);
    const r = await h.cli({ tab, steps: [{ snapshot: {} }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const yaml: string = r.out.steps[0].output.yaml;
    // Chrome runs all eight out of process, the zero-size one included.
    expect((await targets()).filter((t) => t.type === 'iframe' && t.url.includes('xframe-pay.html?n=')).length).toBe(8);
    const shown = [1, 2, 3, 4, 5, 6, 7].filter((n) => refLines(frameSection(yaml, `Ad ${n}`)).length === 3);
    expect(shown.length).toBe(5);
    expect(yaml).toContain('(2 more cross-origin frames not shown)');
    expect(frameSection(yaml, 'Tracker')).toEqual([]);
    // Each frame has its own prefix, and a ref acts in its own frame only.
    const n = shown[2]!;
    const save = refLines(frameSection(yaml, `Ad ${n}`)).find((o) => o.name === 'Save card')!.ref;
    const click = await h.cli({ tab, steps: [{ click: save }] });
    expect(click.out.status, click.stdout).toBe('ok');
    for (let i = 1; i <= 7; i++)
      expect(await valueIn(frameIs(`xframe-pay.html?n=${i}`), 'document.getElementById("save").checked')).toBe(i === n);
    expect(await valueIn(pageIs('xframes-many.html'), 'window.__hostInput')).toEqual([]);
  });

  it('shows and acts in a sandboxed frame of the same URL origin (opaque: the host cannot read it)', async () => {
    const tab = await h.open('xframes-sandbox.html');
    const r = await h.cli({ tab, steps: [{ snapshot: {} }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const ours = refLines(frameSection(r.out.steps[0].output.yaml, 'Sandboxed'));
    const box = (t: Target) => t.type === 'iframe' && t.url.endsWith('/xframe-pay.html');
    expect(ours.map(({ role, name }) => ({ role, name })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      (await chromeControls(box)).sort((a, b) => a.name.localeCompare(b.name)),
    );
    const click = await h.cli({ tab, steps: [{ click: ours.find((o) => o.name === 'Save card')!.ref }] });
    expect(click.out.status, click.stdout).toBe('ok');
    expect(await valueIn(box, 'document.getElementById("save").checked')).toBe(true);
  });

  it('a page without frames makes no frame calls: no frame book in the tab', async () => {
    const tab = await h.open('actions.html');
    const r = await h.cli({ tab, steps: [{ snapshot: {} }, { click: '#save' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const entry = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8')).tabs[tab];
    expect(entry.frameRefs).toBeUndefined();
    expect(r.out.steps[0].output.yaml).not.toMatch(/ref=f\d/);
  });
});
