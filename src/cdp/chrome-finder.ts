// Finds a Chrome/Chromium executable: CHROME_PATH, then the usual places of each platform.

import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const LINUX_NAMES = ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser', 'chrome'];
const LINUX_DIRS = ['/usr/bin', '/usr/local/bin', '/snap/bin', '/opt/google/chrome'];

function macCandidates(): string[] {
  return [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
  ];
}

function windowsCandidates(): string[] {
  const roots = [process.env.LOCALAPPDATA, process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)']].filter(
    (r): r is string => Boolean(r),
  );
  return roots.flatMap((root) => [
    join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
    join(root, 'Chromium', 'Application', 'chrome.exe'),
  ]);
}

function linuxCandidates(): string[] {
  const pathDirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const dirs = [...new Set([...pathDirs, ...LINUX_DIRS])];
  return LINUX_NAMES.flatMap((name) => dirs.map((dir) => join(dir, name)));
}

export function findChrome(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const candidates =
    process.platform === 'darwin'
      ? macCandidates()
      : process.platform === 'win32'
        ? windowsCandidates()
        : linuxCandidates();
  return candidates.find((p) => existsSync(p));
}

export function chromeInstallHint(): string {
  if (process.platform === 'linux') {
    return 'Install it (Debian/Ubuntu: `apt-get install -y chromium`, or Google Chrome from https://www.google.com/chrome/) or set CHROME_PATH to its executable.';
  }
  return 'Install Google Chrome from https://www.google.com/chrome/ or set CHROME_PATH to a Chrome/Chromium executable.';
}
