// Issue 22 item 7: what snapshotSearch says about a scan is true. A Handsontable sheet of 900 rows
// (ledger-sheet.html) renders ~40 rows at a time in Handsontable's own holder, in the page's scroll
// (?page) or in a frozen-column layout (?frozen). The search must scroll the element that renders other
// rows, and say `whole` only when every row was rendered. Oracles: the sheet's own model
// (hot.getDataAtCell, hot.getSelected after a click on the ref) and the row headers the page
// rendered, recorded by the test's own hook in the page — never our answer read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Opens a sheet variant and records, after every render, which rows (by their index) were in the DOM. */
async function openSheet(variant: string): Promise<string> {
  const tab = await h.open(`ledger-sheet.html?${variant}`);
  await h.value(
    tab,
    `(window.__seen = new Set(), new MutationObserver(() => { for (const td of document.querySelectorAll('.ht_master tbody td:first-of-type')) { const m = /^CC-(\\d+)$/.exec(td.textContent); if (m) __seen.add(+m[1] - 3300); } }).observe(document.querySelector('.ht_master'), { subtree: true, childList: true, characterData: true }), true)`,
  );
  return tab;
}

/** Two frames of the page (the sheet renders for a scroll on the next): awaited, as h.value's JSON would not. */
async function twoFrames(tab: string): Promise<void> {
  const r = await h.cli({
    tab,
    steps: [
      { pageFunction: '() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))' },
    ],
  });
  expect(r.out.steps[0].output.value, r.stdout).toBe(true);
}

/** Where the rows scroll: Handsontable's master holder, or the page. */
const topOf = (variant: string): string =>
  variant === 'page' ? 'scrollY' : 'document.querySelector(".ht_master .wtHolder").scrollTop';

describe('snapshotSearch scrolls the sheet that renders the rows', () => {
  for (const variant of ['own', 'frozen', 'page'])
    it(`${variant}: finds CC-4127 (row 827) far below, with a ref the sheet answers to`, async () => {
      const tab = await openSheet(variant);
      expect(await h.value(tab, 'hot.getDataAtCell(827, 0)')).toBe('CC-4127');
      expect(
        await h.value(tab, '[...document.querySelectorAll("td")].some((td) => td.textContent === "CC-4127")'),
      ).toBe(false);
      // ~40 scroll positions, each waiting for Handsontable to render: a loaded 2-core machine needs more than 30 s.
      const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'CC-4127', exact: true }, timeout: 45_000 }] });
      expect(r.out.status, r.stdout).toBe('ok');
      const out = r.out.steps[0].output;
      expect(out.matchCount, r.stdout).toBeGreaterThan(0);
      expect(out.scrolledToFind.in).toBe(variant === 'page' ? 'the page' : 'div.wtHolder');
      expect(out.scrolledToFind.toY).toBeGreaterThan(20 * 23 * 30);
      expect(await h.value(tab, topOf(variant))).toBeGreaterThan(15_000);
      // With a frozen column the sheet draws the code twice: in the master (under the frozen clone)
      // and in the clone a person sees; the clone's cell is the one to click.
      const cells = out.matches.filter((m: { role: string }) => m.role === 'gridcell');
      const cell = variant === 'frozen' ? cells.at(-1) : cells[0];
      expect(cell?.ref, r.stdout).toMatch(/^s\d+e\d+$/);
      const click = await h.cli({ tab, steps: [{ click: cell.ref }] });
      expect(click.out.status, click.stdout).toBe('ok');
      expect(await h.value(tab, 'hot.getSelectedLast().slice(0, 2)')).toEqual([827, 0]);
    }, 90_000);

  for (const variant of ['own', 'frozen', 'page'])
    it(`${variant}: a code in no row is said absent after every row was rendered, and the sheet is put back`, async () => {
      const tab = await openSheet(variant);
      // Start part-way down (and, for the page, with the heading far above the rendered rows).
      await h.value(tab, `(${variant === 'page' ? 'scrollTo(0, 9000)' : 'hot.scrollViewportTo({ row: 400 })'}, true)`);
      await twoFrames(tab);
      const from = await h.value(tab, topOf(variant));
      expect(from).toBeGreaterThan(5_000);
      await h.value(tab, '(__seen.clear(), true)');
      const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'CC-9999' }, timeout: 45_000 }] });
      expect(r.out.status, r.stdout).toBe('ok');
      const out = r.out.steps[0].output;
      expect(out.matchCount).toBe(0);
      expect(await h.value(tab, 'hot.getData().some((row) => row.includes("CC-9999"))')).toBe(false);
      expect(out.scrolledToFind).toMatchObject({ whole: true, restored: true });
      // `whole` is true: every one of the 900 rows was rendered during the scan.
      expect(await h.value(tab, '__seen.size')).toBe(900);
      expect(Math.abs((await h.value(tab, topOf(variant))) - from)).toBeLessThan(2);
    }, 90_000);

  it('page: from far down the page, a code far above is found (the sheet in the page is seen as virtualised wherever it is scrolled)', async () => {
    const tab = await openSheet('page');
    await h.value(tab, '(scrollTo(0, 19000), true)');
    await twoFrames(tab);
    expect(await h.value(tab, 'hot.getDataAtCell(10, 0)')).toBe('CC-3310');
    const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'CC-3310', exact: true }, timeout: 45_000 }] });
    const out = r.out.steps[0].output;
    expect(out.matchCount, r.stdout).toBeGreaterThan(0);
    expect(out.scrolledToFind).toMatchObject({ in: 'the page', fromY: 19000 });
    const cell = out.matches.find((m: { role: string }) => m.role === 'gridcell');
    const click = await h.cli({ tab, steps: [{ click: cell.ref }] });
    expect(click.out.status, click.stdout).toBe('ok');
    expect(await h.value(tab, 'hot.getSelectedLast().slice(0, 2)')).toEqual([10, 0]);
  }, 90_000);

  it('a scan cut short by the time says so, never `whole`', async () => {
    const tab = await openSheet('own');
    // Each scroll costs the page 150 ms (its own listener): 2.5 s cannot render all 900 rows on any machine.
    await h.value(
      tab,
      `(document.querySelector('.ht_master .wtHolder').addEventListener('scroll', () => { const t = performance.now(); while (performance.now() - t < 150); }), true)`,
    );
    const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'CC-9999' }, timeout: 2500 }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const scan = r.out.steps[0].output.scrolledToFind;
    expect(scan.whole).toBeUndefined();
    expect(scan.unseen).toBe('time');
    expect(await h.value(tab, '__seen.size')).toBeLessThan(900);
  });
});

// Issue 22 item 11: on an infinite feed (feed.html: 20 posts, 20 more ~300 ms after reaching the
// end, three pages, then "No more posts"), snapshotSearch loads more to find what is not there yet.
describe('snapshotSearch on an infinite feed', () => {
  it('loads more until the post is there, and its match has a ref to that post', async () => {
    const tab = await h.open('feed.html');
    expect(await h.value(tab, 'document.querySelectorAll(".post").length')).toBe(20);
    const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'Post 47', exact: true } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out.matchCount).toBe(1);
    expect(out.scrolledToFind).toMatchObject({ in: 'the page', loaded: 2 });
    // DOM truth: the feed loaded its third page, and the ref is the post that says it.
    expect(await h.value(tab, 'document.querySelectorAll(".post").length')).toBe(60);
    const ref = out.matches[0].ref;
    expect(ref).toMatch(/^s\d+e\d+$/);
    const el = await h.cli({
      tab,
      steps: [{ pageFunction: { fn: `() => refs.get(${JSON.stringify(ref)}).textContent`, refs: true } }],
    });
    expect(el.out.steps[0].output.value, el.stdout).toBe('Post 47');
  });

  it('a word in no post: loads to the end of the feed, then says nothing more loaded', async () => {
    const tab = await h.open('feed.html');
    const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'offline' } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out.matchCount).toBe(0);
    expect(out.scrolledToFind).toMatchObject({ in: 'the page', stoppedLoading: true, restored: true });
    // The feed's own word for its end, and every post loaded; none says "offline".
    expect(await h.value(tab, 'document.getElementById("end").hidden')).toBe(false);
    expect(
      await h.value(
        tab,
        '[...document.querySelectorAll(".post")].filter((p) => /offline/i.test(p.textContent)).length',
      ),
    ).toBe(0);
    expect(await h.value(tab, 'scrollY')).toBe(0);
  });
});
