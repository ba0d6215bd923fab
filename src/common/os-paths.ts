// The temp and home directories as node:os reports them, without loading node:os on POSIX (about
// 1 ms of every short-lived process). Windows, and a POSIX user with no $HOME, ask node:os.

import { requireBuiltin } from './lazy.js';

const os = (): typeof import('node:os') => requireBuiltin('node:os') as typeof import('node:os');

/** os.tmpdir(): $TMPDIR, $TMP or $TEMP, else /tmp, without a trailing slash. */
export function tempDir(): string {
  if (process.platform === 'win32') return os().tmpdir();
  const env = process.env;
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

/**
 * os.homedir(): $HOME, else the user database's entry. An empty $HOME makes os.homedir() answer ""
 * (measured, Node 20), which would put ~/.cdp-skill (logins, state files) in the working directory.
 */
export function homeDir(): string {
  if (process.platform !== 'win32' && process.env.HOME) return process.env.HOME;
  return os().homedir() || os().userInfo().homedir;
}
