#!/usr/bin/env node
// Writes test/durations.json (seconds per test file, read by test/sequencer.ts on a clean clone) from
// vitest's cache of the last whole run here: run `npx vitest run`, then `node test/durations.mjs`.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'node_modules', '.vite', 'vitest');
const seconds = {};
for (const dir of existsSync(cacheDir) ? readdirSync(cacheDir) : []) {
  const file = join(cacheDir, dir, 'results.json');
  if (!existsSync(file)) continue;
  for (const [key, r] of JSON.parse(readFileSync(file, 'utf8')).results) {
    const path = key.slice(key.indexOf(':') + 1);
    if (existsSync(join(root, path))) seconds[path] = Math.max(1, Math.round(r.duration / 1000));
  }
}
if (!Object.keys(seconds).length) {
  process.stderr.write('no vitest results cached here: run `npx vitest run` first\n');
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
process.stderr.write(`test/durations.json: ${Object.keys(sorted).length} files\n`);
