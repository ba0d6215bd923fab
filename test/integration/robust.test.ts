// Robustness: per-tab locks between concurrent commands, a registry that survives corruption,
// and safety by default (redacted secrets, artifacts removed with their tab, loopback-only Chrome).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
