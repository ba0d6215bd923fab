#!/usr/bin/env node
// Agent workflows end to end (issue 7): each runs through the built CLI exactly as an agent would —
// one process per call — against the fixture server and a private headless Chromium. For each:
// calls, total wall time, per-call min/median/p95, total stdout bytes, and whether the final page
// state is right, checked through our own CDP connection rather than by believing the CLI. Then
// the bytes of every answer field over all workflows' calls: what agents pay for, field by field.
// Usage: node bench/workflows.mjs [--repeat 3] [--only login] [--dump answers.jsonl]

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  benchSession,
  cli,
  formatTable,
  loadAverage,
  pageValue,
  percentile,
  positiveInt,
  runBench,
  timeNode,
} from './lib.mjs';

const LOGIN_BYTES_TARGET = 4_096; // issue 7: workflow (1) total stdout

/** Each workflow: its calls (given the tab alias once opened) and the check of the final state. */
function workflows(base, port) {
  const open = (path) => ({ steps: [{ openTab: { url: `${base}/${path}`, port } }] });
  return [
    {
      name: 'login',
      page: 'login.html',
      calls: [
        () => open('login.html'),
        (tab) => ({
          tab,
          steps: [{ fill: { Email: 'ann@example.com', Password: 'hunter2' } }, { click: { text: 'Sign in' } }],
        }),
        (tab) => ({ tab, steps: [{ snapshotSearch: { text: 'Signed in' } }] }),
      ],
      check: "document.getElementById('who').textContent === 'Signed in as ann@example.com'",
    },
    {
      name: 'search-and-extract',
      page: 'search.html',
      calls: [
        () => open('search.html'),
        (tab) => ({
          tab,
          steps: [
            { type: { label: 'Search products', text: 'blue' } },
            { wait: { selector: '#results tbody tr' } },
            { extract: { selector: '#results' } },
          ],
        }),
      ],
      check: "document.querySelectorAll('#results tbody tr').length === 6",
      verify: (outputs) => JSON.stringify(outputs.at(-1).steps.at(-1).output).includes('Blue teapot'),
    },
    {
      name: 'form',
      page: 'order-form.html',
      calls: [
        () => open('order-form.html'),
        (tab) => ({
          tab,
          steps: [
            { selectOption: { selector: '#size', value: 'm' } },
            { click: { text: 'Gift wrap' } },
            { fill: { label: 'Delivery date', value: '2026-12-24' } },
            { click: { text: 'Place order' } },
          ],
        }),
      ],
      check: "document.getElementById('done').textContent === 'Ordered size m, gift yes, on 2026-12-24'",
    },
    {
      name: 'drag reorder',
      page: 'drag-mouse.html',
      calls: [
        () => open('drag-mouse.html'),
        (tab) => ({ tab, steps: [{ drag: { source: '#list li:nth-child(1)', target: '#list li:nth-child(3)' } }] }),
      ],
      check:
        "[...document.querySelectorAll('#list li')].map((li) => li.textContent).join(',') === 'Two,Three,One,Four'",
    },
    {
      name: '30-call session',
      page: 'actions.html',
      calls: [() => open('actions.html'), ...sessionCalls()],
      check:
        "window.__events.filter((e) => e === 'save').length === 4 && document.getElementById('name').value === 'Ann 3'",
    },
  ];
}

/** 29 calls an agent might make on one page: acting, reading, scrolling — one step each. */
function sessionCalls() {
  const cycle = (i) => [
    (tab) => ({ tab, steps: [{ fill: { label: 'Full name', value: `Ann ${i}` } }] }),
    (tab) => ({ tab, steps: [{ click: '#save' }] }),
    (tab) => ({ tab, steps: [{ snapshot: { detail: 'interactive' } }] }),
    (tab) => ({ tab, steps: [{ scroll: 'bottom' }] }),
    (tab) => ({ tab, steps: [{ scroll: 'top' }] }),
    (tab) => ({ tab, steps: [{ pageFunction: 'document.title' }] }),
    (tab) => ({ tab, steps: [{ query: { selector: '#form input', limit: 3 } }] }),
  ];
  const calls = [0, 1, 2, 3].flatMap(cycle);
  calls.push((tab) => ({ tab, steps: [{ click: '#news' }] }));
  return calls;
}

/**
 * Bytes of an answer by field: each top-level field as it stands in the JSON text (key, value and
 * separator); `steps` split into the steps' outputs and the rest of each step record.
 */
export function fieldBytes(output) {
  const sizes = new Map();
  const add = (name, bytes) => sizes.set(name, (sizes.get(name) ?? 0) + bytes);
  for (const [key, value] of Object.entries(output)) {
    const bytes = Buffer.byteLength(JSON.stringify({ [key]: value })) - 1; // less the braces, plus a comma
    if (key !== 'steps' || !Array.isArray(value)) {
      add(key, bytes);
      continue;
    }
    const outputs = value.reduce(
      (n, step) => n + (step.output === undefined ? 0 : Buffer.byteLength(JSON.stringify({ output: step.output })) - 1),
      0,
    );
    add('steps[].output', outputs);
    add('steps (records)', bytes - outputs);
  }
  return sizes;
}

async function runWorkflow(wf, base, port, env) {
  const samples = [];
  const outputs = [];
  let tab;
  for (const call of wf.calls) {
    const r = await cli(call(tab), env);
    tab ??= r.output.tab;
    samples.push(r);
    outputs.push(r.output);
  }
  const right =
    (await pageValue(port, `${base}/${wf.page}`, wf.check)) === true && (wf.verify ? wf.verify(outputs) : true);
  await cli({ steps: [{ closeTab: tab }] }, env);
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    calls: samples.length,
    totalMs: ms.reduce((a, b) => a + b, 0),
    minMs: ms[0],
    medianMs: percentile(ms, 0.5),
    p95Ms: percentile(ms, 0.95),
    bytes: samples.reduce((a, s) => a + s.bytes, 0),
    right,
    fields: outputs.map(fieldBytes),
    outputs,
  };
}

/** Field, answers that carry it, its bytes in all of them, its share of all bytes, bytes per answer carrying it. */
function fieldTable(answers) {
  const totals = new Map();
  for (const sizes of answers) {
    for (const [name, bytes] of sizes) {
      const t = totals.get(name) ?? { answers: 0, bytes: 0 };
      totals.set(name, { answers: t.answers + 1, bytes: t.bytes + bytes });
    }
  }
  const all = [...totals.values()].reduce((n, t) => n + t.bytes, 0);
  const rows = [...totals]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([name, t]) => [
      name,
      t.answers,
      t.bytes,
      `${((100 * t.bytes) / all).toFixed(1)}%`,
      Math.round(t.bytes / t.answers),
    ]);
  return formatTable(['field', 'answers', 'bytes', 'share', 'per answer'], rows);
}

async function main() {
  const { values } = parseArgs({
    options: { repeat: { type: 'string', default: '3' }, only: { type: 'string' }, dump: { type: 'string' } },
  });
  const dumped = [];
  const repeat = positiveInt('repeat', values.repeat);
  const { server, env, port, close } = await benchSession();
  try {
    await cli({ steps: [{ chromeStatus: { port } }] }, env); // launch Chrome outside the timings
    const floor = [];
    for (let i = 0; i < 10; i++) floor.push((await timeNode(['-e', '0'], env)).ms);
    const nodeMs = percentile(
      floor.sort((a, b) => a - b),
      0.5,
    );
    const rows = [];
    const results = {};
    const answers = [];
    let allRight = true;
    for (const wf of workflows(server.url, port).filter((w) => !values.only || w.name === values.only)) {
      const runs = [];
      for (let i = 0; i < repeat; i++) runs.push(await runWorkflow(wf, server.url, port, env));
      answers.push(...runs[0].fields); // every repeat answers alike: one pass counts
      dumped.push(...runs[0].outputs.map((o, i) => JSON.stringify({ workflow: wf.name, call: i, answer: o })));
      const med = (key) =>
        percentile(
          runs.map((r) => r[key]).sort((a, b) => a - b),
          0.5,
        );
      const r = {
        calls: runs[0].calls,
        totalMs: med('totalMs'),
        minMs: med('minMs'),
        medianMs: med('medianMs'),
        p95Ms: med('p95Ms'),
        bytes: med('bytes'),
        right: runs.every((x) => x.right),
      };
      results[wf.name] = r;
      allRight &&= r.right;
      rows.push([
        wf.name,
        r.calls,
        r.totalMs.toFixed(0),
        r.minMs.toFixed(0),
        r.medianMs.toFixed(0),
        r.p95Ms.toFixed(0),
        (r.medianMs / nodeMs).toFixed(2),
        Math.round(r.bytes),
        r.right ? 'yes' : 'NO',
      ]);
    }
    console.log(
      `cdp-skill workflows — node ${process.version}, median of ${repeat} repeats, node -e 0 = ${nodeMs.toFixed(1)} ms, load ${await loadAverage()}\n`,
    );
    console.log(
      formatTable(['workflow', 'calls', 'total ms', 'min', 'median', 'p95', '×node', 'bytes', 'right'], rows),
    );
    console.log(`\nanswer bytes by field, all workflows (${answers.length} answers):\n${fieldTable(answers)}`);
    if (values.dump) writeFileSync(values.dump, `${dumped.join('\n')}\n`);
    const login = results.login?.bytes;
    if (login !== undefined)
      console.log(
        `\ntarget: login workflow stdout ≤ ${LOGIN_BYTES_TARGET} B: ${Math.round(login)} B — ${login <= LOGIN_BYTES_TARGET ? 'met' : 'NOT met'}`,
      );
    if (!allRight) {
      console.log('a workflow ended in the wrong page state');
      process.exitCode = 1;
    }
  } finally {
    await close();
  }
}

runBench(main);
