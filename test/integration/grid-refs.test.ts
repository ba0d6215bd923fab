// A recycled grid cell is never acted on as the old one (issue 22 item 1). Handsontable, AG Grid,
// MUI DataGrid and a TanStack Virtual table reuse (or re-create) cell elements as they scroll, and
// empty cells show nothing to tell them apart. Seeded random cases: a ref is handed out for a
// rendered cell (empty or filled), the grid is scrolled by random offsets both ways, then the ref is
// clicked and typed into. The oracle is the library's own model read over the test's own CDP socket:
// which cell the element stood for when handed out (hot.getCoords, AG Grid's and MUI's row/column
// of the node, the app's own map), and afterwards that no cell other than that one changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, settleAfter, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
const clients: CdpClient[] = [];
beforeAll(async () => {
  h = await startHarness();
  await fetch(`${h.baseUrl}/bundle/mui-grid.js`).then((r) => r.text());
}, 180_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await h?.close();
});

/** mulberry32: the cases are the same on every run; a failure names its seed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, list: T[]): T => list[Math.floor(r() * list.length)]!;

interface Page {
  tab: string;
  page: CdpClient;
  /** Our isolated world in the page (the ref map lives there). */
  world: number;
}

let opened = 0;
let last: Page | undefined;
/** Opens a fixture in a new tab (closing the last case's) with the test's own CDP socket to it. */
async function open(path: string, ready: string): Promise<Page> {
  if (last) await close(last);
  const url = `${path}?n=${++opened}`;
  const tab = await h.open(url);
  const r = await h.cli({ tab, steps: [{ wait: { selector: ready }, timeout: 60_000 }] });
  expect(r.out.status, r.stdout).toBe('ok');
  const page = await cdpToPage(h.port, `${h.baseUrl}/${url}`);
  clients.push(page);
  await page.send('DOM.getDocument', { depth: 0 });
  const { frameTree } = await page.send('Page.getFrameTree');
  const { executionContextId } = await page.send('Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: 'cdp-skill',
  });
  last = { tab, page, world: executionContextId };
  return last;
}

/** Closes the case's tab: pages of React grids left open would load the shared machine. */
async function close(p: Page): Promise<void> {
  p.page.close();
  await h.cli({ tab: p.tab, steps: [{ closeTab: p.tab }] });
}

/** `fn` (a function of `this`) on the element a ref holds, run in the page's own world: the library's answer. */
async function onRef(p: Page, ref: string, fn: string): Promise<any> {
  const { result } = await p.page.send('Runtime.evaluate', {
    expression: `window.__ariaRefs.get(${JSON.stringify(ref)})`,
    contextId: p.world,
  });
  const { node } = await p.page.send('DOM.describeNode', { objectId: result.objectId });
  const { object } = await p.page.send('DOM.resolveNode', { backendNodeId: node.backendNodeId });
  const r = await p.page.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration: fn,
    returnByValue: true,
  });
  return r.result.value;
}

/** The gridcell refs of a snapshot, with whether the cell showed nothing. */
async function cellRefs(p: Page): Promise<{ ref: string; empty: boolean }[]> {
  const r = await h.cli({ tab: p.tab, steps: [{ snapshot: {} }] });
  expect(r.out.status, r.stdout).toBe('ok');
  const yaml: string = r.out.steps[0].output.yaml;
  return [...yaml.matchAll(/- (?:gridcell|cell)( "[^"]*")? \[ref=(s\d+e\d+)\]/g)].map((m) => ({
    ref: m[2]!,
    empty: !m[1],
  }));
}

/** Scrolls a scroller as the page's own scripts would (setup, not the tool), and waits until the grid has rendered. */
function scroll(p: Page, scroller: string, top: number, left: number): Promise<unknown> {
  return p.page.value(
    settleAfter(
      `(() => { const s = document.querySelector(${JSON.stringify(scroller)}); s.scrollTop = ${top}; s.scrollLeft = ${left}; })()`,
    ),
  );
}

type Model = Record<string, Record<string, unknown>>;
function diff(before: Model, after: Model): string[] {
  const out: string[] = [];
  for (const [row, cells] of Object.entries(after))
    for (const [col, v] of Object.entries(cells))
      if (String(before[row]?.[col] ?? '') !== String(v ?? '')) out.push(`${row}/${col}=${String(v ?? '')}`);
  return out;
}

interface Grid {
  path: string;
  ready: string;
  scroller: string;
  model: string;
  /** The cell a ref's element stands for, in the model's terms ("row/column"), or null (a header). */
  cellOf: string;
  rowPx: number;
  colPx: number;
  rows: number;
  cols: number;
}

/**
 * One generated case: a ref to a random rendered cell (empty ones preferred), random scrolls, then
 * click + type + Enter through the ref. Either the value lands in that very cell, or the click is
 * refused as a stale ref and nothing changes.
 */
async function recycledCase(g: Grid, seed: number): Promise<void> {
  const r = rng(seed);
  await recycledSteps(g, await open(g.path, g.ready), r, seed);
}

async function recycledSteps(g: Grid, p: Page, r: () => number, seed: number): Promise<void> {
  await scroll(p, g.scroller, Math.floor(r() * g.rows) * g.rowPx, Math.floor(r() * g.cols) * g.colPx);
  const refs = await cellRefs(p);
  const empties = refs.filter((c) => c.empty);
  const chosen = r() < 0.7 && empties.length ? pick(r, empties) : pick(r, refs);
  const cell: string | null = await onRef(p, chosen.ref, g.cellOf);
  if (!cell) return; // a header cell: nothing to type into
  // The user scrolls on: a few rows or columns (the same <td>s reused nearby), or far.
  const near = r() < 0.6;
  const top = await p.page.value(`document.querySelector(${JSON.stringify(g.scroller)}).scrollTop`);
  const left = await p.page.value(`document.querySelector(${JSON.stringify(g.scroller)}).scrollLeft`);
  const dy = near ? Math.floor(r() * 7 - 3) * g.rowPx : Math.floor(r() * g.rows) * g.rowPx - top;
  const dx = near ? Math.floor(r() * 7 - 3) * g.colPx : Math.floor(r() * g.cols) * g.colPx - left;
  await scroll(p, g.scroller, Math.max(0, top + dy), Math.max(0, left + dx));
  const before = await p.page.value(g.model);
  const out = await h.cli({ tab: p.tab, steps: [{ click: chosen.ref }, { type: '7777' }, { press: 'Enter' }] });
  const changed = diff(before, await p.page.value(g.model));
  const what = `seed ${seed}: ${chosen.ref} (${cell}, ${chosen.empty ? 'empty' : 'filled'}) → ${out.stdout.slice(0, 600)}`;
  if (out.out.status === 'ok') expect(changed, what).toEqual([`${cell}=7777`]);
  else {
    // Refused as stale, or the keys went nowhere (a grid that never opened its editor, under load): told, and nothing changed.
    const failed = out.out.steps.find((x: { status: string }) => x.status === 'error');
    expect(failed.category, what).toBe(failed.action === 'click' ? 'stale-ref' : 'no-effect');
    expect(changed, what).toEqual([]);
  }
}

const HOT: Grid = {
  path: 'hot-budget.html',
  ready: '.ht_master td',
  scroller: '.ht_master .wtHolder',
  model: `Object.fromEntries(hot.getData().map((r) => [r[0], Object.fromEntries(r.map((v, c) => [hot.getColHeader(c), v]))]))`,
  cellOf: `function () { const c = hot.getCoords(this); return c && c.row >= 0 && c.col >= 0 ? hot.getDataAtCell(c.row, 0) + '/' + hot.getColHeader(c.col) : null; }`,
  rowPx: 29,
  colPx: 90,
  rows: 880,
  cols: 10,
};

describe('Handsontable: <td>s reused for other rows and other columns', { timeout: 180_000 }, () => {
  it("an empty August cell's ref, after the sheet reused its <td> for another month of the same row, never takes the figures (the issue's case)", async () => {
    const p = await open(HOT.path, HOT.ready);
    // CC-4002's February, May, August and November are empty; August is rendered once the sheet is a little to the right.
    await scroll(p, HOT.scroller, 0, 400);
    const refs = await cellRefs(p);
    let aug: string | undefined;
    for (const c of refs.filter((x) => x.empty)) if ((await onRef(p, c.ref, HOT.cellOf)) === 'CC-4002/Aug') aug = c.ref;
    expect(aug).toBeDefined();
    const td = `function () { return hot.getCoords(this).col; }`;
    const colBefore = await onRef(p, aug!, td);
    // Sideways by three months: the sheet hands that <td> to November of the same row, empty too.
    // Under load the sheet can redraw later than the scroll settles: wait (≤10 s) for the reuse the case is about.
    await scroll(p, HOT.scroller, 0, 890);
    let colNow = await onRef(p, aug!, td);
    for (const end = Date.now() + 10_000; colNow === colBefore && Date.now() < end; ) {
      await scroll(p, HOT.scroller, 0, 890 + (Date.now() % 2));
      colNow = await onRef(p, aug!, td);
    }
    expect(colNow, `scrollLeft ${await p.page.value(`document.querySelector('${HOT.scroller}').scrollLeft`)}`).not.toBe(
      colBefore,
    );
    expect(await onRef(p, aug!, HOT.cellOf)).toMatch(/^CC-4002\//);
    const before = await p.page.value(HOT.model);
    const r = await h.cli({ tab: p.tab, steps: [{ click: aug }, { type: '18400' }, { press: 'Enter' }] });
    const changed = diff(before, await p.page.value(HOT.model));
    if (r.out.status === 'ok') expect(changed).toEqual(['CC-4002/Aug=18400']);
    else {
      expect(r.out.steps[0].category).toBe('stale-ref');
      expect(r.out.steps[0].error).toMatch(
        /at row "3", column "Aug" when handed out.*now stands at row "3", column "\w+"/,
      );
      expect(changed).toEqual([]);
    }
  });

  for (const seed of [11, 12, 13, 14, 15]) it(`generated case, seed ${seed}`, () => recycledCase(HOT, seed));
});

describe('AG Grid: rows and columns virtualised', { timeout: 180_000 }, () => {
  const AG: Grid = {
    path: 'ag-grid-edit.html',
    ready: '.ag-row[row-index="0"]',
    scroller: '.ag-grid-viewport, .ag-body-viewport',
    model: `(() => { const m = {}; gridApi.forEachNode((n) => { m[n.data.code] = { ...n.data }; }); return m; })()`,
    cellOf: `function () { const c = this.closest('[col-id]'); const row = this.closest('[row-id]'); return c && row ? row.getAttribute('row-id') + '/' + gridApi.getColumn(c.getAttribute('col-id')).getColId() : null; }`,
    rowPx: 42,
    colPx: 90,
    rows: 4900,
    cols: 8,
  };
  for (const seed of [21, 22, 23]) it(`generated case, seed ${seed}`, () => recycledCase(AG, seed));
});

describe('MUI DataGrid: empty cells, rows re-created as it scrolls', { timeout: 180_000 }, () => {
  const MUI: Grid = {
    path: 'mui-grid.html',
    ready: '[role=columnheader]',
    scroller: '.MuiDataGrid-virtualScroller',
    model: `Object.fromEntries(gridApi.current.getRowModels().entries().map(([, r]) => [r.code, { ...r }]))`,
    cellOf: `function () { const c = this.closest('[data-field]'); const row = this.closest('[data-id]'); return c && row ? gridApi.current.getRow(row.getAttribute('data-id')).code + '/' + c.getAttribute('data-field') : null; }`,
    rowPx: 32,
    colPx: 90,
    rows: 90,
    cols: 8,
  };
  for (const seed of [31, 32]) it(`generated case, seed ${seed}`, () => recycledCase(MUI, seed));
});

describe('TanStack Virtual table: pooled <tr>/<td>, no row or column attributes', { timeout: 180_000 }, () => {
  for (const seed of [41, 42, 43, 44, 45])
    it(`generated case, seed ${seed}: the click reaches the cell the ref was handed out for, or none`, async () => {
      const r = rng(seed);
      const p = await open('virtual-table.html', '#body td.cell');
      await scroll(p, '#scroller', Math.floor(r() * 1900) * 28, Math.floor(r() * 30) * 80);
      const refs = await cellRefs(p);
      const empties = refs.filter((c) => c.empty);
      const chosen = r() < 0.7 && empties.length ? pick(r, empties) : pick(r, refs);
      const cell = await onRef(p, chosen.ref, 'function () { return __shownOf(this); }');
      expect(cell).not.toBeNull();
      const near = r() < 0.6;
      const [top, left] = await p.page.value('[scroller.scrollTop, scroller.scrollLeft]');
      const dy = near ? Math.floor(r() * 5 - 2) * 28 : Math.floor(r() * 1900) * 28 - top;
      const dx = near ? Math.floor(r() * 5 - 2) * 80 : Math.floor(r() * 30) * 80 - left;
      await scroll(p, '#scroller', Math.max(0, top + dy), Math.max(0, left + dx));
      const out = await h.cli({ tab: p.tab, steps: [{ click: chosen.ref }] });
      const clicks = await p.page.value('__clicks');
      const what = `seed ${seed}: ${chosen.ref} ${JSON.stringify(cell)} → ${out.stdout.slice(0, 500)}`;
      if (out.out.status === 'ok') expect(clicks, what).toEqual([cell]);
      else {
        expect(out.out.steps[0].category, what).toBe('stale-ref');
        expect(clicks, what).toEqual([]);
      }
    });
});
