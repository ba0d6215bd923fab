#!/usr/bin/env node
// The fault matrix (issue 16): each fault injected for real against one private Chrome while three
// bystander agents keep tabs of their own. Per fault it prints the answer time against the timeout
// given, the answer's status/type, whether the registry kept every bystander's alias on its tab,
// and whether the bystanders' pages were untouched (read over a raw CDP socket, not through the
// CLI). Targets: every answer within timeout + 1 s, 0 cross-agent effects, 0 lost aliases.
// Usage: node bench/faults.mjs

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer } from '../test/fixtures/server.mjs';
import { CLI, closeChrome, freePort, getJson, privateEnv, removeDir } from './lib.mjs';
import WebSocket from 'ws';

const MARGIN_MS = 1_000;
const BYSTANDERS = 3;

/** One CLI call; `kill` may signal it mid-way. Never rejects: a failure is a figure. */
function run(command, env, { onSpawn } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, JSON.stringify(command)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    onSpawn?.(child);
    child.on('close', (code) => {
      let output;
      try {
        output = JSON.parse(Buffer.concat(out).toString('utf8'));
      } catch {
        output = { status: 'unparsable' };
      }
      resolve({ ms: Date.now() - started, endedAt: Date.now(), code, output });
    });
  });
}

async function evalIn(port, targetId, expression) {
  const target = (await getJson(port, '/json/list')).find((t) => t.id === targetId);
  if (!target) return undefined;
  return new Promise((resolve) => {
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    const timer = setTimeout(() => {
      ws.terminate();
      resolve(undefined);
    }, 5_000);
    ws.on('open', () =>
      ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } })),
    );
    ws.on('message', (m) => {
      clearTimeout(timer);
      ws.close();
      resolve(JSON.parse(m.toString()).result?.result?.value);
    });
    ws.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

function browserPid(port) {
  const r = spawnSync('pgrep', ['-f', `remote-debugging-port=${port}( |$)`], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .find((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type='));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { dir, env } = await privateEnv();
  const state = join(dir, 'cdp-skill');
  const registryFile = join(state, 'tabs.json');
  const registry = () => {
    try {
      return JSON.parse(readFileSync(registryFile, 'utf8'));
    } catch {
      return { tabs: {} };
    }
  };
  const server = await startFixtureServer();
  const port = await freePort();
  const base = server.url;
  const issued = new Set();
  const open = async (path) => {
    const r = await run({ steps: [{ openTab: { url: `${base}/${path}`, port } }] }, env);
    if (r.output.status !== 'ok') throw new Error(`openTab failed: ${JSON.stringify(r.output)}`);
    issued.add(r.output.tab);
    return { tab: r.output.tab, targetId: registry().tabs[r.output.tab].targetId };
  };
  try {
    await run({ steps: [{ chromeStatus: { port } }] }, env);
    const bystanders = [];
    for (let i = 1; i <= BYSTANDERS; i++) {
      const b = await open(`basic.html?agent=b${i}`);
      await run({ tab: b.tab, steps: [{ fill: { selector: '#name', value: `bystander ${i}` } }] }, env);
      bystanders.push({ ...b, expected: `bystander ${i}|?agent=b${i}` });
    }
    /** Every bystander's alias still on its tab, and its page as it left it. */
    const check = async () => {
      const reg = registry();
      let lost = 0;
      let touched = 0;
      for (const b of bystanders) {
        if (reg.tabs?.[b.tab]?.targetId !== b.targetId) lost++;
        const value = await evalIn(port, b.targetId, "document.querySelector('#name').value + '|' + location.search");
        if (value !== b.expected) touched++;
      }
      const targets = Object.values(reg.tabs ?? {}).map((e) => e.targetId);
      const duplicated = targets.length - new Set(targets).size;
      // An alias in the registry that no answer ever named was made up (Chrome's first tab has none).
      const madeUp = Object.keys(reg.tabs ?? {}).filter((a) => !issued.has(a));
      return { lost, touched, duplicated, madeUp };
    };
    const victim = () => open('basic.html?victim=1');

    const faults = [
      [
        'registry {"nextId":"x"} + openTab',
        5_000,
        async () => {
          writeFileSync(registryFile, JSON.stringify({ nextId: 'x', tabs: {}, browsers: {} }));
          const r = await run({ timeout: 5_000, steps: [{ openTab: { url: `${base}/page2.html`, port } }] }, env);
          const reused = issued.has(r.output.tab);
          issued.add(r.output.tab);
          return { ...r, note: reused ? `REUSED ${r.output.tab}` : `new alias ${r.output.tab}` };
        },
      ],
      [
        'registry emptied (valid shape, nextId 1) + openTab',
        5_000,
        async () => {
          writeFileSync(registryFile, JSON.stringify({ nextId: 1, tabs: {}, browsers: {} }));
          const r = await run({ timeout: 5_000, steps: [{ openTab: { url: `${base}/page2.html`, port } }] }, env);
          const reused = issued.has(r.output.tab);
          issued.add(r.output.tab);
          return { ...r, note: reused ? `REUSED ${r.output.tab}` : `new alias ${r.output.tab}` };
        },
      ],
      [
        'registry is a directory + command on a bystander',
        5_000,
        async () => {
          rmSync(registryFile, { force: true });
          mkdirSync(join(registryFile, 'x'), { recursive: true });
          return run({ tab: bystanders[0].tab, timeout: 5_000, steps: [{ pageFunction: 'location.search' }] }, env);
        },
      ],
      [
        'registry garbage + listTabs',
        5_000,
        async () => {
          writeFileSync(registryFile, '\u0000{{{ not json');
          return run({ timeout: 5_000, steps: [{ listTabs: { port } }] }, env);
        },
      ],
      [
        '"tab": "__proto__"',
        5_000,
        () => run({ tab: '__proto__', timeout: 5_000, steps: [{ pageFunction: '1' }] }, env),
      ],
      ['closeTab "constructor"', 5_000, () => run({ timeout: 5_000, steps: [{ closeTab: 'constructor' }] }, env)],
      [
        'closeTab racing a 3 s command (timeout 1000)',
        1_000,
        async () => {
          const v = await victim();
          const busy = run({ tab: v.tab, steps: [{ pageFunction: "document.title = 'held'" }, { wait: 3_000 }] }, env);
          while ((await evalIn(port, v.targetId, 'document.title')) !== 'held') await sleep(50);
          const r = await run({ timeout: 1_000, steps: [{ closeTab: v.tab }] }, env);
          const held = await busy;
          return {
            ...r,
            note: `running command: ${held.output.status}; tab still open: ${(await evalIn(port, v.targetId, '1')) === 1}`,
          };
        },
      ],
      [
        'frozen Chrome (SIGSTOP) + openTab',
        2_000,
        () =>
          frozen(port, () => run({ timeout: 2_000, steps: [{ openTab: { url: `${base}/page2.html`, port } }] }, env)),
      ],
      [
        'frozen Chrome (SIGSTOP) + pageFunction on a tab',
        2_000,
        () => frozen(port, () => run({ tab: bystanders[1].tab, timeout: 2_000, steps: [{ pageFunction: '1' }] }, env)),
      ],
      [
        'frozen Chrome (SIGSTOP) + goto',
        3_000,
        async () => {
          const v = await victim();
          return frozen(port, () => run({ tab: v.tab, timeout: 3_000, steps: [{ goto: `${base}/page2.html` }] }, env));
        },
      ],
      [
        'alert loop (goto)',
        2_000,
        async () => {
          const v = await victim();
          const r = await run(
            { tab: v.tab, timeout: 2_000, steps: [{ goto: 'data:text/html,<script>for(;;)alert(1)</script>' }] },
            env,
          );
          return { ...r, note: r.output.navigated ? 'claims navigated' : 'no false navigated' };
        },
      ],
      [
        'load that never ends (goto)',
        3_000,
        async () => {
          const v = await victim();
          return run({ tab: v.tab, timeout: 3_000, steps: [{ goto: `${base}/never` }] }, env);
        },
      ],
      [
        'infinite loop (pageFunction)',
        2_000,
        async () => {
          const v = await victim();
          return run({ tab: v.tab, timeout: 2_000, steps: [{ pageFunction: '() => { while (true) {} }' }] }, env);
        },
      ],
      [
        'renderer crash (chrome://crash)',
        5_000,
        async () => {
          const v = await victim();
          const r = await run({ tab: v.tab, timeout: 5_000, steps: [{ goto: 'chrome://crash' }] }, env);
          return { ...r, note: r.output.steps?.[0]?.errorType };
        },
      ],
      [
        'SIGTERM mid-command (answer after signal)',
        1_000,
        async () => {
          const v = await victim();
          let child;
          const pending = run(
            { tab: v.tab, steps: [{ pageFunction: "document.title = 'held'" }, { wait: 20_000 }] },
            env,
            {
              onSpawn: (c) => {
                child = c;
              },
            },
          );
          while ((await evalIn(port, v.targetId, 'document.title')) !== 'held') await sleep(50);
          const sentAt = Date.now();
          child.kill('SIGTERM');
          const r = await pending;
          const next = await run({ tab: v.tab, timeout: 5_000, steps: [{ pageFunction: '1' }] }, env);
          return {
            ...r,
            ms: r.endedAt - sentAt,
            note: `next command on the tab: ${next.output.status} in ${next.ms} ms`,
          };
        },
      ],
      [
        'tab closed by another program mid-command (answer after close)',
        1_000,
        async () => {
          const v = await victim();
          const pending = run(
            { tab: v.tab, steps: [{ pageFunction: "document.title = 'held'" }, { wait: 20_000 }] },
            env,
          );
          while ((await evalIn(port, v.targetId, 'document.title')) !== 'held') await sleep(50);
          const closedAt = Date.now();
          await fetch(`http://127.0.0.1:${port}/json/close/${v.targetId}`);
          const r = await pending;
          return { ...r, ms: r.endedAt - closedAt, note: String(r.output.error?.message ?? '').slice(0, 60) };
        },
      ],
      [
        'javascript: URL (goto)',
        5_000,
        () =>
          run(
            {
              tab: bystanders[2].tab,
              timeout: 5_000,
              steps: [{ goto: "javascript:document.querySelector('#name').value='x'" }],
            },
            env,
          ),
      ],
      [
        'bogus host "127.0.0.1:9690/x?"',
        5_000,
        () => run({ timeout: 5_000, steps: [{ openTab: { url: 'about:blank', host: '127.0.0.1:9690/x?' } }] }, env),
      ],
    ];

    const rows = [];
    for (const [name, timeout, inject] of faults) {
      let r;
      try {
        r = await inject();
      } catch (err) {
        r = { ms: NaN, output: { status: 'bench error', error: { message: err.message } } };
      }
      if (typeof r.output?.tab === 'string') issued.add(r.output.tab); // handed out, even with an error
      const c = await check();
      const type = r.output.error?.type ?? (r.output.status === 'ok' ? 'ok' : r.output.status);
      rows.push({
        name,
        timeout,
        ms: Math.round(r.ms),
        within: r.ms <= timeout + MARGIN_MS,
        type,
        ...c,
        note: r.note ?? '',
      });
    }
    const pad = (s, n) => String(s).padEnd(n);
    console.log(
      `${pad('fault', 60)} ${pad('timeout', 8)} ${pad('answer', 8)} ${pad('≤+1s', 5)} ${pad('answer type', 12)} ${pad('lost', 5)} ${pad('touched', 8)} note`,
    );
    for (const r of rows) {
      console.log(
        `${pad(r.name, 60)} ${pad(r.timeout, 8)} ${pad(r.ms, 8)} ${pad(r.within ? 'yes' : 'NO', 5)} ${pad(r.type, 12)} ${pad(r.lost, 5)} ${pad(r.touched, 8)} ${r.note}`,
      );
    }
    const late = rows.filter((r) => !r.within);
    const lost = rows.reduce((n, r) => n + r.lost + r.duplicated, 0);
    const touched = rows.reduce((n, r) => n + r.touched, 0);
    const reused = rows.filter((r) => r.note.startsWith('REUSED')).length;
    const madeUp = [...new Set(rows.flatMap((r) => r.madeUp))];
    const worst = Math.max(...rows.map((r) => r.ms - r.timeout));
    console.log(
      `\n${rows.length} faults: ${rows.length - late.length} answered within timeout + 1 s (worst overshoot ${worst} ms); ` +
        `cross-agent effects ${touched}; lost or duplicated aliases ${lost}; reused aliases ${reused}; ` +
        `aliases handed to nobody ${madeUp.length ? madeUp.join(', ') : 0}`,
    );
    process.exitCode = late.length || lost || touched || reused || madeUp.length ? 1 : 0;
  } finally {
    const pid = browserPid(port);
    if (pid) process.kill(pid, 'SIGCONT');
    await closeChrome(port);
    await server.close();
    await removeDir(dir);
  }
}

/** Runs `fn` while the browser process is stopped, then thaws it. */
async function frozen(port, fn) {
  const pid = browserPid(port);
  process.kill(pid, 'SIGSTOP');
  try {
    return await fn();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}

await main();
