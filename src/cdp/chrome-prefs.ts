// Preferences a launched Chrome starts with, written into its profile before the launch. Today one:
// its download folder is our `downloads/.incoming`, so a download that begins or ends while no
// command is connected (Browser.setDownloadBehavior ends with the connection that set it) still
// lands where the next command finds it (issue 21.3).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { incomingDownloadsDir } from '../common/index.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Sets `download.default_directory` (and no "Save as" prompt) in the profile's Preferences, keeping
 * everything else in it. A Preferences file we cannot read as JSON is left alone: Chrome's own
 * download folder is used between commands then, and commands still catch what they start.
 */
export function setDownloadFolderPref(profileDir: string): void {
  const dir = join(profileDir, 'Default');
  const path = join(dir, 'Preferences');
  let prefs: Json = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!isObject(parsed)) return;
    prefs = parsed;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return;
  }
  const download = isObject(prefs.download) ? prefs.download : {};
  prefs.download = {
    ...download,
    default_directory: incomingDownloadsDir(),
    prompt_for_download: false,
    directory_upgrade: true,
  };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(prefs), { mode: 0o600 });
  renameSync(tmp, path);
}
