// The registry's lock and its catch-up path, in one process against real files (the cross-process
// races are in registry-stress.test.ts): a lock that looks abandoned is taken over only when it is,
// callers in one process take turns, and a registry behind the claims keeps every tab's state.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'cdp-skill-lock-'));
process.env.CDP_SKILL_STATE_DIR = join(dir, 'state');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const busy = (): Error => new Error('busy');

describe('the lock', () => {
  it('is taken over from a dead owner and from a former process with our pid, never from a live owner', async () => {
    const { acquireLock } = await import('../../src/cdp/lock.js');
    const path = join(dir, 'a.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(path, dead);
    (await acquireLock(path, 1_000, busy))();
    writeFileSync(path, String(process.pid)); // ours by pid, but this process holds no such lock
    (await acquireLock(path, 1_000, busy))();
    writeFileSync(path, String(process.ppid)); // a live process that is not us
    await expect(acquireLock(path, 300, busy)).rejects.toThrow('busy');
    expect(readFileSync(path, 'utf8')).toBe(String(process.ppid));
    rmSync(path);
  });

  it('lets callers in one process take turns, and leaves no file of its own behind', async () => {
    const { withLock } = await import('../../src/cdp/lock.js');
    const path = join(dir, 'b.lock');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withLock(path, 5_000, 'b', async () => {
          most = Math.max(most, ++inside);
          expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.${process.pid}.tmp`)).toBe(false);
  });
});

describe('a registry behind the claims', () => {
  it('is caught up in place: missing claimed aliases come back, every tab keeps its state, the counter moves above', async () => {
    const reg = await import('../../src/cdp/tab-registry.js');
    const tab = (targetId: string) => ({ targetId, host: '127.0.0.1', port: 1 });
    const aliases = await Promise.all(['A1', 'A2', 'A3'].map((id) => reg.registerTab(tab(id))));
    expect([...aliases].sort()).toEqual(['t1', 't2', 't3']);
    const t1 = aliases[0]!;
    await reg.patchTab(t1, {
      viewport: { width: 10, height: 20, deviceScaleFactor: 1, mobile: false, hasTouch: false },
    });
    // An old copy written back: only t1 (with its state), and a counter that would hand out t2 again.
    const old = { nextId: 2, tabs: { [t1]: reg.readRegistry().tabs[t1] }, browsers: {} };
    writeFileSync(reg.registryPath(), JSON.stringify(old));
    const data = await reg.loadRegistry();
    expect(Object.keys(data.tabs).sort()).toEqual(['t1', 't2', 't3']);
    expect(data.tabs[t1]!.viewport).toEqual({
      width: 10,
      height: 20,
      deviceScaleFactor: 1,
      mobile: false,
      hasTouch: false,
    });
    expect(data.nextId).toBe(4);
    expect(JSON.parse(readFileSync(reg.registryPath(), 'utf8'))).toEqual(data); // written back
    // Deleted outright: the claims still name the tabs.
    rmSync(reg.registryPath());
    expect(Object.keys((await reg.loadRegistry()).tabs).sort()).toEqual(['t1', 't2', 't3']);
    expect(await reg.registerTab(tab('A4'))).toBe('t4');
    // A closed tab's claim goes with its entry: it does not come back.
    await reg.forgetTab('t2');
    writeFileSync(reg.registryPath(), JSON.stringify({ nextId: 1, tabs: {}, browsers: {} }));
    expect(Object.keys((await reg.loadRegistry()).tabs).sort()).toEqual(['t1', 't3', 't4']);
    expect(await reg.registerTab(tab('A5'))).toBe('t5');
  });
});
