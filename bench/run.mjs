#!/usr/bin/env node
// Latency and output size of the built CLI (dist/cli.js) against headless Chromium, beside the
// floor measured in the same run: a bare `node -e 0` and one raw CDP round trip (raw-cdp-client.mjs).
// Prints a table and writes bench/results/latest.json. Usage: node bench/run.mjs [--runs 20] [--cold-runs 3]

import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/fixtures/server.mjs';
import {
  BATCH5_STEPS,
  cli,
  closeChrome,
  formatTable,
  getJson,
  loadAverage,
  positiveInt,
  privateEnv,
  removeDir,
  runBench,
  summarize,
  timeNode,
} from './lib.mjs';

const RAW_CLIENT = fileURLToPath(new URL('./raw-cdp-client.mjs', import.meta.url));
const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const TARGET = { kind: 'listTabs', maxRatioToNode: 1.5 }; // issue 7: a read-only call vs. a bare Node start
const CLICK_TARGET = { kind: 'click', maxRatioToNode: 2.5 }; // issue 7: a click with its full capture vs. a bare Node start
const COLD_TARGET_MS = 1_500; // issue 7: no Chrome running → first response

/** Warms each kind up once, then times them round-robin so drift hits every kind alike. */
async function measureWarm(kinds, runs) {
  const samples = new Map(kinds.map((k) => [k.key, []]));
  for (const kind of kinds) await kind.run();
  for (let i = 0; i < runs; i++) {
    for (const kind of kinds) samples.get(kind.key).push(await kind.run());
  }
  return samples;
}

/** The port cdp-skill's own Chrome picked (its registry in the private state dir says). */
function ownPort(dir) {
  const { own } = JSON.parse(readFileSync(join(dir, 'cdp-skill', 'tabs.json'), 'utf8'));
  return Number(new URL(own.wsUrl).port);
}

/** Each cold run: a fresh TMPDIR, no Chrome; openTab launches cdp-skill's own; then it is closed. */
async function measureCold(pageUrl, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const { dir, env } = await privateEnv();
    try {
      samples.push(await cli({ steps: [{ openTab: pageUrl }] }, env));
    } finally {
      await closeChrome(ownPort(dir)).catch(() => {
        /* it did not start: nothing to close */
      });
      await removeDir(dir);
    }
  }
  return samples;
}

async function measure({ runs, coldRuns }) {
  const server = await startFixtureServer();
  const pageUrl = `${server.url}/basic.html`;
  const { dir, env } = await privateEnv();
  // The default path: cdp-skill's own Chrome on a port it picks, checked on every call (issue 15).
  let port = 0;
  try {
    port = (await cli({ steps: [{ chromeStatus: true }] }, env)).output.steps[0].output.port;
    const { output } = await cli({ steps: [{ openTab: pageUrl }] }, env);
    const tab = output.tab;
    const targets = await getJson(port, '/json/list');
    const pageWs = targets.find((t) => t.type === 'page' && t.url === pageUrl).webSocketDebuggerUrl;
    const chrome = (await getJson(port, '/json/version')).Browser;
    const actions = (await cli({ steps: [{ openTab: `${server.url}/actions.html` }] }, env)).output.tab;
    const keyboard = (await cli({ steps: [{ openTab: `${server.url}/keyboard.html` }] }, env)).output.tab;
    const drag = (await cli({ steps: [{ openTab: `${server.url}/drag-mouse.html` }] }, env)).output.tab;
    const kinds = [
      { key: 'node', label: 'node -e 0', run: () => timeNode(['-e', '0'], env) },
      { key: 'rawCdp', label: 'raw CDP evaluate', run: () => timeNode([RAW_CLIENT, pageWs], env) },
      { key: 'listTabs', label: 'listTabs (read-only)', run: () => cli({ tab, steps: [{ listTabs: true }] }, env) },
      {
        key: 'snapshot',
        label: 'snapshot (read-only)',
        run: () => cli({ tab: actions, steps: [{ snapshot: true }] }, env),
      },
      {
        key: 'pageFunction',
        label: 'pageFunction',
        run: () => cli({ tab, steps: [{ pageFunction: 'document.title' }] }, env),
      },
      // A navigation and its after-capture (screenshot, snapshots) of the new page.
      {
        key: 'goto',
        label: 'goto (+capture)',
        run: () => cli({ tab, steps: [{ goto: `${server.url}/demo.html` }] }, env),
      },
      // Interactions, each with its full post-command capture (screenshot, snapshots, diff).
      { key: 'click', label: 'click (+capture)', run: () => cli({ tab: actions, steps: [{ click: '#save' }] }, env) },
      {
        key: 'fill',
        label: 'fill (+capture)',
        run: () => cli({ tab: actions, steps: [{ fill: { label: 'Full name', value: 'Ann Lee' } }] }, env),
      },
      // 20 characters as real key events; the field is cleared first so it never grows.
      {
        key: 'type20',
        label: 'type 20 chars (+capture)',
        run: () =>
          cli(
            {
              tab: keyboard,
              steps: [
                { pageFunction: "document.querySelector('#field').value = ''" },
                { type: { selector: '#field', text: 'twenty characters ok' } },
              ],
            },
            env,
          ),
      },
      // A mouse-gesture reorder: the first item dragged below the third (the list keeps cycling).
      {
        key: 'drag',
        label: 'drag reorder (+capture)',
        run: () =>
          cli(
            { tab: drag, steps: [{ drag: { source: '#list li:nth-child(1)', target: '#list li:nth-child(3)' } }] },
            env,
          ),
      },
      {
        key: 'batch5',
        label: '5-step batch (+capture)',
        run: () =>
          cli(
            {
              tab: actions,
              steps: BATCH5_STEPS,
            },
            env,
          ),
      },
    ];
    const warm = await measureWarm(kinds, runs);
    await closeChrome(port);
    const cold = await measureCold(pageUrl, coldRuns);
    const labels = { ...Object.fromEntries(kinds.map((k) => [k.key, k.label])), coldStart: 'cold start (openTab)' };
    const results = Object.fromEntries([...warm].map(([key, s]) => [key, summarize(s)]));
    results.coldStart = summarize(cold);
    return { chrome, labels, results };
  } finally {
    await closeChrome(port);
    await server.close();
    await removeDir(dir);
  }
}

function addRatios(results) {
  const nodeMs = results.node.medianMs;
  const rawMs = results.rawCdp.medianMs;
  for (const r of Object.values(results)) {
    r.ratioToNode = r.medianMs / nodeMs;
    r.ratioToRawCdp = r.medianMs / rawMs;
  }
}

function printTable(labels, results) {
  const head = ['', 'runs', 'min ms', 'median', 'p95', '×node', '×raw', 'bytes'];
  const rows = Object.entries(results).map(([key, r]) => [
    labels[key],
    r.runs,
    r.minMs.toFixed(1),
    r.medianMs.toFixed(1),
    r.p95Ms.toFixed(1),
    r.ratioToNode.toFixed(2),
    r.ratioToRawCdp.toFixed(2),
    Math.round(r.medianBytes),
  ]);
  console.log(formatTable(head, rows));
}

function parseOptions() {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '20' }, 'cold-runs': { type: 'string', default: '3' } },
  });
  return { runs: positiveInt('runs', values.runs), coldRuns: positiveInt('cold-runs', values['cold-runs']) };
}

async function main() {
  const options = parseOptions();
  const { chrome, labels, results } = await measure(options);
  addRatios(results);
  const ratio = results[TARGET.kind].ratioToNode;
  const target = { ...TARGET, ratio, met: ratio <= TARGET.maxRatioToNode };
  console.log(
    `cdp-skill bench — node ${process.version}, ${chrome}, ${options.runs} runs (${options.coldRuns} cold), load ${await loadAverage()}\n`,
  );
  printTable(labels, results);
  console.log(
    `\ntarget: ${labels[TARGET.kind]} median ≤ ${TARGET.maxRatioToNode}× node -e 0: ` +
      `${ratio.toFixed(2)}× — ${target.met ? 'met' : 'NOT met'}`,
  );
  const clickRatio = results[CLICK_TARGET.kind].ratioToNode;
  target.click = { ...CLICK_TARGET, ratio: clickRatio, met: clickRatio <= CLICK_TARGET.maxRatioToNode };
  console.log(
    `target: ${labels[CLICK_TARGET.kind]} median ≤ ${CLICK_TARGET.maxRatioToNode}× node -e 0: ` +
      `${clickRatio.toFixed(2)}× — ${target.click.met ? 'met' : 'NOT met'}`,
  );
  const coldMs = results.coldStart.medianMs;
  target.coldStart = { maxMs: COLD_TARGET_MS, ms: coldMs, met: coldMs <= COLD_TARGET_MS };
  console.log(
    `target: cold start median ≤ ${COLD_TARGET_MS} ms: ${coldMs.toFixed(0)} ms — ${target.coldStart.met ? 'met' : 'NOT met'}`,
  );
  await mkdir(RESULTS_DIR, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    chrome,
    ...options,
    target,
    results,
  };
  await writeFile(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
}

runBench(main);
