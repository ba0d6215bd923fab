// install/: link vs. copy detection and the safety of uninstall (only what install made).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectMode, installSkill, uninstallSkill } from '../../src/install/index.js';
import { COPIED_FILES } from '../../src/install/layout.js';

const scratch = mkdtempSync(join(tmpdir(), 'cdp-skill-install-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fake package root with what a copy needs. */
function fakePackage(dir: string, git: boolean): string {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cdp-skill', version: '9.9.9' }));
  for (const f of COPIED_FILES) writeFileSync(join(dir, f), `${f}\n`);
  if (git) writeFileSync(join(dir, '.git'), 'gitdir: elsewhere\n'); // a worktree's .git is a file
  return dir;
}

describe('detectMode', () => {
  it('links a git checkout and copies an npm install or a bare unpacked package', () => {
    expect(detectMode(fakePackage(join(scratch, 'checkout'), true))).toBe('link');
    expect(detectMode(fakePackage(join(scratch, 'lib', 'node_modules', 'cdp-skill'), true))).toBe('copy');
    expect(detectMode(fakePackage(join(scratch, 'unpacked'), false))).toBe('copy');
  });
});

describe('uninstall', () => {
  it('removes nothing outside the skill folder, whatever the manifest says', () => {
    const home = join(scratch, 'home-tampered');
    mkdirSync(home, { recursive: true });
    const root = fakePackage(join(scratch, 'pkg-a'), false);
    writeFileSync(join(home, 'precious.txt'), 'keep\n');
    expect(installSkill({ root, home, path: '' }).status).toBe('ok');
    const manifestPath = join(home, '.claude', 'skills', 'cdp-skill', '.cdp-skill-install.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    manifest.files.push('../../../precious.txt', join(home, 'precious.txt'), '..');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    uninstallSkill({ home });
    expect(readFileSync(join(home, 'precious.txt'), 'utf8')).toBe('keep\n');
    expect(existsSync(join(home, '.claude'))).toBe(false);
  });

  it('leaves a link to some other folder alone, and replaces a dangling one of ours', () => {
    const home = join(scratch, 'home-links');
    const skills = join(home, '.claude', 'skills');
    mkdirSync(skills, { recursive: true });
    mkdirSync(join(scratch, 'elsewhere'));
    symlinkSync(join(scratch, 'elsewhere'), join(skills, 'cdp-skill'));
    const root = fakePackage(join(scratch, 'pkg-b'), true);
    const r = installSkill({ root, home, path: '' });
    expect(r.targets.map((t) => t.result)).toEqual(['conflict', 'created']);
    expect(uninstallSkill({ home }).targets.map((t) => t.result)).toEqual(['notOurs', 'removed']);
    expect(existsSync(join(scratch, 'elsewhere'))).toBe(true);

    rmSync(join(skills, 'cdp-skill'));
    symlinkSync(join(scratch, 'deleted-checkout'), join(skills, 'cdp-skill'));
    expect(installSkill({ root, home, path: '' }).targets[0]!.result).toBe('updated');
  });
});
