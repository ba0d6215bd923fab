#!/usr/bin/env node
// Snapshot cost and answer size: (1) the in-page snapshot time and YAML bytes on generated pages of
// 100, 1,000 and 10,000 elements (it must scale linearly; target ≤ 100 ms in the page at 1,000);
// (2) the bytes of every answer in an "open, snapshot, fill, click, submit" workflow on a typical
// sign-in page (target: each visual answer ≤ 2 KB). Usage: node bench/snapshot.mjs [--runs 5]

import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { benchSession, cli, percentile, positiveInt, runBench } from './lib.mjs';

const SIZES = [100, 1_000, 10_000];
const IN_PAGE_TARGET_MS = 100; // at 1,000 elements
const ANSWER_TARGET_BYTES = 2_048;

const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

// In the page: the same walk the snapshot step does (auto-scoped, shadow roots, refs), timed there.
const IN_PAGE = `async () => {
  const opts = { autoScope: true, pierceShadow: true, includeFrames: false, maxDepth: 50, maxElements: 50000, refs: true, internal: true };
  const t0 = performance.now();
  const snap = rt.ariaSnapshot(opts);
  const ms = performance.now() - t0;
  return JSON.stringify({ ms, elements: snap.elements, domElements: document.querySelectorAll('*').length });
}`;

async function snapshotScaling(server, port, env, runs) {
  const rows = [];
  for (const n of SIZES) {
    const { output } = await cli({ steps: [{ openTab: { url: `${server.url}/generated?n=${n}`, port } }] }, env);
    const tab = output.tab;
    const inPage = [];
    const wall = [];
    let bytes = 0;
    let dom = 0;
    for (let i = 0; i < runs; i++) {
      const m = await cli({ tab, steps: [{ pageFunction: IN_PAGE }] }, env);
      const v = JSON.parse(m.output.steps[0].output.value);
      inPage.push(v.ms);
      dom = v.domElements;
      const s = await cli({ tab, steps: [{ snapshot: true }] }, env);
      wall.push(s.ms);
      const o = s.output.steps[0].output;
      bytes = o.path ? (await stat(o.path)).size : Buffer.byteLength(o.yaml);
    }
    rows.push({ n, domElements: dom, inPageMs: median(inPage), snapshotCallMs: median(wall), yamlBytes: bytes });
    await cli({ steps: [{ closeTab: tab }] }, env);
  }
  return rows;
}

async function workflowBytes(server, port, env) {
  const steps = [];
  const record = async (label, command) => {
    const r = await cli(command, env);
    steps.push({ label, bytes: r.bytes, ms: r.ms, visual: !!r.output.screenshot });
    return r.output;
  };
  const opened = await record('openTab', { steps: [{ openTab: { url: `${server.url}/login.html`, port } }] });
  const tab = opened.tab;
  await record('snapshot', { tab, steps: [{ snapshot: true }] });
  await record('fill email', { tab, steps: [{ fill: { label: 'Email', value: 'ann@example.com' } }] });
  await record('fill password', { tab, steps: [{ fill: { label: 'Password', value: 'hunter2' } }] });
  await record('click remember', { tab, steps: [{ click: { text: 'Remember me' } }] });
  const done = await record('submit', { tab, steps: [{ click: { text: 'Sign in' } }] });
  const ok = /Signed in as ann@example.com/.test(JSON.stringify(done));
  await cli({ steps: [{ closeTab: tab }] }, env);
  return { steps, ok };
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = positiveInt('runs', values.runs);
  const { server, env, port, close } = await benchSession();
  try {
    await cli({ steps: [{ chromeStatus: { port } }] }, env);
    const scaling = await snapshotScaling(server, port, env, runs);
    console.log(`snapshot scaling — medians of ${runs}\n`);
    console.log('elements  DOM nodes  in-page ms  ms/1k  snapshot call ms  YAML bytes');
    for (const r of scaling) {
      console.log(
        `${String(r.n).padStart(8)}  ${String(r.domElements).padStart(9)}  ${r.inPageMs.toFixed(1).padStart(10)}  ` +
          `${(r.inPageMs / (r.domElements / 1000)).toFixed(1).padStart(5)}  ${r.snapshotCallMs.toFixed(0).padStart(16)}  ${String(r.yamlBytes).padStart(10)}`,
      );
    }
    const at1k = scaling.find((r) => r.n === 1_000);
    console.log(
      `\ntarget: 1,000 elements in ≤ ${IN_PAGE_TARGET_MS} ms in the page: ${at1k.inPageMs.toFixed(1)} ms — ${at1k.inPageMs <= IN_PAGE_TARGET_MS ? 'met' : 'NOT met'}`,
    );
    const wf = await workflowBytes(server, port, env);
    console.log(`\nworkflow on login.html (final state ${wf.ok ? 'right' : 'WRONG'}):`);
    for (const s of wf.steps)
      console.log(
        `  ${s.label.padEnd(16)} ${String(s.bytes).padStart(6)} bytes  ${s.ms.toFixed(0).padStart(5)} ms${s.visual ? '  (visual)' : ''}`,
      );
    const visual = wf.steps.filter((s) => s.visual);
    const worst = Math.max(...visual.map((s) => s.bytes));
    const total = wf.steps.reduce((a, s) => a + s.bytes, 0);
    console.log(`  total ${total} bytes; largest visual answer ${worst} bytes`);
    console.log(
      `target: each visual answer ≤ ${ANSWER_TARGET_BYTES} bytes: ${worst <= ANSWER_TARGET_BYTES ? 'met' : 'NOT met'}`,
    );
    if (!wf.ok) process.exitCode = 1;
  } finally {
    await close();
  }
}

runBench(main);
