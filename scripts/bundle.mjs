#!/usr/bin/env node
// Build step: bundles the compiled CLI (build/cli.js, tsc's output, and everything it imports)
// into one CommonJS file, dist/cli.bundle.cjs, beside its loader dist/cli.js (scripts/cli-loader.cjs)
// and a dist/package.json that makes both CommonJS. A short-lived process then loads one file
// instead of sixty, through the CommonJS loader and V8's code cache. dist/ is what ships; build/
// stays for scripts and tests that import single modules.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url);
// Earlier builds put tsc's output and bundle chunks here: start from an empty folder.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: [new URL('../build/cli.js', import.meta.url).pathname],
  outfile: new URL('cli.bundle.cjs', dist).pathname,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  // The CLI finds package.json and its root from its own URL: the bundle's, in CommonJS.
  define: { 'import.meta.url': '__cdpSkillBundleUrl' },
  banner: { js: "const __cdpSkillBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
// One character outside ASCII (esbuild leaves some in regular expressions) makes V8 hold the whole
// source as a two-byte string: twice the memory to read and compile, about a millisecond a call.
const bundled = readFileSync(new URL('cli.bundle.cjs', dist), 'utf8');
const wide = bundled.search(/[^\x00-\x7f]/);
if (wide >= 0) {
  throw new Error(`dist/cli.bundle.cjs is not pure ASCII near "${bundled.slice(Math.max(0, wide - 40), wide + 10)}": write the character as a \\u escape in src/`);
}
writeFileSync(new URL('package.json', dist), `${JSON.stringify({ type: 'commonjs' })}\n`);
const entry = new URL('cli.js', dist);
copyFileSync(new URL('./cli-loader.cjs', import.meta.url), entry);
chmodSync(entry, 0o755);
