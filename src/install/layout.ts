// Where the skill goes and in which form (SPEC §1 "Installation Model"): the two agent skill
// folders, link vs. copy, and how to tell an entry cdp-skill made from anything else.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';

export type Agent = 'claude' | 'codex';
export type InstallMode = 'link' | 'copy';

export interface SkillTarget {
  agent: Agent;
  /** `~/.claude/skills/cdp-skill` or `~/.codex/skills/cdp-skill`: the only entry we create there. */
  dir: string;
}

export const SKILL_NAME = 'cdp-skill';
/** Written into a copied skill folder: marks it as ours and lists the files we put there. */
export const MANIFEST = '.cdp-skill-install.json';
/** What a copied skill holds besides the generated package.json: the playbook, examples, the CLI (its loader, bundle and what the bundle loads on demand). */
export const COPIED_FILES = [
  'SKILL.md',
  'EXAMPLES.md',
  'dist/cli.js',
  'dist/cli.bundle.cjs',
  'dist/page-runtime.js',
  'dist/commander.cjs',
  'dist/package.json',
] as const;

export function skillTargets(home: string): SkillTarget[] {
  return [
    { agent: 'claude', dir: join(home, '.claude', 'skills', SKILL_NAME) },
    { agent: 'codex', dir: join(home, '.codex', 'skills', SKILL_NAME) },
  ];
}

/** Install-state record of folders `install` had to create, so `uninstall` can remove them again. */
export function installRecordPath(home: string): string {
  return join(home, '.cdp-skill', 'install.json');
}

/** A git checkout outside node_modules is linked (edits show at once); anything else is copied. */
export function detectMode(root: string): InstallMode {
  const real = realpathSync(root);
  if (real.split(sep).includes('node_modules')) return 'copy';
  return existsSync(join(real, '.git')) ? 'link' : 'copy';
}

/** A folder holding a cdp-skill package: its package.json says so and it has a SKILL.md. */
export function isCdpSkillPackage(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === SKILL_NAME && existsSync(join(dir, 'SKILL.md'));
  } catch {
    return false; // no or unreadable package.json: not ours
  }
}

export function packageVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
