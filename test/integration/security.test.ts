// Issue 15 items 3, 4, 5 and 7, as an attacker would try them: a planted state dir and code cache,
// secret fields past maxlength, credentials in endpoints, a hostile page. Each test checks that the
// attack failed and that the normal path still works. Items 1–2: own-browser.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLI, execNode, runCli, startHarness, type Harness } from './harness.js';

let h: Harness;
/** The CLI with no port named anywhere: our own Chrome. */
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  h = await startHarness({ launch: false });
  env = { ...h.env };
  delete env.CDP_SKILL_PORT;
});
afterAll(async () => {
  await h?.close();
});

const registry = (): any => JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));

/** A page expression evaluated by Chrome over the test's own socket (the oracle; never our output). */
function evalInTab(tab: string, expression: string): Promise<unknown> {
  const entry = registry().tabs[tab];
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${entry.port}/devtools/page/${entry.targetId}`);
    ws.on('open', () =>
      ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } })),
    );
    ws.on('message', (m) => {
      ws.close();
      resolve(JSON.parse(String(m)).result.result.value);
    });
    ws.on('error', reject);
  });
}

/** The CLI in a working directory of its own (--debug writes ./log there). */
function cliIn(
  cwd: string,
  command: unknown,
  args: string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ out: any; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args, JSON.stringify(command)], {
      cwd,
      env: { ...env, ...extraEnv },
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c;
    });
    child.on('close', () => {
      let out: any = {};
      try {
        out = JSON.parse(stdout);
      } catch {
        /* shown by the assertion */
      }
      resolve({ out, stdout });
    });
  });
}

describe('issue 15 item 3: the loader runs only a code cache of ours', () => {
  /**
   * A V8 code cache built from other code of the bundle's length, which V8 accepts for the bundle:
   * when the loader uses it, the planted function runs instead of the CLI and writes $PWN_MARKER.
   * Made in a plain node child, so its V8 flags are the CLI's.
   */
  async function plantedCache(file: string): Promise<void> {
    const script = `
      const { readFileSync, statSync, writeFileSync } = require('node:fs');
      const vm = require('node:vm');
      const bundle = ${JSON.stringify(join(dirname(CLI), 'cli.bundle.cjs'))};
      const source = readFileSync(bundle, 'utf8').replace(/^#!/, '//');
      const length = '(function (exports, require, module, __filename, __dirname) {'.length + source.length + 3;
      let code = "(function (exports, require, module, __filename, __dirname) {if (process.env.PWN_MARKER) require('node:fs').writeFileSync(process.env.PWN_MARKER, 'planted');\\n})";
      code += ' '.repeat(length - code.length);
      const s = new vm.Script(code, { filename: bundle });
      s.runInThisContext()({}, require, {}, bundle, '.'); // compiled, so the cache holds the function
      writeFileSync(process.argv[1], s.createCachedData(), { mode: 0o600 });
    `;
    const r = await execNode(['-e', script, file], { PATH: process.env.PATH });
    expect(r.code).toBe(0);
  }

  const cacheName = (): string => {
    const { size, mtimeMs } = statSync(join(dirname(CLI), 'cli.bundle.cjs'));
    return `code-cache-${process.version}-${size}-${Math.round(mtimeMs)}.bin`;
  };

  /** Runs `--version` with its own TMPDIR; whether the planted code ran, and the CLI's answer. */
  async function version(tmp: string): Promise<{ planted: boolean; stdout: string }> {
    const marker = join(tmp, 'pwned');
    const r = await runCli(['--version'], { ...h.env, TMPDIR: tmp, PWN_MARKER: marker });
    return { planted: existsSync(marker), stdout: r.stdout.trim() };
  }

  const expectedVersion = JSON.parse(readFileSync(join(dirname(CLI), '..', 'package.json'), 'utf8')).version;
  const caseDir = (name: string): string => {
    const d = join(h.tmp, `loader-${name}`);
    mkdirSync(d, { recursive: true });
    return d;
  };

  it('control: a cache planted by the owner in the private state dir is one V8 accepts (the owner is trusted)', async () => {
    const tmp = caseDir('control');
    mkdirSync(join(tmp, 'cdp-skill'), { mode: 0o700 });
    await plantedCache(join(tmp, 'cdp-skill', cacheName()));
    expect((await version(tmp)).planted).toBe(true);
  });

  it('does not follow a symlink planted where the state dir goes: the planted cache does not run', async () => {
    const tmp = caseDir('symlinked-dir');
    const attacker = join(tmp, 'attacker');
    mkdirSync(attacker, { mode: 0o700 });
    await plantedCache(join(attacker, cacheName()));
    symlinkSync(attacker, join(tmp, 'cdp-skill'));
    const r = await version(tmp);
    expect(r).toEqual({ planted: false, stdout: expectedVersion });
    // The CLI and the loader both moved to the per-user fallback, and wrote nothing through the link.
    expect(readdirSync(attacker)).toEqual([cacheName()]);
    expect(existsSync(join(tmp, `cdp-skill-${process.getuid!()}`))).toBe(true);
  });

  it('refuses a cache that is a symlink, or that others can write', async () => {
    const linked = caseDir('linked-cache');
    mkdirSync(join(linked, 'cdp-skill'), { mode: 0o700 });
    await plantedCache(join(linked, 'planted.bin'));
    symlinkSync(join(linked, 'planted.bin'), join(linked, 'cdp-skill', cacheName()));
    expect(await version(linked)).toEqual({ planted: false, stdout: expectedVersion });

    const loose = caseDir('loose-cache');
    mkdirSync(join(loose, 'cdp-skill'), { mode: 0o700 });
    await plantedCache(join(loose, 'cdp-skill', cacheName()));
    chmodSync(join(loose, 'cdp-skill', cacheName()), 0o666);
    expect(await version(loose)).toEqual({ planted: false, stdout: expectedVersion });
  });

  it.runIf(process.getuid?.() === 0)('refuses a cache owned by another user', async () => {
    const tmp = caseDir('foreign-cache');
    mkdirSync(join(tmp, 'cdp-skill'), { mode: 0o700 });
    await plantedCache(join(tmp, 'cdp-skill', cacheName()));
    chownSync(join(tmp, 'cdp-skill', cacheName()), 65534, 65534);
    expect(await version(tmp)).toEqual({ planted: false, stdout: expectedVersion });
  });
});

describe('issue 15 item 4: values of secret fields are never echoed', () => {
  // Every secret starts with Zq7: no answer, log or file may hold even that prefix.
  const SECRETS: Record<string, string> = {
    '#pw': 'Zq7pw-hunter2',
    '#shown': 'Zq7sh-hunter3',
    '#newpw': 'Zq7np-hunter4',
    '#otp': 'Zq7123456789',
    '#cc': 'Zq74111111111111',
    '#cvc': 'Zq7999',
    '#k1': 'Zq7key-abcdef',
    '#tok': 'Zq7tok-abcdef',
    '#pin': 'Zq79876',
    '#cs': 'Zq7cs-abcdef',
    '#cardno': 'Zq74242424242424242',
  };
  let tab: string;
  let work: string;
  beforeAll(async () => {
    const r = await h.cli({ steps: [{ openTab: `${h.baseUrl}/secrets.html` }] }, { env });
    expect(r.out.status, r.stdout).toBe('ok');
    tab = r.out.tab;
    work = join(h.tmp, 'secrets-cwd');
    mkdirSync(work, { recursive: true });
  });

  it('fill, formState, type, changes, --debug logs, snapshot files and metrics hold no secret, not even a prefix; a plain search box still echoes', async () => {
    const metrics = join(work, 'metrics.jsonl');
    const fills = Object.entries(SECRETS).map(([selector, value]) => ({ fill: { selector, value } }));
    const filled = await cliIn(
      work,
      {
        tab,
        steps: [
          ...fills,
          { fill: { selector: '#search', value: 'hello world' } },
          { formState: '#f' },
          { formState: '#plain' },
        ],
      },
      ['--debug'],
      { CDP_METRICS_FILE: metrics },
    );
    expect(filled.out.status, filled.stdout).toBe('ok');
    // The attack failed: nothing of any secret anywhere in the answer …
    expect(filled.stdout).not.toContain('Zq7');
    const fillOut = filled.out.steps.slice(0, fills.length).map((s: any) => s.output);
    const cut = fillOut.filter((o: any) => o.value !== undefined);
    expect(cut.length).toBeGreaterThan(0); // fields whose maxlength cut the value say so …
    for (const o of cut) expect(o.value).toBe('••••'); // … without the part the page kept
    const secretState = filled.out.steps[fills.length + 1].output.fields;
    expect(secretState.map((f: any) => f.value)).toEqual(Object.keys(SECRETS).map(() => '••••'));
    // … while the normal path still works: the page holds what was typed (the oracle: Chrome, over our own socket) …
    expect(await evalInTab(tab, 'document.querySelector("#pw").value')).toBe('Zq7pw-');
    expect(await evalInTab(tab, 'document.querySelector("#cc").value')).toBe('Zq741111');
    expect(await evalInTab(tab, 'document.querySelector("#k1").value')).toBe('Zq7key-abcdef');
    // … and a plain search box (antd's markup), shipping, spinner and author fields are no secrets.
    expect(filled.out.steps[fills.length].output.value).toBe('hello');
    const plainState = filled.out.steps[fills.length + 2].output.fields;
    expect(plainState.find((f: any) => f.selector === '#search').value).toBe('hello');

    const typed = await cliIn(
      work,
      {
        tab,
        steps: [
          { click: '#pw' },
          { press: 'Control+a' },
          { type: 'Zq7typed' },
          { click: '#search' },
          { press: 'Control+a' },
          { type: 'abc' },
        ],
      },
      ['--debug'],
      { CDP_METRICS_FILE: metrics },
    );
    expect(typed.out.status, typed.stdout).toBe('ok');
    expect(typed.stdout).not.toContain('Zq7');
    expect(typed.out.steps[2].output).toMatchObject({ typed: '••••', length: 8 });
    expect(typed.out.steps[5].output).toMatchObject({ typed: 'abc' });
    expect(await evalInTab(tab, 'document.querySelector("#pw").value')).toBe('Zq7typ');

    const logs = readdirSync(join(work, 'log'));
    expect(logs.length).toBe(2);
    for (const f of logs) expect(readFileSync(join(work, 'log', f), 'utf8')).not.toContain('Zq7');
    for (const file of [filled.out.fullSnapshot, typed.out.fullSnapshot].filter(Boolean))
      expect(readFileSync(file, 'utf8')).not.toContain('Zq7');
    expect(readFileSync(metrics, 'utf8')).not.toContain('Zq7');
    // The log still shows what is not secret.
    expect(logs.map((f) => readFileSync(join(work, 'log', f), 'utf8')).join('')).toContain('hello world');
  });
});

describe('issue 15 item 5: credentials in endpoints are shown nowhere but kept in the private registry', () => {
  const CREDENTIALS = /Pw9zq|TOKzq9|alice/;
  let work: string;
  beforeAll(() => {
    work = join(h.tmp, 'endpoint-cwd');
    mkdirSync(work, { recursive: true });
  });

  it('a wsEndpoint with user:password@ and ?token= that fails: not in the error, step error, params or --debug log; where it failed still is', async () => {
    const wsEndpoint = 'ws://alice:Pw9zq-secret@127.0.0.1:1/devtools/browser/x?token=TOKzq9-abcdef&stealth=1';
    const r = await cliIn(work, { steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, wsEndpoint } }] }, ['--debug']);
    expect(r.out).toMatchObject({ status: 'error', error: { type: 'CONNECTION' } });
    expect(r.stdout).not.toMatch(CREDENTIALS);
    expect(r.out.error.message).toContain('ws://••••@127.0.0.1:1/devtools/browser/x?token=••••&stealth=1');
    expect(r.out.steps[0].params.wsEndpoint).toBe('ws://••••@127.0.0.1:1/devtools/browser/x?token=••••&stealth=1');
    const logs = readdirSync(join(work, 'log'))
      .map((f) => readFileSync(join(work, 'log', f), 'utf8'))
      .join('\n');
    expect(logs).toContain('127.0.0.1:1');
    expect(logs).not.toMatch(CREDENTIALS);
  });

  it('a working wsEndpoint with credentials is used as given and kept whole only in the 0600 registry; a tab whose browser is gone says so without them', async () => {
    await h.cli({ steps: [{ chromeStatus: true }] }, { env });
    const own = registry().own.wsUrl as string;
    const wsEndpoint = `${own.replace('ws://', 'ws://alice:Pw9zq-secret@')}?token=TOKzq9-abcdef`;
    const opened = await cliIn(
      work,
      {
        steps: [
          { openTab: { url: `${h.baseUrl}/basic.html`, wsEndpoint } },
          { click: { selector: '#nope', timeout: 300 }, optional: true },
        ],
      },
      ['--debug'],
    );
    expect(opened.out, opened.stdout).toMatchObject({ status: 'ok', context: { title: 'Basic page' } });
    expect(opened.stdout).not.toMatch(CREDENTIALS);
    const reg = registry();
    expect(reg.tabs[opened.out.tab].wsEndpoint).toBe(wsEndpoint);
    expect(statSync(join(h.tmp, 'cdp-skill', 'tabs.json')).mode & 0o777).toBe(0o600);
    const again = await h.cli({ tab: opened.out.tab, steps: [{ pageFunction: 'document.title' }] }, { env });
    expect(again.out.steps?.[0]?.output, again.stdout).toEqual({ type: 'string', value: 'Basic page' });
    // The same endpoint, its browser gone: the answer names the tab and the host, not the credentials.
    const gone = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
    gone.tabs.t999 = { ...gone.tabs[opened.out.tab], wsEndpoint: wsEndpoint.replace(/:\d+\/devtools/, ':1/devtools') };
    writeFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), JSON.stringify(gone), { mode: 0o600 });
    const unreachable = await h.cli({ tab: 't999', steps: [{ pageFunction: '1' }] }, { env });
    expect(unreachable.out.error?.message, unreachable.stdout).toMatch(
      /Tab t999 is unreachable: Cannot connect to ws:\/\/••••@127\.0\.0\.1:1\//,
    );
    expect(unreachable.stdout).not.toMatch(CREDENTIALS);
  });
});

describe('issue 15 item 7: one answer stays under 256 KB whatever the page does', () => {
  const CEILING = 256 * 1024;
  let tab: string;
  let openedTitle: string;
  beforeAll(async () => {
    const r = await h.cli({ steps: [{ openTab: `${h.baseUrl}/huge-answers.html` }] }, { env });
    expect(r.out.status, r.stdout.slice(0, 500)).toBe('ok');
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(CEILING);
    tab = r.out.tab;
    openedTitle = r.out.context.title;
  });

  it("a 2 MB <title> is cut in the context and in a failed click's failure context; the page keeps its title", async () => {
    expect(await evalInTab(tab, 'document.title.length')).toBe(2_000_000);
    const read = await h.cli({ tab, steps: [{ snapshot: true }] }, { env });
    expect(Buffer.byteLength(read.stdout)).toBeLessThan(8_000);
    // The context is sent whole by openTab (later answers give only what changed): cut there.
    expect(openedTitle).toBe(`${'T'.repeat(300)}…[cut: 1999700 more characters]`);
    expect(read.stdout).not.toContain('T'.repeat(301));
    const failed = await h.cli({ tab, steps: [{ click: { selector: '#nope', timeout: 300 } }] }, { env });
    expect(failed.out.status).toBe('error');
    expect(Buffer.byteLength(failed.stdout)).toBeLessThan(16_000);
    expect(failed.stdout).not.toContain('T'.repeat(301));
    // The normal path: the title is still there to read on purpose, cut.
    const listed = await h.cli({ steps: [{ listTabs: true }] }, { env });
    // (Chrome itself gives at most 4096 characters of a title here.)
    expect(listed.out.steps[0].output.tabs.find((t: any) => t.tab === tab).title).toMatch(
      /^T{300}…\[cut: \d+ more characters\]$/,
    );
  });

  it('a pageFunction returning 50 MB answers small (cut, with its length) and in bounded memory', async () => {
    const run = (pageFunction: string): { out: any; bytes: number; peakKb: number } => {
      const r = spawnSync(
        '/usr/bin/time',
        ['-f', '%M', process.execPath, CLI, JSON.stringify({ tab, steps: [{ pageFunction }] })],
        {
          env,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      return {
        out: JSON.parse(r.stdout),
        bytes: Buffer.byteLength(r.stdout),
        peakKb: Number(r.stderr.trim().split('\n').pop()),
      };
    };
    // A function's value is cut in the page: only 50,000 characters cross the wire.
    const fn = run("() => 'x'.repeat(50_000_000)");
    expect(fn.bytes).toBeLessThan(CEILING);
    expect(fn.out.steps[0].output).toMatchObject({ type: 'string', length: 50_000_000, truncated: true });
    expect(fn.out.steps[0].output.value).toMatch(/^x{50000}…$/);
    expect(fn.peakKb).toBeLessThan(120_000); // a plain call's own ~50 MB; was 423 MB
    // An expression's string comes whole (CDP returns primitives by value) and is cut on arrival.
    const expr = run("'x'.repeat(50_000_000)");
    expect(expr.bytes).toBeLessThan(CEILING);
    expect(expr.out.steps[0].output).toMatchObject({ type: 'string', length: 50_000_000, truncated: true });
    expect(expr.peakKb).toBeLessThan(320_000);
    // Unserialized (by value, as the page gave it): the last guard cuts it and says so.
    const raw = await h.cli(
      { tab, steps: [{ pageFunction: { expression: "'y'.repeat(3_000_000)", serialize: false } }] },
      { env },
    );
    expect(Buffer.byteLength(raw.stdout)).toBeLessThan(CEILING);
    expect(raw.out.status).toBe('ok');
    expect(raw.out.cut).toMatch(
      /^This answer was \d+ bytes, over the 262144-byte ceiling: 1 strings cut to \d+ characters/,
    );
    expect(raw.out.steps[0].output).toMatch(/^y{32768}…\[cut: 2967232 more characters\]$/);
  });

  // (400 and 60, not thousands: Chrome answers a dialog in ~10-20 ms on this machine; the cap is the same.)
  it('an alert loop: 400 repeats are one entry with times; 60 different dialogs are 20 and a count', async () => {
    const same = await h.cli({ tab, steps: [{ click: '#same' }] }, { env });
    expect(same.out.status, same.stdout.slice(0, 500)).toBe('ok');
    expect(same.out.dialogs).toEqual([{ type: 'alert', message: 'again', action: 'accepted', step: 1, times: 400 }]);
    const many = await h.cli({ tab, steps: [{ click: '#many' }] }, { env });
    expect(many.out.dialogs.length).toBe(21);
    expect(many.out.dialogs[0]).toMatchObject({ type: 'alert', message: 'alert number 0' });
    expect(many.out.dialogs[20]).toBe('…[cut: 40 more dialogs; 60 in all]');
    expect(await evalInTab(tab, 'document.title.length')).toBe(2_000_000); // the page itself is untouched
    expect(Buffer.byteLength(many.stdout)).toBeLessThan(CEILING);
  });
});
