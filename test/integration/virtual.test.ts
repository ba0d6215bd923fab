// Virtualised lists and grids (issue 14 item 12): AG Grid Community and TanStack Virtual from
// node_modules, 5,000 and 10,000 rows with ~20 rendered. Targets by text far below the rendered
// window are found by scrolling the list; a ref whose element the list reused is never acted on as
// the new content. Every claim is checked against the app's own state (the grid's API, the list's
// click log), read with a pageFunction — never our answer read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAfter, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const DEPTS = ['Training', 'R&D tooling', 'IT support', 'Payroll', 'Facilities', 'Legal', 'Sales ops'];
const ticket = (i: number): string => `Ticket ${i + 1} · ${DEPTS[i % DEPTS.length]}`;

async function openList(): Promise<string> {
  const tab = await h.open('virtual-list.html');
  expect(await h.value(tab, 'document.querySelectorAll("#inner .row:not([hidden])").length')).toBeLessThan(30);
  return tab;
}

async function openGrid(): Promise<string> {
  const tab = await h.open('ag-grid.html');
  await h.cli({
    tab,
    steps: [{ wait: { selector: '.ag-row[row-index="0"]' } }],
  });
  return tab;
}

/**
 * Runs page code that scrolls (test set-up, as the page's own scripts would) and waits until the
 * library has rendered the result. Through the expression form of pageFunction, which awaits it
 * (h.value wraps its expression in JSON.stringify, which would not).
 */
async function settle(tab: string, action: string, minMs: number): Promise<void> {
  const r = await h.cli({ tab, steps: [{ pageFunction: { expression: settleAfter(action, minMs) } }] });
  expect(r.out.status, r.stdout).toBe('ok');
}

/** Scrolls the list as a user's wheel would and waits until the library has rendered the new rows. */
function scrollList(tab: string, top: number): Promise<void> {
  return settle(tab, `document.getElementById("list").scrollTop = ${top}`, 0);
}

describe('TanStack Virtual: 10,000 items', () => {
  it('clicks an item by text far below the rendered window, and says it scrolled', async () => {
    const tab = await openList();
    const want = ticket(3000);
    const r = await h.cli({ tab, steps: [{ click: { text: want } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out.scrolledToFind).toMatchObject({ in: '#list' });
    expect(out.scrolledToFind.toY).toBeGreaterThan(2900 * 32);
    expect(await h.value(tab, '__clicks')).toEqual([3000]);
  });

  it('refuses a ref whose element now shows another ticket, naming both', async () => {
    const tab = await openList();
    const found = await h.cli({ tab, steps: [{ snapshotSearch: { text: ticket(2), exact: true } }] });
    const ref = found.out.steps[0].output.matches[0].ref;
    expect(ref).toMatch(/^s\d+e\d+$/);
    // The user scrolls on: the list reuses the pool's elements; ticket 3's is far out of the window.
    await scrollList(tab, 32 * 200);
    const elementNow = await h.value(tab, '[...document.querySelectorAll(".row")].map((e) => e.textContent)');
    expect(elementNow).not.toContain(ticket(2));
    const r = await h.cli({ tab, steps: [{ click: ref }] });
    expect(r.out.status, r.stdout).toBe('error');
    expect(r.out.steps[0].category).toBe('stale-ref');
    expect(r.out.steps[0].error).toContain(ticket(2));
    expect(r.out.steps[0].error).toMatch(/now shows "Ticket \d+ · /);
    expect(await h.value(tab, '__clicks')).toEqual([]);
  });

  it('re-resolves a recycled ref to the element now showing its ticket, and clicks that one', async () => {
    const tab = await openList();
    await scrollList(tab, 32 * 20);
    const found = await h.cli({ tab, steps: [{ snapshotSearch: { text: ticket(24), exact: true } }] });
    const ref = found.out.steps[0].output.matches[0].ref;
    const slotBefore = await h.value(
      tab,
      `[...document.querySelectorAll(".row")].findIndex((e) => e.textContent === ${JSON.stringify(ticket(24))})`,
    );
    // Two rows on: ticket 25 moves to another pooled element, its old element shows ticket 27.
    await scrollList(tab, 32 * 22);
    const slotAfter = await h.value(
      tab,
      `[...document.querySelectorAll(".row")].findIndex((e) => e.textContent === ${JSON.stringify(ticket(24))})`,
    );
    expect(slotAfter).not.toBe(slotBefore);
    const r = await h.cli({ tab, steps: [{ click: ref }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.reResolved).toBe(true);
    expect(await h.value(tab, '__clicks')).toEqual([24]);
  });

  it('snapshotSearch finds an item not rendered yet by scrolling, and its ref clicks it', async () => {
    const tab = await openList();
    const r = await h.cli({ tab, steps: [{ snapshotSearch: { text: ticket(1500), exact: true } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    const out = r.out.steps[0].output;
    expect(out.matchCount).toBe(1);
    expect(out.scrolledToFind).toMatchObject({ in: '#list' });
    const click = await h.cli({ tab, steps: [{ click: out.matches[0].ref }] });
    expect(click.out.status, click.stdout).toBe('ok');
    expect(await h.value(tab, '__clicks')).toEqual([1500]);
  });

  it('scroll {text} brings an unrendered item into view', async () => {
    const tab = await openList();
    const r = await h.cli({ tab, steps: [{ scroll: { text: ticket(800) } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.scrolledToFind).toBeDefined();
    const box = await h.value(
      tab,
      `(() => { const l = document.getElementById("list").getBoundingClientRect(); const e = [...document.querySelectorAll(".row")].find((x) => x.textContent === ${JSON.stringify(ticket(800))}); if (!e) return null; const b = e.getBoundingClientRect(); return b.top >= l.top && b.bottom <= l.bottom; })()`,
    );
    expect(box).toBe(true);
  });
});

describe('AG Grid Community: 5,000 rows', () => {
  it("selects a row by a cell text far below, the grid's own selection says so", async () => {
    const tab = await openGrid();
    const r = await h.cli({ tab, steps: [{ click: { text: 'ORD-02210', timeout: 15_000 } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.scrolledToFind).toMatchObject({ in: expect.stringMatching(/^div\.ag-/) });
    expect(await h.value(tab, 'gridApi.getSelectedRows().map((r) => r.order)')).toEqual(['ORD-02210']);
    expect(await h.value(tab, '__cellClicks')).toEqual(['ORD-02210']);
  });

  it('a missing order scans the grid, scrolls it back, and never offers the near match ORD-00211 as a step', async () => {
    const tab = await openGrid();
    await settle(tab, 'gridApi.ensureIndexVisible(210, "top")', 300);
    const before = await h.value(tab, 'document.querySelector(".ag-grid-viewport, .ag-body-viewport").scrollTop');
    expect(await h.value(tab, '!!document.querySelector(\'[row-id="ORD-00211"]\')')).toBe(true);
    // ORD-09711 is not among the 5,000 orders; the step's timeout bounds the scan.
    const r = await h.cli({ tab, steps: [{ click: { text: 'ORD-09711', timeout: 8000 } }] });
    expect(r.out.status).toBe('error');
    const step = r.out.steps[0];
    expect(step.error).toMatch(
      /scrolled div\.ag-[\w.-]+ from \d+ in \d+ steps? .*without finding it, and scrolled it back/,
    );
    expect(JSON.stringify(step.nextStep ?? {})).not.toMatch(/ORD-0\d{4}|"ref"/);
    expect(await h.value(tab, 'gridApi.getSelectedRows().length')).toBe(0);
    expect(await h.value(tab, '__cellClicks')).toEqual([]);
    expect(await h.value(tab, 'document.querySelector(".ag-grid-viewport, .ag-body-viewport").scrollTop')).toBe(before);
  });

  it('a ref to a cell of a row the grid recycled is not acted on as the new row', async () => {
    const tab = await openGrid();
    const found = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'Customer 3', exact: true } }] });
    const ref = found.out.steps[0].output.matches[0]?.ref;
    expect(ref, found.stdout).toMatch(/^s\d+e\d+$/);
    await settle(tab, 'gridApi.ensureIndexVisible(3000, "top")', 500);
    const r = await h.cli({ tab, steps: [{ click: ref }] });
    // Stale (the row is not rendered) or re-resolved to Customer 3's own cell — never another row.
    if (r.out.status === 'ok') expect(await h.value(tab, '__cellClicks')).toEqual(['ORD-00003']);
    else {
      expect(r.out.steps[0].category, r.stdout).toBe('stale-ref');
      expect(await h.value(tab, '__cellClicks')).toEqual([]);
      expect(await h.value(tab, 'gridApi.getSelectedRows().length')).toBe(0);
    }
  });
});

describe('AG Grid: a ref to a repeated value', () => {
  it('a department cell the grid dropped is never found again in another order', async () => {
    const tab = await openGrid();
    // Row 1's department is "Training"; every 7th order has it too.
    const found = await h.cli({
      tab,
      steps: [{ snapshotSearch: { text: 'Training', role: 'gridcell', exact: true } }],
    });
    const ref = found.out.steps[0].output.matches[0]?.ref;
    expect(ref, found.stdout).toMatch(/^s\d+e\d+$/);
    await settle(tab, 'gridApi.ensureIndexVisible(700, "top")', 500);
    expect(
      await h.value(tab, '[...document.querySelectorAll(".ag-cell")].some((c) => c.textContent === "Training")'),
    ).toBe(true);
    const r = await h.cli({ tab, steps: [{ click: ref }] });
    if (r.out.status === 'ok') expect(await h.value(tab, '__cellClicks')).toEqual(['ORD-00001']);
    else {
      expect(r.out.steps[0].category, r.stdout).toBe('stale-ref');
      expect(await h.value(tab, '__cellClicks')).toEqual([]);
    }
  });
});

describe('refs outside virtualised lists', () => {
  it('a button whose own label changed is still the same button: its ref acts on it', async () => {
    const tab = await h.open('basic.html');
    const found = await h.cli({ tab, steps: [{ snapshotSearch: { text: 'Reveal', role: 'button' } }] });
    const ref = found.out.steps[0].output.matches[0].ref;
    expect(ref).toMatch(/^s\d+e\d+$/);
    await h.value(tab, '(document.getElementById("reveal").textContent = "Show more", true)');
    const r = await h.cli({ tab, steps: [{ click: ref }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.reResolved).toBeUndefined();
    // The app's own effect of that button: the hidden paragraph shows after 300 ms.
    await new Promise((done) => setTimeout(done, 600));
    expect(await h.value(tab, 'document.getElementById("late").hidden')).toBe(false);
  });
});
