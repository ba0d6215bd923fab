// JavaScript dialogs (SPEC §19.2): answered at once (accepted unless a dialog step armed another
// answer), every one reported with the step it opened in, a dismissed beforeunload a navigation
// error — and nothing ever waits on an open dialog.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/**
 * Waits until the late confirm has been answered while no command ran: read from Chrome's own
 * target list (the page sets its title then), not through a command that would report it.
 */
async function lateConfirmAnswered(tab: string): Promise<void> {
  const registry = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8')) as {
    tabs: Record<string, { targetId: string }>;
  };
  const id = registry.tabs[tab]!.targetId;
  await expect
    .poll(
      async () =>
        ((await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as { id: string; title: string }[]).find(
          (t) => t.id === id,
        )?.title,
      { timeout: 15_000, interval: 50 },
    )
    .toBe('Dialogs: answered later');
}

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
    expect(armed.out.steps[0]).toMatchObject({
      status: 'ok',
      output: { armed: 'dismiss' },
      warning: expect.stringMatching(/no dialog opened after it in this command; the answer is kept/),
    });
    expect(armed.out.screenshot).toBeUndefined();
    const r = await h.cli({ tab, steps: [{ dialog: false }, { click: '#two' }] });
    expect(r.out.steps[0].warning).toBeUndefined();
    expect(r.out.dialogs.map((d: { action: string }) => d.action)).toEqual(['dismissed', 'accepted']);
    expect(await answer(tab)).toBe('first=false second=true');
  });

  it('answers a prompt with the given text, or its default', async () => {
    const tab = await h.open('dialogs.html');
    const r = await h.cli({ tab, steps: [{ dialog: { accept: true, promptText: 'Ada' } }, { click: '#prompt' }] });
    expect(r.out.dialogs).toEqual([
      { type: 'prompt', message: 'Your name?', action: 'accepted', promptText: 'Ada', step: 2 },
    ]);
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
    expect(r.out.steps[1]).toMatchObject({
      status: 'error',
      errorType: 'NavigationAbortedError',
      category: 'navigation',
      nextStep: { dialog: { accept: true } },
    });
    expect(r.out.dialogs).toEqual([{ type: 'beforeunload', action: 'dismissed', step: 2 }]);
    expect(await h.value(tab, 'location.pathname')).toBe('/dialogs.html');
    const left = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html` }] });
    expect(left.out.status).toBe('ok');
    expect(left.out.dialogs).toEqual([{ type: 'beforeunload', action: 'accepted', step: 1 }]);
    expect(await h.value(tab, 'location.pathname')).toBe('/page2.html');
  });

  it('answers a dialog that opens between commands without blocking, and reports it with the next command', async () => {
    const tab = await h.open('dialogs.html');
    await h.cli({ tab, steps: [{ click: '#late' }] });
    await lateConfirmAnswered(tab); // the confirm opens 1.5 s after the click
    const started = Date.now();
    const r = await h.cli({ tab, steps: [{ click: '#confirm' }] });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(r.out.status).toBe('ok');
    expect(r.out.dialogs).toEqual([
      { type: 'confirm', message: 'Later?', action: 'accepted', betweenCommands: true },
      { type: 'confirm', message: 'Delete the order?', action: 'accepted', step: 1 },
    ]);
    expect(await answer(tab)).toBe('confirm=true');
    // While a command runs the page has its own confirm (the guard is back in place between commands).
    const during = await h.cli({ tab, steps: [{ pageFunction: 'String(window.confirm).includes("native code")' }] });
    expect(during.out.steps[0].output.value, during.stdout).toBe(true);
  });

  it('passes an unused dismiss on to a dialog that opens after the command', async () => {
    const tab = await h.open('dialogs.html');
    await h.cli({ tab, steps: [{ click: '#late' }, { dialog: { accept: false } }] });
    await lateConfirmAnswered(tab);
    const r = await h.cli({ tab, steps: [{ pageFunction: "document.getElementById('answer').textContent" }] });
    expect(r.out.steps[0].output.value).toBe('late=false');
    expect(r.out.dialogs).toEqual([{ type: 'confirm', message: 'Later?', action: 'dismissed', betweenCommands: true }]);
  });

  it('says so in time when a dialog it could not guard blocks the tab, and the tab can still be closed', async () => {
    const tab = await h.open('dialogs.html');
    await h.cli({ tab, steps: [{ click: '#later-page' }] });
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // a new document opens an alert: no guard there
    const r = await h.cli({ tab, steps: [{ pageFunction: 'document.title' }] });
    expect(r.code).toBe(1);
    expect(r.out.error).toMatchObject({ type: 'CONNECTION', category: 'dialog-open' });
    expect(r.out.error.message).toMatch(
      /did not answer within 10000ms: it is blocked, most likely by a JavaScript dialog/,
    );
    expect(r.ms).toBeLessThan(20_000);
    const closed = await h.cli({ steps: [{ closeTab: tab }] });
    expect(closed.out).toMatchObject({ status: 'ok', steps: [{ output: { closed: tab } }] });
  });

  it('guards the chosen frame too, out-of-process included', async () => {
    const tab = await h.open('xframes.html');
    const r1 = await h.cli({
      tab,
      steps: [
        { frame: '#pay' },
        { pageFunction: "() => { setTimeout(() => alert('Card declined'), 1500); return confirm('Pay?') }" },
      ],
    });
    expect(r1.out.dialogs).toEqual([{ type: 'confirm', message: 'Pay?', action: 'accepted', step: 2 }]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const started = Date.now();
    const r = await h.cli({ tab, steps: [{ pageFunction: 'document.title' }] });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(r.out.steps[0].output.value).toBe('Payment');
    expect(r.out.dialogs).toEqual([
      { type: 'alert', message: 'Card declined', action: 'accepted', betweenCommands: true },
    ]);
  });
});
