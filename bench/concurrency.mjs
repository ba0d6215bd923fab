#!/usr/bin/env node
// Eight agents at once on one Chrome, each on its own tab: AGENTS × CALLS CLI calls (default
// 8 × 25 = 200) of fills, clicks, reads and snapshots. Prints calls/s sustained, failures, latency
// percentiles, and checks that no alias was lost, duplicated or made up and no call acted on another
// agent's tab. Then the peak RSS of one command on a 10,000-element page.
// Usage: node bench/concurrency.mjs [--agents 8] [--calls 25] [--elements 10000]

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/fixtures/server.mjs';
import { closeChrome, freePort } from './lib.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RSS_PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));
const CHILD_TIMEOUT_MS = 120_000;

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '8' },
    calls: { type: 'string', default: '25' },
    elements: { type: 'string', default: '10000' },
  },
});
const AGENTS = Number(args.agents);
const CALLS = Number(args.calls);
const ELEMENTS = Number(args.elements);

/** One CLI call: its answer, exit code and time; never rejects (a failure is a figure). */
function cli(command, env, nodeArgs = []) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...nodeArgs, CLI, JSON.stringify(command)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CHILD_TIMEOUT_MS,
    });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      let output;
      try {
        output = JSON.parse(Buffer.concat(out).toString('utf8'));
      } catch {
        output = { status: 'unparsable' };
      }
      resolve({ ms, code, output });
    });
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** One agent: opens its tab, then fills, clicks, reads and snapshots on it; checks what it finds. */
async function agent(i, ctx) {
  const { env, baseUrl, port, calls } = ctx;
  const failures = [];
  const record = (r, what) => {
    calls.push(r.ms);
    if (r.output.status !== 'ok')
      failures.push(`agent ${i} ${what}: ${JSON.stringify(r.output.error ?? r.output.errors ?? r.output.status)}`);
    return r;
  };
  const opened = record(
    await cli({ steps: [{ openTab: { url: `${baseUrl}/actions.html?agent=${i}`, port } }] }, env),
    'openTab',
  );
  const tab = opened.output.tab;
  if (!tab) return { tab, failures: [...failures, `agent ${i}: no tab`], saves: 0 };
  let lastName;
  let saves = 0;
  for (let k = 1; k < CALLS - 1; k++) {
    switch (k % 4) {
      case 0:
        lastName = `agent${i}-call${k}`;
        record(await cli({ tab, steps: [{ fill: { selector: '#name', value: lastName } }] }, env), `fill ${k}`);
        break;
      case 1:
        if (record(await cli({ tab, steps: [{ click: '#save' }] }, env), `click ${k}`).output.status === 'ok') saves++;
        break;
      case 2: {
        const r = record(await cli({ tab, steps: [{ pageFunction: 'location.search' }] }, env), `read ${k}`);
        if (r.output.status === 'ok' && r.output.steps[0].output.value !== `?agent=${i}`)
          failures.push(`agent ${i}: tab ${tab} shows ${r.output.steps[0].output.value}`);
        break;
      }
      default:
        record(await cli({ tab, steps: [{ snapshot: true }] }, env), `snapshot ${k}`);
    }
  }
  const check = record(
    await cli(
      {
        tab,
        steps: [
          {
            pageFunction:
              "JSON.stringify({ search: location.search, name: document.querySelector('#name').value, saves: window.__events.filter((e) => e === 'save').length })",
          },
        ],
      },
      env,
    ),
    'check',
  );
  if (check.output.status === 'ok') {
    const seen = JSON.parse(check.output.steps[0].output.value);
    const want = { search: `?agent=${i}`, name: lastName ?? '', saves };
    if (JSON.stringify(seen) !== JSON.stringify(want))
      failures.push(
        `agent ${i}: tab ${tab} holds ${JSON.stringify(seen)}, expected ${JSON.stringify(want)} (another agent acted on it?)`,
      );
  }
  return { tab, failures, saves };
}

async function peakRss(env, baseUrl, port, dir) {
  const opened = await cli(
    { timeout: 60_000, steps: [{ openTab: { url: `${baseUrl}/generated?n=${ELEMENTS}`, port } }] },
    env,
  );
  const tab = opened.output.tab;
  const measure = async (command) => {
    const file = join(dir, `rss-${Date.now()}.txt`);
    const r = await cli(command, { ...env, CDP_BENCH_RSS_FILE: file }, ['--import', RSS_PROBE]);
    const kb = Number(await readFile(file, 'utf8').catch(() => 'NaN'));
    return { ms: r.ms, ok: r.output.status === 'ok', mb: kb / 1024 };
  };
  const nodes = await cli({ tab, steps: [{ pageFunction: "document.querySelectorAll('*').length" }] }, env);
  return {
    elements: nodes.output.steps?.[0]?.output?.value,
    rows: [
      [
        'node -e 0 (floor)',
        await (async () => {
          const file = join(dir, 'rss-floor.txt');
          await new Promise((resolve) =>
            spawn(process.execPath, ['--import', RSS_PROBE, '-e', '0'], {
              env: { ...env, CDP_BENCH_RSS_FILE: file },
            }).on('close', resolve),
          );
          return { ms: 0, ok: true, mb: Number(await readFile(file, 'utf8')) / 1024 };
        })(),
      ],
      ['pageFunction (+capture)', await measure({ tab, steps: [{ pageFunction: 'document.title' }] })],
      ['snapshot (full page)', await measure({ tab, steps: [{ snapshot: { detail: 'full' } }] })],
      ['scroll bottom (+capture)', await measure({ tab, steps: [{ scroll: 'bottom' }] })],
    ],
  };
}

async function main() {
  const server = await startFixtureServer();
  const dir = await mkdtemp(join(tmpdir(), 'cdp-skill-bench-conc-'));
  const env = { ...process.env, TMPDIR: dir, CDP_SKILL_HEADLESS: '1' };
  delete env.CDP_METRICS_FILE;
  const port = await freePort();
  try {
    const up = await cli({ steps: [{ chromeStatus: { port } }] }, env);
    if (up.output.status !== 'ok') throw new Error(`Chrome did not start: ${JSON.stringify(up.output)}`);
    const ctx = { env, baseUrl: server.url, port, calls: [] };
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: AGENTS }, (_, i) => agent(i, ctx)));
    const wallMs = Date.now() - started;
    const aliases = results.map((r) => r.tab).filter(Boolean);
    const registry = JSON.parse(await readFile(join(dir, 'cdp-skill', 'tabs.json'), 'utf8'));
    const failures = results.flatMap((r) => r.failures);
    if (new Set(aliases).size !== AGENTS) failures.push(`aliases: ${aliases.join(', ')} (lost or duplicated)`);
    const targets = aliases.map((a) => registry.tabs[a]?.targetId);
    if (targets.some((t) => !t) || new Set(targets).size !== AGENTS)
      failures.push('registry: an alias is missing or two share a target');
    // Nobody else opened a tab: any other alias in the registry was made up (Chrome's first tab has none).
    const madeUp = Object.keys(registry.tabs).filter((a) => !aliases.includes(a));
    if (madeUp.length) failures.push(`registry: ${madeUp.join(', ')} handed to nobody`);
    const sorted = [...ctx.calls].sort((a, b) => a - b);
    console.log(
      `\n${AGENTS} agents × ${CALLS} calls on their own tabs in one Chrome (${ctx.calls.length} calls, ${(wallMs / 1000).toFixed(1)} s):`,
    );
    console.log(`  calls/s sustained  ${(ctx.calls.length / (wallMs / 1000)).toFixed(2)}`);
    console.log(`  failures           ${failures.length}`);
    console.log(
      `  latency ms         p50 ${percentile(sorted, 50).toFixed(0)}  p95 ${percentile(sorted, 95).toFixed(0)}  max ${sorted.at(-1).toFixed(0)}`,
    );
    console.log(
      `  aliases            ${aliases.join(' ')} (distinct, all in the registry, none made up: ${failures.every((f) => !/^aliases|^registry/.test(f))})`,
    );
    for (const f of failures.slice(0, 10)) console.log(`  ! ${f}`);

    const rss = await peakRss(env, server.url, port, dir);
    console.log(`\nPeak RSS of one CLI command on /generated?n=${ELEMENTS} (${rss.elements} DOM elements):`);
    for (const [name, r] of rss.rows)
      console.log(
        `  ${name.padEnd(26)} ${r.mb.toFixed(1).padStart(6)} MB${r.ms ? `  ${r.ms.toFixed(0)} ms` : ''}${r.ok ? '' : '  (FAILED)'}`,
      );
    process.exitCode = failures.length ? 1 : 0;
  } finally {
    await closeChrome(port);
    await server.close();
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }).catch(() => undefined);
  }
}

await main();
