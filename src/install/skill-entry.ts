// One skill folder entry (`…/skills/cdp-skill`): what is there now, and making or removing a link
// or a copy. Only files listed in our manifest are ever written or removed.

import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { COPIED_FILES, isCdpSkillPackage, MANIFEST, SKILL_NAME } from './layout.js';

export interface Manifest {
  installedBy: typeof SKILL_NAME;
  version: string;
  mode: 'copy';
  source: string;
  files: string[];
}

export type Existing =
  | { kind: 'none' }
  | { kind: 'link'; target: string; ours: boolean }
  | { kind: 'copy'; manifest: Manifest }
  | { kind: 'foreign'; what: string };

function readManifest(dir: string): Manifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
    return m.installedBy === SKILL_NAME && Array.isArray(m.files) ? m : undefined;
  } catch {
    return undefined; // no manifest: not a copy we made
  }
}

export function inspectEntry(dir: string): Existing {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return { kind: 'none' };
  if (st.isSymbolicLink()) {
    const target = resolve(dirname(dir), readlinkSync(dir));
    // A dangling link in our name holds nothing: ours to replace or remove.
    return { kind: 'link', target, ours: !existsSync(target) || isCdpSkillPackage(target) };
  }
  if (!st.isDirectory()) return { kind: 'foreign', what: 'a file' };
  const manifest = readManifest(dir);
  return manifest ? { kind: 'copy', manifest } : { kind: 'foreign', what: 'a folder cdp-skill did not create' };
}

export function linksTo(dir: string, root: string): boolean {
  try {
    return realpathSync(dir) === realpathSync(root);
  } catch {
    return false; // dangling
  }
}

export function makeLink(dir: string, root: string): void {
  symlinkSync(realpathSync(root), dir, process.platform === 'win32' ? 'junction' : 'dir');
}

/** A manifest entry that stays inside the skill folder (a tampered manifest cannot reach out). */
function safeRelative(rel: unknown): rel is string {
  if (typeof rel !== 'string' || !rel || isAbsolute(rel)) return false;
  const n = normalize(rel);
  return n !== '..' && !n.startsWith(`..${sep}`) && n !== '.';
}

function writeIfChanged(path: string, data: Buffer): boolean {
  if (existsSync(path) && readFileSync(path).equals(data)) return false;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
  return true;
}

/** Writes (or refreshes) a copy; returns whether any file changed. */
export function writeCopy(dir: string, root: string, version: string, previous?: Manifest): boolean {
  const files = new Map<string, Buffer>(COPIED_FILES.map((rel) => [rel, readFileSync(join(root, rel))]));
  // The bundled CLI reads ../package.json for --version: give it a minimal one (dist/package.json makes dist/ CommonJS).
  files.set('package.json', Buffer.from(`${JSON.stringify({ name: SKILL_NAME, version, private: true }, null, 2)}\n`));
  mkdirSync(dir, { recursive: true });
  let changed = false;
  for (const [rel, data] of files) changed = writeIfChanged(join(dir, rel), data) || changed;
  chmodSync(join(dir, 'dist', 'cli.js'), 0o755);
  for (const rel of previous?.files ?? []) {
    if (safeRelative(rel) && !files.has(rel) && existsSync(join(dir, rel))) {
      rmSync(join(dir, rel), { force: true });
      changed = true;
    }
  }
  const manifest: Manifest = { installedBy: SKILL_NAME, version, mode: 'copy', source: root, files: [...files.keys()] };
  changed = writeIfChanged(join(dir, MANIFEST), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)) || changed;
  return changed;
}

/** Removes the files of a copy and the folders they emptied; returns what was left (not ours). */
export function removeCopy(dir: string, manifest: Manifest): string[] {
  const rels = manifest.files.filter(safeRelative);
  for (const rel of [...rels, MANIFEST]) rmSync(join(dir, rel), { force: true });
  const subdirs = [...new Set(rels.map((rel) => dirname(rel)).filter((d) => d !== '.'))].sort(
    (a, b) => b.length - a.length,
  );
  for (const sub of subdirs) removeIfEmpty(join(dir, sub));
  removeIfEmpty(dir);
  return existsSync(dir) ? readdirSync(dir) : [];
}

export function removeLink(dir: string): void {
  unlinkSync(dir);
}

export function removeIfEmpty(dir: string): boolean {
  try {
    if (readdirSync(dir).length) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false; // gone already, or not a folder we can empty: leave it
  }
}
