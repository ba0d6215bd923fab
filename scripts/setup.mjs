#!/usr/bin/env node
// Makes a fresh checkout ready to run: installs dependencies, builds build/ and dist/, makes sure a
// Chrome or Chromium exists (on Debian/Ubuntu as root it installs Debian's chromium package), and
// with --farms installs the browser farms the farm tests start (scripts/farm-tools.mjs). Plain Node with no
// dependencies, so it runs before `npm install` has. Progress goes to stderr.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (msg) => process.stderr.write(`[setup] ${msg}\n`);
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 2, 2], env: { ...process.env, ...env } });

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function installDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs)) return;
  log('installing npm dependencies');
  try {
    run('npm', existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
  } catch {
    // npm ci refuses a lock file another npm version wrote differently; install resolves it.
    log('npm ci failed; falling back to npm install');
    run('npm', ['install', '--no-audit', '--no-fund']);
  }
}

function build() {
  const cli = join(root, 'dist', 'cli.js');
  const stale =
    !existsSync(cli) ||
    !existsSync(join(root, 'build', 'cli.js')) ||
    newestMtime(join(root, 'src')) > statSync(cli).mtimeMs ||
    statSync(join(root, 'tsconfig.json')).mtimeMs > statSync(cli).mtimeMs;
  if (!stale) return;
  log('building build/ and dist/');
  run('npm', ['run', '--silent', 'build']);
}

async function ensureChrome() {
  const { findChrome, chromeInstallHint } = await import(join(root, 'build', 'cdp', 'chrome-finder.js'));
  if (findChrome()) return;
  const isRoot = process.getuid?.() === 0;
  const hasApt = process.platform === 'linux' && existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    log("no Chrome found: installing Debian's chromium package (apt-get install -y chromium)");
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update', '-qq'], env);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], env);
    if (findChrome()) return;
  }
  log(`No Chrome or Chromium found. ${chromeInstallHint()}`);
  process.exit(1);
}

try {
  // The farm tests' Grid and browserless (npm test and npm run bench ask for them): not for a demo.
  // browserless's npm install (a clean clone's longest step but one) runs while this one installs and builds.
  const farms = process.argv.includes('--farms') ? await import('./farm-tools.mjs') : undefined;
  const farmInstall = farms?.startFarmInstall(log);
  installDependencies();
  build();
  await ensureChrome();
  if (farms) await farms.ensureFarmTools(log, farmInstall);
} catch (err) {
  log(`setup failed: ${err.message.split('\n')[0]}`);
  process.exit(1);
}
