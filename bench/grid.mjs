#!/usr/bin/env node
// Grid cells (issue 23 item 2): the calls an agent needs to enter three figures in one row of each
// grid, with yesterday's vocabulary against one fill {cells} call now. "Before" is counted from the
// agent runs that filed the issue (per cell: find the row, read its cells' refs, click + type +
// Enter, look again to check — the Handsontable run took 18 calls and filled one wrong cell); "now"
// is played through the CLI, one process per call, and the grid's own model is read over our own
// CDP socket to check that exactly the three cells hold the figures.
// Usage: node bench/grid.mjs

import { answer, benchSession, formatTable, loadAverage, pageValue, runBench } from './lib.mjs';

const call = (command, env) => answer(command, env, 120_000);

/** Per cell yesterday: snapshotSearch for the row, a snapshot for the column's ref, click+type+Enter, a look to check. */
const BEFORE_PER_CELL = 4;
const FIGURES = ['18400', '18500', '18600'];

const GRIDS = [
  {
    grid: 'Handsontable (900 rows)',
    page: 'hot-budget.html',
    ready: '.ht_master td',
    row: 'CC-4127',
    columns: ['Jul', 'Aug', 'Sep'],
    model: (c) => `String(hot.getDataAtCell(127, hot.getColHeader().indexOf(${JSON.stringify(c)})))`,
  },
  {
    grid: 'AG Grid (5,000 rows)',
    page: 'ag-grid-edit.html',
    ready: '.ag-row[row-index="0"]',
    row: 'ORD-04321',
    columns: ['Jul', 'Aug', 'Sep'],
    model: (c) => `String(gridApi.getRowNode("ORD-04321").data[${JSON.stringify(c)}])`,
  },
  {
    grid: 'MUI DataGrid',
    page: 'mui-grid.html',
    ready: '[role=columnheader]',
    row: 'CC-4077',
    columns: ['Jul', 'Aug', 'Sep'],
    model: (c) => `String(__rows[77][${JSON.stringify(c)}])`,
  },
  {
    grid: 'TanStack Table (inputs)',
    page: 'tanstack-table.html',
    ready: '#figures input',
    row: 'CC-4110',
    columns: ['Jan', 'Feb', 'Mar'],
    model: (c) => `String(__data[10][${JSON.stringify(c)}])`,
  },
  {
    grid: 'plain <table> of inputs',
    page: 'grid-inputs.html',
    ready: '#sheet input',
    row: 'Grace',
    columns: ['Mon', 'Tue', 'Wed'],
    model: (c) => `String(__hours[1][${JSON.stringify(c)}])`,
  },
];

async function main() {
  const { server, env, port, close } = await benchSession();
  try {
    const rows = [];
    let allRight = true;
    for (const g of GRIDS) {
      const opened = await call(
        {
          steps: [
            { openTab: { url: `${server.url}/${g.page}`, port } },
            { wait: { selector: g.ready }, timeout: 90_000 },
          ],
        },
        env,
      );
      const cells = g.columns.map((column, i) => ({ row: g.row, column, value: FIGURES[i] }));
      const started = performance.now();
      const answer = await call({ tab: opened.tab, steps: [{ fill: { cells } }] }, env);
      const ms = Math.round(performance.now() - started);
      const held = [];
      for (const c of g.columns) held.push(await pageValue(port, `${server.url}/${g.page}`, g.model(c)));
      const right = answer.status === 'ok' && held.join() === FIGURES.join();
      allRight &&= right;
      if (!right) console.error(g.grid, JSON.stringify(answer.steps ?? answer).slice(0, 400), held);
      rows.push([g.grid, BEFORE_PER_CELL * 3, 1, answer.steps?.[0]?.output?.wheels ?? 0, ms, right ? 'yes' : 'NO']);
      await call({ tab: opened.tab, steps: [{ closeTab: opened.tab }] }, env);
    }
    console.log(
      `cdp-skill grid cells (issue 23) — calls to enter three figures in one row, before vs now; node ${process.version}, load ${await loadAverage()}\n`,
    );
    console.log(formatTable(['grid', 'calls before', 'calls now', 'wheel turns', 'ms now', 'right'], rows));
    console.log(
      '\nbefore: per cell, snapshotSearch the row + snapshot for the column ref + click/type/Enter + a look to check',
    );
    if (!allRight) {
      console.log('a grid ended with the wrong figures or an error');
      process.exitCode = 1;
    }
  } finally {
    await close();
  }
}

runBench(main);
