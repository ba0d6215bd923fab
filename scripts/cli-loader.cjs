#!/usr/bin/env node
'use strict';
// cdp-skill's entry point (copied to dist/cli.js by scripts/bundle.mjs). The CLI itself is one
// CommonJS bundle, dist/cli.bundle.cjs; this loader compiles it through V8's code cache, kept in
// the user's private state directory, so a call skips most of the compile work every short-lived
// process would otherwise repeat (about 10 ms a call on a 2-core machine). Any problem with the
// cache only costs that saving: the bundle then compiles as usual.
// The loader is CommonJS (dist/package.json says so): an ES module entry would set up Node's
// ESM loader first, about 5 ms a call.
const { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } = require('node:fs');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const bundle = join(__dirname, 'cli.bundle.cjs');
// A shebang line is not JavaScript inside the function wrapper: keep it as a comment (same lines).
const source = readFileSync(bundle, 'utf8').replace(/^#!/, '//');

/** os.tmpdir() without loading node:os on POSIX (about 1 ms), as src/common/os-paths.ts does. */
function tempDir() {
  if (process.platform === 'win32') return require('node:os').tmpdir();
  const dir = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

/** The cache file for this bundle and Node, in the state directory when it is private and ours. */
function cachePath() {
  try {
    const dir = process.env.CDP_SKILL_STATE_DIR ?? join(tempDir(), 'cdp-skill');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory() || (st.mode & 0o077) !== 0 || (process.getuid && st.uid !== process.getuid())) return undefined;
    const b = statSync(bundle);
    return join(dir, `code-cache-${process.version}-${b.size}-${Math.round(b.mtimeMs)}.bin`);
  } catch {
    return undefined;
  }
}

const cacheFile = cachePath();
let cachedData;
try {
  if (cacheFile) cachedData = readFileSync(cacheFile);
} catch {
  // first run of this bundle: compiled from source, cached at exit
}
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
// The cache holds what a run compiled: written after a command that acted on a page and captured
// it (src/cli.ts emits the event when the command's result says so), so the common path is in it —
// not after --version or a typo.
if (cacheFile && (!cachedData || script.cachedDataRejected)) {
  let capturedPage = false;
  process.once('cdp-skill:captured-page', () => { capturedPage = true; });
  process.once('exit', () => {
    if (!capturedPage) return;
    try {
      const data = script.createCachedData();
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      const fd = openSync(tmp, 'w', 0o600);
      writeSync(fd, data);
      closeSync(fd);
      renameSync(tmp, cacheFile);
      // Caches of earlier builds or Node versions are of no use any more.
      const dir = dirname(cacheFile);
      for (const f of readdirSync(dir)) {
        if (f.startsWith('code-cache-') && f.endsWith('.bin') && join(dir, f) !== cacheFile) rmSync(join(dir, f), { force: true });
      }
    } catch {
      // a full disk or a race with another process: the next call caches instead
    }
  });
}
const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, require, bundleModule, bundle, __dirname);
