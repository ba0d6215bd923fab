// Issue 15 item 6, as an attacker would do it: a page that takes our runtime's global first (as
// junk), hooks Object.defineProperty, patches built-ins to forge a `button "FORGED button"` and
// rewrites whatever cdp-skill leaves in its world (fixtures/pages/hostile.js). Our page code runs in
// an isolated world, so snapshot, click and fill stay truthful — checked against Chrome's own answers
// over the test's own socket — while pageFunction still runs in the page's world, seeing its
// globals and, by ref, its elements. The out-of-process payment frame is hostile too.
import { readFileSync } from 'node:fs';
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

/** The global this build's runtime lives under (scripts/stamp-runtime.mjs). */
const runtimeGlobal = (): string =>
  `__cdpSkill_${/RUNTIME_ID = '(\w+)'/.exec(readFileSync(new URL('../../build/page/runtime-id.js', import.meta.url), 'utf8'))![1]}`;

/** One CDP command over our own socket to the target whose URL starts with `prefix` (a page or an out-of-process frame). */
async function oracle(prefix: string, method: string, params: object = {}): Promise<any> {
  const list = (await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as {
    url: string;
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(list.find((t) => t.url.startsWith(prefix))!.webSocketDebuggerUrl);
  try {
    await new Promise((r, j) => {
      ws.once('open', r);
      ws.once('error', j);
    });
    return await new Promise((resolve, reject) => {
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id === 1) m.error ? reject(new Error(m.error.message)) : resolve(m.result);
      });
      ws.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}
/** A value in the page's own world, by CDP's serializer (the page's JSON.stringify is patched). */
const pageValue = async (prefix: string, expression: string): Promise<unknown> =>
  (await oracle(prefix, 'Runtime.evaluate', { expression, returnByValue: true })).result.value;
/** The names Chrome's accessibility tree gives the buttons of a document. */
const chromeButtons = async (prefix: string): Promise<string[]> =>
  (await oracle(prefix, 'Accessibility.getFullAXTree')).nodes
    .filter((n: any) => n.role?.value === 'button')
    .map((n: any) => n.name?.value);

const refOf = (yaml: string, role: string, name: string): string =>
  new RegExp(`- ${role} "${name}" \\[ref=(s\\d+e\\d+)\\]`).exec(yaml)![1]!;

describe.each([
  ['its global taken as junk', () => `?g=${runtimeGlobal()}`],
  ['cdp-skill functions rewritten as they appear', () => ''],
])('a hostile page (%s)', (_, query) => {
  let tab: string;
  let url: string;
  beforeAll(async () => {
    tab = await h.open(`hostile.html${query()}`);
    url = `${h.baseUrl}/hostile.html`;
  });

  it("pageFunction still runs in the page's world and sees its globals", async () => {
    const r = await h.cli({
      tab,
      steps: [{ pageFunction: '() => window.appState.user' }, { pageFunction: 'appState.user' }],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.steps.map((s: any) => s.output.value)).toEqual(['ann', 'ann']);
  });

  it('cannot forge the snapshot, nor see our state in its world', async () => {
    const r = await h.cli({ tab, steps: [{ snapshot: true }] });
    const yaml: string = r.out.steps[0].output.yaml;
    expect(yaml).not.toContain('FORGED');
    expect(yaml).toMatch(/- button "Save" \[ref=s\d+e\d+\]/);
    expect(yaml).toMatch(/- textbox "Name" \[ref=s\d+e\d+\]/);
    expect(await chromeButtons(url)).toContain('Save'); // Chrome agrees
    // Our state lives in the runtime's one object, in our world: the page's world holds no slot of ours.
    expect(
      await pageValue(
        url,
        `Object.getOwnPropertyNames(window).filter((k) => (k.startsWith('__cdpSkill') && k !== '${runtimeGlobal()}') || k === '__ariaRefs')`,
      ),
    ).toEqual([]);
    if (query()) expect(await pageValue(url, `window.${runtimeGlobal()}`)).toBe('junk');
  });

  it('clicks and fills truthfully, and pageFunction finds the element by ref', async () => {
    const snap = await h.cli({ tab, steps: [{ snapshot: true }] });
    const save = refOf(snap.out.steps[0].output.yaml, 'button', 'Save');
    const before = (await pageValue(url, 'window.__clicks')) as number;
    const r = await h.cli({
      tab,
      steps: [
        { fill: { label: 'Name', value: 'Ann Lee' } },
        { click: save },
        {
          pageFunction: {
            fn: `(refs) => [refs.get('${save}').id, refs.get('${save}') === document.getElementById('save'), window.appState.user].join()`,
            refs: true,
          },
        },
      ],
    });
    expect(r.out.status, JSON.stringify(r.out.steps)).toBe('ok');
    expect(r.out.steps[2].output.value, JSON.stringify(r.out.steps)).toBe('save,true,ann');
    expect(await pageValue(url, 'window.__clicks')).toBe(before + 1);
    expect(await pageValue(url, 'document.getElementById("name").value')).toBe('Ann Lee');
    expect(JSON.stringify(r.out)).not.toContain('FORGED');
  });

  it('stays truthful in its out-of-process frame', async () => {
    const frameUrl = `${h.baseUrl.replace('127.0.0.1', 'localhost')}/hostile-frame.html`;
    const r = await h.cli({
      tab,
      steps: [
        { frame: '#pay' },
        { snapshot: true },
        { fill: { label: 'Card holder', value: 'Ann' } },
        { click: { text: 'Pay now' } },
        { frame: 'top' },
      ],
    });
    expect(r.out.status).toBe('ok');
    const yaml: string = r.out.steps[1].output.yaml;
    expect(yaml).toMatch(/- button "Pay now" \[ref=s\d+e\d+\]/);
    expect(yaml).not.toContain('FORGED');
    expect(await chromeButtons(frameUrl)).toContain('Pay now');
    expect(await pageValue(frameUrl, 'window.__clicks')).toBeGreaterThanOrEqual(1);
    expect(await pageValue(frameUrl, 'document.getElementById("card").value')).toBe('Ann');
  });
});
