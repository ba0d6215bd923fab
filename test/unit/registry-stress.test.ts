// The tab registry under concurrency and faults, with real processes on real files: agents (each
// a node process running src/cdp/tab-registry.ts, bundled here) register tabs at once, two at a
// time within each process; a seeded share of the writes into a lock file just created stalls
// 600 ms (as a loaded disk does), one agent is killed mid-run, and the registry file is damaged
// meanwhile (torn, wrong shape, a counter behind the claims, deleted), so reads and updates take
// the recovery paths while others register. The oracle is what each agent was handed, read from
// its own output, against the registry on disk afterwards:
//   - no alias is handed out twice;
//   - every alias handed out is in the registry, naming the tab it was handed out for;
//   - no alias appears that nobody was handed (only a killed agent's own tab may have one), and
//     the browser's own blank tab never gets one.
// The seed is in each problem reported. Before the fix (a lock created empty, then written, was
// taken over after 500 ms, and a registry behind the claims was rebuilt from the browser's tab
// list) both seeds lost aliases and made some up.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, unlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const src = new URL('../../src/cdp/tab-registry.ts', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'cdp-skill-registry-stress-'));
const BLANK = 'B'.repeat(32); // the tab a browser starts with: nobody registers it

/** mulberry32: the same seed, the same stalls, kill time and damage. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A disk that sometimes stalls a write into a lock file just created (a lock, or the file it is
// made from): with probability STALL_P the write first waits STALL_MS. Other writes run at speed,
// so the lock is held no longer than usual and nobody's wait runs out.
const SLOW_DISK = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
${generator.toString()}
const rand = generator(Number(process.env.STALL_SEED));
const p = Number(process.env.STALL_P), ms = Number(process.env.STALL_MS);
const lockFds = new Set();
const { openSync, writeSync, closeSync } = fs;
fs.openSync = function (path, ...rest) {
  const fd = openSync.call(this, path, ...rest);
  if (/\\.lock(\\.|$)/.test(String(path))) lockFds.add(fd);
  return fd;
};
fs.closeSync = function (fd) {
  lockFds.delete(fd);
  return closeSync.call(this, fd);
};
fs.writeSync = function (fd, ...rest) {
  if (lockFds.has(fd) && rand() < p) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return writeSync.call(this, fd, ...rest);
};
syncBuiltinESMExports();
`;

// An agent: opens its tabs in the browser (the fake one below), then registers them, two at once.
const AGENT = `
import { get } from 'node:http';
import { registerTab } from ${JSON.stringify(src)};
const [port, ...targets] = process.argv.slice(2);
const open = (id) => new Promise((resolve, reject) =>
  get({ host: '127.0.0.1', port: Number(port), path: '/create?id=' + id }, (res) => { res.resume(); res.on('end', resolve); }).on('error', reject));
for (let i = 0; i < targets.length; i += 2) {
  const pair = targets.slice(i, i + 2);
  await Promise.all(pair.map(open));
  const aliases = await Promise.all(pair.map((targetId) => registerTab({ targetId, host: '127.0.0.1', port: Number(port) })));
  pair.forEach((t, k) => process.stdout.write(t + '=' + aliases[k] + '\\n'));
}
`;

const READER = `
import { loadRegistry } from ${JSON.stringify(src)};
process.stdout.write(JSON.stringify(await loadRegistry()));
`;

let browser: Server;
let port = 0;
const live = new Set<string>([BLANK]);

beforeAll(async () => {
  writeFileSync(join(work, 'slow-disk.mjs'), SLOW_DISK);
  writeFileSync(join(work, 'agent.mjs'), AGENT);
  writeFileSync(join(work, 'reader.mjs'), READER);
  // Bundled with esbuild (the build uses it too): node 20 runs no TypeScript of its own.
  await build({
    entryPoints: [join(work, 'agent.mjs'), join(work, 'reader.mjs')],
    outdir: join(work, 'bundled'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  // The browser's tab list, as /json/list gives it: what a rebuild could ask for.
  browser = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/create') live.add(url.searchParams.get('id') ?? '');
    res.end(
      url.pathname === '/json/list'
        ? JSON.stringify(
            [...live].map((id) => ({ id, type: 'page', url: id === BLANK ? 'about:blank' : '/', title: '' })),
          )
        : '{}',
    );
  });
  await new Promise<void>((r) => browser.listen(0, '127.0.0.1', r));
  port = (browser.address() as { port: number }).port;
});
afterAll(() => {
  browser?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Outcome {
  out: string;
  err: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

function node(script: string, args: string[], env: NodeJS.ProcessEnv): { kill: () => void; done: Promise<Outcome> } {
  const child = spawn(process.execPath, ['--import', join(work, 'slow-disk.mjs'), script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return {
    kill: () => child.kill('SIGKILL'),
    done: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ out, err, code, signal }))),
  };
}

const AGENTS = 6;
const TABS_PER_AGENT = 4;

/** Damage done to tabs.json while agents work, the way another program or a bad disk would. */
const DAMAGE: Record<string, (file: string) => void> = {
  torn: (file) => truncateSync(file, Math.floor(readFileSync(file).length / 2)),
  'wrong shape': (file) => writeFileSync(file, JSON.stringify({ nextId: 'x', tabs: {}, browsers: {} })),
  'behind the claims': (file) => writeFileSync(file, JSON.stringify({ nextId: 1, tabs: {}, browsers: {} })),
  deleted: (file) => unlinkSync(file),
};

async function stress(seed: number): Promise<string[]> {
  const rand = generator(seed);
  const state = mkdtempSync(join(work, `state-${seed}-`));
  const env = { CDP_SKILL_STATE_DIR: state, STALL_P: '0.3', STALL_MS: '600' };
  const targets = Array.from({ length: AGENTS }, (_, a) =>
    Array.from({ length: TABS_PER_AGENT }, (_, k) => `${String(seed).padStart(8, '0')}${a}${k}`.padEnd(32, 'A')),
  );
  const victim = Math.floor(rand() * AGENTS);
  const runs = targets.map((mine) =>
    node(join(work, 'bundled', 'agent.mjs'), [String(port), ...mine], { ...env, STALL_SEED: String(rand() * 2 ** 31) }),
  );
  const timers = [setTimeout(() => runs[victim]!.kill(), 400 + rand() * 1200)];
  const kinds = Object.keys(DAMAGE);
  for (let i = 0; i < 3; i++) {
    const kind = kinds[Math.floor(rand() * kinds.length)]!;
    timers.push(
      setTimeout(
        () => {
          try {
            DAMAGE[kind]!(join(state, 'tabs.json'));
          } catch {
            /* no registry at that moment: nothing to damage */
          }
        },
        300 + rand() * 1500,
      ),
    );
  }
  const outcomes = await Promise.all(runs.map((r) => r.done));
  for (const t of timers) clearTimeout(t);

  const problems: string[] = [];
  const handed = new Map<string, string>(); // alias → target
  const unanswered = new Set<string>(); // tabs whose agent died or failed before naming their alias
  outcomes.forEach((o, a) => {
    const answered = new Set<string>();
    for (const line of o.out.split('\n').filter(Boolean)) {
      const [target, alias] = line.split('=') as [string, string];
      answered.add(target);
      if (handed.has(alias)) problems.push(`${alias} handed out twice: ${handed.get(alias)} and ${target}`);
      handed.set(alias, target);
    }
    for (const t of targets[a]!) if (!answered.has(t)) unanswered.add(t);
    if (o.code !== 0 && o.signal !== 'SIGKILL') problems.push(`agent ${a} failed: ${o.err.slice(0, 300)}`);
  });
  const reader = await node(join(work, 'bundled', 'reader.mjs'), [], { ...env, STALL_P: '0', STALL_SEED: '1' }).done;
  if (reader.code !== 0) throw new Error(`seed ${seed}: reading the registry failed: ${reader.err}`);
  for (const o of outcomes) if (o.code !== 0 && o.signal !== 'SIGKILL') console.log(o.err);
  const registry = JSON.parse(reader.out) as { tabs: Record<string, { targetId: string }> };
  for (const [alias, target] of handed) {
    const entry = registry.tabs[alias];
    if (!entry) problems.push(`${alias} (${target}) was handed out but is not in the registry`);
    else if (entry.targetId !== target) problems.push(`${alias} names ${entry.targetId}, handed out for ${target}`);
  }
  for (const [alias, entry] of Object.entries(registry.tabs)) {
    if (!handed.has(alias) && !unanswered.has(entry.targetId))
      problems.push(`${alias} → ${entry.targetId} appeared, handed to nobody`);
  }
  if (handed.size < (AGENTS - 1) * TABS_PER_AGENT) problems.push(`only ${handed.size} aliases handed out`);
  return problems.map((p) => `seed ${seed}: ${p}`);
}

describe('the tab registry under concurrency and faults', () => {
  it('loses no alias, hands none out twice and makes none up (6 agents × 4 tabs, stalled writes, a kill, damage)', async () => {
    const problems: string[] = [];
    for (const seed of [1, 2]) problems.push(...(await stress(seed)));
    expect(problems).toEqual([]);
  }, 120_000);
});
