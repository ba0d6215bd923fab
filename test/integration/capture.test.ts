// --debug logs and CDP_METRICS_FILE lines, written beside a real command.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('basic.html');
});
afterAll(async () => {
  await h?.close();
});

describe('debug log and metrics', () => {
  it('writes one log file per command with the request and the response', async () => {
    const cwd = mkdtempSync(join(h.tmp, 'cwd-'));
    const { spawnSync } = await import('node:child_process');
    const { CLI } = await import('./harness.js');
    const cmd = JSON.stringify({
      tab,
      steps: [{ pageFunction: '1' }, { wait: 1 }, { pageFunction: '2' }, { pageFunction: '3' }],
    });
    spawnSync(process.execPath, [CLI, '--debug', cmd], { cwd, env: h.env });
    spawnSync(process.execPath, [CLI, cmd, '--debug'], { cwd, env: h.env });
    const files = readdirSync(join(cwd, 'log')).sort();
    expect(files).toEqual([
      `001-${tab}-pageFunction-wait-pageFunction-plus1.ok.json`,
      `002-${tab}-pageFunction-wait-pageFunction-plus1.ok.json`,
    ]);
    const log = JSON.parse(readFileSync(join(cwd, 'log', files[0]!), 'utf8'));
    expect(log.request.tab).toBe(tab);
    expect(log.response.status).toBe('ok');
    expect(log.ts).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('appends a metrics line per command, errors included', async () => {
    const file = join(h.tmp, 'metrics', 'm.jsonl');
    const env = { CDP_METRICS_FILE: file };
    const ok = await h.cli({ tab, steps: [{ pageFunction: '1' }] }, { env });
    await h.cli('not json', { env });
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ steps: 1, output_bytes: Buffer.byteLength(ok.stdout) });
    expect(lines[0].input_bytes).toBe(JSON.stringify({ tab, steps: [{ pageFunction: '1' }] }).length);
    expect(lines[0].time_ms).toBeGreaterThan(0);
    expect(lines[1]).toMatchObject({ steps: 0, input_bytes: 8 });
  });
});
