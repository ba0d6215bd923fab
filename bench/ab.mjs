#!/usr/bin/env node
// Per-call latency of two (or more) builds of the CLI, interleaved in one run against one Chrome and
// the same pages, so a loaded machine's drift hits every build alike. Each build gets its own state
// directory (its own V8 code cache: the loader deletes caches of other builds) holding a copy of the
// first build's tab registry, so all of them drive the same tabs.
// Usage: node bench/ab.mjs --build old=/tmp/old/dist/cli.js --build new=dist/cli.js [--runs 30]
//        [--kinds listTabs,click] [--cpu]   (--cpu: also each call's own CPU time, user + system)
// Prints, per kind and build: median, mean, p25–p75 wall ms; then each later build against the first:
// the median of paired differences (runs side by side) and how many pairs it won.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/fixtures/server.mjs';
import {
  BATCH5_STEPS,
  closeChrome,
  loadAverage,
  percentile,
  positiveInt,
  privateEnv,
  removeDir,
  timeNode,
} from './lib.mjs';

/** A preload that appends the call's own CPU time to its stdout as it exits (after the answer). */
const CPU_PRELOAD = `process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeSync(1, '\\ncpu-us ' + (u.user + u.system) + '\\n'); });\n`;

const KINDS = {
  listTabs: (p) => ({ tab: p.basic, steps: [{ listTabs: true }] }),
  snapshot: (p) => ({ tab: p.actions, steps: [{ snapshot: true }] }),
  pageFunction: (p) => ({ tab: p.basic, steps: [{ pageFunction: 'document.title' }] }),
  click: (p) => ({ tab: p.actions, steps: [{ click: '#save' }] }),
  fill: (p) => ({ tab: p.actions, steps: [{ fill: { label: 'Full name', value: 'Ann Lee' } }] }),
  goto: (p) => ({ tab: p.basic, steps: [{ goto: `${p.url}/demo.html` }] }),
  noTab: () => ({ steps: [{ listTabs: true }] }),
  batch5: (p) => ({ tab: p.actions, steps: BATCH5_STEPS }),
};

function median(xs) {
  return percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      build: { type: 'string', multiple: true },
      runs: { type: 'string', default: '30' },
      kinds: { type: 'string', default: 'listTabs,click' },
      cpu: { type: 'boolean', default: false },
    },
  });
  const builds = (values.build ?? []).map((b) => {
    const eq = b.indexOf('=');
    return eq > 0 ? { name: b.slice(0, eq), cli: resolve(b.slice(eq + 1)) } : { name: b, cli: resolve(b) };
  });
  if (builds.length < 2) throw new Error('name two builds: --build old=/path/dist/cli.js --build new=dist/cli.js');
  const runs = positiveInt('runs', values.runs);
  const kinds = values.kinds.split(',');
  for (const k of kinds) if (!KINDS[k]) throw new Error(`unknown kind ${k} (known: ${Object.keys(KINDS).join(', ')})`);

  const server = await startFixtureServer();
  const { dir, env } = await privateEnv();
  const preload = join(dir, 'cpu-preload.cjs');
  writeFileSync(preload, CPU_PRELOAD);
  const call = async (build, command) => {
    const args = [...(values.cpu ? ['-r', preload] : []), build.cli, JSON.stringify(command)];
    const { ms, stdout } = await timeNode(args, build.env).catch((err) => {
      throw new Error(`${build.name}: ${err.message}`);
    });
    const cut = stdout.lastIndexOf('\ncpu-us ');
    const answer = JSON.parse(values.cpu ? stdout.slice(0, cut) : stdout);
    if (answer.status !== 'ok') throw new Error(`${build.name} failed on ${JSON.stringify(command)}: ${stdout}`);
    return { ms, cpuMs: cut >= 0 ? Number(stdout.slice(cut + 8)) / 1000 : undefined };
  };
  let port;
  try {
    // The first build opens the tabs (its own Chrome, as an agent's first call would launch it).
    const first = { ...builds[0], env: { ...env, CDP_SKILL_STATE_DIR: join(dir, `state-${builds[0].name}`) } };
    const pages = { url: server.url };
    await call(first, { steps: [{ chromeStatus: true }] });
    for (const [key, page] of [
      ['basic', 'basic.html'],
      ['actions', 'actions.html'],
    ]) {
      const { stdout } = await timeNode(
        [first.cli, JSON.stringify({ steps: [{ openTab: `${server.url}/${page}` }] })],
        first.env,
      );
      pages[key] = JSON.parse(stdout).tab;
    }
    builds[0].env = first.env;
    for (const b of builds.slice(1)) {
      const state = join(dir, `state-${b.name}`);
      mkdirSync(state, { recursive: true, mode: 0o700 });
      cpSync(join(first.env.CDP_SKILL_STATE_DIR, 'tabs.json'), join(state, 'tabs.json'));
      cpSync(join(first.env.CDP_SKILL_STATE_DIR, 'aliases'), join(state, 'aliases'), { recursive: true });
      b.env = { ...env, CDP_SKILL_STATE_DIR: state };
    }
    // Warm-up: each build writes its code cache (after a click) and meets each page once.
    for (const b of builds) {
      await call(b, KINDS.click(pages));
      for (const k of kinds) await call(b, KINDS[k](pages));
    }
    const samples = new Map(); // `${kind}|${build}` → [{ms, cpuMs}]
    const load = [await loadAverage()];
    for (let i = 0; i < runs; i++) {
      for (const k of kinds) {
        // Alternate the order each round (ABBA…): neither build always runs right after the other.
        const order = i % 2 ? [...builds].reverse() : builds;
        for (const b of order) {
          const key = `${k}|${b.name}`;
          if (!samples.has(key)) samples.set(key, []);
          samples.get(key).push(await call(b, KINDS[k](pages)));
        }
      }
    }
    load.push(await loadAverage());
    console.log(`${runs} runs each, interleaved; load average ${load.join(' → ')}`);
    const fmt = (x) => x.toFixed(1).padStart(7);
    for (const k of kinds) {
      console.log(`\n${k}`);
      for (const b of builds) {
        const s = samples.get(`${k}|${b.name}`);
        const ms = s.map((x) => x.ms).sort((a, c) => a - c);
        const cpu = s.map((x) => x.cpuMs).filter((x) => x !== undefined);
        const mean = ms.reduce((a, c) => a + c, 0) / ms.length;
        console.log(
          `  ${b.name.padEnd(10)} median ${fmt(median(ms))}  mean ${fmt(mean)}  p25 ${fmt(percentile(ms, 0.25))}  p75 ${fmt(percentile(ms, 0.75))}` +
            (cpu.length ? `  cpu median ${fmt(median(cpu))}` : ''),
        );
      }
      const base = samples.get(`${k}|${builds[0].name}`);
      for (const b of builds.slice(1)) {
        const s = samples.get(`${k}|${b.name}`);
        const diffs = s.map((x, i) => x.ms - base[i].ms);
        const won = diffs.filter((d) => d < 0).length;
        const cpuDiffs = s.map((x, i) => (x.cpuMs ?? 0) - (base[i].cpuMs ?? 0));
        console.log(
          `  ${b.name} − ${builds[0].name}: paired median ${fmt(median(diffs))} ms (${((median(diffs) / median(base.map((x) => x.ms))) * 100).toFixed(1)}%), faster in ${won}/${diffs.length} pairs` +
            (values.cpu ? `; cpu paired median ${fmt(median(cpuDiffs))} ms` : ''),
        );
      }
    }
  } finally {
    const { readFileSync } = await import('node:fs');
    try {
      const { own } = JSON.parse(readFileSync(join(builds[0].env?.CDP_SKILL_STATE_DIR ?? dir, 'tabs.json'), 'utf8'));
      port = Number(new URL(own.wsUrl).port);
    } catch {
      /* no Chrome was started */
    }
    if (port) await closeChrome(port).catch(() => {});
    await server.close?.();
    await removeDir(dir);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
