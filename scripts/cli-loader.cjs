#!/usr/bin/env node
'use strict';
// cdp-skill's entry point (written to dist/cli.js by scripts/bundle.mjs, which inlines the
// state-dir rule). The CLI itself is one CommonJS bundle, dist/cli.bundle.cjs; this loader compiles it through V8's code cache, kept in
// the user's private state directory, so a call skips most of the compile work every short-lived
// process would otherwise repeat (about 10 ms a call on a 2-core machine). Any problem with the
// cache only costs that saving: the bundle then compiles as usual.
// The loader is CommonJS (dist/package.json says so): an ES module entry would set up Node's
// ESM loader first, about 5 ms a call.
const {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeSync,
} = require('node:fs');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');

const bundle = join(__dirname, 'cli.bundle.cjs');
// A shebang line is not JavaScript inside the function wrapper: keep it as a comment (same lines).
const source = readFileSync(bundle, 'utf8').replace(/^#!/, '//');

// The state directory rule of the CLI (src/common/state-dir.ts), inlined here by scripts/bundle.mjs:
// a private directory of ours, never a symlink, never another user's (issue 15 item 3).
/* @inline state-dir-rule */

/** The cache file for this bundle and Node, in the state directory. */
function cachePath() {
  try {
    const b = statSync(bundle);
    return join(stateDirRule.stateDir(), `code-cache-${process.version}-${b.size}-${Math.round(b.mtimeMs)}.bin`);
  } catch {
    return undefined; // no private state directory: compiled from source, not cached
  }
}

/**
 * The cache's bytes when it is a plain file of ours that no one else can write: opened without
 * following a symlink, owner and mode checked on the open file (a swap after the check is the same
 * file). V8 accepts a cache made from any code of the same length, so a planted one would run.
 */
function readCache(file) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined; // first run of this bundle (or a symlink): compiled from source, cached at exit
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || (st.mode & 0o077) !== 0 || (process.getuid && st.uid !== process.getuid())) return undefined;
    const data = Buffer.allocUnsafe(st.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } catch {
    return undefined; // unreadable: compiled from source
  } finally {
    closeSync(fd);
  }
}

const cacheFile = cachePath();
const cachedData = cacheFile ? readCache(cacheFile) : undefined;
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: bundle,
  cachedData,
});
// The cache holds what a run compiled: written after a command that acted on a page and captured
// it (src/cli.ts emits the event when the command's result says so), so the common path is in it —
// not after --version or a typo.
if (cacheFile && (!cachedData || script.cachedDataRejected)) {
  let capturedPage = false;
  process.once('cdp-skill:captured-page', () => {
    capturedPage = true;
  });
  process.once('exit', () => {
    if (capturedPage) writeCache(cacheFile, script.createCachedData());
  });
}

/**
 * Free space the cache must leave on the state directory's disk. The cache (about half a megabyte)
 * only saves time; the locks, tab registry and captures written there are what a command needs, so
 * on a nearly full disk the cache is not written at all rather than taking the last of the space.
 */
const CACHE_SPARE_BYTES = 64 * 1024 * 1024;

/** Writes the cache (a temp file renamed into place); on any failure leaves nothing behind. */
function writeCache(file, data) {
  const dir = dirname(file);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fs = statfsSync(dir);
    if (fs.bavail * fs.bsize - data.length < CACHE_SPARE_BYTES) return;
    // wx: a new file of ours (O_CREAT|O_EXCL never follows a planted link), private from the start.
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    // Caches of earlier builds or Node versions are of no use any more.
    for (const f of readdirSync(dir)) {
      if (f.startsWith('code-cache-') && f.endsWith('.bin') && f !== basename(file))
        rmSync(join(dir, f), { force: true });
    }
  } catch {
    // a full disk or a race with another process: the next call caches instead; no partial file stays
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* nothing more to do at exit */
    }
  }
}

const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, require, bundleModule, bundle, __dirname);
