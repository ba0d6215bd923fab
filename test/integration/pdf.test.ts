// pdf (SPEC §17.3): print.html breaks into three printed pages; options reach the file.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('print.html');
});
afterAll(async () => {
  await h?.close();
});

/** The MediaBox of the first page, in points. */
const mediaBox = (path: string): number[] => {
  const m = /\/MediaBox\s*\[\s*([\d.\s]+)\]/.exec(readFileSync(path).toString('latin1'));
  return m![1]!.trim().split(/\s+/).map(Number);
};

describe('pdf', () => {
  it('prints every page, counts them and validates the structure', async () => {
    const r = await h.cli({ tab, steps: [{ pdf: { validate: true } }] });
    expect(r.out.status).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out).toMatchObject({ pages: 3, valid: true });
    expect(out.path).toBe(join(h.tmp, 'cdp-skill', `${tab}.step1.pdf`));
    const file = readFileSync(out.path);
    expect(file.subarray(0, 5).toString()).toBe('%PDF-');
    expect(out.bytes).toBe(file.length);
    expect(mediaBox(out.path)).toEqual([0, 0, 612, 792]); // US Letter
    expect(r.out.screenshot).toBeUndefined(); // read-only: no after-capture
  });

  it('applies page ranges, landscape, paper size, margins and scale', async () => {
    const path = join(h.tmp, 'out', 'a4.pdf');
    const r = await h.cli({
      tab,
      steps: [
        {
          pdf: {
            path,
            pageRanges: '2-3',
            landscape: true,
            paperWidth: '210mm',
            paperHeight: '297mm',
            margin: { top: '1cm', bottom: 0.5 },
            scale: 0.8,
          },
        },
      ],
    });
    expect(r.out.steps[0].output).toMatchObject({ path, pages: 2 });
    const [, , w, h2] = mediaBox(path);
    expect(Math.abs(w! - 842)).toBeLessThan(2); // A4 landscape (Chrome rounds to whole pixels)
    expect(Math.abs(h2! - 595)).toBeLessThan(2);
  });

  it('puts a bare file name in the temp dir', async () => {
    const r = await h.cli({ tab, steps: [{ pdf: 'report.pdf' }] });
    expect(r.out.steps[0].output.path).toBe(join(h.tmp, 'cdp-skill', 'report.pdf'));
    expect(existsSync(join(h.tmp, 'cdp-skill', 'report.pdf'))).toBe(true);
  });

  it('rejects bad options before printing, and a page range past the end', async () => {
    const bad = await h.cli({ tab, steps: [{ pdf: { scale: 5 } }] });
    expect(bad.out.error.type).toBe('VALIDATION');
    expect(bad.out.error.message).toMatch(/"scale" must be at most 2/);
    const past = await h.cli({ tab, steps: [{ pdf: { pageRanges: '7-9' } }] });
    expect(past.out.steps[0]).toMatchObject({ status: 'error', errorType: 'StepValidationError' });
    expect(past.out.steps[0].error).toMatch(/pageRanges "7-9"/);
  });
});
