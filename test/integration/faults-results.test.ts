// Results that say what really happened under faults: javascript: URLs refused, a crashed renderer
// reported as a crash, getDom's file claims, a top-level error.type on failed steps, disk and HOME
// errors classified, bogus hosts refused, a screenshot that could not be written named, a 0-byte
// lock that costs nothing, and (where mount works) a really full disk on a small tmpfs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const stateDir = (): string => join(h.tmp, 'cdp-skill');
const registry = (): { tabs: Record<string, { targetId: string }>; browsers: Record<string, string> } =>
  JSON.parse(readFileSync(join(stateDir(), 'tabs.json'), 'utf8'));
const titleOf = async (targetId: string): Promise<string | undefined> =>
  ((await (await fetch(`http://127.0.0.1:${h.port}/json/list`)).json()) as { id: string; title: string }[]).find(
    (t) => t.id === targetId,
  )?.title;

describe('truthful results', () => {
  it('refuses javascript: URLs in goto and openTab with VALIDATION; the page is untouched', async () => {
    const tab = await h.open('basic.html');
    const targetId = registry().tabs[tab]!.targetId;
    for (const command of [
      { tab, steps: [{ goto: "javascript:document.title='pwned'" }] },
      { tab, steps: [{ goto: { url: " JavaScript:document.title='pwned'" } }] },
      { steps: [{ openTab: "javascript:document.title='pwned'" }] },
    ]) {
      const r = await h.cli(command);
      expect(r.out.error, r.stdout).toMatchObject({ type: 'VALIDATION' });
      expect(r.out.error.message).toMatch(/javascript: URL/);
    }
    expect(await titleOf(targetId)).toBe('Basic page');
  });

  it('reports chrome://crash as a crashed tab, not an aborted navigation', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, timeout: 10_000, steps: [{ goto: 'chrome://crash' }] });
    expect(r.out.steps[0], r.stdout).toMatchObject({
      status: 'error',
      errorType: 'PageCrashedError',
      category: 'crashed',
    });
    expect(r.out.error).toMatchObject({ type: 'EXECUTION', category: 'crashed' });
  }, 60_000);

  it('gives every failed step a top-level error with its type', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli({ tab, steps: [{ click: { selector: '#does-not-exist', timeout: 300 } }] });
    expect(r.out).toMatchObject({
      status: 'error',
      error: { type: 'EXECUTION', step: 1, category: 'selector-not-found' },
    });
    expect(r.out.error.message).toBe(r.out.steps[0].error);
  });

  it('getDom says when its file holds only part of the HTML, and the file is what it says', async () => {
    const tab = await h.open('basic.html');
    const r = await h.cli(
      { tab, timeout: 60_000, steps: [{ goto: `${h.baseUrl}/huge?mb=6` }, { getDom: true }] },
      { timeoutMs: 90_000 },
    );
    const out = r.out.steps?.[1]?.output;
    expect(out, r.stdout.slice(0, 500)).toMatchObject({ truncated: true, pathTruncated: true });
    const file = readFileSync(out.path, 'utf8');
    expect(file.length).toBe(out.pathLength);
    expect(out.length).toBeGreaterThan(file.length);
    expect(file.length).toBeLessThanOrEqual(5_000_000);
    expect(file.endsWith('</p>\n')).toBe(true); // cut before a tag, never inside one
    expect(r.out.steps[1].warning).toMatch(new RegExp(`holds only the first ${out.pathLength}`));
  }, 120_000);
});

describe('input that must not be stored or acted on', () => {
  it('refuses a host with a port, path or query in it, and stores nothing', async () => {
    for (const host of ['127.0.0.1:9690/x?', 'http://127.0.0.1', '127.0.0.1/x', 'a b']) {
      const r = await h.cli({ steps: [{ openTab: { url: 'about:blank', host } }] });
      expect(r.out.error, host).toMatchObject({ type: 'VALIDATION' });
    }
    expect(Object.keys(registry().browsers).some((k) => k.includes('/') || k.includes('?'))).toBe(false);
  });

  it('launches no Chrome for a loopback host it could not reach (only 127.0.0.1 and localhost)', async () => {
    const port = await freePort();
    const r = await h.cli({ timeout: 5_000, steps: [{ openTab: { url: 'about:blank', host: '127.0.0.2', port } }] });
    expect(r.out.status).toBe('error');
    expect(r.out.error.type).toBe('CONNECTION');
    const running = spawnSync('pgrep', ['-f', `remote-debugging-port=${port}( |$)`], {
      encoding: 'utf8',
    }).stdout.trim();
    expect(running).toBe('');
  });
});

describe('files that cannot be written', () => {
  it('a screenshot that cannot be written is named in a warning; the command stands', async () => {
    const tab = await h.open('basic.html');
    const shot = join(stateDir(), `${tab}.after.png`);
    rmSync(shot, { force: true });
    mkdirSync(shot); // EISDIR when the capture writes it
    try {
      // #reveal shows a paragraph 300 ms later, within the wait: a change, so the answer takes its screenshot.
      const r = await h.cli({ tab, steps: [{ click: '#reveal' }, { wait: 600 }] });
      expect(r.out.status, r.stdout).toBe('ok');
      expect(await h.value(tab, 'document.getElementById("late").hidden')).toBe(false);
      expect(r.out.screenshot).toBeUndefined();
      expect(r.out.warning).toMatch(/No screenshot this time: .*EISDIR/);
    } finally {
      rmSync(shot, { recursive: true, force: true });
    }
  });

  it('an unwritable HOME is a StorageError with a plain message, not raw errno text under "evaluation"', async () => {
    const home = join(h.tmp, 'home-is-a-file');
    writeFileSync(home, 'not a directory');
    const r = await h.cli(
      { steps: [{ writeSiteProfile: { domain: 'example.com', content: '# example.com' } }] },
      { env: { HOME: home } },
    );
    expect(r.out.status).toBe('error');
    const failure = r.out.error;
    expect(failure, r.stdout).toMatchObject({ type: 'EXECUTION', category: 'storage' });
    expect(failure.message).toMatch(/not a directory \(ENOTDIR\)\. Make HOME a writable directory/);
  });

  it('an empty lock file (left by a full disk) does not hold up the next command', async () => {
    const tab = await h.open('basic.html');
    const lock = join(stateDir(), 'locks', `tab-${registry().tabs[tab]!.targetId}.lock`);
    writeFileSync(lock, '');
    await new Promise((r) => setTimeout(r, 600));
    const r = await h.cli({ tab, steps: [{ pageFunction: '1' }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.ms).toBeLessThan(3_000);
  });
});

describe('a full disk (tmpfs)', () => {
  const mnt = join('/tmp', `cdp-skill-full-${process.pid}`);
  let mounted = false;
  beforeAll(() => {
    mkdirSync(mnt, { recursive: true });
    mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mnt]).status === 0;
  });
  afterAll(() => {
    if (mounted) spawnSync('umount', ['-l', mnt]);
    rmSync(mnt, { recursive: true, force: true });
  });

  it('answers a classified StorageError quickly, leaves no 0-byte lock or temp file, and works again once space is freed', async (ctx) => {
    if (!mounted) ctx.skip(); // mount needs root (CAP_SYS_ADMIN): the case is skipped, and says so
    const env = { CDP_SKILL_STATE_DIR: join(mnt, 'state') };
    const first = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] }, { env });
    expect(first.out.status, first.stdout).toBe('ok');
    const filler = join(mnt, 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k', 'count=1000']); // until ENOSPC
    const full = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] }, { env });
    expect(full.out.status).toBe('error');
    expect(full.out.error, full.stdout).toMatchObject({ type: 'EXECUTION', category: 'storage' });
    expect(full.out.error.message).toMatch(/the disk is full \(ENOSPC\)/);
    const onTab = await h.cli({ tab: first.out.tab, steps: [{ pageFunction: '1' }] }, { env });
    expect(onTab.out.error ?? onTab.out.warning, onTab.stdout).toBeDefined(); // said, not silently ok
    const locks = join(mnt, 'state', 'locks');
    const leftovers = existsSync(locks)
      ? readdirSync(locks).filter((n) => readFileSync(join(locks, n), 'utf8') === '')
      : [];
    expect(leftovers).toEqual([]);
    expect(readdirSync(join(mnt, 'state')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    rmSync(filler);
    const again = await h.cli({ tab: first.out.tab, steps: [{ pageFunction: 'document.title' }] }, { env });
    expect(again.out, again.stdout).toMatchObject({ status: 'ok', steps: [{ output: { value: 'Basic page' } }] });
    expect(again.ms).toBeLessThan(4_000);
  }, 60_000);
});
