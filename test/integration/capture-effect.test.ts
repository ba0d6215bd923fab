// Capture by effect (issue 13): a command whose steps changed nothing on the page answers like a
// read-only one — context, no screenshot, no snapshot file, no diff — and any effect (a mutation,
// input, a scroll, a hover style, a drawing on a canvas, typing in a frame) brings the capture back.
// The pointer entering an element that no :hover rule styles is looked at, but not pictured.
// The oracle for "no screenshot" is the screenshot file itself: not written again.
import { statSync } from 'node:fs';
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

const shotTime = (path: string): number => statSync(path).mtimeMs;

describe('capture by effect', () => {
  it('a pageFunction that only reads pays no screenshot, snapshot or diff', async () => {
    const first = await h.cli({ tab, steps: [{ pageFunction: 'document.getElementById("add").click()' }] });
    expect(first.out.screenshot).toBeTruthy();
    const before = shotTime(first.out.screenshot);
    const r = await h.cli({ tab, steps: [{ pageFunction: '() => document.querySelectorAll("p").length' }] });
    expect(r.out.steps[0].output).toEqual({
      type: 'number',
      value: await h.value(tab, 'document.querySelectorAll("p").length'),
    });
    // The context is the one the previous answer gave: not sent again.
    expect(r.out.context).toBeUndefined();
    expect(r.out.changes).toEqual({ summary: 'Nothing changed on the page.' });
    for (const field of ['screenshot', 'fullSnapshot', 'viewportSnapshot', 'navigated'])
      expect(r.out[field], field).toBeUndefined();
    expect(shotTime(first.out.screenshot)).toBe(before);
  });

  it('a click that changes nothing, a wait and a key nobody handles answer with context only', async () => {
    // The first click moves the pointer onto the button; no :hover rule styles it (its own computed
    // style, read over the test's socket, is the same under the pointer): no visible change, no screenshot.
    const style = 'JSON.stringify(getComputedStyle(document.getElementById("inert")))';
    const unhovered = await h.value(tab, style);
    const first = await h.cli({ tab, steps: [{ click: '#inert' }] });
    expect(await h.value(tab, 'document.querySelector("#inert:hover") !== null')).toBe(true);
    expect(await h.value(tab, style)).toBe(unhovered);
    expect(first.out.changes).toEqual({ summary: 'No visible change.' });
    expect(first.out.screenshot).toBeUndefined();
    expect(first.out.context.activeElement).toMatchObject({ tag: 'button', selector: '#inert' });
    const r = await h.cli({ tab, steps: [{ click: '#inert' }, { wait: 50 }, { press: 'Shift' }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.screenshot).toBeUndefined();
    expect(r.out.changes).toEqual({ summary: 'Nothing changed on the page.' });
    expect(await h.value(tab, 'document.activeElement.id')).toBe('inert');
    expect(r.out.context).toBeUndefined(); // focus still on #inert, as the previous answer said
  });

  it('a DOM change brings the whole capture back', async () => {
    const n = await h.value(tab, 'document.querySelectorAll("p").length');
    const r = await h.cli({ tab, steps: [{ click: '#add' }] });
    expect(await h.value(tab, 'document.querySelectorAll("p").length')).toBe(n + 1);
    expect(r.out.screenshot).toBeTruthy();
    expect(r.out.fullSnapshot).toBeTruthy();
    expect(r.out.changes.summary).not.toBe('Nothing changed on the page.');
  });

  it('typing (a value change without a mutation) counts', async () => {
    const r = await h.cli({ tab, steps: [{ fill: { selector: '#field', value: 'abc' } }] });
    expect(await h.value(tab, 'document.getElementById("field").value')).toBe('abc');
    expect(r.out.screenshot).toBeTruthy();
  });

  it('a scroll of the page or of a container counts; a scroll that cannot move does not', async () => {
    const page = await h.cli({ tab, steps: [{ scroll: { deltaY: 300 } }] });
    expect(await h.value(tab, 'window.scrollY')).toBeGreaterThan(0);
    expect(page.out.screenshot).toBeTruthy();
    const inner = await h.cli({ tab, steps: [{ pageFunction: 'document.getElementById("box").scrollTop = 100' }] });
    expect(await h.value(tab, 'document.getElementById("box").scrollTop')).toBe(100);
    expect(inner.out.screenshot).toBeTruthy();
    await h.cli({ tab, steps: [{ scroll: 'top' }] });
    const stuck = await h.cli({ tab, steps: [{ scroll: 'top' }] });
    expect(stuck.out.screenshot).toBeUndefined();
  });

  it('a hover that only changes a CSS :hover style counts, on entering and on leaving', async () => {
    const background = 'getComputedStyle(document.getElementById("hov")).backgroundColor';
    await h.cli({ tab, steps: [{ hover: '#inert' }] });
    const r = await h.cli({ tab, steps: [{ hover: '#hov' }] });
    expect(await h.value(tab, background)).toBe('rgb(204, 0, 0)');
    expect(r.out.screenshot).toBeTruthy();
    // Leaving it restyles it back: that counts too.
    const left = await h.cli({ tab, steps: [{ hover: '#inert' }] });
    expect(await h.value(tab, background)).toBe('rgb(238, 238, 238)');
    expect(left.out.screenshot).toBeTruthy();
    // A tip drawn by :hover::after.
    const tip = await h.cli({ tab, steps: [{ hover: '#tip' }] });
    expect(await h.value(tab, 'getComputedStyle(document.getElementById("tip"), "::after").content')).toBe(
      '"Tip shown"',
    );
    expect(tip.out.screenshot).toBeTruthy();
  });

  it('drawing on a canvas counts', async () => {
    const r = await h.cli({ tab, steps: [{ click: '#pad' }] });
    expect(await h.value(tab, 'window.drawn')).toBe(1);
    expect(r.out.screenshot).toBeTruthy();
  });

  it('typing into a same-origin frame counts', async () => {
    const r = await h.cli({ tab, steps: [{ frame: '#inner' }, { click: 'body' }, { type: 'X' }, { frame: 'top' }] });
    expect(r.out.status).toBe('ok');
    expect(await h.value(tab, 'document.getElementById("inner").contentDocument.body.textContent')).toContain('X');
    expect(r.out.screenshot).toBeTruthy();
  });

  it('refs a value gave in an answer without capture are never handed out again on the next page', async () => {
    await h.cli({ tab, steps: [{ click: '#hov' }] }); // focus out of the frame: keys there could go unseen
    const el = (await h.cli({ tab, steps: [{ pageFunction: 'document.getElementById("hov")' }] })).out;
    expect(el.screenshot).toBeUndefined();
    const given = Number(/e(\d+)$/.exec(el.steps[0].output.ref)![1]);
    const next = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/basic.html` }, { snapshot: true }] });
    const refs = [...next.out.steps[1].output.yaml.matchAll(/ref=s\d+e(\d+)/g)].map((m) => Number(m[1]));
    expect(refs.length).toBeGreaterThan(0);
    expect(Math.min(...refs)).toBeGreaterThan(given);
  });
});

// Issue 25 item 5: a click that shows nothing at once no longer waits a fixed grace; the page gets
// its turn (a task, a browser round trip behind a clipboard write, the frames it asked for) and the
// grace only when it set a timer. Each late answer must still be told; the oracle is the page's own
// record of what it showed.
describe('late answers to a click or key', () => {
  let late: string;
  const shown = () => h.value(late, 'document.getElementById("out").textContent');
  beforeAll(async () => {
    late = await h.open('late-answers.html');
    await h.cli({ tab: late, steps: [{ click: '#quiet' }] }); // the pointer is on the page from here on
  });

  it('tells what the page shows after a timer, two frames, a message, a digest, a request, or a clipboard write and a frame', async () => {
    const roads: [string, string][] = [
      ['#copyframe', 'Copied after a frame'],
      ['#timer', 'Saved by timer'],
      ['#frames', 'Shown after frames'],
      ['#message', 'Posted back'],
      ['#digest', 'Digested'],
      ['#fetch', 'Fetched'],
    ];
    for (const [button, text] of roads) {
      const r = await h.cli({ tab: late, steps: [{ click: button }] });
      const answers = await h.value(late, 'window.__answers');
      expect(answers[answers.length - 1], button).toBe(text);
      expect(await shown()).toBe(`${text} (${answers.length})`);
      expect(JSON.stringify(r.out.changes), `${button}: ${r.stdout}`).toContain(`${text} (${answers.length})`);
    }
  });

  it('tells what IndexedDB or the Cache API saved within the grace', async () => {
    // The claim (docs/speed.md) is for storage that answers within the 120 ms grace: the page's own
    // clock says how long each took, and a slower one (a loaded machine) is not judged. Up to twelve of each
    // are tried until two in the bound were judged; without the storage counting 6 of 15 were told.
    for (const [button, text] of [
      ['#idb', 'Saved in IndexedDB'],
      ['#cache', 'Saved in the cache'],
    ] as const) {
      let judged = 0;
      for (let i = 0; i < 12 && judged < 2; i++) {
        const r = await h.cli({ tab: late, steps: [{ click: button }] });
        const answers = await h.value(late, 'window.__answers');
        expect(answers[answers.length - 1], button).toBe(text);
        if ((await h.value(late, 'window.__took')) > 100) continue;
        judged++;
        expect(JSON.stringify(r.out.changes), `${button}: ${r.stdout}`).toContain(`${text} (${answers.length})`);
      }
      expect(judged, `${button}: no save came within the grace in 12 tries`).toBeGreaterThan(0);
    }
  });

  it('tells a key the page answers after a debounce, and a timer answer before the next step acts', async () => {
    const key = await h.cli({ tab: late, steps: [{ click: '#search' }, { press: 'Enter' }] });
    let n = (await h.value(late, 'window.__answers')).length;
    expect(await shown()).toBe(`Searched (${n})`);
    expect(JSON.stringify(key.out.changes), key.stdout).toContain(`Searched (${n})`);
    const both = await h.cli({ tab: late, steps: [{ click: '#timer' }, { click: '#quiet' }] });
    n = (await h.value(late, 'window.__answers')).length;
    expect(await shown()).toBe(`Saved by timer (${n})`);
    expect(JSON.stringify(both.out.changes), both.stdout).toContain(`Saved by timer (${n})`);
  });

  it('a click the page answers with nothing is told as nothing', async () => {
    const clicks = (await h.value(late, 'window.__quiet')) as number;
    const r = await h.cli({ tab: late, steps: [{ click: '#quiet' }] });
    expect(await h.value(late, 'window.__quiet')).toBe(clicks + 1);
    expect(r.out.changes).toEqual({ summary: 'Nothing changed on the page.' });
    expect(r.out.screenshot).toBeUndefined();
  });
});
