// The last observation misses of issue 22 (items 9 and 11) on one page (observe-misses.html): keys
// typed in a framed editor change a word counter outside the frame; a debounced search's results
// come 300 ms after the last key plus a request; a message arrives between calls and `poll` tells
// it since the page was last shown. The truth is the page's own DOM, read over the test's own CDP
// socket (cdpToPage), never our answer read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
let page: CdpClient;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('observe-misses.html');
  page = await cdpToPage(h.port, `${h.baseUrl}/observe-misses.html`);
});
afterAll(async () => {
  page?.close();
  await h?.close();
});

/** A page expression's value, over the test's own socket. */
async function truth(expression: string): Promise<any> {
  const r = await page.send('Runtime.evaluate', { expression, returnByValue: true });
  return r.result.value;
}
const EDITOR = 'document.getElementById("draft").contentDocument.getElementById("ed").innerText';
const WORDS = 'document.getElementById("words").textContent';

describe('a framed editor and a counter outside its frame (item 9)', () => {
  it('keys typed in the frame tell the counter outside it, and a later command in the chosen frame too', async () => {
    const r = await h.cli({
      tab,
      steps: [{ frame: { selector: '#draft' } }, { click: '#ed' }, { press: 'End' }, { type: ' three four' }],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(await truth(EDITOR)).toBe('One two three four');
    expect(await truth(WORDS)).toBe('4 words');
    const told = JSON.stringify(r.out.changes);
    expect(told, r.stdout).toContain("'2 words' → '4 words'");
    expect(told).toContain('One two three four');
    // The frame stays chosen: the next command types there, and the counter is told again.
    const more = await h.cli({ tab, steps: [{ type: ' five' }] });
    expect(await truth(WORDS)).toBe('5 words');
    expect(JSON.stringify(more.out.changes), more.stdout).toContain("'4 words' → '5 words'");
  });

  it('a click in the top page that changes the framed text tells it under the frame', async () => {
    const r = await h.cli({ tab, steps: [{ frame: 'top' }, { click: '#sign' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const text = await truth(EDITOR);
    expect(text).toMatch(/Signed Ann$/);
    const words = await truth(WORDS);
    expect(r.out.changes.summary, r.stdout).toContain(`in frame 'Draft editor'`);
    expect(JSON.stringify(r.out.changes)).toContain(text);
    expect(JSON.stringify(r.out.changes)).toContain(`→ '${words}'`);
  });
});

describe('a debounced search (item 9)', () => {
  it('the answer shows the results that came 300 ms after the last key and a request', async () => {
    const r = await h.cli({ tab, steps: [{ click: '#q' }, { type: 'blue' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const items: string[] = await truth('[...document.querySelectorAll("#results li")].map((li) => li.textContent)');
    const status: string = await truth('document.getElementById("status").textContent');
    expect(items.length).toBeGreaterThan(0);
    expect(status).toBe(`${items.length} results`);
    const told = JSON.stringify(r.out.changes);
    expect(told, r.stdout).toContain(`'${status}'`);
    for (const name of items.slice(0, 2)) expect(told).toContain(`listitem '${name}'`);
    // "Searching…" is told as what it was: shown a moment, not the page as it is.
    expect(r.out.changes.text ?? []).not.toContain("paragraph: '' → 'Searching…'");
    expect(r.out.context?.pending).toBeUndefined();
  });
});

describe('poll tells what changed since the page was last shown (item 11)', () => {
  it('a message that arrived between calls is told, labelled; then nothing since', async () => {
    const shown = await h.cli({ tab, steps: [{ click: '#sign' }] });
    expect(shown.out.status, shown.stdout).toBe('ok');
    await truth('receive("Build 42 passed")');
    expect(await truth('document.querySelector("#inbox li:last-child").textContent')).toBe('Build 42 passed');
    const r = await h.cli({ tab, steps: [{ poll: '() => document.querySelectorAll("#inbox li").length > 1' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.changes.since, r.stdout).toBe('lastShown');
    expect(r.out.changes.summary).toMatch(/^Since the page was last shown: /);
    expect(r.out.changes.appeared).toContain("listitem 'Build 42 passed'");
    // Nothing new since that answer: said so, as a claim about the time since then.
    const again = await h.cli({ tab, steps: [{ wait: 50 }] });
    expect(again.out.changes?.summary, again.stdout).toBe('Nothing changed since the page was last shown.');
    expect(await truth('document.querySelectorAll("#inbox li").length')).toBe(2);
  });
});

describe('a debounced search slower than the bound (item 9; last: its answer lands 4 s later)', () => {
  it('a search slower than the bound is answered with what is still pending, as the page shows it', async () => {
    const r = await h.cli({ tab, steps: [{ click: '#archive' }, { type: 'mug' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    // Page truth: the archive has not answered yet.
    expect(await truth('document.getElementById("archive-status").textContent')).toBe('Searching the archive…');
    expect(JSON.stringify(r.out.changes)).toContain('Searching the archive…');
    expect(r.out.context?.pending, r.stdout).toEqual(
      expect.arrayContaining([expect.stringMatching(/request the page started on the input/)]),
    );
  });
});
