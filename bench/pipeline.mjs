#!/usr/bin/env node
// The pipeline step vs. the same five operations as steps: fill two fields, tick a checkbox, pick
// an option and click a button on /script.html — (a) one `pipeline` step (one page evaluation),
// (b) five steps in one call, (c) five separate calls. Wall time per workflow (all calls of it),
// stdout bytes, and the page checked after every run. Writes bench/results/pipeline.json.
// Usage: node bench/pipeline.mjs [--runs 10]

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchSession, cli, formatTable, positiveInt, runBench, summarize } from './lib.mjs';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

const OPS = [
  { find: '#email', fill: 'ann@example.com' },
  { find: '#name', fill: 'Ann Lee' },
  { find: '#agree', check: true },
  { find: '#plan', select: 'pro' },
  { find: '#go', click: true },
];
const STEPS = [
  { fill: { selector: '#email', value: 'ann@example.com' } },
  { fill: { selector: '#name', value: 'Ann Lee' } },
  { click: '#agree' },
  { selectOption: { selector: '#plan', value: 'pro' } },
  { click: '#go' },
];
const EXPECTED = '["ann@example.com","Ann Lee",true,"pro",true]';
const CHECK =
  'JSON.stringify([email.value, document.getElementById("name").value, agree.checked, plan.value, __events.includes("click:go")])';

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
  const runs = positiveInt('runs', values.runs);
  const { server, env, port, close } = await benchSession();
  const page = `${server.url}/script.html`;
  try {
    const { output } = await cli({ steps: [{ openTab: { url: page, port } }] }, env);
    const tab = output.tab;
    const kinds = [
      { key: 'pipeline', label: 'pipeline, 5 operations, 1 call', calls: () => [{ tab, steps: [{ pipeline: OPS }] }] },
      { key: 'batch', label: '5 steps in 1 call', calls: () => [{ tab, steps: STEPS }] },
      { key: 'separate', label: '5 steps in 5 calls', calls: () => STEPS.map((s) => ({ tab, steps: [s] })) },
    ];
    const samples = Object.fromEntries(kinds.map((k) => [k.key, []]));
    for (let i = 0; i <= runs; i++) {
      // round 0 warms up
      for (const kind of kinds) {
        await cli({ tab, steps: [{ goto: page }] }, env);
        let ms = 0;
        let bytes = 0;
        for (const command of kind.calls()) {
          const r = await cli(command, env);
          ms += r.ms;
          bytes += r.bytes;
        }
        const check = await cli({ tab, steps: [{ pageFunction: CHECK }] }, env);
        if (check.output.steps[0].output.value !== EXPECTED)
          throw new Error(`${kind.label}: the page shows ${check.output.steps[0].output.value}`);
        if (i > 0) samples[kind.key].push({ ms, bytes });
      }
    }
    const results = Object.fromEntries(
      kinds.map((k) => {
        return [k.key, { label: k.label, ...summarize(samples[k.key]) }];
      }),
    );
    const base = results.pipeline.medianMs;
    const head = ['', 'runs', 'min ms', 'median', 'p95', '×pipeline', 'bytes'];
    const rows = Object.values(results).map((r) => [
      r.label,
      r.runs,
      r.minMs.toFixed(1),
      r.medianMs.toFixed(1),
      r.p95Ms.toFixed(1),
      (r.medianMs / base).toFixed(2),
      Math.round(r.medianBytes),
    ]);
    console.log(
      `\ncdp-skill pipeline bench — node ${process.version}, ${runs} runs; time = all calls of the workflow, page checked after each\n`,
    );
    console.log(formatTable(head, rows));
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(
      join(RESULTS_DIR, 'pipeline.json'),
      `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, results }, null, 2)}\n`,
    );
  } finally {
    await close();
  }
}

runBench(main);
