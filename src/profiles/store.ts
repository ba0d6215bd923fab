// Profiles on disk: ~/.cdp-skill/sites/{domain}.md (SPEC §15.2). Reads are bounded, writes are
// atomic (temp file + rename), every path is checked to stay inside the folder, and files are
// private like the state directory: 0600 in 0700 folders (issue 15 item 8).

import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { homeDir, randomBytes, ValidationError } from '../common/index.js';
import { normaliseDomain } from './domain.js';

/** Largest profile written, and read back into an answer: it is repeated on every visit. */
export const MAX_PROFILE_BYTES = 32 * 1024;

/** `~/.cdp-skill/sites`, under $HOME (so a test can use a temporary one). */
export function profilesDir(): string {
  return join(homeDir(), '.cdp-skill', 'sites');
}

/** The profile file of a domain; a VALIDATION error for anything that is not a plain domain. */
export function profilePath(domain: string): string {
  const result = normaliseDomain(domain);
  if ('problem' in result) throw new ValidationError(result.problem);
  const dir = resolve(profilesDir());
  const path = resolve(dir, `${result.domain}.md`);
  if (dirname(path) !== dir) throw new ValidationError(`domain "${domain}" does not name a file in ${dir}`);
  return path;
}

/** The profile text, or undefined when the domain has none. */
export async function readSiteProfile(domain: string): Promise<string | undefined> {
  let fd: number;
  try {
    fd = openSync(profilePath(domain), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const buf = Buffer.alloc(MAX_PROFILE_BYTES + 1);
    const bytesRead = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, Math.min(bytesRead, MAX_PROFILE_BYTES)).toString('utf8');
    return bytesRead > MAX_PROFILE_BYTES ? `${text}\n… (profile cut at ${MAX_PROFILE_BYTES} bytes: shorten it)` : text;
  } finally {
    closeSync(fd);
  }
}

/** Creates or replaces a profile; returns its path. Readers never see a half-written file. */
export async function writeSiteProfile(domain: string, content: string): Promise<string> {
  if (Buffer.byteLength(content) > MAX_PROFILE_BYTES) {
    throw new ValidationError(
      `profile content is ${Buffer.byteLength(content)} bytes; keep it under ${MAX_PROFILE_BYTES}`,
    );
  }
  const path = profilePath(domain);
  makePrivateDirs(dirname(path));
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, content, { encoding: 'utf8', flag: 'wx', mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return path;
}

/**
 * `~/.cdp-skill` and its `sites` folder, made 0700 — and tightened when an earlier version left
 * them 0755 (only folders of ours: a folder of another user is left alone and the write fails there).
 */
function makePrivateDirs(sitesDir: string): void {
  mkdirSync(sitesDir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  for (const dir of [dirname(sitesDir), sitesDir]) {
    const st = lstatSync(dir);
    if (st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  }
}
