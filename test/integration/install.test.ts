// `cdp-skill install` / `uninstall` into a temporary HOME: a link from this checkout, a copy with
// --copy and from the packed npm package; the installed CLI runs a real job (SPEC §1).
import { execFile } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startHarness, type Harness } from './harness.js';

const ROOT = realpathSync(fileURLToPath(new URL('../..', import.meta.url)));
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

let h: Harness;
let scratch: string;
beforeAll(async () => {
  h = await startHarness();
  scratch = mkdtempSync(join(tmpdir(), 'cdp-skill-install-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function newHome(name: string): string {
  const home = join(scratch, name);
  mkdirSync(home, { recursive: true });
  return home;
}

const skillDirs = (home: string) => [
  join(home, '.claude', 'skills', 'cdp-skill'),
  join(home, '.codex', 'skills', 'cdp-skill'),
];

/** Every path under `dir`, relative, sorted: to show nothing else changed. */
function tree(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const rel = join(prefix, e.name);
      return e.isDirectory() && !e.isSymbolicLink() ? [`${rel}/`, ...tree(join(dir, e.name), rel)] : [rel];
    })
    .sort();
}

function exec(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const cli = (home: string, args: string[]) => runCli(args, { ...h.env, HOME: home });

describe('from a git checkout (development)', () => {
  it('links both skill folders to the checkout, idempotently, touching nothing else', async () => {
    const home = newHome('dev');
    mkdirSync(join(home, '.claude', 'skills', 'other-skill'), { recursive: true });
    writeFileSync(join(home, '.claude', 'skills', 'other-skill', 'SKILL.md'), '# other\n');
    writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');

    const r = await cli(home, ['install']);
    expect(r.code).toBe(0);
    expect(r.out).toMatchObject({ status: 'ok', action: 'install', mode: 'link', source: ROOT, version: VERSION });
    expect(r.out.targets).toEqual(
      skillDirs(home).map((path, i) => ({ agent: i ? 'codex' : 'claude', path, result: 'created' })),
    );
    for (const dir of skillDirs(home)) {
      expect(lstatSync(dir).isSymbolicLink()).toBe(true);
      expect(readlinkSync(dir)).toBe(ROOT);
      expect(existsSync(join(dir, 'SKILL.md'))).toBe(true);
    }
    expect(readFileSync(join(home, '.claude', 'skills', 'other-skill', 'SKILL.md'), 'utf8')).toBe('# other\n');

    const again = await cli(home, ['install']);
    expect(again.out.targets.map((t: any) => t.result)).toEqual(['unchanged', 'unchanged']);

    const un = await cli(home, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.out.targets.map((t: any) => t.result)).toEqual(['removed', 'removed']);
    // ~/.codex was made by install and goes again; ~/.claude was there and keeps its own things
    expect(tree(home)).toEqual([
      '.claude/',
      '.claude/settings.json',
      '.claude/skills/',
      '.claude/skills/other-skill/',
      '.claude/skills/other-skill/SKILL.md',
    ]);
    expect((await cli(home, ['uninstall'])).out.targets.map((t: any) => t.result)).toEqual(['absent', 'absent']);
  });

  it('answers a bad subcommand option in JSON and installs nothing; help describes install', async () => {
    const home = newHome('bad-option');
    const r = await cli(home, ['install', '--bogus']);
    expect(r.code).toBe(1);
    expect(r.out).toMatchObject({
      status: 'error',
      error: { type: 'PARSE', message: "unknown option '--bogus'. Usage: cdp-skill '<json>'" },
    });
    expect(r.stderr).toBe('');
    expect(readdirSync(home)).toEqual([]);
    const help = await cli(home, ['help', 'install']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--copy/);
  });

  it('leaves a cdp-skill entry it did not make alone, and says so', async () => {
    const home = newHome('conflict');
    const foreign = join(home, '.codex', 'skills', 'cdp-skill');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'SKILL.md'), '# someone else\n');

    const r = await cli(home, ['install']);
    expect(r.code).toBe(1);
    expect(r.out.status).toBe('error');
    expect(r.out.error.type).toBe('EXECUTION');
    expect(r.out.targets.map((t: any) => t.result)).toEqual(['created', 'conflict']);
    expect(r.out.targets[1].reason).toMatch(/did not create; left untouched/);
    expect(readFileSync(join(foreign, 'SKILL.md'), 'utf8')).toBe('# someone else\n');

    const un = await cli(home, ['uninstall']);
    expect(un.out.targets.map((t: any) => t.result)).toEqual(['removed', 'notOurs']);
    expect(tree(join(home, '.codex'))).toEqual(['skills/', 'skills/cdp-skill/', 'skills/cdp-skill/SKILL.md']);
    expect(existsSync(join(home, '.claude'))).toBe(false);
  });

  it('--copy copies SKILL.md, EXAMPLES.md and the bundled CLI, which runs on its own', async () => {
    const home = newHome('copy');
    const r = await cli(home, ['install', '--copy']);
    expect(r.out).toMatchObject({ status: 'ok', mode: 'copy' });
    const dir = skillDirs(home)[0]!;
    // The CLI: its loader and the one bundle it compiles (through a code cache kept in the state dir, not here).
    expect(tree(dir)).toEqual([
      '.cdp-skill-install.json',
      'EXAMPLES.md',
      'SKILL.md',
      'dist/',
      'dist/cli.bundle.cjs',
      'dist/cli.js',
      'dist/commander.cjs',
      'dist/package.json',
      'dist/page-runtime.js',
      'package.json',
    ]);
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(readFileSync(join(ROOT, 'SKILL.md'), 'utf8'));
    const v = await exec(process.execPath, [join(dir, 'dist', 'cli.js'), '--version']);
    expect(v.stdout.trim()).toBe(VERSION);

    expect((await cli(home, ['install', '--copy'])).out.targets.map((t: any) => t.result)).toEqual([
      'unchanged',
      'unchanged',
    ]);
    // switching to a link replaces our copy
    expect((await cli(home, ['install'])).out.targets.map((t: any) => t.result)).toEqual(['updated', 'updated']);
    expect(lstatSync(dir).isSymbolicLink()).toBe(true);
    expect((await cli(home, ['install', '--copy'])).out.targets.map((t: any) => t.result)).toEqual([
      'updated',
      'updated',
    ]);

    // a file the user added to our copy survives uninstall
    writeFileSync(join(dir, 'my-notes.md'), 'mine\n');
    const un = await cli(home, ['uninstall']);
    expect(un.out.targets[0]).toMatchObject({ result: 'removed', kept: ['my-notes.md'] });
    expect(tree(home)).toEqual([
      '.claude/',
      '.claude/skills/',
      '.claude/skills/cdp-skill/',
      '.claude/skills/cdp-skill/my-notes.md',
    ]);
  });
});

describe('from the npm package', () => {
  let prefix: string;
  let bin: string;
  beforeAll(async () => {
    const packDir = join(scratch, 'pack');
    mkdirSync(packDir);
    // dist/ is already built for the integration tests; prepack would only build it again.
    const pack = await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir, ROOT], { cwd: packDir });
    expect(pack.code, pack.stderr).toBe(0);
    const tgz = readdirSync(packDir).find((f) => f.endsWith('.tgz'))!;
    prefix = join(scratch, 'prefix');
    const inst = await exec(
      'npm',
      ['install', '-g', join(packDir, tgz), '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: packDir },
    );
    expect(inst.code, inst.stderr).toBe(0);
    bin = join(prefix, 'bin', 'cdp-skill');
  }, 180_000);

  it('holds only the runtime dependencies and what the skill needs', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', 'cdp-skill');
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@modelcontextprotocol/sdk', 'commander']);
    for (const f of ['SKILL.md', 'EXAMPLES.md', 'README.md', 'LICENSE', 'dist/cli.js'])
      expect(existsSync(join(pkgDir, f)), f).toBe(true);
    expect(existsSync(join(pkgDir, 'src'))).toBe(false);
    expect(existsSync(join(pkgDir, 'build'))).toBe(false); // tsc's modules: the bundle in dist/ is the CLI
    expect(existsSync(join(pkgDir, 'test'))).toBe(false);
  });

  it('runs, installs a copy into both skill folders, and the copy drives Chrome', async () => {
    const home = newHome('packed');
    const env = { ...h.env, HOME: home, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };
    expect((await exec(bin, ['--version'], { env })).stdout.trim()).toBe(VERSION);

    const r = await exec(bin, ['install'], { env });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: 'ok', mode: 'copy', version: VERSION });
    expect(out.note).toBeUndefined(); // cdp-skill is on PATH
    expect(out.targets.map((t: any) => t.result)).toEqual(['created', 'created']);

    // A real job through the copied CLI, which has no node_modules next to it.
    const copied = join(skillDirs(home)[1]!, 'dist', 'cli.js');
    const job = JSON.stringify({
      steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }, { pageFunction: 'document.title' }],
    });
    const ran = JSON.parse((await exec(process.execPath, [copied, job], { env })).stdout);
    expect(ran.status).toBe('ok');
    expect(ran.steps[1].output.type).toBe('string');
    expect(ran.steps[1].output.value).toBe(ran.context.title);
    const closed = JSON.parse((await exec(bin, [JSON.stringify({ steps: [{ closeTab: ran.tab }] })], { env })).stdout);
    expect(closed).toMatchObject({ status: 'ok', steps: [{ output: { closed: ran.tab } }] });

    const un = JSON.parse((await exec(bin, ['uninstall'], { env })).stdout);
    expect(un.targets.map((t: any) => t.result)).toEqual(['removed', 'removed']);
    expect(readdirSync(home)).toEqual([]);
  }, 120_000);
});
