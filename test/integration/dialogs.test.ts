// JavaScript dialogs (SPEC §19.2): answered at once (accepted unless a dialog step armed another
// answer), every one reported with the step it opened in, a dismissed beforeunload a navigation
// error — and nothing ever waits on an open dialog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const answer = (tab: string): Promise<string> => h.value(tab, "document.getElementById('answer').textContent");

describe('dialogs', () => {
  it('accepts by default and reports each dialog with its step', async () => {
    const tab = await h.open('dialogs.html');
    const r = await h.cli({ tab, steps: [{ click: '#alert' }, { click: '#confirm' }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.dialogs).toEqual([
      { type: 'alert', message: 'Saved', action: 'accepted', step: 1 },
      { type: 'confirm', message: 'Delete the order?', action: 'accepted', step: 2 },
    ]);
    expect(await answer(tab)).toBe('confirm=true');
  });

  it('a dialog step dismisses the next confirm only, and is read-only', async () => {
    const tab = await h.open('dialogs.html');
    const armed = await h.cli({ tab, steps: [{ dialog: { accept: false } }] });
    expect(armed.out.steps[0]).toMatchObject({ status: 'ok', output: { armed: 'dismiss' }, warning: expect.stringMatching(/answer was not used/) });
    expect(armed.out.screenshot).toBeUndefined();
    const r = await h.cli({ tab, steps: [{ dialog: false }, { click: '#two' }] });
    expect(r.out.steps[0].warning).toBeUndefined();
    expect(r.out.dialogs.map((d: { action: string }) => d.action)).toEqual(['dismissed', 'accepted']);
    expect(await answer(tab)).toBe('first=false second=true');
  });

  it('answers a prompt with the given text, or its default', async () => {
    const tab = await h.open('dialogs.html');
    const r = await h.cli({ tab, steps: [{ dialog: { accept: true, promptText: 'Ada' } }, { click: '#prompt' }] });
    expect(r.out.dialogs).toEqual([{ type: 'prompt', message: 'Your name?', action: 'accepted', promptText: 'Ada', step: 2 }]);
    expect(await answer(tab)).toBe('prompt=Ada');
    await h.cli({ tab, steps: [{ click: '#prompt' }] });
    expect(await answer(tab)).toBe('prompt=guest');
  });

  it('a dismissed beforeunload keeps the page and fails the navigation, with the step that would leave', async () => {
    const tab = await h.open('dialogs.html');
    await h.cli({ tab, steps: [{ click: '#draft' }, { type: 'unsaved' }] });
    const started = Date.now();
    const r = await h.cli({ tab, steps: [{ dialog: { accept: false } }, { goto: `${h.baseUrl}/page2.html` }] });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(1);
    expect(r.out.steps[1]).toMatchObject({ status: 'error', errorType: 'NavigationAbortedError', category: 'navigation', nextStep: { dialog: { accept: true } } });
    expect(r.out.dialogs).toEqual([{ type: 'beforeunload', action: 'dismissed', step: 2 }]);
    expect(await h.value(tab, 'location.pathname')).toBe('/dialogs.html');
    const left = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html` }] });
    expect(left.out.status).toBe('ok');
    expect(left.out.dialogs).toEqual([{ type: 'beforeunload', action: 'accepted', step: 1 }]);
    expect(await h.value(tab, 'location.pathname')).toBe('/page2.html');
  });
});
