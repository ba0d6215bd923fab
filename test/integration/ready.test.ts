// Ready before the first look (issue 13): after a navigation the answer's look waits, bounded, for
// custom elements to be defined (Shoelace loaded late), for a dialog's entry animation to end, and
// says what was still pending when the bound ran out. Oracles: the page's own records and the
// pixels of the screenshot the answer names.
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The RGB of one pixel of an 8-bit RGB or RGBA PNG (what Chrome writes). */
function pixel(path: string, x: number, y: number): [number, number, number] {
  const b = readFileSync(path);
  const width = b.readUInt32BE(16);
  const channels = b[25] === 6 ? 4 : 3;
  const chunks: Buffer[] = [];
  for (let at = 8; at < b.length; ) {
    const len = b.readUInt32BE(at);
    if (b.toString('latin1', at + 4, at + 8) === 'IDAT') chunks.push(b.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  let prev = Buffer.alloc(stride);
  let row = prev;
  for (let r = 0; r <= y; r++) {
    const filter = raw[r * (stride + 1)]!;
    const line = raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1));
    row = Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0;
      const up = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      const p = a + up - c;
      const pred =
        Math.abs(p - a) <= Math.abs(p - up) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - up) <= Math.abs(p - c)
            ? up
            : c;
      const add = [0, a, up, (a + up) >> 1, pred][filter]!;
      row[i] = (line[i]! + add) & 0xff;
    }
    prev = row;
  }
  return [row[x * channels]!, row[x * channels + 1]!, row[x * channels + 2]!];
}

describe('ready before the first look', () => {
  it('waits for custom elements whose definitions arrive late (Shoelace loaded after load)', async () => {
    const r = await h.cli({
      steps: [{ openTab: { url: `${h.baseUrl}/ready-shoelace.html?delay=400`, port: h.port } }],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.context.pending).toBeUndefined();
    expect(r.out.viewportSnapshot).toMatch(/textbox "Full name" \[ref=s\d+e\d+\]/);
    expect(r.out.viewportSnapshot).toMatch(/checkbox "I agree" \[ref=s\d+e\d+\]/);
    // The page's own view: every element is upgraded now, and none was when the load event fired.
    expect(await h.value(r.out.tab, 'document.querySelectorAll(":not(:defined)").length')).toBe(0);
    const goto = await h.cli({ tab: r.out.tab, steps: [{ goto: `${h.baseUrl}/ready-shoelace.html?delay=400` }] });
    expect(goto.out.viewportSnapshot).toMatch(/textbox "Full name" \[ref=s\d+e\d+\]/);
  });

  it('says which custom elements were still undefined when the bound ran out', async () => {
    const r = await h.cli({
      steps: [{ openTab: { url: `${h.baseUrl}/ready-shoelace.html?delay=8000`, port: h.port } }],
    });
    expect(r.out.status).toBe('ok');
    expect(r.out.context.pending).toEqual(['3 custom elements undefined (sl-input, sl-checkbox, sl-button)']);
    expect(await h.value(r.out.tab, 'document.querySelectorAll(":not(:defined)").length')).toBe(3);
  });

  it('waits for a consent dialog to finish animating in before the screenshot', async () => {
    const r = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/ready-consent.html`, port: h.port } }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.context.pending).toBeUndefined();
    expect(await h.value(r.out.tab, 'window.__animationEnded')).toBe(true);
    // Fully opaque blue at the dialog's centre: the screenshot was taken after the fade-in ended.
    expect(pixel(r.out.screenshot, 250, 150)).toEqual([0, 0, 255]);
    // A 300×200 box that says aria-modal but blocks nothing is no modal (issue 22 item 8): the
    // page's own hit test reaches the story beside it.
    expect(r.out.context.modal).toBeUndefined();
    expect(await h.value(r.out.tab, 'document.elementFromPoint(20, 20).closest("main") !== null')).toBe(true);
    // Behind a wall that covers the page, the same dialog is the modal, judged once it has faded in.
    const wall = await h.cli({ tab: r.out.tab, steps: [{ goto: `${h.baseUrl}/ready-consent.html?backdrop` }] });
    expect(wall.out.context.modal).toEqual({ title: 'Cookie consent' });
    expect(await h.value(r.out.tab, 'document.elementFromPoint(20, 20).id')).toBe('backdrop');
    expect(await h.value(r.out.tab, 'window.__animationEnded')).toBe(true);
    expect(pixel(wall.out.screenshot, 250, 150)).toEqual([0, 0, 255]);
  });

  it('does not wait on a page that is ready, nor after a command that did not navigate', async () => {
    const r = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] });
    expect(r.out.context.pending).toBeUndefined();
    const click = await h.cli({ tab: r.out.tab, steps: [{ click: '#reveal' }] });
    expect(click.out.context.pending).toBeUndefined();
  });
});
