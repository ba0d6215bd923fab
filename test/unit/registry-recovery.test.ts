import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rebuildRegistry, salvageRegistry } from '../../src/cdp/registry-recovery.js';

const full = JSON.stringify({
  nextId: 9,
  tabs: {
    t3: { targetId: 'AAA', host: '127.0.0.1', port: 1, viewport: { width: 1, height: 2 } },
    t7: { targetId: 'BBB', host: '127.0.0.1', port: 1, wsEndpoint: 'ws://h:2/devtools/browser/x' },
  },
  browsers: { '127.0.0.1:1': 'ws://127.0.0.1:1/devtools/browser/y' },
});

describe('registry salvage', () => {
  it('keeps complete entries and the counter of a torn registry', () => {
    const { data, highestSeen } = salvageRegistry(full.slice(0, full.indexOf('browsers')));
    expect(data.tabs).toEqual({
      t3: { targetId: 'AAA', host: '127.0.0.1', port: 1 },
      t7: { targetId: 'BBB', host: '127.0.0.1', port: 1, wsEndpoint: 'ws://h:2/devtools/browser/x' },
    });
    expect(highestSeen).toBe(8);
    expect(data.nextId).toBe(9);
  });

  it('counts an alias whose entry was cut off', () => {
    const { data, highestSeen } = salvageRegistry('{"tabs":{"t12":{"targetId":"CC');
    expect(data.tabs).toEqual({});
    expect(highestSeen).toBe(12);
  });

  it('gets nothing from garbage', () => {
    expect(salvageRegistry('\u0000{{{').data).toEqual({ nextId: 1, tabs: {}, browsers: {} });
  });
});

describe('registry rebuild', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-skill-rebuild-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps what the damaged text says and stays above aliases named by leftover files', () => {
    writeFileSync(join(dir, 't40.after.png'), '');
    mkdirSync(join(dir, 'chrome-profile-1'), { recursive: true });
    const data = rebuildRegistry(full.slice(0, -5), dir);
    expect(Object.keys(data.tabs).sort()).toEqual(['t3', 't7']);
    expect(data.nextId).toBe(41);
  });

  it('gives each claimed alias its tab back over what the text says, and makes no alias up', async () => {
    const { claimAlias, readClaim } = await import('../../src/cdp/alias-claims.js');
    const claims = mkdtempSync(join(tmpdir(), 'cdp-skill-rebuild-claims-'));
    try {
      const tab = (targetId: string) => ({ targetId, host: '127.0.0.1', port: 1 });
      expect(claimAlias(tab('AAA'), 1, claims)).toBe('t1');
      expect(claimAlias({ ...tab('OWN'), own: true }, 1, claims)).toBe('t2');
      // The text names t1 for another tab, and AAA under t5: the claims win; t6 is the text's alone.
      const text =
        '{"nextId":7,"tabs":{"t1":{"targetId":"ZZZ","host":"127.0.0.1","port":1},' +
        '"t5":{"targetId":"AAA","host":"127.0.0.1","port":1},"t6":{"targetId":"CCC","host":"127.0.0.1","port":1,"own":true},"t';
      const data = rebuildRegistry(text, claims);
      expect(data.tabs).toEqual({
        t1: tab('AAA'),
        t2: { ...tab('OWN'), own: true },
        t6: { ...tab('CCC'), own: true },
      });
      expect(data.nextId).toBe(7);
      expect(readClaim('t6', claims)).toEqual({ ...tab('CCC'), own: true }); // claimed from now on
    } finally {
      rmSync(claims, { recursive: true, force: true });
    }
  });
});

describe('registry shape', () => {
  it('accepts what cdp-skill writes and nothing partly wrong', async () => {
    const { parseRegistry } = await import('../../src/cdp/tab-registry.js');
    expect(parseRegistry(full)?.nextId).toBe(9);
    for (const bad of [
      '{"nextId":"x","tabs":{},"browsers":{}}',
      '{"nextId":0,"tabs":{}}',
      '{"nextId":1,"tabs":[]}',
      'null',
      '[]',
      '',
      '{"nextId":2,"tabs":{"__proto__":{"targetId":"A","host":"h","port":1}}}',
      '{"nextId":2,"tabs":{"x1":{"targetId":"A","host":"h","port":1}}}',
      '{"nextId":2,"tabs":{"t1":{"targetId":"A","host":"h","port":"1"}}}',
      '{"nextId":2,"tabs":{"t1":{"targetId":"A","host":"h","port":1,"counters":{"snapshot":"a"}}}}',
      '{"nextId":2,"tabs":{},"browsers":{"a":1}}',
    ])
      expect(parseRegistry(bad), bad).toBeUndefined();
  });
});

describe('alias claims', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-skill-claims-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('never hands out a number twice, even below the floor asked for or after a release', async () => {
    const { claimAlias, readClaims, releaseClaim, highWaterMark } = await import('../../src/cdp/alias-claims.js');
    const tab = (id: string) => ({ targetId: id, host: '127.0.0.1', port: 1 });
    expect(claimAlias(tab('A'), 1, dir)).toBe('t1');
    expect(claimAlias(tab('B'), 1, dir)).toBe('t2'); // a registry that says nextId 1 again
    releaseClaim('t2', dir);
    expect(claimAlias(tab('C'), 1, dir)).toBe('t3'); // the high-water mark outlives the claim
    expect(claimAlias(tab('D'), 10, dir)).toBe('t10');
    expect(highWaterMark(dir)).toBe(10);
    expect([...readClaims(dir)].map(([a, c]) => `${a}=${c.targetId}`).sort()).toEqual(['t10=D', 't1=A', 't3=C']);
    releaseClaim('__proto__', dir); // not an alias: nothing happens
  });
});
