// Bad input never reaches Chrome: PARSE and VALIDATION errors, exit 1, no stack trace.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateEnv, runCli } from './harness.js';

const env = privateEnv(mkdtempSync(join(tmpdir(), 'cdp-skill-input-')));
// A port nothing listens on: if validation let anything through, the error would be CONNECTION.
const cli = (arg: string | undefined, stdin?: string) => runCli(arg === undefined ? [] : [arg], env, stdin);

function expectError(r: Awaited<ReturnType<typeof cli>>, type: string, pattern: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.out).toMatchObject({ status: 'error', error: { type } });
  expect(r.out.error.message).toMatch(pattern);
  expect(r.stdout).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stderr).toBe('');
}

describe('input errors', () => {
  it('rejects text that is not JSON as PARSE', async () => {
    expectError(await cli('{steps: [}'), 'PARSE', /Invalid JSON/);
  });

  it('rejects a JSON value that is not an object as PARSE', async () => {
    expectError(await cli('[1,2]'), 'PARSE', /must be a JSON object/);
  });

  it('rejects empty stdin as PARSE without hanging', async () => {
    const r = await cli(undefined, '');
    expectError(r, 'PARSE', /No input/);
    expect(r.ms).toBeLessThan(5_000);
  });

  it('does not wait on a stdin that stays open with nothing in it', async () => {
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('./harness.js');
    const started = Date.now();
    const child = spawn(process.execPath, [CLI], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'error', error: { type: 'PARSE' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads the command from stdin', async () => {
    expectError(await cli(undefined, '{"steps":[]}'), 'VALIDATION', /"steps" is empty/);
  });

  it('answers the legacy config object with a migration message', async () => {
    expectError(
      await cli('{"config":{"port":9222},"steps":[{"goto":"x.com"}]}'),
      'VALIDATION',
      /no longer supported.*openTab/,
    );
  });

  it('suggests the step name that was meant', async () => {
    expectError(
      await cli('{"tab":"t1","steps":[{"goto":"http://a.test"},{"gotto":"x"}]}'),
      'VALIDATION',
      /Step 2: unknown step "gotto". Did you mean "goto"\?/,
    );
  });

  it('suggests the parameter key that was meant', async () => {
    expectError(
      await cli('{"tab":"t1","steps":[{"goto":{"url":"http://a.test","waitUntill":"load"}}]}'),
      'VALIDATION',
      /Step 1 \(goto\): unknown key "waitUntill".*Did you mean "waitUntil"\?/,
    );
  });

  it('suggests the top-level key that was meant', async () => {
    expectError(
      await cli('{"tabb":"t1","steps":[{"goto":"http://a.test"}]}'),
      'VALIDATION',
      /Unknown top-level key "tabb". Did you mean "tab"\?/,
    );
  });

  it('rejects a step with two actions', async () => {
    expectError(
      await cli('{"tab":"t1","steps":[{"goto":"http://a.test","reload":true}]}'),
      'VALIDATION',
      /2 actions \(goto, reload\)/,
    );
  });

  it('rejects wrong parameter types with the step index', async () => {
    expectError(
      await cli('{"tab":"t1","steps":[{"wait":"#a"},{"goto":{"url":"http://a.test","waitUntil":"loaded"}}]}'),
      'VALIDATION',
      /Step 2 \(goto\): "waitUntil" must be one of commit, domcontentloaded, load, networkidle/,
    );
  });

  it('validates every step before running any', async () => {
    // Step 1 would need Chrome; step 2 is invalid: the answer must be VALIDATION, not CONNECTION.
    expectError(
      await cli('{"steps":[{"openTab":"http://127.0.0.1:1/"},{"viewport":"nokia-3310"}]}'),
      'VALIDATION',
      /Step 2 \(viewport\): unknown device preset/,
    );
  });

  it('asks for a tab when steps need one', async () => {
    expectError(await cli('{"steps":[{"goto":"http://a.test"}]}'), 'VALIDATION', /needs a tab/);
  });

  it('rejects prototype-pollution keys as unknown keys', async () => {
    expectError(
      await cli('{"__proto__":{"x":1},"steps":[{"listTabs":true}]}'),
      'VALIDATION',
      /Unknown top-level key "__proto__"/,
    );
  });

  it('rejects a bad timeout', async () => {
    expectError(
      await cli('{"timeout":-5,"tab":"t1","steps":[{"reload":true}]}'),
      'VALIDATION',
      /"timeout" must be a positive number/,
    );
  });

  it('prints help and version via flags', async () => {
    const help = await runCli(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/openTab/);
    expect(help.stdout).toMatch(/pageFunction/);
    const version = await runCli(['--version'], env);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('answers an unknown flag with a PARSE error in JSON', async () => {
    const r = await runCli(['--bogus'], env);
    expect(r.code).toBe(1);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'PARSE' } });
  });

  it('accepts --debug anywhere and still validates', async () => {
    const r = await runCli(['{"steps":[]}', '--debug'], env);
    expectError(r, 'VALIDATION', /empty/);
  });
});
