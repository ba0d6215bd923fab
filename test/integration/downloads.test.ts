// Downloads (issue 21.3): a click, a goto or any step that starts a download saves the file in the
// private downloads folder (or the step's `download` path) and the answer lists it. The oracle is
// the file on disk, checked against what the server sent (its own CSV generator), including the
// downloads that finish — or begin — after the command that caused them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows } from '../fixtures/routes/state.mjs';
import { cdpToPage, startHarness, type Harness } from './harness.js';

let h: Harness;
let tab: string;
let downloads: string;
let incoming: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('state/downloads.html');
  downloads = join(h.tmp, 'cdp-skill', 'downloads');
  incoming = join(downloads, '.incoming');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[]) => h.cli({ tab, steps });
const rowsOf = (path: string) => readFileSync(path, 'utf8').trim().split('\n').length - 1;

/** Polls the folder Chrome writes to until `done` holds (at most 15 s): the file system is the oracle, no fixed sleep. */
async function until(done: (files: string[]) => boolean): Promise<string[]> {
  for (let i = 0; i < 150; i++) {
    const files = readdirSync(incoming);
    if (done(files)) return files;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`.incoming never got there: ${readdirSync(incoming).join(', ')}`);
}

describe('a step that starts a download', () => {
  it('saves the file a click starts under its server name and lists it (bytes and rows as sent)', async () => {
    const r = await run([{ click: '#csv' }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.downloads).toEqual([
      {
        name: 'export.csv',
        path: join(downloads, 'export.csv'),
        bytes: Buffer.byteLength(csvRows(25)),
        state: 'completed',
      },
    ]);
    const path = r.out.downloads[0].path;
    expect(readFileSync(path, 'utf8')).toBe(csvRows(25));
    expect(rowsOf(path)).toBe(25);
    expect(statSync(path).size).toBe(r.out.downloads[0].bytes);
    expect(statSync(downloads).mode & 0o777).toBe(0o700);
    expect(readdirSync(incoming)).toEqual([]); // nothing left behind
  });

  it('makes names unique: two files named a.csv become a.csv and "a (1).csv"', async () => {
    const r = await run([{ click: '#two' }]);
    const names = r.out.downloads.map((d: { name: string }) => d.name).sort();
    expect(names).toEqual(['a (1).csv', 'a.csv']);
    for (const d of r.out.downloads) expect(readFileSync(d.path, 'utf8')).toBe(csvRows(3));
  });

  it('waits for the downloads of links with `download` the click reached: they begin only when the server answers', async () => {
    // No CDP event tells a pending a[download] (measured): the click probe counts them, the step waits.
    await run([{ goto: `${h.baseUrl}/state/downloads.html?delayMs=1500` }]);
    const r = await run([{ click: '#two' }]);
    expect(r.out.status, r.stdout).toBe('ok');
    const names = (r.out.downloads ?? []).map((d: { name: string }) => d.name).sort();
    expect(names, r.stdout).toEqual(['a (2).csv', 'a (3).csv']); // a.csv and "a (1).csv" are there already
    for (const d of r.out.downloads) expect(readFileSync(d.path, 'utf8')).toBe(csvRows(3));
    await run([{ goto: `${h.baseUrl}/state/downloads.html` }]);
  });

  it('saves to the path the step names, and a goto to a file downloads it without leaving the page', async () => {
    const file = join(h.tmp, 'out', 'report.csv');
    const url = `${h.baseUrl}/state/export.csv?rows=12&name=ignored.csv`;
    const r = await run([{ goto: url, download: file }]);
    expect(r.out.steps[0].output).toEqual({ url: `${h.baseUrl}/state/downloads.html`, download: true });
    expect(r.out.downloads).toEqual([
      { name: 'report.csv', path: file, bytes: statSync(file).size, state: 'completed' },
    ]);
    expect(rowsOf(file)).toBe(12);
    // A folder (ending in "/") keeps the server's name; `download` may sit inside the action's object.
    const dir = `${join(h.tmp, 'out', 'dir')}/`;
    const f = await run([{ click: { selector: '#csv', download: dir } }]);
    expect(f.out.downloads[0].path).toBe(join(dir, 'export.csv'));
    expect(rowsOf(f.out.downloads[0].path)).toBe(25);
  });

  it('waits for a slow download within the step', async () => {
    await run([{ goto: `${h.baseUrl}/state/downloads.html?slowMs=800` }]);
    const r = await run([{ click: '#slow' }]);
    expect(r.out.downloads).toMatchObject([{ name: 'slow.csv', state: 'completed' }]);
    expect(rowsOf(r.out.downloads[0].path)).toBe(40);
  });

  it('"download": true fails a step that starts none, as a timeout that says so', async () => {
    const r = await run([{ pageFunction: '1 + 1', download: true, timeout: 2500 }]);
    expect(r.out.status).toBe('error');
    expect(r.out.steps[0].errorType).toBe('TimeoutError');
    expect(r.out.steps[0].error).toMatch(/waiting for a download to begin/);
  });

  it('refuses a bad "download" before anything runs', async () => {
    for (const [steps, message] of [
      [[{ click: '#csv', download: 5 }], /"download" must be true or the path/],
      [[{ listTabs: true, download: true }], /"download" waits for a page's download; listTabs has no page/],
      [[{ click: { selector: '#csv', download: true }, download: true }], /"download" is given twice/],
    ] as const) {
      const r = await run(steps as unknown[]);
      expect(r.out.error?.type).toBe('VALIDATION');
      expect(r.out.error.message).toMatch(message);
      expect(r.code).toBe(1);
    }
  });
});

describe('in a named browser context', () => {
  it("saves the context tab's download too (Chrome's setting is per context)", async () => {
    const opened = await h.cli({
      steps: [{ openTab: { url: `${h.baseUrl}/state/downloads.html`, port: h.port, context: 'exports' } }],
    });
    const inContext = opened.out.tab as string;
    const r = await h.cli({ tab: inContext, steps: [{ click: '#csv', download: 'from-context.csv' }] });
    expect(r.out.downloads, r.stdout).toEqual([
      {
        name: 'from-context.csv',
        path: join(downloads, 'from-context.csv'),
        bytes: Buffer.byteLength(csvRows(25)),
        state: 'completed',
      },
    ]);
    expect(readFileSync(join(downloads, 'from-context.csv'), 'utf8')).toBe(csvRows(25));
    const closed = await h.cli({ steps: [{ closeTab: inContext }] });
    expect(closed.out.steps[0].output).toEqual({ closed: inContext, contextDisposed: 'exports' });
  });
});

describe('two commands at once in one Chrome', () => {
  it("still follows a step's download after another command's connection closed (Chrome resets the setting then)", async () => {
    await run([{ goto: `${h.baseUrl}/state/downloads.html` }]);
    const other = await h.open('basic.html');
    const mine = run([{ wait: 2500 }, { click: '#csv', download: 'together.csv', timeout: 5000 }]);
    // Another agent's command starts and ends while ours waits.
    await new Promise((r) => setTimeout(r, 300));
    expect((await h.cli({ tab: other, steps: [{ wait: 1 }] })).out.status).toBe('ok');
    const r = await mine;
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.downloads).toEqual([
      {
        name: 'together.csv',
        path: join(downloads, 'together.csv'),
        bytes: Buffer.byteLength(csvRows(25)),
        state: 'completed',
      },
    ]);
    expect(readFileSync(join(downloads, 'together.csv'), 'utf8')).toBe(csvRows(25));
    await h.cli({ steps: [{ closeTab: other }] });
  });
});

describe('downloads between commands', () => {
  it('reports a download that finishes after its command in the next command', async () => {
    // Started by the page itself (not a click, whose own time varies with the machine's load),
    // with a step timeout well short of the download's 6 s.
    const slow = '/state/export.csv?rows=40&slowMs=6000&name=slow.csv';
    // `download: true`: the step waits for it to begin (a loaded machine's server may answer after the step).
    const r = await run([{ pageFunction: `location.href = ${JSON.stringify(slow)}`, download: true, timeout: 3000 }]);
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.downloads, r.stdout).toHaveLength(1);
    expect(r.out.downloads[0]).toMatchObject({ name: 'slow.csv', state: 'inProgress' });
    expect(r.out.downloads[0].path).toBeUndefined(); // not there yet
    // Chrome finishes it with no command connected: a whole file under its guid.
    await until((files) => files.some((f) => /^[0-9a-f-]{36}$/.test(f)));
    const next = await run([{ wait: 1 }]);
    expect(next.out.downloads).toEqual([
      {
        name: 'slow (1).csv',
        path: join(downloads, 'slow (1).csv'),
        bytes: Buffer.byteLength(csvRows(40)),
        state: 'completed',
        betweenCommands: true,
      },
    ]);
    expect(readFileSync(next.out.downloads[0].path, 'utf8')).toBe(csvRows(40));
    const again = await run([{ wait: 1 }]);
    expect(again.out.downloads).toBeUndefined(); // reported once
  });

  it('reports a download that began after the command (the profile sends it to our folder)', async () => {
    await run([{ goto: `${h.baseUrl}/state/downloads.html?lateMs=1200` }]);
    const r = await run([{ click: '#late' }]);
    const late = (d: { name: string }[] | undefined) => (d ?? []).filter((x) => x.name.startsWith('late'));
    expect(late(r.out.downloads)).toEqual([]);
    await until((files) => files.includes('late.csv'));
    const next = await run([{ wait: 1 }]);
    expect(late(next.out.downloads)).toEqual([
      {
        name: 'late.csv',
        path: join(downloads, 'late.csv'),
        bytes: Buffer.byteLength(csvRows(7)),
        state: 'completed',
        betweenCommands: true,
      },
    ]);
    expect(rowsOf(join(downloads, 'late.csv'))).toBe(7);
  });
});

describe('an answer the deadline cuts short', () => {
  it('still lists the download the step saw begin (the page paused in the debugger during the look after it)', async () => {
    // Its own tab, paused a second after the download begins by a debugger the test holds: the look
    // after the step cannot finish and the answer comes from the command's deadline.
    const frozen = await h.open('state/downloads.html?cut=1');
    const debug = await cdpToPage(h.port, `${h.baseUrl}/state/downloads.html?cut=1`);
    await debug.send('Debugger.enable');
    try {
      const slow = '/state/export.csv?rows=5&slowMs=6000&name=cut.csv';
      const r = await h.cli({
        tab: frozen,
        steps: [
          {
            pageFunction: `setTimeout(() => { debugger; }, 1000); location.href = ${JSON.stringify(slow)}`,
            download: true,
            timeout: 3000,
          },
        ],
      });
      expect(r.out.warning ?? r.out.error?.message, r.stdout).toMatch(/did not finish|No answer within/);
      expect(r.out.downloads, r.stdout).toEqual([expect.objectContaining({ name: 'cut.csv', state: 'inProgress' })]);
    } finally {
      await debug.send('Debugger.resume');
      debug.close();
    }
  });
});
