// Pure parts of downloads and login state (issue 21 items 3–4): the file names a download gets,
// where a `download` path points, how a saved cookie goes back to Chrome, the `download` key, and
// the registry keeping profiles and named contexts.
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asCookieParam } from '../../src/cdp/cookie-param.js';
import { namedProfileDir } from '../../src/cdp/profile-chrome.js';
import { parseRegistry } from '../../src/cdp/tab-registry.js';
import { downloadTarget, safeName } from '../../src/page/downloads-folder.js';
import { validateCommand } from '../../src/runner/index.js';

describe('download file names', () => {
  it('keeps a plain name, and makes anything else one', () => {
    expect(safeName('report 2024.csv')).toBe('report 2024.csv');
    expect(safeName('../../etc/passwd')).toBe('passwd');
    expect(safeName('a\\b\\c.txt')).toBe('c.txt');
    expect(safeName('.bashrc')).toBe('bashrc');
    expect(safeName('x\u0000y\u001f.csv')).toBe('x_y_.csv');
    expect(safeName('half.csv.crdownload')).toBe('half.csv');
    expect(safeName('')).toBe('download');
    expect(safeName('...')).toBe('download');
    const long = safeName(`${'n'.repeat(400)}.csv`);
    expect(long.length).toBe(150);
    expect(long.endsWith('.csv')).toBe(true);
  });

  it('reads a step path: absolute as given, a relative path from the working directory, "/" a folder', () => {
    expect(downloadTarget('/tmp/x/out.csv')).toBe('/tmp/x/out.csv');
    expect(downloadTarget('exports/out.csv')).toBe(`${process.cwd()}/exports/out.csv`);
    expect(downloadTarget('exports/')).toBe(`${process.cwd()}/exports/`);
  });
});

describe('where logins are kept', () => {
  it('keeps a profile in the home folder of the user database when $HOME is empty, never the working directory', () => {
    const home = process.env.HOME;
    process.env.HOME = '';
    try {
      expect(namedProfileDir('work')).toBe(join(userInfo().homedir, '.cdp-skill', 'profiles', 'work'));
    } finally {
      process.env.HOME = home;
    }
  });
});

describe('saved cookies going back', () => {
  const base = {
    value: 'v',
    path: '/',
    size: 2,
    priority: 'Medium',
    sourceScheme: 'NonSecure',
    sourcePort: 80,
  } as const;
  it('puts a host-only cookie back by URL, a domain cookie by domain, a session cookie without expiry', () => {
    expect(
      asCookieParam({
        ...base,
        name: 'sid',
        domain: 'app.test',
        expires: -1,
        httpOnly: true,
        secure: false,
        session: true,
      }),
    ).toEqual({
      name: 'sid',
      value: 'v',
      url: 'http://app.test/',
      path: '/',
      secure: false,
      httpOnly: true,
      priority: 'Medium',
    });
    expect(
      asCookieParam({
        ...base,
        name: 'd',
        domain: '.app.test',
        expires: 2e9,
        httpOnly: false,
        secure: true,
        session: false,
        sameSite: 'None',
      }),
    ).toEqual({
      name: 'd',
      value: 'v',
      domain: '.app.test',
      path: '/',
      secure: true,
      httpOnly: false,
      sameSite: 'None',
      expires: 2e9,
      priority: 'Medium',
    });
  });
});

describe('the download key', () => {
  it('is taken beside the action or inside its object, and refused on a step without a page', async () => {
    const beside = await validateCommand({ tab: 't1', steps: [{ click: '#a', download: 'out.csv' }] });
    expect(beside.steps[0]!.download).toEqual({ path: 'out.csv' });
    const inside = await validateCommand({ tab: 't1', steps: [{ click: { selector: '#a', download: true } }] });
    expect(inside.steps[0]!.download).toEqual({});
    expect(inside.steps[0]!.params).toMatchObject({ target: { by: 'css' } }); // parsed without it
    await expect(validateCommand({ steps: [{ chromeStatus: true, download: true }] })).rejects.toThrow(/has no page/);
    await expect(validateCommand({ tab: 't1', steps: [{ click: '#a', download: '' }] })).rejects.toThrow(
      /"download" must be true or the path/,
    );
  });
});

describe('the registry', () => {
  it('keeps profiles, named contexts and the tab fields that name them; a wrong type is damage', () => {
    const rec = { wsUrl: 'ws://127.0.0.1:1/devtools/browser/x', browserContextId: 'C' };
    const text = JSON.stringify({
      nextId: 3,
      tabs: { t1: { targetId: 'A', host: '127.0.0.1', port: 1, own: true, profile: 'work', context: 'ann' } },
      browsers: {},
      profiles: { work: rec },
      contexts: { 'ws://127.0.0.1:1/devtools/browser/x': { ann: 'B1' } },
    });
    const data = parseRegistry(text)!;
    expect(data.tabs.t1).toMatchObject({ profile: 'work', context: 'ann' });
    expect(data.profiles).toEqual({ work: rec });
    expect(data.contexts).toEqual({ 'ws://127.0.0.1:1/devtools/browser/x': { ann: 'B1' } });
    expect(parseRegistry(text.replace('"profile":"work"', '"profile":7'))).toBeUndefined();
  });
});
