// What every benchmark shares: running the built CLI as an agent does (a child process with one JSON
// argument), a private Chrome per run, a raw CDP evaluation for checking page state independently of
// the CLI, and order statistics.

import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startFixtureServer } from '../test/fixtures/server.mjs';

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CHILD_TIMEOUT_MS = 120_000;
const CLOSE_TIMEOUT_MS = 5_000;
const EVAL_TIMEOUT_MS = 10_000;

/** Spawns `node ...args` (async, so an in-process fixture server keeps answering) and times it. */
/** run.mjs's 5-step batch on actions.html: acting steps in a row (each later one starts once the page settled). */
export const BATCH5_STEPS = [
  { fill: { label: 'Email address', value: 'ann@example.com' } },
  { fill: { '#city': 'Paris' } },
  { selectOption: { selector: '#country', value: 'fr' } },
  { click: '#news' },
  { click: { text: 'Save draft' } },
];

export function timeNode(args, env) {
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

/** One CLI invocation (of this build, or of the CLI at `cliPath`); rejects unless the answer says "ok". */
export async function cli(command, env, cliPath = CLI) {
  const sample = await timeNode([cliPath, JSON.stringify(command)], env);
  const output = JSON.parse(sample.stdout);
  if (output.status !== 'ok') throw new Error(`CLI failed on ${JSON.stringify(command)}: ${sample.stdout}`);
  return { ...sample, output };
}

/** One CLI call whose answer is the result, ok or not (an honest failure is a result too). */
export function answer(command, env, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, JSON.stringify(command)],
      { env, timeout: timeoutMs, maxBuffer: 8 << 20 },
      (err, stdout) => {
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(err ?? new Error(`unparsable answer: ${stdout}`));
        }
      },
    );
  });
}

export async function getJson(port, path) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return res.json();
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Closes the Chrome on `port` with Browser.close; nothing to do if none answers. */
export async function closeChrome(port) {
  const version = await getJson(port, '/json/version').catch(() => undefined);
  if (!version) return;
  const ws = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'Browser.close' })));
    ws.on('error', resolve); // already gone: nothing left to close
    ws.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A private TMPDIR (registry, screenshots) so a run never touches the user's tabs. */
export async function privateEnv() {
  const dir = await mkdtemp(join(tmpdir(), 'cdp-skill-bench-'));
  const env = { ...process.env, TMPDIR: dir, CDP_SKILL_HEADLESS: '1', CDP_SKILL_PROFILES: 'off' };
  delete env.CDP_SKILL_PORT; // no port named: cdp-skill's own Chrome
  return { dir, env };
}

export const removeDir = (dir) => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });

/** A command-line count (--runs, --repeat): a whole number ≥ 1, or a clear error. */
export function positiveInt(flag, text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${flag} must be a positive integer, got "${text}"`);
  return n;
}

/** The value of `expression` in the page whose URL starts with `urlPrefix`, read over our own CDP socket. */
export async function pageValue(port, urlPrefix, expression) {
  const targets = await getJson(port, '/json/list');
  const target = targets.find((t) => t.type === 'page' && t.url.startsWith(urlPrefix));
  if (!target) throw new Error(`no page at ${urlPrefix}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`evaluating ${expression} timed out`)), EVAL_TIMEOUT_MS);
      ws.on('error', reject);
      ws.on('open', () =>
        ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } })),
      );
      ws.on('message', (data) => {
        const msg = JSON.parse(data.toString());
        if (msg.id !== 1) return;
        clearTimeout(timer);
        if (msg.error || msg.result.exceptionDetails)
          reject(new Error(`evaluating ${expression}: ${JSON.stringify(msg.error ?? msg.result.exceptionDetails)}`));
        else resolve(msg.result.result.value);
      });
    });
  } finally {
    ws.close();
  }
}

/** The floor figures are given against: the median wall time of `node -e 0` over `runs` starts. */
export async function nodeFloorMs(env, runs = 10) {
  const floor = [];
  for (let i = 0; i < runs; i++) floor.push((await timeNode(['-e', '0'], env)).ms);
  return percentile(
    floor.sort((a, b) => a - b),
    0.5,
  );
}

/** Value at fraction p of sorted numbers, interpolating between neighbours. */
export function percentile(sorted, p) {
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export function summarize(samples) {
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

/** A plain table: first column left-aligned, the rest right-aligned. */
export function formatTable(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

/** The 1-minute load average, printed beside figures so noisy runs are recognisable. */
export async function loadAverage() {
  const { loadavg } = await import('node:os');
  return loadavg()[0].toFixed(2);
}

/**
 * What a benchmark runs against: the fixture server, a private TMPDIR and a free port for its own
 * Chrome (launched by the first call). `close()` shuts all three down.
 */
export async function benchSession() {
  const server = await startFixtureServer();
  const { dir, env } = await privateEnv();
  const port = await freePort();
  const close = async () => {
    await closeChrome(port);
    await server.close();
    await removeDir(dir);
  };
  return { server, dir, env, port, close };
}

/** Runs a benchmark's main(): a failure prints its stack and sets exit code 1. */
export function runBench(main) {
  main().catch((err) => {
    console.error(err.stack ?? err);
    process.exitCode = 1;
  });
}

/** One CLI invocation as an agent makes it: the answer, whatever its status (an error answer is read too). */
export function answerOf(command, env) {
  return timeNode([CLI, JSON.stringify(command)], env).then(
    (s) => JSON.parse(s.stdout),
    (err) => {
      // A step that failed exits 1 with its answer on stdout.
      const json = /exited with \d+:\n(\{[\s\S]*\})/.exec(err.message)?.[1];
      if (json) return JSON.parse(json.split('\n')[0]);
      throw err;
    },
  );
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A player for one tab, as an agent with today's steps: counts calls (and error answers) and finds an
 * element's ref by role and name in the last answer, with a snapshot call when none shows it.
 */
export function refPlayer(tab, env) {
  const p = {
    calls: 0,
    errors: 0,
    async play(steps) {
      p.calls++;
      p.last = await answerOf({ tab, steps }, env);
      if (p.last.status !== 'ok') p.errors++;
      return p.last;
    },
    async ref(role, name) {
      const re = new RegExp(`${role} "${escapeRegExp(name)}[^"\\n]*"[^\\n]*?\\[ref=(s\\d+e\\d+)\\]`);
      const text = JSON.stringify(p.last ?? {})
        .replaceAll('\\"', '"')
        .replaceAll('\\n', '\n');
      const inAnswer = re.exec(text);
      if (inAnswer) return inAnswer[1];
      const look = await p.play([{ snapshot: { root: 'body' } }]);
      const found = re.exec(look.steps?.[0]?.output?.yaml ?? '');
      if (!found) throw new Error(`no ${role} "${name}" to click`);
      return found[1];
    },
  };
  return p;
}
