// Robustness: per-tab locks between concurrent commands, a registry that survives corruption,
// and safety by default (redacted secrets, artifacts removed with their tab, loopback-only Chrome).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const stateDir = (): string => join(h.tmp, 'cdp-skill');
const registry = (): { nextId: number; tabs: Record<string, { targetId: string }> } =>
  JSON.parse(readFileSync(join(stateDir(), 'tabs.json'), 'utf8'));
const lockFile = (targetId: string): string => join(stateDir(), 'locks', `tab-${targetId}.lock`);

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('per-tab lock', () => {
  it('serialises two commands typing into one input: two contiguous sequences, never interleaved', async () => {
    const tab = await h.open('basic.html');
    const typing = (ch: string) => h.cli({ tab, steps: [{ type: { text: ch.repeat(12), selector: '#name', delay: 40 } }] });
    const [a, b] = await Promise.all([typing('a'), typing('b')]);
    expect(a.out.status).toBe('ok');
    expect(b.out.status).toBe('ok');
    const value = await h.value(tab, "document.querySelector('#name').value");
    expect(value).toMatch(/^(a{12}b{12}|b{12}a{12})$/);
    expect(existsSync(lockFile(registry().tabs[tab]!.targetId))).toBe(false); // released
  }, 60_000);

  it('answers CONNECTION "Tab busy" naming the alias when the tab stays locked past the timeout', async () => {
    const tab = await h.open('basic.html');
    const lock = lockFile(registry().tabs[tab]!.targetId);
    writeFileSync(lock, String(process.pid)); // a live holder: this test process
    try {
      const r = await h.cli({ tab, timeout: 1_000, steps: [{ pageFunction: '1' }] });
      expect(r.code).toBe(1);
      expect(r.out.error.type).toBe('CONNECTION');
      expect(r.out.error.message).toMatch(new RegExp(`^Tab busy: ${tab} is in use by another cdp-skill command \\(pid ${process.pid}\\); waited 1000ms`));
      expect(r.ms).toBeLessThan(8_000);
    } finally {
      writeFileSync(lock, ''); // emptied, then removed below
      spawnSync('rm', ['-f', lock]);
    }
    const next = await h.cli({ tab, steps: [{ pageFunction: '2' }] });
    expect(next.out.steps?.[0].output).toEqual({ type: 'number', value: 2 });
  }, 60_000);

  it('takes over the lock of a process that died holding it', async () => {
    const tab = await h.open('basic.html');
    const lock = lockFile(registry().tabs[tab]!.targetId);
    writeFileSync(lock, String(deadPid()));
    const r = await h.cli({ tab, timeout: 5_000, steps: [{ pageFunction: '3' }] });
    expect(r.out.steps?.[0].output).toEqual({ type: 'number', value: 3 });
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});

describe('registry corruption', () => {
  const backups = (): string[] => readdirSync(stateDir()).filter((f) => f.startsWith('tabs.json.corrupt-'));

  it('repairs a torn registry: the agent\'s alias still reaches its tab, the damaged file is kept aside', async () => {
    const tab = await h.open('page2.html?torn=1');
    const before = registry();
    const text = readFileSync(join(stateDir(), 'tabs.json'), 'utf8');
    writeFileSync(join(stateDir(), 'tabs.json'), text.slice(0, text.indexOf('"browsers"') + 3)); // cut mid-write
    const backupsBefore = backups().length;
    const r = await h.cli({ tab, steps: [{ pageFunction: 'location.search' }] });
    expect(r.stderr).toBe('');
    expect(r.out).toMatchObject({ status: 'ok', tab, steps: [{ output: { type: 'string', value: '?torn=1' } }] });
    expect(backups().length).toBe(backupsBefore + 1);
    const after = registry();
    expect(after.tabs[tab]!.targetId).toBe(before.tabs[tab]!.targetId);
    expect(after.nextId).toBeGreaterThanOrEqual(before.nextId);
  }, 60_000);

  it('rebuilds a garbage registry from Chrome\'s tab list: every tab gets an alias above any given before', async () => {
    const tab = await h.open('page2.html?garbage=1');
    const highest = registry().nextId - 1;
    writeFileSync(join(stateDir(), 'tabs.json'), '\u0000\u0001 not json {{{');
    const r = await h.cli({ steps: [{ listTabs: { port: h.port } }] });
    expect(r.stderr).toBe('');
    expect(r.out.status).toBe('ok');
    const tabs = r.out.steps[0].output.tabs as { tab?: string; url: string }[];
    expect(tabs.length).toBeGreaterThan(0);
    for (const t of tabs) expect(Number(t.tab?.slice(1))).toBeGreaterThan(highest);
    const mine = tabs.find((t) => t.url.endsWith('?garbage=1'))!;
    expect(mine.tab).not.toBe(tab);
    const again = await h.cli({ tab: mine.tab, steps: [{ pageFunction: 'location.search' }] });
    expect(again.out.steps?.[0].output).toEqual({ type: 'string', value: '?garbage=1' });
    expect(registry().nextId).toBeGreaterThan(Number(mine.tab!.slice(1)));
  }, 60_000);
});
