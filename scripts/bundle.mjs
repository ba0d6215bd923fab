#!/usr/bin/env node
// Build step: bundles the compiled CLI (build/cli.js, tsc's output, and everything it imports)
// into one CommonJS file, dist/cli.bundle.cjs, beside its loader dist/cli.js (scripts/cli-loader.cjs),
// the page runtime and commander it loads on demand, and a dist/package.json that makes them
// CommonJS. A short-lived process then loads one file instead of sixty, through the CommonJS
// loader and V8's code cache. dist/ is what ships; build/ stays for scripts and tests that import
// single modules.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url);
// Earlier builds put tsc's output and bundle chunks here: start from an empty folder.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// What most calls never run stays out of the bundle every call reads: the page runtime (sent to a
// page as text, written below as dist/page-runtime.js and read by page-runtime-stub.cjs),
// commander (flags and subcommands only; dist/commander.cjs) and the MCP front with its SDK
// (`cdp-skill mcp` only; dist/mcp.bundle.cjs). They are loaded with require() when used: the
// bundle is compiled with vm.Script, where import() has no loader to call.
const pageRuntime = {
  name: 'page-runtime',
  setup(b) {
    b.onResolve({ filter: /(^|\/)runtime-source\.js$/ }, () => ({
      path: new URL('./page-runtime-stub.cjs', import.meta.url).pathname,
    }));
  },
};
const splitOff = {
  name: 'split-off',
  setup(b) {
    b.onResolve({ filter: /^commander$/ }, () => ({ path: './commander.cjs', external: true }));
    b.onResolve({ filter: /^\.\/mcp\/index\.js$/ }, () => ({ path: './mcp.bundle.cjs', external: true }));
  },
};
// The CLI finds package.json and its root from its own URL: the bundle's, in CommonJS, made when
// first asked for (--version, install, a lazily loaded built-in), not on every call.
const ownUrl = {
  define: { 'import.meta.url': '__cdpSkillBundle.url' },
  banner: {
    js: "const __cdpSkillBundle = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
  },
};
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: [new URL('../build/cli.js', import.meta.url).pathname],
  outfile: new URL('cli.bundle.cjs', dist).pathname,
  supported: { 'dynamic-import': false },
  plugins: [pageRuntime, splitOff],
  ...ownUrl,
});
// The MCP server: the same engine (its own copy of it) and the SDK, in one file of its own.
await build({
  ...common,
  entryPoints: [new URL('../build/mcp/index.js', import.meta.url).pathname],
  outfile: new URL('mcp.bundle.cjs', dist).pathname,
  plugins: [pageRuntime],
  ...ownUrl,
});
await build({ ...common, entryPoints: ['commander'], outfile: new URL('commander.cjs', dist).pathname });
// The runtime goes to every new document, so it is minified, local names too (page/runtime-source.ts).
// It is stamped with the id of this build, so it is imported after stamp-runtime.mjs ran.
const { installExpression } = await import(new URL('../build/page/runtime-source.js', import.meta.url).href);
writeFileSync(new URL('page-runtime.js', dist), installExpression());

// One character outside ASCII (esbuild leaves some in regular expressions) makes V8 hold the whole
// source as a two-byte string: twice the memory to read and compile, about a millisecond a call.
for (const name of ['cli.bundle.cjs', 'commander.cjs', 'page-runtime.js']) {
  const text = readFileSync(new URL(name, dist), 'utf8');
  const wide = text.search(/[^\x00-\x7f]/);
  if (wide >= 0) {
    throw new Error(
      `dist/${name} is not pure ASCII near "${text.slice(Math.max(0, wide - 40), wide + 10)}": write the character as a \\u escape in src/`,
    );
  }
}
writeFileSync(new URL('package.json', dist), `${JSON.stringify({ type: 'commonjs' })}\n`);
// The loader decides where its code cache lives by the CLI's own state-directory rule: that one
// file (src/common/state-dir.ts and what it imports) is inlined into it, so there is one rule.
const rule = await build({
  ...common,
  minifySyntax: false,
  write: false,
  format: 'iife',
  globalName: 'stateDirRule',
  entryPoints: [new URL('../build/common/state-dir.js', import.meta.url).pathname],
  define: { 'import.meta.url': '__filename' },
});
const loader = readFileSync(new URL('./cli-loader.cjs', import.meta.url), 'utf8');
const marker = '/* @inline state-dir-rule */';
if (!loader.includes(marker)) throw new Error(`scripts/cli-loader.cjs lost its ${marker} line`);
const entry = new URL('cli.js', dist);
writeFileSync(
  entry,
  loader.replace(marker, () => rule.outputFiles[0].text.trim()),
);
chmodSync(entry, 0o755);
