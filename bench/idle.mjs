// What open tabs cost while no command runs, and what opening and closing one costs: the machine's
// CPU (/proc/stat: Node and every Chrome process), as a share of one core, in a private Chrome of
// ours. Each tab has a window of its own (a background tab of a shared window stops painting), so a
// window's idle cost is paid per tab: 20 tabs at idle took 1.6 cores on Chromium 156 before its
// per-window omnibox WebUI pages were turned off (src/cdp/launcher.ts), 5 % after.
// Linux only (/proc/stat). Usage: node bench/idle.mjs [--tabs 20] [--runs 10]

import { readFileSync } from 'node:fs';
import { benchSession, cli, loadAverage, positiveInt, runBench } from './lib.mjs';

const arg = (flag, fallback) => {
  const i = process.argv.indexOf(flag);
  return i < 0 ? fallback : positiveInt(flag, process.argv[i + 1]);
};

/** Busy jiffies of the whole machine (user, nice, system, irq, softirq): 1/100 s each. */
function busy() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return f[0] + f[1] + f[2] + f[5] + f[6];
}

/** CPU while `f` runs, in % of one core, and its wall time. */
async function cpuOf(f) {
  const a = busy();
  const t = Date.now();
  await f();
  const ms = Date.now() - t;
  return { cpuMs: (busy() - a) * 10, ms };
}

const idleShare = async (ms) => {
  const { cpuMs } = await cpuOf(() => new Promise((r) => setTimeout(r, ms)));
  return `${Math.round((cpuMs / ms) * 100)} %`;
};

runBench(async () => {
  if (process.platform !== 'linux') throw new Error('bench/idle.mjs reads /proc/stat: Linux only');
  const tabs = arg('--tabs', 20);
  const runs = arg('--runs', 10);
  const s = await benchSession();
  try {
    const open = async () =>
      (await cli({ steps: [{ openTab: { url: `${s.server.url}/basic.html`, port: s.port } }] }, s.env)).output.tab;
    console.log(`cdp-skill idle bench — load ${await loadAverage()}`);
    await open();
    await new Promise((r) => setTimeout(r, 1000));
    console.log(`Chrome with 1 tab, at idle (5 s):    ${await idleShare(5000)} of one core`);
    for (let i = 1; i < tabs; i++) await open();
    await new Promise((r) => setTimeout(r, 1000));
    console.log(`Chrome with ${tabs} tabs, at idle (5 s):   ${await idleShare(5000)} of one core`);
    const opened = [];
    const o = await cpuOf(async () => {
      for (let i = 0; i < runs; i++) opened.push(await open());
    });
    const c = await cpuOf(async () => {
      for (const tab of opened) await cli({ steps: [{ closeTab: tab }] }, s.env);
    });
    const per = (x) => `${Math.round(x.cpuMs / runs)} ms CPU, ${Math.round(x.ms / runs)} ms wall`;
    console.log(`openTab (basic.html), per call:     ${per(o)}`);
    console.log(`closeTab, per call:                 ${per(c)}`);
  } finally {
    await s.close();
  }
});
