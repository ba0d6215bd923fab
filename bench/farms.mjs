#!/usr/bin/env node
// Per-call time on browser farms (issue 24), in one run: our own local Chrome, a Selenium Grid
// (standalone, and hub + node) and browserless (a browser kept open by a holding client), each
// with one agent and with four at once, as ratios to `node -e 0` on the same machine in the same
// run. A call is one CLI process: a click, or a read, on the agent's own tab. Opening the tab
// (a Grid session starts a Chrome) is timed apart.
// Usage: node bench/farms.mjs [--calls 10]

import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { farmsMissing, startBrowserless, startHubAndNode, startStandaloneGrid } from '../test/fixtures/farms.mjs';
import { benchSession, cli, formatTable, loadAverage, percentile, positiveInt, timeNode } from './lib.mjs';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '10' } } });
const CALLS = positiveInt('calls', args.calls);
const CAPS = { 'goog:chromeOptions': { args: ['--headless=new', '--no-sandbox', '--disable-gpu'] } };
const TOKEN = 'bench-token';

const median = (ms) =>
  percentile(
    [...ms].sort((a, b) => a - b),
    0.5,
  );
const p95 = (ms) =>
  percentile(
    [...ms].sort((a, b) => a - b),
    0.95,
  );

/** One agent: opens its tab, makes CALLS calls on it (click, read, …), closes it; the times. */
async function agent(env, openWith, url) {
  const opened = await cli({ timeout: 90_000, steps: [{ openTab: { url, ...openWith } }] }, env);
  const tab = opened.output.tab;
  const calls = [];
  for (let i = 0; i < CALLS; i++) {
    const step = i % 2 ? { pageFunction: 'location.search' } : { click: '#reveal' };
    calls.push((await cli({ tab, steps: [step] }, env)).ms);
  }
  await cli({ steps: [{ closeTab: tab }] }, env);
  return { openMs: opened.ms, calls };
}

async function measure(name, env, openWith, baseUrl, floorMs) {
  const one = await agent(env, openWith, `${baseUrl}/basic.html?bench=${encodeURIComponent(name)}`);
  const four = await Promise.all(
    [1, 2, 3, 4].map((i) => agent(env, openWith, `${baseUrl}/basic.html?bench=${encodeURIComponent(name)}&agent=${i}`)),
  );
  const fourCalls = four.flatMap((a) => a.calls);
  const row = (label, calls, openMs) => [
    `${name}, ${label}`,
    (openMs / 1000).toFixed(1),
    median(calls).toFixed(0),
    p95(calls).toFixed(0),
    `${(median(calls) / floorMs).toFixed(1)}×`,
  ];
  return [row('1 agent', one.calls, one.openMs), row('4 agents', fourCalls, median(four.map((a) => a.openMs)))];
}

/** A client holding a browser open on browserless (as a user's keeper process would); its endpoint. */
async function keepBrowserlessBrowser(url) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/?token=${TOKEN}&timeout=900000`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id;
  for (let i = 0; i < 50 && !id; i++) {
    const sessions = await (await fetch(`${url}/sessions?token=${TOKEN}`)).json();
    id = sessions.find((s) => s.type === 'browser')?.browserId;
    if (!id) await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint: `${url.replace('http', 'ws')}/devtools/browser/${id}?token=${TOKEN}&timeout=900000`,
    close: () => ws.close(),
  };
}

const session = await benchSession();
const farms = [];
try {
  const floor = [];
  for (let i = 0; i < 10; i++) floor.push((await timeNode(['-e', '0'], session.env)).ms);
  const floorMs = median(floor);
  const missing = farmsMissing();
  const rows = await measure('local Chrome', session.env, { port: session.port }, session.server.url, floorMs);
  if (missing.grid) console.log(`Grid skipped: ${missing.grid}`);
  else {
    const [standalone, hub] = await Promise.all([
      startStandaloneGrid(300, session.dir),
      startHubAndNode(300, session.dir),
    ]);
    farms.push(standalone, hub);
    for (const [name, grid] of [
      ['Grid standalone', standalone],
      ['Grid hub + node', hub],
    ])
      rows.push(
        ...(await measure(name, session.env, { grid: grid.url, capabilities: CAPS }, session.server.url, floorMs)),
      );
  }
  if (missing.browserless) console.log(`browserless skipped: ${missing.browserless}`);
  else {
    const bl = await startBrowserless(TOKEN, `${session.dir}/browserless`);
    farms.push(bl);
    const kept = await keepBrowserlessBrowser(bl.url);
    farms.push({ stop: async () => kept.close() });
    rows.push(
      ...(await measure(
        'browserless (kept browser)',
        session.env,
        { wsEndpoint: kept.endpoint },
        session.server.url,
        floorMs,
      )),
    );
  }
  console.log(
    `\nPer-call time on browser farms (${CALLS} calls per agent; node -e 0 = ${floorMs.toFixed(0)} ms; load ${await loadAverage()})\n`,
  );
  console.log(formatTable(['target', 'openTab s', 'median ms', 'p95 ms', 'median / node -e 0'], rows));
} finally {
  for (const farm of farms.reverse()) await farm.stop();
  await session.close();
}
