// Login state that lasts, and more than one identity (issue 21.4): `state` save/load into a fresh
// Chrome, two users side by side in named browser contexts, and a named profile whose login
// survives a Chrome restart. Oracles: the server's own record of sessions, Chrome's cookies over
// the test's own CDP socket, the page as Chrome shows it, mode bits on disk; and the session
// cookie's value is never in an answer or a --debug log.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChrome } from '../../src/cdp/index.js';
import { CLI, cdpTo, closeChrome, freePort, startHarness, type CliResult, type Harness } from './harness.js';

let h: Harness;
/** Every answer of this file, to look for secrets in. */
const answers: string[] = [];
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function cli(command: unknown): Promise<CliResult> {
  const r = await h.cli(command);
  answers.push(r.stdout);
  return r;
}

interface ServerSession {
  sid: string;
  user: string;
  views: number;
}
const sessions = async (): Promise<ServerSession[]> => (await fetch(`${h.baseUrl}/state/sessions`)).json();
const sessionOf = async (user: string) => (await sessions()).find((s) => s.user === user);

/** Logs `user` in through the app's own form, in `tab`. */
async function logIn(tab: string, user: string): Promise<void> {
  const r = await cli({
    tab,
    steps: [
      { goto: `${h.baseUrl}/state/app` },
      { fill: { label: 'User', value: user } },
      { click: { text: 'Sign in' } },
      { wait: { text: `Signed in as ${user}` } },
    ],
  });
  expect(r.out.status, r.stdout).toBe('ok');
}

/** One CDP call on the browser target of the Chrome on `port`, over the test's own socket. */
async function browserCall(port: number, method: string, params: object = {}): Promise<any> {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((r) => ws.on('open', r));
  const reply = new Promise<any>((resolve) => ws.on('message', (d) => resolve(JSON.parse(d.toString()))));
  ws.send(JSON.stringify({ id: 1, method, params }));
  const m = await reply;
  ws.close();
  return m.result;
}

/** What the app page shows: who is signed in (from the server), and what it read from its storage. */
const SHOWN = '[...document.querySelectorAll("main h1, main p")].map((e) => e.textContent)';

/** The app page of a tab, read over the test's own socket to its target. */
async function shown(port: number, targetId: string): Promise<string[]> {
  const client = await cdpTo(port, (t) => (t as unknown as { id: string }).id === targetId, targetId);
  try {
    return await client.value(SHOWN);
  } finally {
    client.close();
  }
}

const targetOf = async (tab: string): Promise<string> => {
  const r = await cli({ steps: [{ listTabs: { port: h.port } }] });
  return r.out.steps[0].output.tabs.find((t: { tab?: string }) => t.tab === tab).targetId;
};

/** The CLI with --debug in its own working directory (the log goes to ./log there). */
function debugRun(cwd: string, command: unknown): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, '--debug', JSON.stringify(command)], { cwd, env: h.env });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('close', () => {
      answers.push(out);
      resolve(out);
    });
  });
}

describe('state save and load', () => {
  let fresh: number;
  afterAll(async () => {
    if (fresh) await closeChrome(fresh);
  });

  it('saves the HttpOnly session cookie and web storage (0600), loads them into a fresh Chrome, and the app knows the user', async () => {
    const tab = await h.open('state/app');
    await logIn(tab, 'alice');
    const alice = (await sessionOf('alice'))!;
    const dir = join(h.tmp, 'work');
    mkdirSync(dir);
    const saved = JSON.parse(await debugRun(dir, { tab, steps: [{ state: { save: 'states/alice.json' } }] }));
    expect(saved.status, JSON.stringify(saved)).toBe('ok');
    const file = join(dir, 'states', 'alice.json');
    expect(saved.steps[0].output).toEqual({ saved: file, cookies: 2, origins: 1, keys: 3 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    expect(onDisk.cookies.find((c: { name: string }) => c.name === 'sid')).toMatchObject({
      value: alice.sid,
      httpOnly: true,
    });

    // A second Chrome, never logged in: the state goes in, then the app is opened.
    fresh = await freePort();
    const loaded = JSON.parse(
      await debugRun(dir, {
        steps: [
          { openTab: { url: 'about:blank', port: fresh } },
          { state: { load: 'states/alice.json' } },
          { goto: `${h.baseUrl}/state/app` },
        ],
      }),
    );
    expect(loaded.status, JSON.stringify(loaded)).toBe('ok');
    expect(loaded.steps[1].output).toEqual({ loaded: file, cookies: 2, origins: 1, keys: 3, url: 'about:blank' });
    const url = `${h.baseUrl}/state/app`;
    const client = await cdpTo(fresh, (t) => t.url === url, url);
    try {
      // Chrome's own cookie jar holds the session cookie, HttpOnly as the server set it.
      const { cookies } = await client.send('Network.getCookies', { urls: [url] });
      expect(cookies.find((c: { name: string }) => c.name === 'sid')).toMatchObject({
        value: alice.sid,
        httpOnly: true,
      });
      expect(await client.value(SHOWN)).toEqual(['Signed in as alice', 'Theme: dark', 'Draft: hello alice']);
    } finally {
      client.close();
    }
    // The server saw the same session again, from the new browser: no new login.
    expect((await sessionOf('alice'))!.views).toBe(alice.views + 1);
    expect((await sessions()).filter((s) => s.user === 'alice')).toHaveLength(1);
    // Never a value: not in the answers, not in the --debug logs.
    const logs = readdirSync(join(dir, 'log')).map((f) => readFileSync(join(dir, 'log', f), 'utf8'));
    expect(logs.length).toBeGreaterThanOrEqual(2);
    for (const text of [...answers, ...logs]) expect(text).not.toContain(alice.sid);
  });

  it('keeps a bare file name private in ~/.cdp-skill/state, and refuses what is not a state file', async () => {
    const tab = await h.open('state/app');
    const r = await cli({ tab, steps: [{ state: { save: 'bare.json' } }] });
    const path = join(h.env.HOME!, '.cdp-skill', 'state', 'bare.json');
    expect(r.out.steps[0].output.saved).toBe(path);
    expect(statSync(join(h.env.HOME!, '.cdp-skill', 'state')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const bad = await cli({ tab, steps: [{ state: { load: join(h.tmp, 'home') } }] });
    expect(bad.out.status).toBe('error');
    expect(bad.out.steps[0].error).toMatch(/Cannot read the state file .*not a file/);
    const invalid = await cli({ tab, steps: [{ state: { save: 'a.json', load: 'b.json' } }] });
    expect(invalid.out.error.type).toBe('VALIDATION');
    expect(invalid.out.error.message).toMatch(/exactly one of "save" or "load"/);
  });
});

describe('named browser contexts', () => {
  it('keeps two users logged in side by side; tabs of one context share its cookies; the last tab disposes it', async () => {
    const open = async (context: string) => {
      const r = await cli({ steps: [{ openTab: { url: `${h.baseUrl}/state/app`, port: h.port, context } }] });
      expect(r.out.status, r.stdout).toBe('ok');
      return r.out.tab as string;
    };
    const [ann, ben] = [await open('ann'), await open('ben')];
    await logIn(ann, 'ann');
    await logIn(ben, 'ben');
    // The server holds two sessions; each page shows its own user.
    const [annSession, benSession] = [(await sessionOf('ann'))!, (await sessionOf('ben'))!];
    expect(annSession.sid).not.toBe(benSession.sid);
    expect((await shown(h.port, await targetOf(ann)))[0]).toBe('Signed in as ann');
    expect((await shown(h.port, await targetOf(ben)))[0]).toBe('Signed in as ben');

    // A later call's new tab in "ann" finds the same context: same cookie jar, same session.
    const ann2 = await open('ann');
    expect((await shown(h.port, await targetOf(ann2)))[0]).toBe('Signed in as ann');
    expect((await sessionOf('ann'))!.views).toBe(annSession.views + 1);
    expect((await sessions()).filter((s) => s.user === 'ann')).toHaveLength(1);

    // Chrome's own view: three tabs in two contexts besides the default one; listTabs names them.
    const { targetInfos } = await browserCall(h.port, 'Target.getTargets');
    const contextOfTarget = async (tab: string) =>
      targetInfos.find((t: { targetId: string }) => t.targetId === tab).browserContextId;
    const [annId, ann2Id, benId] = await Promise.all(
      [ann, ann2, ben].map(async (t) => contextOfTarget(await targetOf(t))),
    );
    expect(annId).toBe(ann2Id);
    expect(annId).not.toBe(benId);
    const { browserContextIds } = await browserCall(h.port, 'Target.getBrowserContexts');
    expect(browserContextIds).toEqual(expect.arrayContaining([annId, benId]));
    const listed = (await cli({ steps: [{ listTabs: { port: h.port } }] })).out.steps[0].output.tabs;
    const contextOf = (tab: string) => listed.find((t: { tab?: string }) => t.tab === tab)?.context;
    expect([contextOf(ann), contextOf(ann2), contextOf(ben)]).toEqual(['ann', 'ann', 'ben']);
    expect(statSync(join(h.tmp, 'cdp-skill', 'tabs.json')).mode & 0o777).toBe(0o600);

    // Closing one of ann's tabs keeps the context; closing the last disposes it (Chrome forgets it).
    expect((await cli({ steps: [{ closeTab: ann2 }] })).out.steps[0].output).toEqual({ closed: ann2 });
    expect((await browserCall(h.port, 'Target.getBrowserContexts')).browserContextIds).toContain(annId);
    expect((await cli({ steps: [{ closeTab: ann }] })).out.steps[0].output).toEqual({
      closed: ann,
      contextDisposed: 'ann',
    });
    const after = (await browserCall(h.port, 'Target.getBrowserContexts')).browserContextIds;
    expect(after).not.toContain(annId);
    expect(after).toContain(benId);
    // A new "ann" is a new, empty context: not logged in.
    const fresh = await open('ann');
    expect((await shown(h.port, await targetOf(fresh)))[0]).toBe('Please sign in');
    await cli({ steps: [{ closeTab: fresh }] });
    await cli({ steps: [{ closeTab: ben }] });
  });

  it('refuses a context or profile name that is not a plain name', async () => {
    for (const openTab of [{ context: '../x' }, { profile: 'a/b' }, { profile: 'work', port: 9222 }]) {
      const r = await cli({ steps: [{ openTab }] });
      expect(r.out.error?.type, r.stdout).toBe('VALIDATION');
    }
  });
});

describe('a named profile', () => {
  it('keeps its login across a clean Chrome restart, in a private folder, one Chrome at a time', async () => {
    const open = async () => {
      const r = await cli({ steps: [{ openTab: { url: `${h.baseUrl}/state/app`, profile: 'work' } }] });
      expect(r.out.status, r.stdout).toBe('ok');
      return r.out.tab as string;
    };
    const dir = join(h.env.HOME!, '.cdp-skill', 'profiles', 'work');
    const portOf = () => Number(readFileSync(join(dir, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
    const tab = await open();
    for (const d of [join(h.env.HOME!, '.cdp-skill'), join(h.env.HOME!, '.cdp-skill', 'profiles'), dir])
      expect(statSync(d).mode & 0o777).toBe(0o700);
    const port = portOf();
    expect(port).not.toBe(h.port); // its own Chrome
    await logIn(tab, 'pat');
    const pat = (await sessionOf('pat'))!;
    // A second tab of the profile goes to the same Chrome (the folder is used by one Chrome).
    const second = await open();
    expect(portOf()).toBe(port);
    expect((await shown(port, await targetOfIn(port, second)))[0]).toBe('Signed in as pat');

    await cli({ steps: [{ closeTab: second }] });
    const closed = await cli({ steps: [{ closeTab: tab }] });
    expect(closed.out.steps[0].output).toEqual({ closed: tab, chromeClosed: 'work' });
    // Closed cleanly: nothing answers on its port, and it let go of the folder.
    expect(
      await fetch(`http://127.0.0.1:${port}/json/version`).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
    expect(readdirSync(dir)).not.toContain('SingletonLock');

    const again = await open();
    const newPort = portOf();
    expect(newPort).not.toBe(port); // a new Chrome…
    expect((await shown(newPort, await targetOfIn(newPort, again)))[0]).toBe('Signed in as pat'); // …still logged in
    const { cookies } = await browserCall(newPort, 'Storage.getCookies');
    expect(cookies.find((c: { name: string }) => c.name === 'sid')).toMatchObject({ value: pat.sid, httpOnly: true });
    expect((await sessions()).filter((s) => s.user === 'pat')).toHaveLength(1); // the same session, no new login
    expect((await cli({ steps: [{ closeTab: again }] })).out.steps[0].output.chromeClosed).toBe('work');
    for (const text of answers) expect(text).not.toContain(pat.sid);
  });

  it("reaches each profile's own Chrome from a command on another profile's tab", async () => {
    const open = async (profile: string, url: string) => {
      const r = await cli({ steps: [{ openTab: { url, profile } }] });
      expect(r.out.status, r.stdout).toBe('ok');
      return r.out.tab as string;
    };
    const portIn = (profile: string) =>
      Number(
        readFileSync(join(h.env.HOME!, '.cdp-skill', 'profiles', profile, 'DevToolsActivePort'), 'utf8').split('\n')[0],
      );
    const pagesOn = async (port: number) =>
      (await browserCall(port, 'Target.getTargets')).targetInfos.filter((t: { type: string }) => t.type === 'page');
    const appUrl = `${h.baseUrl}/state/app`;
    const work = await open('work', appUrl);
    const home = await open('home', 'about:blank');
    const [workPort, homePort] = [portIn('work'), portIn('home')];
    expect(workPort).not.toBe(homePort);
    const homePages = (await pagesOn(homePort)).map((t: { targetId: string }) => t.targetId).sort();

    // One command, on work's tab, lists and closes home's tab: in home's Chrome, as Chrome lists it.
    const r = await cli({ tab: work, steps: [{ listTabs: { profile: 'home' } }, { closeTab: home }] });
    expect(r.out.status, r.stdout).toBe('ok');
    expect(r.out.steps[0].output.tabs.map((t: { targetId: string }) => t.targetId).sort()).toEqual(homePages);
    expect(r.out.steps[1].output).toEqual({ closed: home, chromeClosed: 'home' });
    const answers = (port: number) =>
      fetch(`http://127.0.0.1:${port}/json/version`).then(
        () => true,
        () => false,
      );
    expect(await answers(homePort)).toBe(false);
    // Work's Chrome and its page were left alone.
    expect((await pagesOn(workPort)).map((t: { url: string }) => t.url)).toContain(appUrl);
    expect((await cli({ steps: [{ closeTab: work }] })).out.steps[0].output).toEqual({
      closed: work,
      chromeClosed: 'work',
    });
    expect(await answers(workPort)).toBe(false);
  });

  it('does not start a second Chrome on a profile another Chrome holds: it names that Chrome', async () => {
    const dir = join(h.env.HOME!, '.cdp-skill', 'profiles', 'held');
    mkdirSync(dir, { recursive: true });
    // A Chrome of someone else's on the profile's folder (no debugging port we know of).
    const other = spawn(
      findChrome()!,
      ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${dir}`, 'about:blank'],
      { stdio: 'ignore', detached: true },
    );
    try {
      for (let i = 0; i < 100 && !readdirSync(dir).includes('SingletonLock'); i++)
        await new Promise((r) => setTimeout(r, 100));
      const r = await cli({ steps: [{ openTab: { url: 'about:blank', profile: 'held' } }] });
      expect(r.out.error?.type, r.stdout).toBe('CONNECTION');
      expect(r.out.error.message).toMatch(/The profile "held" is in use by another Chrome \(pid \d+\)/);
    } finally {
      process.kill(-other.pid!, 'SIGKILL');
    }
  });
});

/** A tab's target id in the Chrome on `port` (a profile's Chrome: listTabs by profile). */
async function targetOfIn(port: number, tab: string): Promise<string> {
  const r = await cli({ steps: [{ listTabs: { profile: 'work' } }] });
  const found = r.out.steps[0].output.tabs.find((t: { tab?: string }) => t.tab === tab);
  expect(found, `${tab} on ${port}: ${r.stdout}`).toBeDefined();
  return found.targetId;
}
