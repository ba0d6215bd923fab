// Fuzz through the real CLI binary: a sample of the generated hostile commands (and raw texts)
// as an agent would send them, as an argument or on stdin, some with --debug. Each must answer
// PARSE or VALIDATION on stdout, exit 1, write nothing to stderr, and end promptly. No Chrome.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError, ValidationError } from '../../src/common/index.js';
import { validateCommand } from '../../src/runner/index.js';
import { randomCases, rng, shapeCases, stepCases, textCases } from '../fuzz/cases.js';
import { CLI, privateEnv, removeTmp } from './harness.js';

const tmp = mkdtempSync(join(tmpdir(), 'cdp-skill-fuzz-'));
// Nothing may reach a browser: a command that did would find no Chrome on port 1 and launch none.
const env = { ...privateEnv(tmp), CDP_SKILL_PORT: '1', CDP_METRICS_FILE: join(tmp, 'metrics.jsonl') };
afterAll(() => removeTmp(tmp));

/** Above the argv limit of one argument (128 KiB), input goes on stdin. */
const MAX_ARG_BYTES = 100_000;
const CASE_TIMEOUT_MS = 15_000;
const PARALLEL = 3;

interface Outcome {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function runOne(name: string, text: string, debug: boolean): Promise<Outcome> {
  const viaStdin = Buffer.byteLength(text) > MAX_ARG_BYTES || text.includes('\u0000') || !text.trim(); // argv holds no NUL
  const args = [CLI, ...(debug ? ['--debug'] : []), ...(viaStdin ? [] : [text])];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), CASE_TIMEOUT_MS);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdin.on('error', () => {
      /* the CLI may answer before reading all of a huge stdin */
    });
    child.stdin.end(viaStdin ? text : undefined);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ name, code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function problem(o: Outcome): string | undefined {
  let out: { status?: string; error?: { type?: string; message?: string } };
  try {
    out = JSON.parse(o.stdout);
  } catch {
    return `${o.name}: stdout is not JSON: ${o.stdout.slice(0, 200)} ${o.stderr.slice(0, 300)}`;
  }
  if (o.code !== 1) return `${o.name}: exit ${o.code}`;
  if (out.status !== 'error' || !['PARSE', 'VALIDATION'].includes(out.error?.type ?? ''))
    return `${o.name}: ${o.stdout.slice(0, 300)}`;
  if (!out.error?.message || /\n\s+at /.test(out.error.message)) return `${o.name}: message ${out.error?.message}`;
  if (o.stderr) return `${o.name}: stderr ${o.stderr.slice(0, 300)}`;
  return undefined;
}

describe('fuzz: the CLI binary', () => {
  it('answers about 50 hostile commands with PARSE or VALIDATION, exit 1, nothing on stderr', async () => {
    // A deterministic sample of cases the validator rejects in-process (valid ones would run).
    const next = rng(42);
    const pool = [...stepCases(), ...shapeCases(), ...randomCases(200, 7)];
    const rejected: { name: string; text: string }[] = [];
    while (rejected.length < 38) {
      const c = pool[Math.floor(next() * pool.length)]!;
      const err = await validateCommand(c.input).then(
        () => undefined,
        (e: unknown) => e,
      );
      if ((err instanceof ParseError || err instanceof ValidationError) && !rejected.some((r) => r.name === c.name)) {
        rejected.push({ name: c.name, text: JSON.stringify(c.input) ?? 'undefined' });
      }
    }
    const cases = [...rejected, ...textCases()];
    const outcomes: Outcome[] = [];
    for (let i = 0; i < cases.length; i += PARALLEL) {
      outcomes.push(
        ...(await Promise.all(cases.slice(i, i + PARALLEL).map((c, j) => runOne(c.name, c.text, (i + j) % 5 === 0)))),
      );
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(50);
    expect(outcomes.map(problem).filter(Boolean)).toEqual([]);
    for (const o of outcomes) expect(o.ms, o.name).toBeLessThan(CASE_TIMEOUT_MS);
    // --debug wrote its logs (never a crash on deep or huge input); no Chrome was ever started.
    expect(readdirSync(join(tmp, 'log')).length).toBeGreaterThan(0);
    const state = join(tmp, 'cdp-skill');
    expect(existsSync(state) ? readdirSync(state).filter((f) => f.startsWith('chrome-profile')) : []).toEqual([]);
  }, 120_000);
});
