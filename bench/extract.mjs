#!/usr/bin/env node
// Extract cost and answer size on generated tables (/table?rows=N of the fixture server): the time
// inside the page, the whole `extract` call (a fresh CLI process, as agents run it) and its output
// bytes, for 100, 1,000 and 10,000 rows (limit = all rows), plus the default limit (100 rows) on
// 1,000. Target: 1,000 rows in ≤ 50 ms in the page. Usage: node bench/extract.mjs [--runs 5]

import { parseArgs } from 'node:util';
import { benchSession, cli, percentile, positiveInt, runBench } from './lib.mjs';

const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

const SIZES = [100, 1_000, 10_000];
const IN_PAGE_TARGET_MS = 50; // at 1,000 rows

// In the page: the same extraction the step does, timed there.
const inPage = (limit) => `async () => {
  const t0 = performance.now();
  const r = rt.extractData({ type: 'table', limit: ${limit}, cellMax: 500 });
  return JSON.stringify({ ms: performance.now() - t0, rows: r.rows.length });
}`;

async function measure(tab, env, runs, limit) {
  const page = [];
  const wall = [];
  let bytes = 0;
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    const m = await cli({ tab, steps: [{ pageFunction: inPage(limit) }] }, env);
    page.push(JSON.parse(m.output.steps[0].output.value).ms);
    const r = await cli({ tab, steps: [{ extract: { selector: 'table', limit } }] }, env);
    wall.push(r.ms);
    bytes = r.bytes;
    rows = r.output.steps[0].output.rows.length;
  }
  return { inPageMs: median(page), callMs: median(wall), bytes, rows };
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = positiveInt('runs', values.runs);
  const { server, env, port, close } = await benchSession();
  try {
    await cli({ steps: [{ chromeStatus: { port } }] }, env);
    const rows = [];
    for (const n of SIZES) {
      const { output } = await cli({ steps: [{ openTab: { url: `${server.url}/table?rows=${n}`, port } }] }, env);
      rows.push({ label: `${n} rows, all`, ...(await measure(output.tab, env, runs, n)) });
      if (n === 1_000) rows.push({ label: `${n} rows, limit 100`, ...(await measure(output.tab, env, runs, 100)) });
      await cli({ steps: [{ closeTab: output.tab }] }, env);
    }
    console.log(`extract on /table?rows=N — medians of ${runs}\n`);
    console.log('table                 rows out  in-page ms  extract call ms  answer bytes  bytes/row');
    for (const r of rows) {
      console.log(
        `${r.label.padEnd(20)}  ${String(r.rows).padStart(8)}  ${r.inPageMs.toFixed(1).padStart(10)}  ${r.callMs.toFixed(0).padStart(15)}  ` +
          `${String(r.bytes).padStart(12)}  ${(r.bytes / r.rows).toFixed(0).padStart(9)}`,
      );
    }
    const at1k = rows.find((r) => r.label === '1000 rows, all');
    console.log(
      `\ntarget: 1,000 rows in ≤ ${IN_PAGE_TARGET_MS} ms in the page: ${at1k.inPageMs.toFixed(1)} ms — ${at1k.inPageMs <= IN_PAGE_TARGET_MS ? 'met' : 'NOT met'}`,
    );
  } finally {
    await close();
  }
}

runBench(main);
