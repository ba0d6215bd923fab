#!/usr/bin/env node
// Issue 21's network workflows, before and after, through the built CLI as an agent runs them — one
// process per call — against the fixture server (test/fixtures/routes/network.mjs) and a private
// headless Chromium. "Find why Save fails": before, the click's answer said only `422`, and the
// agent re-sent the request by hand in pageFunction to read the body (sending the PUT twice);
// after, the click's own answer carries the body. "What did the poller fetch while I was away":
// before, a pageFunction over the page's resource timing by hand; after, one `network` step.
// Each: calls, wall time, stdout bytes, whether the answer named the cause (checked against the
// server's own record), and how many PUTs reached the server. Figures also as ratios to `node -e 0`.
// Usage: node bench/workflows-21.mjs [--repeat 5] [--before path/to/old/dist/cli.js]
// (--before: the "before" workflows run on that build, e.g. main's before this work; default this one)

import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import {
  benchSession,
  CLI,
  cli,
  formatTable,
  loadAverage,
  nodeFloorMs,
  percentile,
  positiveInt,
  runBench,
} from './lib.mjs';

const CAUSE = 'timezone: unknown zone';

/** A workflow: its calls given the tab, and how to tell from the answers that the agent found the cause. */
function workflows(base, port) {
  const open = (path) => ({ steps: [{ openTab: { url: `${base}/${path}`, port } }] });
  const resend =
    "fetch('/net/api/settings', {method: 'PUT', headers: {'Content-Type': 'application/json'}, " +
    "body: JSON.stringify({timezone: document.getElementById('tz').value})}).then(async (r) => r.status + ' ' + await r.text())";
  const timing =
    "performance.getEntriesByType('resource').filter((e) => e.name.includes('/net/api/'))" +
    '.map((e) => ({url: e.name, status: e.responseStatus})).reverse()';
  return [
    {
      name: 'why Save fails — before',
      before: true,
      page: 'net/settings',
      calls: [
        () => open('net/settings'),
        (tab) => ({ tab, steps: [{ click: '#save' }] }),
        (tab) => ({ tab, steps: [{ pageFunction: resend }] }),
      ],
      found: (answers) => answers.at(-1).steps[0].output.value.includes(CAUSE),
    },
    {
      name: 'why Save fails — after',
      page: 'net/settings',
      calls: [() => open('net/settings'), (tab) => ({ tab, steps: [{ click: '#save' }] })],
      found: (answers) => answers.at(-1).network?.failed?.[0]?.body?.includes(CAUSE) === true,
    },
    {
      name: 'requests between calls — before',
      before: true,
      page: 'net/poll?count=12&every=20',
      calls: [() => open('net/poll?count=12&every=20'), (tab) => ({ tab, steps: [{ pageFunction: timing }] })],
      polls: 11,
      found: (answers) => answers.at(-1).steps[0].output.value.filter((e) => e.status === 404).length === 3,
    },
    {
      name: 'requests between calls — after',
      page: 'net/poll?count=12&every=20',
      calls: [
        () => open('net/poll?count=12&every=20'),
        (tab) => ({ tab, steps: [{ network: { url: '/net/api/', status: '4xx' } }] }),
      ],
      polls: 11,
      found: (answers) => answers.at(-1).steps[0].output.requests.length === 3,
    },
  ];
}

/** Until the server has seen `n` polls (the page's timer makes them while no call runs): waits on the server, not a clock. */
async function polled(base, n) {
  for (let i = 0; i < 200; i++) {
    const log = await (await fetch(`${base}/net/log`)).json();
    if (log.filter((l) => l.path.startsWith('/net/api/')).length >= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the server never saw ${n} polls`);
}

/** The server's record of PUTs to /net/api/settings since the last look (the log is then cleared). */
async function putsSeen(base) {
  const log = await (await fetch(`${base}/net/log?clear=1`)).json();
  return log.filter((l) => l.method === 'PUT').length;
}

async function runOnce(w, base, cliPath, env) {
  await putsSeen(base);
  const answers = [];
  let ms = 0;
  let bytes = 0;
  let tab;
  for (const [i, step] of w.calls.entries()) {
    if (w.polls && i === w.calls.length - 1) await polled(base, w.polls);
    const r = await cli(step(tab), env, cliPath);
    ms += r.ms;
    bytes += r.bytes;
    answers.push(r.output);
    tab ??= r.output.tab;
  }
  const found = w.found(answers);
  await cli({ steps: [{ closeTab: tab }] }, env);
  return { ms, bytes, found, puts: await putsSeen(base) };
}

async function main() {
  const { values } = parseArgs({
    options: { repeat: { type: 'string', default: '5' }, before: { type: 'string', default: CLI } },
  });
  const repeat = positiveInt('repeat', values.repeat);
  const beforeCli = resolve(values.before);
  const { server, env, port, close } = await benchSession();
  try {
    await cli({ steps: [{ chromeStatus: { port } }] }, env); // launch Chrome outside the timings
    const nodeMs = await nodeFloorMs(env);
    const rows = [];
    for (const w of workflows(server.url, port)) {
      const runs = [];
      const cliPath = w.before ? beforeCli : CLI;
      for (let i = 0; i < repeat; i++) runs.push(await runOnce(w, server.url, cliPath, env));
      const ms = percentile(
        runs.map((r) => r.ms).sort((a, b) => a - b),
        0.5,
      );
      const bytes = percentile(
        runs.map((r) => r.bytes).sort((a, b) => a - b),
        0.5,
      );
      rows.push([
        w.name,
        w.calls.length,
        ms.toFixed(0),
        (ms / nodeMs).toFixed(1),
        bytes.toFixed(0),
        `${runs.filter((r) => r.found).length}/${runs.length}`,
        Math.max(...runs.map((r) => r.puts)),
      ]);
    }
    console.log(
      `cdp-skill issue 21 network workflows — node ${process.version}, median of ${repeat}, node -e 0 = ${nodeMs.toFixed(1)} ms, load ${await loadAverage()}`,
    );
    console.log(`"before" rows: ${beforeCli === CLI ? 'this build' : beforeCli}\n`);
    console.log(
      formatTable(
        ['workflow', 'calls', 'ms', '× node', 'bytes', 'cause found', 'PUTs sent'],
        rows.map((r) => r.map(String)),
      ),
    );
  } finally {
    await close();
  }
}

runBench(main);
