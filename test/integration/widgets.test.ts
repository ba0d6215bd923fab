// Real widget libraries, installed from npm and served locally: a date picker (flatpickr), a select
// component (Tom Select), a rich-text editor (Quill) and web components in shadow DOM (Shoelace).
// Each is driven only through cdp-skill's steps; the effect is read from the library's own state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('widgets.html');
  // Shoelace's autoloader defines its elements asynchronously.
  await h.cli({
    tab,
    steps: [
      { wait: { selector: 'sl-button', state: 'attached' } },
      { pageFunction: 'customElements.whenDefined("sl-checkbox")' },
    ],
  });
});
afterAll(async () => {
  await h?.close();
});

describe('real widget libraries', () => {
  it('picks a day in a flatpickr calendar', async () => {
    const r = await h.cli({
      tab,
      steps: [{ click: '#date' }, { click: { text: '15', exact: true, withinSelector: '.flatpickr-calendar.open' } }],
    });
    expect(r.out.status).toBe('ok');
    expect(await h.value(tab, 'document.querySelector("#date").value')).toBe('2025-03-15');
    expect(await h.value(tab, 'window.__events')).toContain('date:2025-03-15');
  });

  it('chooses an option of a Tom Select drop-down', async () => {
    const r = await h.cli({
      tab,
      steps: [{ click: '.ts-control' }, { click: { text: 'Cherry', withinSelector: '.ts-dropdown' } }],
    });
    expect(r.out.status).toBe('ok');
    expect(await h.value(tab, 'document.querySelector("#fruit").value')).toBe('cherry');
  });

  it('writes into a Quill editor, which shows in snapshots as a textbox', async () => {
    const snap = await h.cli({ tab, steps: [{ snapshot: { root: '#editor' } }] });
    const ref = /textbox \[ref=(s\d+e\d+)\]/.exec(snap.out.steps[0].output.yaml)![1]!;
    const r = await h.cli({ tab, steps: [{ fill: { ref, value: 'Hello Quill' } }] });
    expect(r.out.steps[0].output).toMatchObject({ filled: true, method: 'insertText' });
    expect(await h.value(tab, 'quill.getText()')).toBe('Hello Quill\n');
  });

  it('fills, ticks and clicks Shoelace components inside their shadow roots', async () => {
    const r = await h.cli({
      tab,
      steps: [
        { fill: { label: 'Nickname', value: 'neo' } },
        { click: { text: 'Accept terms' } },
        { click: { text: 'Continue' } },
      ],
    });
    expect(r.out.status).toBe('ok');
    expect(await h.value(tab, 'document.querySelector("#nick").value')).toBe('neo');
    expect(await h.value(tab, 'document.querySelector("#terms").checked')).toBe(true);
    expect(await h.value(tab, 'window.__events')).toEqual(expect.arrayContaining(['terms:true', 'go']));
  });
});
