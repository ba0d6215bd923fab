// The files of downloads (issue 21.3): a finished download moved out of `.incoming` to the server's
// name made unique in downloads/ (or to the path a step named), the small record that names a guid
// file until then, and the scan that finds what landed while no command watched. downloads.ts
// follows Chrome's events during a command.

import {
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import { downloadsDir, incomingDownloadsDir } from '../common/index.js';

export type DownloadState = 'completed' | 'inProgress' | 'canceled';

/** One download as an answer lists it: never the URL (it may carry a token). */
export interface DownloadReport {
  name: string;
  path?: string;
  bytes?: number;
  state: DownloadState;
  /** It finished, or began, while no command was running: this command found it. */
  betweenCommands?: true;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PARTIAL = '.crdownload';
const RECORD = '.json';
/** Longest file name kept (bytes of UTF-16 text, well under the 255 of common file systems). */
const MAX_NAME_CHARS = 150;
/** A command reports at most this many downloads found in the folder; the rest wait for the next. */
const MAX_LANDED = 20;
/** `name (1).ext` … `name (999).ext`: past that, the name is taken too often to be useful. */
const MAX_SUFFIX = 999;

/** A plain file name from a server's suggestion: no folders, no control characters, not hidden, capped. */
export function safeName(suggested: string): string {
  let name = basename(suggested.replaceAll('\\', '/'))
    .replace(/[\u0000-\u001f\u007f]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  if (name.endsWith(PARTIAL)) name = name.slice(0, -PARTIAL.length);
  if (name.length > MAX_NAME_CHARS) {
    const ext = extname(name).slice(0, 20);
    name = `${name.slice(0, MAX_NAME_CHARS - ext.length)}${ext}`;
  }
  return name || 'download';
}

/**
 * `dir/name`, else `dir/stem (n).ext`: the first that `take` can create — it fails with EEXIST
 * rather than replace a file, so two processes never get the same name.
 */
function firstFree(dir: string, name: string, take: (dest: string) => void): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; n <= MAX_SUFFIX; n++) {
    const dest = join(dir, n ? `${stem} (${n})${ext}` : name);
    try {
      take(dest);
      return dest;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error(`${MAX_SUFFIX} files named like ${name} already exist in ${dir}`);
}

/** The file under a free name in `dir`, by a hard link (same file system). */
function linkUnique(src: string, dir: string, name: string): string {
  const dest = firstFree(dir, name, (d) => linkSync(src, d));
  unlinkSync(src);
  return dest;
}

/** A free name in `dir`, taken by creating an empty file there. */
function reserveUnique(dir: string, name: string): string {
  return firstFree(dir, name, (d) => writeFileSync(d, '', { flag: 'wx', mode: 0o600 }));
}

/** Moves a file, across file systems too; an existing file at `dest` is replaced (the step named it). */
function moveTo(src: string, dest: string): string {
  mkdirSync(dirname(dest), { recursive: true });
  try {
    renameSync(src, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(src, dest);
    unlinkSync(src);
  }
  return dest;
}

/** Whether `path` is a folder (or is written as one): the file then keeps its own name in it. */
function isFolder(path: string): boolean {
  if (path.endsWith('/')) return true;
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Takes a finished file out of `.incoming` and puts it in its place: `target` (a file the step
 * named, or a folder), else downloads/ under `name` made unique. The rename to a claim name first
 * makes the move one process's: a second command that finds the same file finds it gone.
 * Returns the report, or undefined when another process took the file first.
 */
export function placeDownload(src: string, name: string, target?: string): DownloadReport | undefined {
  const claimed = join(dirname(src), `.claimed-${process.pid}-${basename(src)}`);
  try {
    renameSync(src, claimed);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let dest: string;
  try {
    dest =
      target === undefined
        ? linkUniqueAnywhere(claimed, downloadsDir(), name)
        : isFolder(target)
          ? linkUniqueAnywhere(claimed, target, name)
          : moveTo(claimed, target);
  } catch (err) {
    renameSync(claimed, src); // left where it was, under its own name, for the caller to report
    throw err;
  }
  return { name: basename(dest), path: dest, bytes: statSync(dest).size, state: 'completed' };
}

/** A unique name in a folder that may be on another file system than ours. */
function linkUniqueAnywhere(src: string, dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  try {
    return linkUnique(src, dir, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    // Another file system: a unique name is taken there by an empty file, then the file is copied over it.
    const taken = reserveUnique(dir, name);
    return moveTo(src, taken);
  }
}

/**
 * Where a step's `download` path puts the file: a bare name in downloads/ (like a bare PDF name in
 * the state directory), any other relative path from the working directory, an absolute one as
 * given; a path ending in "/" is a folder, where the file keeps its own name.
 */
export function downloadTarget(path: string): string {
  if (isAbsolute(path)) return path;
  if (!path.includes('/')) return join(downloadsDir(), path);
  // join keeps a trailing "/": the path still names a folder.
  return join(process.cwd(), path);
}

/** What names a guid file in `.incoming` until it is placed: the server's name, and the step's path. */
export interface PendingRecord {
  name: string;
  target?: string;
}

const recordPath = (guid: string): string => join(incomingDownloadsDir(), `${guid}${RECORD}`);

export function writeRecord(guid: string, record: PendingRecord): void {
  writeFileSync(recordPath(guid), JSON.stringify(record), { mode: 0o600 });
}

function readRecord(guid: string): PendingRecord | undefined {
  try {
    const r = JSON.parse(readFileSync(recordPath(guid), 'utf8')) as Partial<PendingRecord>;
    if (typeof r.name !== 'string') return undefined;
    return { name: safeName(r.name), ...(typeof r.target === 'string' ? { target: r.target } : {}) };
  } catch {
    return undefined; // not written yet (its command is writing it), or torn
  }
}

export function dropRecord(guid: string): void {
  rmSync(recordPath(guid), { force: true });
}

/** One file of `.incoming` as the scan sees it: a report, after moving it out when it is finished. */
function landed(file: string, skip: ReadonlySet<string>): DownloadReport | undefined {
  const dir = incomingDownloadsDir();
  const partial = file.endsWith(PARTIAL);
  const base = partial ? file.slice(0, -PARTIAL.length) : file;
  const guid = GUID.test(base);
  if (guid && skip.has(base)) return undefined;
  // A guid file without a record is a download a running command has just seen: it writes one.
  const record = guid ? readRecord(base) : { name: safeName(base) };
  if (!record) return undefined;
  if (partial) {
    const bytes = statSync(join(dir, file), { throwIfNoEntry: false })?.size;
    return { name: record.name, ...(bytes !== undefined ? { bytes } : {}), state: 'inProgress', betweenCommands: true };
  }
  const placed = placeDownload(join(dir, file), record.name, record.target);
  if (guid) dropRecord(base);
  return placed && { ...placed, betweenCommands: true };
}

/**
 * Downloads that finished or began while no command watched (Chrome keeps writing to `.incoming`
 * between commands: the profile's download folder points there), moved out and reported; still
 * running ones reported as such and left in place. `skip`: guids this command follows itself.
 */
export function collectLanded(skip: ReadonlySet<string>): DownloadReport[] {
  const out: DownloadReport[] = [];
  let files: string[];
  try {
    files = readdirSync(incomingDownloadsDir());
  } catch {
    return out; // no folder yet: nothing ever downloaded
  }
  for (const file of files.sort()) {
    if (out.length >= MAX_LANDED) break;
    if (file.startsWith('.') || file.endsWith(RECORD)) continue;
    try {
      const report = landed(file, skip);
      if (report) out.push(report);
    } catch {
      // A file another process moved or is writing: the next command looks again.
    }
  }
  return out;
}
