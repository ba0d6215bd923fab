// Uploads through any control (issue 14 item 7): Dropzone's area (its hidden input lives at the end of
// <body>) and a button that makes its input only on click. Checked against the page's own state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let a: string;
let b: string;
beforeAll(async () => {
  h = await startHarness();
  a = join(h.tmp, 'invoice.pdf');
  b = join(h.tmp, 'notes.txt');
  writeFileSync(a, '%PDF-1.4 test');
  writeFileSync(b, 'notes');
});
afterAll(async () => {
  await h?.close();
});

describe('upload through a file chooser', () => {
  it("adds files to Dropzone by clicking its area: Dropzone's own list holds them", async () => {
    const tab = await h.open('upload.html');
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#dz', files: [a, b] } }] });
    expect(r.out.steps[0].output).toMatchObject({ uploaded: ['invoice.pdf', 'notes.txt'], via: 'file chooser' });
    expect(r.out.steps[0].output.target).toMatch(/dz|form/);
    expect(await h.value(tab, 'dz.files.map((f) => f.name)')).toEqual(['invoice.pdf', 'notes.txt']);
    expect(JSON.stringify(r.out.steps[0])).not.toContain(h.tmp);
  });

  it('sets a file on an input the page creates only when the button is clicked', async () => {
    const tab = await h.open('upload.html');
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#attach', files: a } }] });
    expect(r.out.steps[0].output).toMatchObject({
      uploaded: ['invoice.pdf'],
      via: 'file chooser',
      target: 'button "Attach a file"',
    });
    expect(await h.value(tab, 'picked')).toEqual(['invoice.pdf']);
  });

  it('refuses two files for a chooser that takes one, and sets none', async () => {
    const tab = await h.open('upload.html');
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#attach', files: [a, b] } }] });
    expect(r.out.steps[0]).toMatchObject({ status: 'error', category: 'validation' });
    expect(r.out.steps[0].error).toMatch(/takes one file, got 2/);
    expect(await h.value(tab, 'picked')).toEqual([]);
  });

  it('fails truthfully when the control opens no chooser, with a nextStep that is not the same step', async () => {
    const tab = await h.open('upload.html');
    const started = Date.now();
    const r = await h.cli({ tab, steps: [{ upload: { selector: '#inert', files: a } }] });
    expect(r.out.steps[0]).toMatchObject({ status: 'error', category: 'no-effect', nextStep: { snapshot: true } });
    expect(r.out.steps[0].error).toMatch(/Clicking button "Does nothing" opened no file chooser/);
    expect(Date.now() - started).toBeLessThan(8000);
    // Interception was turned off again: the page's own click still works as before (no chooser left pending).
    const again = await h.cli({ tab, steps: [{ upload: { selector: '#attach', files: a } }] });
    expect(again.out.steps[0].output.via).toBe('file chooser');
    expect(await h.value(tab, 'picked')).toEqual(['invoice.pdf']);
  });
});
