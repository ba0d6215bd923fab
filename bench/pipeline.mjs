#!/usr/bin/env node
// The pipeline step vs. the same five operations as steps: fill two fields, tick a checkbox, pick
// an option and click a button on /script.html — (a) one `pipeline` step (one page evaluation),
// (b) five steps in one call, (c) five separate calls. Wall time per workflow (all calls of it),
// stdout bytes, and the page checked after every run. Writes bench/results/pipeline.json.
// Usage: node bench/pipeline.mjs [--runs 10]

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/fixtures/server.mjs';
import { cli, closeChrome, freePort, percentile } from './lib.mjs';

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
const CHECK = 'JSON.stringify([email.value, document.getElementById("name").value, agree.checked, plan.value, __events.includes("click:go")])';

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got "${values.runs}"`);
  const server = await startFixtureServer();
  const dir = await mkdtemp(join(tmpdir(), 'cdp-skill-bench-'));
  const env = { ...process.env, TMPDIR: dir, CDP_SKILL_HEADLESS: '1' };
  const port = await freePort();
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
    for (let i = 0; i <= runs; i++) { // round 0 warms up
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
        if (check.output.steps[0].output.value !== EXPECTED) throw new Error(`${kind.label}: the page shows ${check.output.steps[0].output.value}`);
        if (i > 0) samples[kind.key].push({ ms, bytes });
      }
    }
    const results = Object.fromEntries(kinds.map((k) => {
      const ms = samples[k.key].map((s) => s.ms).sort((a, b) => a - b);
      const bytes = samples[k.key].map((s) => s.bytes).sort((a, b) => a - b);
      return [k.key, { label: k.label, runs: ms.length, minMs: ms[0], medianMs: percentile(ms, 0.5), p95Ms: percentile(ms, 0.95), medianBytes: percentile(bytes, 0.5) }];
    }));
    const base = results.pipeline.medianMs;
    const head = ['', 'runs', 'min ms', 'median', 'p95', '×pipeline', 'bytes'];
    const rows = Object.values(results).map((r) => [r.label, r.runs, r.minMs.toFixed(1), r.medianMs.toFixed(1), r.p95Ms.toFixed(1),
      (r.medianMs / base).toFixed(2), Math.round(r.medianBytes)].map(String));
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(`\ncdp-skill pipeline bench — node ${process.version}, ${runs} runs; time = all calls of the workflow, page checked after each\n`);
    console.log([line(head), ...rows.map(line)].join('\n'));
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(join(RESULTS_DIR, 'pipeline.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, results }, null, 2)}\n`);
  } finally {
    await closeChrome(port);
    await server.close();
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

main().catch((err) => {
  console.error(err.stack ?? err);
  process.exitCode = 1;
});
