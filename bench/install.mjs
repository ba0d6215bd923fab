#!/usr/bin/env node
// Cost of installing the page runtime (dist/page-runtime.js) in a new document: its bytes, and the
// time Chrome takes to carry and evaluate it, in the page's main world and in an isolated world.
// Usage: node bench/install.mjs [--runs 30] [--file other/page-runtime.js] (to compare two builds in one run)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { benchSession, cli, getJson, loadAverage, positiveInt, runBench, summarize } from './lib.mjs';

const RUNTIME = new URL('../dist/page-runtime.js', import.meta.url);

/** A minimal CDP client over one page's socket. */
async function pageClient(wsUrl) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const pending = new Map();
  const listeners = new Set();
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve(msg.result);
    } else for (const l of listeners) l(msg);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      pending.set(++id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  const once = (method) =>
    new Promise((resolve) => {
      const l = (msg) => {
        if (msg.method === method) {
          listeners.delete(l);
          resolve(msg.params);
        }
      };
      listeners.add(l);
    });
  return { send, once, close: () => ws.close() };
}

async function main() {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '30' }, file: { type: 'string', multiple: true } },
  });
  const runs = positiveInt('runs', values.runs);
  const files = values.file ?? [RUNTIME.pathname];
  const s = await benchSession();
  try {
    const url = `${s.server.url}/basic.html`;
    await cli({ steps: [{ openTab: { url, port: s.port } }] }, s.env);
    const target = (await getJson(s.port, '/json/list')).find((t) => t.type === 'page' && t.url === url);
    const c = await pageClient(target.webSocketDebuggerUrl);
    await c.send('Page.enable');
    const { frameTree } = await c.send('Page.getFrameTree');
    for (const file of files) {
      const expression = readFileSync(file, 'utf8');
      const samples = { main: [], isolated: [], createWorld: [] };
      for (let i = 0; i < runs + 2; i++) {
        const loaded = c.once('Page.loadEventFired');
        await c.send('Page.navigate', { url: `${url}?${i}` });
        await loaded;
        let t = performance.now();
        const world = await c.send('Page.createIsolatedWorld', {
          frameId: frameTree.frame.id,
          worldName: 'cdp-skill-bench',
          grantUniveralAccess: false,
        });
        const createMs = performance.now() - t;
        // The isolated world first: V8 may reuse the compilation of the same source in the second world.
        for (const [kind, contextId] of [
          ['isolated', world.executionContextId],
          ['main', undefined],
        ]) {
          t = performance.now();
          const r = await c.send('Runtime.evaluate', {
            expression: `typeof (${expression})`,
            returnByValue: true,
            ...(contextId ? { contextId } : {}),
          });
          if (r.result.value !== 'object') throw new Error(`install failed: ${JSON.stringify(r)}`);
          if (i >= 2) samples[kind].push({ ms: performance.now() - t, bytes: expression.length });
        }
        if (i >= 2) samples.createWorld.push({ ms: createMs, bytes: 0 });
      }
      console.log(`${file}: ${expression.length} bytes; ${runs} fresh documents; load ${await loadAverage()}`);
      for (const [kind, list] of Object.entries(samples)) {
        const r = summarize(list);
        console.log(
          `  ${kind.padEnd(11)} median ${r.medianMs.toFixed(2)} ms  min ${r.minMs.toFixed(2)}  p95 ${r.p95Ms.toFixed(2)}`,
        );
      }
    }
    // A warm call: the same small read in the page's world and in an isolated world, alternated.
    const world = await c.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'cdp-skill-bench',
      grantUniveralAccess: false,
    });
    const warm = { main: [], isolated: [] };
    for (let i = 0; i < 4 * runs; i++) {
      for (const [kind, contextId] of [
        ['main', undefined],
        ['isolated', world.executionContextId],
      ]) {
        const t = performance.now();
        await c.send('Runtime.evaluate', {
          expression: 'document.querySelectorAll("*").length',
          returnByValue: true,
          ...(contextId ? { contextId } : {}),
        });
        warm[kind].push({ ms: performance.now() - t, bytes: 0 });
      }
    }
    for (const [kind, list] of Object.entries(warm)) {
      const r = summarize(list);
      console.log(`warm call, ${kind.padEnd(8)} median ${r.medianMs.toFixed(3)} ms  min ${r.minMs.toFixed(3)}`);
    }
    c.close();
  } finally {
    await s.close();
  }
}

runBench(main);
