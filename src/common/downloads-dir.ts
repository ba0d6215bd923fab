// Where downloads go (issue 21.3): `downloads/` of the private state directory, and inside it
// `.incoming/`, where Chrome writes (under guid names during a command, under the server's names
// between commands) until a command moves each finished file out and reports it.

import { ensureStateDir } from './state-dir.js';

/** The folder downloads are reported in (mode 0700, like the state directory). */
export function downloadsDir(): string {
  return ensureStateDir('downloads');
}

/** The folder Chrome writes downloads to; nothing there has been reported yet. */
export function incomingDownloadsDir(): string {
  return ensureStateDir('downloads', '.incoming');
}
