#!/usr/bin/env node
// The MCP front against the CLI in one run (issue 25): per call — a click with its capture, a
// read-only call, a snapshot — through a warm MCP server (the SDK's client over stdio, as an
// agent's client spawns it), through the CLI (one process per call), and `node -e 0`, interleaved
// so a loaded machine's drift hits all alike; and the bytes of tools/list. With --compare, also
// the tools/list bytes of @playwright/mcp and chrome-devtools-mcp, installed into a temp folder.
// Usage: node bench/mcp.mjs [--runs 20] [--compare]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CLI,
  benchSession,
  cli,
  formatTable,
  loadAverage,
  percentile,
  positiveInt,
  removeDir,
  runBench,
  timeNode,
} from './lib.mjs';

const GOAL = 0.5; // issue 25: a warm click with capture and a read-only call each ≤ half the CLI's

async function connect(command, args, env) {
  const client = new Client({ name: 'cdp-skill-bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'ignore' }));
  return client;
}

/** One timed tool call; rejects unless the answer is ok. */
async function mcpCall(client, args) {
  const started = process.hrtime.bigint();
  const r = await client.callTool({ name: 'browser', arguments: args });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const text = r.content[0].text;
  if (r.isError || JSON.parse(text).status !== 'ok') throw new Error(`MCP call failed: ${text}`);
  return { ms, bytes: Buffer.byteLength(text) };
}

const listBytes = async (client) => Buffer.byteLength(JSON.stringify(await client.listTools()));

/** The package's own command (its package.json's bin). */
function binOf(dir, pkg) {
  const root = join(dir, 'node_modules', ...pkg.split('/'));
  const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, typeof bin === 'string' ? bin : Object.values(bin)[0]);
}

/**
 * tools/list bytes of another MCP server, installed from npm into a temp folder (not a project
 * dependency; install scripts off: no browser download). Listing tools starts no browser.
 */
async function otherServer(pkg, args) {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-skill-mcp-compare-'));
  try {
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, pkg], {
      encoding: 'utf8',
    });
    if (r.status !== 0) return { pkg, error: (r.stderr || r.stdout).trim().split('\n').pop() };
    const client = await connect(process.execPath, [binOf(dir, pkg), ...args], process.env);
    try {
      const { tools } = await client.listTools();
      return { pkg, tools: tools.length, bytes: Buffer.byteLength(JSON.stringify({ tools })) };
    } finally {
      await client.close();
    }
  } catch (err) {
    return { pkg, error: err.message };
  } finally {
    await removeDir(dir);
  }
}

async function measure(runs) {
  const session = await benchSession();
  const { server, env, port } = session;
  const mcp = await connect(process.execPath, [CLI, 'mcp'], env);
  try {
    const open = async (page) =>
      (await cli({ steps: [{ openTab: { url: `${server.url}/${page}`, port } }] }, env)).output.tab;
    const [viaCli, viaMcp] = [await open('actions.html'), await open('actions.html')];
    const kinds = {
      click: (tab) => ({ tab, steps: [{ click: '#save' }] }),
      readOnly: (tab) => ({ tab, steps: [{ query: '#save' }] }),
      snapshot: (tab) => ({ tab, steps: [{ snapshot: true }] }),
    };
    const samples = { node: [] };
    const round = async () => {
      samples.node.push(await timeNode(['-e', '0'], env));
      for (const [kind, command] of Object.entries(kinds)) {
        (samples[`cli ${kind}`] ??= []).push(await cli(command(viaCli), env));
        (samples[`mcp ${kind}`] ??= []).push(await mcpCall(mcp, command(viaMcp)));
      }
    };
    await round(); // warm-up: code caches, the server's connection and the tab's session
    for (const k of Object.keys(samples)) samples[k] = [];
    for (let i = 0; i < runs; i++) await round();
    return { samples, schemaBytes: await listBytes(mcp), kinds: Object.keys(kinds) };
  } finally {
    await mcp.close();
    await session.close();
  }
}

const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, compare: { type: 'boolean' } } });
  const runs = positiveInt('runs', values.runs);
  const load = [await loadAverage()];
  const { samples, schemaBytes, kinds } = await measure(runs);
  load.push(await loadAverage());
  const nodeMs = median(samples.node.map((s) => s.ms));
  console.log(`cdp-skill MCP bench — node ${process.version}, ${runs} runs, load ${load.join(' → ')}\n`);
  const rows = Object.entries(samples).map(([k, s]) => {
    const ms = median(s.map((x) => x.ms));
    return [
      k,
      s.length,
      ms.toFixed(1),
      percentile(
        [...s.map((x) => x.ms)].sort((a, b) => a - b),
        0.95,
      ).toFixed(1),
      (ms / nodeMs).toFixed(2),
      Math.round(median(s.map((x) => x.bytes))),
    ];
  });
  console.log(formatTable(['', 'runs', 'median ms', 'p95', '×node', 'bytes'], rows));
  console.log(`\ntools/list: ${schemaBytes} bytes (one tool; goal ≤ 5120)`);
  for (const k of kinds) {
    const ratio = median(samples[`mcp ${k}`].map((s) => s.ms)) / median(samples[`cli ${k}`].map((s) => s.ms));
    const goal = k === 'snapshot' ? '' : ` — goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'NOT met'}`;
    console.log(`MCP/CLI ${k}: ${ratio.toFixed(2)}${goal}`);
  }
  if (values.compare) {
    console.log('\ntools/list of other MCP servers (npm, temp folder):');
    for (const other of [
      await otherServer('@playwright/mcp', ['--headless']),
      await otherServer('chrome-devtools-mcp', ['--headless']),
    ])
      console.log(
        `  ${other.pkg}: ${other.error ? `not measured (${other.error})` : `${other.tools} tools, ${other.bytes} bytes`}`,
      );
  }
}

runBench(main);
