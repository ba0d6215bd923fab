// fill {cell|cells} (issue 23 item 2) on real grids: Handsontable, AG Grid (5,000 rows), MUI
// DataGrid, TanStack Table with inputs and a plain table of inputs. Every test reads the grid's own
// model over its own CDP socket before and after, and checks that exactly the cells asked for
// changed, to what was typed — no other cell of the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
const clients: CdpClient[] = [];
beforeAll(async () => {
  h = await startHarness();
  // The React fixtures are bundled by esbuild on first request: once, before the tests time anything.
  await Promise.all(
    ['mui-grid', 'tanstack-table'].map((b) => fetch(`${h.baseUrl}/bundle/${b}.js`).then((r) => r.text())),
  );
}, 180_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await h?.close();
});

let opened = 0;
/** Opens a fixture page in its own tab, and the test's own CDP socket to it. */
async function open(page: string, ready: string): Promise<{ tab: string; page: CdpClient }> {
  const path = `${page}?n=${++opened}`;
  const tab = await h.open(path);
  const r = await h.cli({ tab, steps: [{ wait: { selector: ready }, timeout: 60_000 }] });
  expect(r.out.status, r.stdout).toBe('ok');
  const client = await cdpToPage(h.port, `${h.baseUrl}/${path}`);
  clients.push(client);
  return { tab, page: client };
}

type Model = Record<string, Record<string, unknown>>;
/** Cells that differ between two reads of a model: "row/column: before → after". */
function diff(before: Model, after: Model): string[] {
  const out: string[] = [];
  for (const [row, cells] of Object.entries(after))
    for (const [col, v] of Object.entries(cells))
      if (String(before[row]?.[col] ?? '') !== String(v ?? '')) out.push(`${row}/${col}: ${String(v ?? '')}`);
  return out.sort();
}

describe('Handsontable (900 rows × 14 columns, <td>s reused both ways)', { timeout: 120_000 }, () => {
  // The model: hot.getData(), by row code and column header.
  const model = `Object.fromEntries(hot.getData().map((r) => [r[0], Object.fromEntries(r.map((v, c) => [hot.getColHeader(c), v]))]))`;

  it("enters three months of figures in a Handsontable row in one call (the issue's quarter figures)", async () => {
    const { tab, page } = await open('hot-budget.html', '.ht_master td');
    const before = await page.value(model);
    const r = await h.cli({
      tab,
      steps: [
        {
          fill: {
            cells: [
              { row: 'CC-4127', column: 'Jul', value: '18400' },
              { row: 'CC-4127', column: 'Aug', value: '18500' },
              { row: 'CC-4127', column: 'Sep', value: '18600' },
            ],
          },
        },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(diff(before, await page.value(model))).toEqual([
      'CC-4127/Aug: 18500',
      'CC-4127/Jul: 18400',
      'CC-4127/Sep: 18600',
    ]);
    expect(r.out.steps[0].output.filled).toEqual([
      { row: 'CC-4127', column: 'Jul', shows: '18400' },
      { row: 'CC-4127', column: 'Aug', shows: '18500' },
      { row: 'CC-4127', column: 'Sep', shows: '18600' },
    ]);
  });

  it('finds rows above and far below, by index and by a column value, and columns off to the right', async () => {
    const { tab, page } = await open('hot-budget.html', '.ht_master td');
    const before = await page.value(model);
    const cells = [
      { row: 'CC-4850', column: 'Dec', value: '1' },
      { row: { column: 'Name', equals: 'Centre 3' }, column: 'Jan', value: '2' },
      { row: 600, column: 'Nov', value: '3' },
      { row: 'CC-4001', column: 'Mar', value: '' },
    ];
    const r = await h.cli({ tab, steps: [{ fill: { cells } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    // CC-4001's March was empty: clearing it changes nothing.
    expect(diff(before, await page.value(model))).toEqual(['CC-4002/Jan: 2', 'CC-4600/Nov: 3', 'CC-4850/Dec: 1']);
  });

  it('a row that is not there fails after wheeling through the whole sheet, and nothing changed', async () => {
    const { tab, page } = await open('hot-budget.html', '.ht_master td');
    const before = await page.value(model);
    const r = await h.cli({ tab, steps: [{ fill: { cell: { row: 'CC-9999', column: 'Jul' }, value: '5' } }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/no row is the row showing "CC-9999"/);
    expect(diff(before, await page.value(model))).toEqual([]);
  });
});

describe('AG Grid Community (5,000 rows, editable months)', { timeout: 120_000 }, () => {
  const model = `(() => { const m = {}; gridApi.forEachNode((n) => { m[n.data.code] = { ...n.data }; }); return m; })()`;

  it('edits cells of rows far below the rendered window, by text and by index', async () => {
    const { tab, page } = await open('ag-grid-edit.html', '.ag-row[row-index="0"]');
    const before = await page.value(model);
    const cells = [
      { row: 'ORD-04321', column: 'Jul', value: '18400' },
      { row: 4000, column: 'Dec', value: '77' },
      { row: { column: 'Code', equals: 'ORD-00003' }, column: 'Jan', value: '5' },
    ];
    const r = await h.cli({ tab, steps: [{ fill: { cells } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(diff(before, await page.value(model))).toEqual([
      'ORD-00003/Jan: 5',
      'ORD-04001/Dec: 77',
      'ORD-04321/Jul: 18400',
    ]);
  });

  it('a read-only column fails saying so, and no cell changed', async () => {
    const { tab, page } = await open('ag-grid-edit.html', '.ag-row[row-index="0"]');
    const before = await page.value(model);
    const r = await h.cli({ tab, steps: [{ fill: { cell: { row: 'ORD-00002', column: 'Customer' }, value: 'X' } }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/did not open an editor/);
    expect(diff(before, await page.value(model))).toEqual([]);
  });
});

describe('MUI DataGrid (rows and columns virtualised)', { timeout: 120_000 }, () => {
  const model = `Object.fromEntries(__rows.map((r) => [r.code, r]))`;

  it("edits through the grid's own editor and reads its formatted value back", async () => {
    const { tab, page } = await open('mui-grid.html', '[role=columnheader]');
    const before = await page.value(model);
    const cells = [
      { row: 'CC-4077', column: 'Jul', value: '18400' },
      { row: 'CC-4077', column: 'Dec', value: '18500' },
      { row: { column: 'Name', equals: 'Centre 3' }, column: 'Jan', value: '5' },
    ];
    const r = await h.cli({ tab, steps: [{ fill: { cells } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(diff(before, await page.value(model))).toEqual([
      'CC-4002/Jan: 5',
      'CC-4077/Dec: 18500',
      'CC-4077/Jul: 18400',
    ]);
    expect(r.out.steps[0].output.filled[0].shows).toBe('18,400');
  });
});

describe('tables of inputs', () => {
  it("TanStack Table: types into the cell's input and leaves it, so the table commits it", async () => {
    const { tab, page } = await open('tanstack-table.html', '#figures input');
    const model = `Object.fromEntries(__data.map((r) => [r.code, r]))`;
    const before = await page.value(model);
    const cells = [
      { row: 'CC-4110', column: 'Mar', value: '777' },
      { row: 'CC-4101', column: 'Feb', value: '' },
      { row: 5, column: 'Jun', value: '12' },
    ];
    const r = await h.cli({ tab, steps: [{ fill: { cells } }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(diff(before, await page.value(model))).toEqual(['CC-4101/Feb: ', 'CC-4105/Jun: 12', 'CC-4110/Mar: 777']);
  });

  it('a plain <table>: the app takes the value on change, as a person leaving the field fires it', async () => {
    const { tab, page } = await open('grid-inputs.html', '#sheet input');
    const model = `Object.fromEntries(__hours.map((r) => [r.person, r]))`;
    const before = await page.value(model);
    const r = await h.cli({
      tab,
      steps: [
        {
          fill: {
            cells: [
              { row: 'Grace', column: 'Wed', value: '7.5' },
              { row: 4, column: 'mon', value: '3' },
            ],
          },
        },
      ],
    });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(diff(before, await page.value(model))).toEqual(['Grace/Wed: 7.5', 'Ken/Mon: 3']);
  });

  it('a row named by a value many cells show is refused as ambiguous; a missing column is named', async () => {
    const { tab, page } = await open('grid-inputs.html', '#sheet input');
    const model = `Object.fromEntries(__hours.map((r) => [r.person, r]))`;
    const before = await page.value(model);
    const r = await h.cli({ tab, steps: [{ fill: { cell: { row: '5', column: 'Tue' }, value: '1' } }] });
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].error).toMatch(/rows match the row showing "5".*\{"row": \{"column"/);
    const r2 = await h.cli({ tab, steps: [{ fill: { cell: { row: 'Ada', column: 'Sat' }, value: '1' } }] });
    expect(r2.out.status).toBe('error');
    expect(r2.out.steps[0].error).toMatch(/no column headed "Sat" \(columns seen: Person, Mon, Tue/);
    expect(diff(before, await page.value(model))).toEqual([]);
  });
});
