// `cdp-skill install` / `uninstall`: put the skill into each agent's skill folder and take it out
// again, touching nothing but our own `cdp-skill` entry and the parent folders we had to create.

import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';
import {
  detectMode,
  installRecordPath,
  packageVersion,
  skillTargets,
  type Agent,
  type InstallMode,
  type SkillTarget,
} from './layout.js';
import { inspectEntry, linksTo, makeLink, removeCopy, removeIfEmpty, removeLink, writeCopy } from './skill-entry.js';

export type InstallResult = 'created' | 'updated' | 'unchanged' | 'conflict';
export type UninstallResult = 'removed' | 'absent' | 'notOurs';

export interface TargetReport<R> {
  agent: Agent;
  path: string;
  result: R;
  reason?: string;
  kept?: string[];
}

export interface SkillReport<R> {
  status: 'ok' | 'error';
  action: 'install' | 'uninstall';
  mode?: InstallMode;
  source?: string;
  version?: string;
  targets: TargetReport<R>[];
  note?: string;
  error?: { type: 'EXECUTION'; message: string };
}

export interface InstallOptions {
  /** The package root: the checkout, or the npm-installed package. */
  root: string;
  home: string;
  /** Copy even from a git checkout. */
  copy?: boolean;
  /** PATH to look for the `cdp-skill` command on (for the note). */
  path?: string;
}

interface InstallRecord {
  createdDirs: string[];
}

function readRecord(home: string): InstallRecord {
  try {
    const r = JSON.parse(readFileSync(installRecordPath(home), 'utf8')) as InstallRecord;
    return { createdDirs: Array.isArray(r.createdDirs) ? r.createdDirs.filter((d) => typeof d === 'string') : [] };
  } catch {
    return { createdDirs: [] }; // none yet
  }
}

/** Creates the missing folders between `home` and `dir`, recording each one. */
function ensureParent(dir: string, home: string, created: string[]): void {
  const missing: string[] = [];
  for (let p = dirname(dir); p !== home && p !== dirname(p) && !existsSync(p); p = dirname(p)) missing.unshift(p);
  for (const p of missing) {
    mkdirSync(p);
    created.push(p);
  }
}

function installTarget(
  t: SkillTarget,
  mode: InstallMode,
  root: string,
  version: string,
  home: string,
  created: string[],
): TargetReport<InstallResult> {
  const report = (result: InstallResult, reason?: string): TargetReport<InstallResult> => ({
    agent: t.agent,
    path: t.dir,
    result,
    ...(reason ? { reason } : {}),
  });
  const existing = inspectEntry(t.dir);
  if (existing.kind === 'foreign' || (existing.kind === 'link' && !existing.ours)) {
    const what = existing.kind === 'link' ? `a link to ${existing.target}` : existing.what;
    return report('conflict', `${t.dir} is ${what}; left untouched. Move it away and run install again.`);
  }
  if (existing.kind === 'none') ensureParent(t.dir, home, created);
  if (mode === 'link') {
    if (existing.kind === 'link' && linksTo(t.dir, root)) return report('unchanged');
    if (existing.kind === 'link') removeLink(t.dir);
    if (existing.kind === 'copy') {
      const kept = removeCopy(t.dir, existing.manifest);
      if (kept.length)
        return report(
          'conflict',
          `${t.dir} holds files cdp-skill did not put there (${kept.join(', ')}); left them, and did not link.`,
        );
    }
    makeLink(t.dir, root);
    return report(existing.kind === 'none' ? 'created' : 'updated');
  }
  if (existing.kind === 'link') removeLink(t.dir);
  const changed = writeCopy(t.dir, root, version, existing.kind === 'copy' ? existing.manifest : undefined);
  return report(existing.kind === 'none' ? 'created' : changed || existing.kind === 'link' ? 'updated' : 'unchanged');
}

function onPath(command: string, pathVar: string): boolean {
  return pathVar
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, command), constants.X_OK);
        return true;
      } catch {
        return false; // not in this folder
      }
    });
}

export function installSkill(o: InstallOptions): SkillReport<InstallResult> {
  const mode: InstallMode = o.copy ? 'copy' : detectMode(o.root);
  const version = packageVersion(o.root);
  const created: string[] = [];
  const targets = skillTargets(o.home).map((t) => installTarget(t, mode, o.root, version, o.home, created));
  if (created.length) {
    const record = readRecord(o.home);
    const recordPath = installRecordPath(o.home);
    ensureParent(recordPath, o.home, created);
    record.createdDirs = [...new Set([...record.createdDirs, ...created])];
    writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);
  }
  const conflicts = targets.filter((t) => t.result === 'conflict');
  const note = onPath('cdp-skill', o.path ?? process.env.PATH ?? '')
    ? undefined
    : mode === 'link'
      ? `cdp-skill is not on your PATH: run \`npm link\` in ${o.root}.`
      : 'cdp-skill is not on your PATH: install it with `npm install -g cdp-skill`, or call `node <skill folder>/dist/cli.js`.';
  return {
    status: conflicts.length ? 'error' : 'ok',
    action: 'install',
    mode,
    source: o.root,
    version,
    targets,
    ...(note ? { note } : {}),
    ...(conflicts.length
      ? { error: { type: 'EXECUTION' as const, message: conflicts.map((c) => c.reason).join(' ') } }
      : {}),
  };
}

function uninstallTarget(t: SkillTarget): TargetReport<UninstallResult> {
  const existing = inspectEntry(t.dir);
  const base = { agent: t.agent, path: t.dir };
  switch (existing.kind) {
    case 'none':
      return { ...base, result: 'absent' };
    case 'foreign':
      return { ...base, result: 'notOurs', reason: `${existing.what}; left untouched` };
    case 'link':
      if (!existing.ours) return { ...base, result: 'notOurs', reason: `a link to ${existing.target}; left untouched` };
      removeLink(t.dir);
      return { ...base, result: 'removed' };
    case 'copy': {
      const kept = removeCopy(t.dir, existing.manifest);
      return { ...base, result: 'removed', ...(kept.length ? { kept } : {}) };
    }
  }
}

export function uninstallSkill(o: { home: string }): SkillReport<UninstallResult> {
  const targets = skillTargets(o.home).map(uninstallTarget);
  const record = readRecord(o.home);
  if (existsSync(installRecordPath(o.home))) {
    rmSync(installRecordPath(o.home), { force: true });
    // Deepest first, and only when empty: a folder that now holds something else stays.
    for (const dir of [...record.createdDirs].sort((a, b) => b.length - a.length)) {
      if (dir.startsWith(`${o.home}${sep}`)) removeIfEmpty(dir);
    }
  }
  return { status: 'ok', action: 'uninstall', targets };
}
