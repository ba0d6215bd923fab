#!/usr/bin/env node
// Issue 21 items 3–4, before and after: the calls an agent needs for "download the export and count
// its rows" and "log in once, reuse it in a fresh browser", through the built CLI (one process per
// call) against the fixture app and private headless Chromes. "Before" is today's vocabulary
// without `downloads`/`state` (the workaround a careful agent would find); "after" uses them. Each
// run is checked: the row count against the server's CSV, the fresh browser's page over our own CDP
// socket. Figures are ratios to `node -e 0` on this machine in this run.
// Usage: node bench/workflows-state.mjs [--repeat 3]

import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { csvRows } from '../test/fixtures/routes/state.mjs';
import {
  benchSession,
  cli,
  closeChrome,
  formatTable,
  freePort,
  loadAverage,
  pageValue,
  percentile,
  positiveInt,
  runBench,
  timeNode,
} from './lib.mjs';

const ROWS = 25; // the export behind "Download CSV"

/** Runs the calls in order (each may read the previous answers); the samples and answers. */
async function calls(list, env) {
  const samples = [];
  for (const call of list) samples.push(await cli(call(samples.map((s) => s.output)), env));
  return samples;
}

const rowsIn = (text) => text.trim().split('\n').length - 1;

/** Download the export and count its rows. */
function downloadVariants(base, port) {
  const page = `${base}/state/downloads.html`;
  return {
    // Today's vocabulary: no file is reported, so read the link and fetch it again inside the page
    // (works only for a plain GET link; a POST or a generated blob cannot be fetched twice).
    before: [
      () => ({ steps: [{ openTab: { url: page, port } }] }),
      ([o]) => ({ tab: o.tab, steps: [{ query: { selector: 'a#csv', output: 'href' } }] }),
      ([o, q]) => ({
        tab: o.tab,
        steps: [
          {
            pageFunction: `fetch(${JSON.stringify(q.steps[0].output.results[0].value)}).then((r) => r.text()).then((t) => t.trim().split('\\n').length - 1)`,
          },
        ],
      }),
    ],
    rowsBefore: (outputs) => outputs[2].steps[0].output.value,
    after: [
      () => ({ steps: [{ openTab: { url: page, port } }] }),
      ([o]) => ({ tab: o.tab, steps: [{ click: { text: 'Download CSV' }, download: true }] }),
    ],
    // The agent reads the file the answer names with its own tools.
    rowsAfter: (outputs) => rowsIn(readFileSync(outputs[1].downloads[0].path, 'utf8')),
  };
}

/** Log in once (setup, untimed), then reuse the login in a fresh Chrome. */
function loginVariants(base, tab, fresh, file) {
  const app = `${base}/state/app`;
  return {
    // Today's vocabulary: copy the cookies and storage by value through the answers (the session
    // cookie's value is echoed, and the agent must carry it into the next call).
    before: [
      () => ({
        tab,
        steps: [{ cookies: { get: true } }, { storage: { get: true } }, { storage: { get: true, type: 'session' } }],
      }),
      ([o]) => ({
        steps: [
          { openTab: { url: app, port: fresh } },
          { cookies: { set: o.steps[0].output.cookies.map(({ expires: _e, ...c }) => ({ ...c, url: app })) } },
          { storage: { set: o.steps[1].output.items } },
          { storage: { set: o.steps[2].output.items, type: 'session' } },
          { reload: true },
        ],
      }),
    ],
    after: [
      () => ({ tab, steps: [{ state: { save: file } }] }),
      () => ({ steps: [{ openTab: { url: 'about:blank', port: fresh } }, { state: { load: file } }, { goto: app }] }),
    ],
  };
}

/** Logs in through the app's form, in a context of its own (each run starts logged out). */
async function logIn(base, port, env, context) {
  const [o] = await calls([() => ({ steps: [{ openTab: { url: `${base}/state/app`, port, context } }] })], env);
  const tab = o.output.tab;
  await cli(
    {
      tab,
      steps: [
        { fill: { label: 'User', value: 'bench' } },
        { click: { text: 'Sign in' } },
        { wait: { text: 'Signed in as bench' } },
      ],
    },
    env,
  );
  const sessions = await (await fetch(`${base}/state/sessions`)).json();
  return { tab, sid: sessions.findLast((s) => s.user === 'bench').sid };
}

function summary(runs) {
  const med = (f) =>
    percentile(
      runs.map(f).sort((a, b) => a - b),
      0.5,
    );
  return {
    calls: runs[0].samples.length,
    totalMs: med((r) => r.samples.reduce((a, s) => a + s.ms, 0)),
    bytes: med((r) => r.samples.reduce((a, s) => a + s.bytes, 0)),
    echoed: runs.some((r) => r.echoed),
    right: runs.every((r) => r.right),
  };
}

async function downloadRuns(server, port, env, repeat) {
  const v = downloadVariants(server.url, port);
  const out = {};
  for (const [name, list, rows] of [
    ['before', v.before, v.rowsBefore],
    ['after', v.after, v.rowsAfter],
  ]) {
    const runs = [];
    for (let i = 0; i < repeat; i++) {
      const samples = await calls(list, env);
      const outputs = samples.map((s) => s.output);
      runs.push({ samples, echoed: false, right: rows(outputs) === ROWS && rowsIn(csvRows(ROWS)) === ROWS });
      await cli({ steps: [{ closeTab: outputs[0].tab }] }, env);
    }
    out[name] = summary(runs);
  }
  return out;
}

async function loginRuns(server, port, env, dir, repeat) {
  const out = {};
  for (const name of ['before', 'after']) {
    const runs = [];
    for (let i = 0; i < repeat; i++) {
      const { tab, sid } = await logIn(server.url, port, env, `login-${name}-${i}`);
      const fresh = await freePort();
      const v = loginVariants(server.url, tab, fresh, join(dir, `state-${name}-${i}.json`));
      const samples = await calls(v[name], env);
      const shown = await pageValue(fresh, `${server.url}/state/app`, 'document.querySelector("h1").textContent');
      runs.push({
        samples,
        echoed: samples.some((s) => s.stdout.includes(sid)),
        right: shown === 'Signed in as bench',
      });
      await closeChrome(fresh);
      await cli({ steps: [{ closeTab: tab }] }, env);
    }
    out[name] = summary(runs);
  }
  return out;
}

async function main() {
  const { values } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
  const repeat = positiveInt('repeat', values.repeat);
  const { server, dir, env, port, close } = await benchSession();
  env.HOME = join(dir, 'home'); // state files and profiles stay in the bench's own folder
  mkdirSync(env.HOME);
  try {
    await cli({ steps: [{ chromeStatus: { port } }] }, env); // launch Chrome outside the timings
    const floor = [];
    for (let i = 0; i < 10; i++) floor.push((await timeNode(['-e', '0'], env)).ms);
    const nodeMs = percentile(
      floor.sort((a, b) => a - b),
      0.5,
    );
    const results = {
      'download + count rows': await downloadRuns(server, port, env, repeat),
      'log in once, reuse in fresh Chrome': await loginRuns(server, port, env, dir, repeat),
    };
    const rows = Object.entries(results).flatMap(([workflow, r]) =>
      ['before', 'after'].map((variant) => [
        `${workflow} (${variant})`,
        r[variant].calls,
        r[variant].totalMs.toFixed(0),
        (r[variant].totalMs / nodeMs).toFixed(1),
        Math.round(r[variant].bytes),
        r[variant].echoed ? 'YES' : 'no',
        r[variant].right ? 'yes' : 'NO',
      ]),
    );
    console.log(
      `cdp-skill state workflows — node ${process.version}, median of ${repeat} repeats, node -e 0 = ${nodeMs.toFixed(1)} ms, load ${await loadAverage()}\n`,
    );
    console.log(formatTable(['workflow', 'calls', 'total ms', '×node', 'bytes', 'secret echoed', 'right'], rows));
    console.log(
      '\nbefore: download = query the link + fetch it again in the page (GET links only); login = cookies/storage copied by value through the answers.',
    );
    console.log(
      'after: download = click with "download": true, then read the file named in `downloads`; login = state save / load.',
    );
    if (Object.values(results).some((r) => !r.before.right || !r.after.right)) process.exitCode = 1;
  } finally {
    await close();
  }
}

runBench(main);
