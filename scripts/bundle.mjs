#!/usr/bin/env node
// Build step: bundles the compiled CLI (dist/cli.js and everything it imports, ws included) into
// one CommonJS file, dist/cli.bundle.cjs, and puts the loader (scripts/cli-loader.mjs) in its place
// as dist/cli.js. A short-lived process then loads one file instead of sixty, compiled through
// V8's code cache. The rest of dist/ stays for scripts and tests.
import { chmodSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const entry = new URL('../dist/cli.js', import.meta.url);
const loader = new URL('./cli-loader.mjs', import.meta.url);
if (readFileSync(entry, 'utf8') === readFileSync(loader, 'utf8')) {
  throw new Error('dist/cli.js is already the loader: run the whole build (npm run build), which compiles it first');
}
// Earlier builds split the bundle into chunks: drop them.
rmSync(new URL('../dist/chunks/', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: [entry.pathname],
  outfile: new URL('../dist/cli.bundle.cjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The CLI finds package.json and its root from its own URL: the bundle's, in CommonJS.
  define: { 'import.meta.url': '__cdpSkillBundleUrl' },
  banner: { js: "const __cdpSkillBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
copyFileSync(loader, entry);
chmodSync(entry, 0o755);
