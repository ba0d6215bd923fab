#!/usr/bin/env node
// Latency and output size of the built CLI (dist/cli.js) against headless Chromium, beside the
// floor measured in the same run: a bare `node -e 0` and one raw CDP round trip (raw-cdp-client.mjs).
// Prints a table and writes bench/results/latest.json. Usage: node bench/run.mjs [--runs 20] [--cold-runs 3]

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startFixtureServer } from '../test/fixtures/server.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RAW_CLIENT = fileURLToPath(new URL('./raw-cdp-client.mjs', import.meta.url));
const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const TARGET = { kind: 'listTabs', maxRatioToNode: 1.5 }; // the read-only command vs. a bare Node start
const CLICK_TARGET = { kind: 'click', maxRatioToRawCdp: 2.5 }; // issue 4: a click with its capture vs. the raw CDP floor
const CHILD_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 5_000;

/** Spawns `node ...args` (async, so the in-process fixture server keeps answering) and times it. */
function timeNode(args, env) {
  return new Promise((resolve, reject) => {
    const out = [];
    const err = [];
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT_MS });
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const stdout = Buffer.concat(out);
      if (code === 0) resolve({ ms, bytes: stdout.length, stdout: stdout.toString('utf8') });
      else reject(new Error(`node ${args.join(' ')} exited with ${code}:\n${stdout}${Buffer.concat(err)}`));
    });
  });
}

/** One CLI invocation; rejects unless the answer says "ok". */
async function cli(command, env) {
  const sample = await timeNode([CLI, JSON.stringify(command)], env);
  const output = JSON.parse(sample.stdout);
  if (output.status !== 'ok') throw new Error(`CLI failed on ${JSON.stringify(command)}: ${sample.stdout}`);
  return { ...sample, output };
}

async function getJson(port, path) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return res.json();
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Closes the Chrome on `port` with Browser.close; nothing to do if none answers. */
async function closeChrome(port) {
  const version = await getJson(port, '/json/version').catch(() => undefined);
  if (!version) return;
  const ws = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'Browser.close' })));
    ws.on('error', resolve); // already gone: nothing left to close
    ws.on('close', () => { clearTimeout(timer); resolve(); });
  });
}

async function privateEnv() {
  const dir = await mkdtemp(join(tmpdir(), 'cdp-skill-bench-'));
  return { dir, env: { ...process.env, TMPDIR: dir, CDP_SKILL_HEADLESS: '1' } };
}

const removeDir = (dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 });

/** Value at fraction p of sorted numbers, interpolating between neighbours. */
function percentile(sorted, p) {
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

function summarize(samples) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const bytes = samples.map((s) => s.bytes).sort((a, b) => a - b);
  return {
    runs: ms.length,
    minMs: ms[0],
    medianMs: percentile(ms, 0.5),
    p95Ms: percentile(ms, 0.95),
    medianBytes: percentile(bytes, 0.5),
  };
}

/** Warms each kind up once, then times them round-robin so drift hits every kind alike. */
async function measureWarm(kinds, runs) {
  const samples = new Map(kinds.map((k) => [k.key, []]));
  for (const kind of kinds) await kind.run();
  for (let i = 0; i < runs; i++) {
    for (const kind of kinds) samples.get(kind.key).push(await kind.run());
  }
  return samples;
}

/** Each cold run: a fresh port and TMPDIR, no Chrome; openTab launches one; then it is closed. */
async function measureCold(pageUrl, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    const { dir, env } = await privateEnv();
    try {
      samples.push(await cli({ steps: [{ openTab: { url: pageUrl, port } }] }, env));
    } finally {
      await closeChrome(port);
      await removeDir(dir);
    }
  }
  return samples;
}

async function measure({ runs, coldRuns }) {
  const server = await startFixtureServer();
  const pageUrl = `${server.url}/basic.html`;
  const { dir, env } = await privateEnv();
  const port = await freePort();
  try {
    await cli({ steps: [{ chromeStatus: { port } }] }, env);
    const { output } = await cli({ steps: [{ openTab: { url: pageUrl, port } }] }, env);
    const tab = output.tab;
    const targets = await getJson(port, '/json/list');
    const pageWs = targets.find((t) => t.type === 'page' && t.url === pageUrl).webSocketDebuggerUrl;
    const chrome = (await getJson(port, '/json/version')).Browser;
    const actions = (await cli({ steps: [{ openTab: { url: `${server.url}/actions.html`, port } }] }, env)).output.tab;
    const kinds = [
      { key: 'node', label: 'node -e 0', run: () => timeNode(['-e', '0'], env) },
      { key: 'rawCdp', label: 'raw CDP evaluate', run: () => timeNode([RAW_CLIENT, pageWs], env) },
      { key: 'listTabs', label: 'listTabs (read-only)', run: () => cli({ tab, steps: [{ listTabs: true }] }, env) },
      { key: 'pageFunction', label: 'pageFunction', run: () => cli({ tab, steps: [{ pageFunction: 'document.title' }] }, env) },
      {
        key: 'gotoScreenshot',
        label: 'goto + screenshot',
        run: () => cli({ tab, steps: [{ goto: `${server.url}/demo.html` }, { screenshot: true }] }, env),
      },
      // Interactions, each with its full post-command capture (screenshot, snapshots, diff).
      { key: 'click', label: 'click (+capture)', run: () => cli({ tab: actions, steps: [{ click: '#save' }] }, env) },
      { key: 'fill', label: 'fill (+capture)', run: () => cli({ tab: actions, steps: [{ fill: { label: 'Full name', value: 'Ann Lee' } }] }, env) },
      {
        key: 'batch5',
        label: '5-step batch (+capture)',
        run: () => cli({
          tab: actions,
          steps: [
            { fill: { label: 'Email address', value: 'ann@example.com' } }, { fill: { '#city': 'Paris' } },
            { selectOption: { selector: '#country', value: 'fr' } }, { click: '#news' }, { click: { text: 'Save draft' } },
          ],
        }, env),
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
    labels[key], r.runs, r.minMs.toFixed(1), r.medianMs.toFixed(1), r.p95Ms.toFixed(1),
    r.ratioToNode.toFixed(2), r.ratioToRawCdp.toFixed(2), Math.round(r.medianBytes),
  ].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log([line(head), ...rows.map(line)].join('\n'));
}

function parseOptions() {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '20' }, 'cold-runs': { type: 'string', default: '3' } },
  });
  const count = (flag, text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag} must be a positive integer, got "${text}"`);
    return n;
  };
  return { runs: count('runs', values.runs), coldRuns: count('cold-runs', values['cold-runs']) };
}

async function main() {
  const options = parseOptions();
  const { chrome, labels, results } = await measure(options);
  addRatios(results);
  const ratio = results[TARGET.kind].ratioToNode;
  const target = { ...TARGET, ratio, met: ratio <= TARGET.maxRatioToNode };
  console.log(`cdp-skill bench — node ${process.version}, ${chrome}, ${options.runs} runs (${options.coldRuns} cold)\n`);
  printTable(labels, results);
  console.log(`\ntarget: ${labels[TARGET.kind]} median ≤ ${TARGET.maxRatioToNode}× node -e 0: `
    + `${ratio.toFixed(2)}× — ${target.met ? 'met' : 'NOT met'}`);
  const clickRatio = results[CLICK_TARGET.kind].ratioToRawCdp;
  target.click = { ...CLICK_TARGET, ratio: clickRatio, met: clickRatio <= CLICK_TARGET.maxRatioToRawCdp };
  console.log(`target: ${labels[CLICK_TARGET.kind]} median ≤ ${CLICK_TARGET.maxRatioToRawCdp}× raw CDP: `
    + `${clickRatio.toFixed(2)}× — ${target.click.met ? 'met' : 'NOT met'}`);
  await mkdir(RESULTS_DIR, { recursive: true });
  const report = { date: new Date().toISOString(), node: process.version, platform: `${process.platform}-${process.arch}`, chrome, ...options, target, results };
  await writeFile(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err.stack ?? err);
  process.exitCode = 1;
});
