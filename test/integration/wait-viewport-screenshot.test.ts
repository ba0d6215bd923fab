// wait (every form), viewport (presets, custom, persistence, reset) and screenshot (every mode).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('basic.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], extra: Record<string, unknown> = {}) => h.cli({ tab, steps, ...extra });

/** Width and height of a PNG from its IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const b = readFileSync(path);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('wait', () => {
  it('waits for an element to become visible', async () => {
    const r = await run([{ pageFunction: 'document.getElementById("reveal").click()' }, { wait: '#late' }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps[1].output.waited).toBe('#late visible');
    // The page's 300 ms timer started with the first step: the wait began some of it later (more on a loaded machine).
    expect(r.out.steps[1].output.elapsed).toBeGreaterThan(0);
    expect(await h.value(tab, "document.getElementById('late').hidden")).toBe(false);
    await run([{ reload: true }]);
  });

  it('waits for text, hidden, attached and detached', async () => {
    await run([{ reload: true }]);
    const r = await run([
      { pageFunction: 'document.getElementById("reveal").click()' },
      { wait: { text: 'Late text' } },
      { wait: { selector: '#intro', state: 'attached' } },
      { pageFunction: 'setTimeout(() => document.getElementById("intro").remove(), 100)' },
      { wait: { selector: '#intro', state: 'detached' } },
      { wait: { selector: '#nothing', state: 'hidden' } },
    ]);
    expect(r.out.status).toBe('ok');
    expect(r.out.steps.map((s: { status: string }) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
  });

  it('waits a fixed time', async () => {
    const r = await run([{ wait: 150 }]);
    expect(r.out.steps[0].output.elapsed).toBeGreaterThanOrEqual(150);
  });

  it('waits for the URL and for network idle', async () => {
    const r = await run([
      { pageFunction: 'setTimeout(() => { location.href = "/page2.html?done=1" }, 100)' },
      { wait: { urlContains: 'done=1' } },
      { wait: { networkIdle: true } },
    ]);
    expect(r.out.status).toBe('ok');
    expect(r.out.context.url).toMatch(/page2\.html\?done=1$/);
  });

  it('fails fast on an invalid selector instead of waiting', async () => {
    // Fast against its timeout, not against the machine: a wait that waited would take 60 s.
    const r = await run([{ wait: '[[[bad', timeout: 60_000 }]);
    expect(r.code).toBe(1);
    expect(r.out.steps[0].errorType).toBe('StepValidationError');
    expect(r.ms).toBeLessThan(30_000);
  });

  it('times out with the real wait in the message, and an optional step is skipped', async () => {
    // A first step takes the start-up and attach, which count against the first step's timeout
    // (the command answers within it): the wait's 500 ms are its own however slow the machine is.
    const r = await run([{ pageFunction: '1' }, { wait: '#never-there', timeout: 500 }]);
    expect(r.out.steps[1], r.stdout).toMatchObject({ status: 'error', errorType: 'TimeoutError' });
    // A timer that fires late on a loaded machine names the time that really passed as well.
    expect(r.out.steps[1].error).toMatch(
      /^Timed out after (500ms|\d+ms \(timeout 500ms\)) waiting for "#never-there" to be visible$/,
    );
    const opt = await run([
      { pageFunction: '1' },
      { wait: '#never-there', timeout: 300, optional: true },
      { pageFunction: '2' },
    ]);
    expect(opt.out.status, opt.stdout).toBe('ok');
    expect(opt.out.steps[1].status).toBe('skipped');
    expect(opt.out.steps[2]).toMatchObject({ status: 'ok', output: { value: 2 } });
  });

  it('continues after a failure when stopOnError is false', async () => {
    const r = await h.cli({
      tab,
      stopOnError: false,
      // The first step takes the start-up and attach (they count against the first step's timeout).
      steps: [{ pageFunction: '1' }, { wait: '#missing', timeout: 200 }, { pageFunction: '2' }],
    });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[1]).toMatchObject({ status: 'error', errorType: 'TimeoutError' });
    expect(r.out.steps[2]).toMatchObject({ status: 'ok', output: { value: 2 } });
  });
});

describe('viewport', () => {
  it('applies a device preset and keeps it across invocations', async () => {
    const r = await run([{ goto: `${h.baseUrl}/page2.html` }, { viewport: 'iphone-14' }]);
    expect(r.out.steps[1].output).toMatchObject({ width: 390, height: 844, mobile: true, hasTouch: true });
    expect(r.out.context.viewport).toEqual({ width: 390, height: 844 });
    const later = await run([{ pageFunction: '[innerWidth, devicePixelRatio, navigator.maxTouchPoints > 0]' }]);
    expect(later.out.steps[0].output).toEqual({ type: 'array', value: [390, 3, true] });
  });

  it('applies custom metrics and resets', async () => {
    const r = await run([{ viewport: { width: 800, height: 600 } }]);
    expect(r.out.context.viewport).toEqual({ width: 800, height: 600 });
    const reset = await run([{ viewport: 'reset' }]);
    expect(reset.out.steps[0].output).toEqual({ reset: true });
    // The reset answer gives the viewport that changed; later answers only what changes again.
    expect(reset.out.context.viewport.width).not.toBe(800);
    // The page's own size, read over the test's socket, is the one the answer gave: the step waited
    // for the browser's resize to reach the page. A resize is an effect, never "nothing changed".
    expect(await h.value(tab, '[innerWidth, innerHeight]')).toEqual([
      reset.out.context.viewport.width,
      reset.out.context.viewport.height,
    ]);
    expect(reset.out.changes?.summary).not.toBe('Nothing changed on the page.');
    const later = await run([{ pageFunction: '[innerWidth, devicePixelRatio]' }]);
    expect(later.out.steps[0].output.value[0]).toBe(reset.out.context.viewport.width);
    expect(later.out.steps[0].output.value[1]).toBe(1);
    expect(later.out.context?.viewport).toBeUndefined();
  });
});

describe('screenshot', () => {
  beforeAll(async () => {
    await run([{ viewport: { width: 1000, height: 700 } }, { goto: `${h.baseUrl}/basic.html` }]);
  });

  it('captures the viewport to a file', async () => {
    const r = await run([{ screenshot: true }]);
    const out = r.out.steps[0].output;
    expect(out).toMatchObject({ width: 1000, height: 700, format: 'png' });
    expect(pngSize(out.path)).toEqual({ width: 1000, height: 700 });
    expect(r.out.screenshot).toBeUndefined(); // screenshot is read-only: no auto capture
  });

  it('captures the full page', async () => {
    const r = await run([{ screenshot: { fullPage: true, path: join(h.tmp, 'full.png') } }]);
    const size = pngSize(join(h.tmp, 'full.png'));
    expect(size.height).toBeGreaterThan(3000);
    expect(r.out.steps[0].output.path).toBe(join(h.tmp, 'full.png'));
  });

  it('captures an element with padding, and a clip', async () => {
    const el = await run([{ screenshot: { selector: '#heading', padding: 10 } }]);
    const box = await run([
      {
        pageFunction:
          '(() => { const r = document.getElementById("heading").getBoundingClientRect(); return [r.width, r.height] })()',
      },
    ]);
    const [w, hgt] = box.out.steps[0].output.value;
    expect(el.out.steps[0].output.width).toBe(Math.round(w + 20));
    expect(el.out.steps[0].output.height).toBe(Math.round(hgt + 20));
    const clip = await run([{ screenshot: { clip: { x: 0, y: 0, width: 120, height: 80 } } }]);
    expect(pngSize(clip.out.steps[0].output.path)).toEqual({ width: 120, height: 80 });
  });

  it('writes jpeg and webp with quality', async () => {
    const jpeg = await run([{ screenshot: { format: 'jpeg', quality: 50 } }]);
    expect(readFileSync(jpeg.out.steps[0].output.path).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const webp = await run([{ screenshot: { format: 'webp', quality: 80 } }]);
    expect(readFileSync(webp.out.steps[0].output.path).subarray(8, 12).toString()).toBe('WEBP');
  });

  it('keeps a transparent background with omitBackground', async () => {
    const r = await run([
      { pageFunction: 'document.documentElement.style.background = "transparent"' },
      { screenshot: { omitBackground: true, clip: { x: 0, y: 2000, width: 20, height: 20 } } },
    ]);
    const b = readFileSync(r.out.steps[1].output.path);
    expect(b[25]).toBe(6); // PNG colour type 6: RGBA
  });

  it('fails clearly for a missing element and an invalid selector', async () => {
    const missing = await run([{ screenshot: { selector: '#nope' } }]);
    expect(missing.out.steps[0].errorType).toBe('ElementNotFoundError');
    const bad = await run([{ screenshot: { selector: 'a[' } }]);
    expect(bad.out.steps[0].errorType).toBe('StepValidationError');
  });

  it('refuses a full page taller than 16384 px with advice', async () => {
    const r = await run([
      { pageFunction: 'document.querySelector(".tall").style.height = "20000px"' },
      { screenshot: { fullPage: true } },
    ]);
    expect(r.out.steps[1].errorType).toBe('StepValidationError');
    expect(r.out.steps[1].error).toMatch(/16384px.*clip/);
  });

  it("gives the file's own pixel size on a phone (device pixel ratio 3), and keeps the file when the same call closes the tab", async () => {
    const phone = await h.open('basic.html');
    const r = await h.cli({ tab: phone, steps: [{ viewport: 'iphone-14' }, { screenshot: true }, { closeTab: true }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[1].output;
    // The PNG's own header is the oracle: 390×844 CSS pixels at a device pixel ratio of 3.
    expect(pngSize(out.path)).toEqual({ width: 1170, height: 2532 });
    expect(out).toMatchObject({ width: 1170, height: 2532 });
  });
});
