// Site profiles: domain normalisation, path safety, the lookup decision, atomic store (SPEC §15).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isLocalHost,
  lookupOptionsFromEnv,
  lookupSiteProfile,
  normaliseDomain,
  planProfileLookup,
  profilePath,
  profilesDir,
  readSiteProfile,
  writeSiteProfile,
  MAX_PROFILE_BYTES,
} from '../../src/profiles/index.js';
import { getStep } from '../../src/steps/index.js';

const domainOf = (s: string) => {
  const r = normaliseDomain(s);
  return 'domain' in r ? r.domain : undefined;
};

describe('normaliseDomain', () => {
  it.each([
    ['github.com', 'github.com'],
    ['www.github.com', 'github.com'],
    ['WWW.GitHub.COM', 'github.com'],
    ['  github.com  ', 'github.com'],
    ['github.com.', 'github.com'],
    ['https://www.github.com/org/repo?q=1#x', 'github.com'],
    ['http://example.com:80/', 'example.com'],
    ['https://example.com:8443/a', 'example.com_8443'],
    ['localhost:3000', 'localhost_3000'],
    ['localhost_3000', 'localhost_3000'],
    ['www.example.com:8080', 'example.com_8080'],
    ['127.0.0.1:4173', '127.0.0.1_4173'],
    ['http://[::1]:8080/', '--1_8080'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['sub_domain.example.com', 'sub_domain.example.com'],
  ])('%s → %s', (input, expected) => {
    expect(domainOf(input)).toBe(expected);
  });

  it('is idempotent: a normalised domain reads back as itself', () => {
    for (const d of ['github.com', 'localhost_3000', '127.0.0.1_4173', 'xn--bcher-kva.de']) expect(domainOf(d)).toBe(d);
  });

  it.each([
    '',
    '   ',
    '.',
    '..',
    '../../etc',
    '../../etc/passwd',
    '/etc/passwd',
    'a/b',
    'github.com/path',
    'a\\b',
    '..\\..\\windows',
    'git\0hub.com',
    'a..b',
    '.hidden',
    'foo bar',
    'a:b',
    'a:99999',
    'a:0',
    'github.com:80:80',
    'C:\\x',
    '~/x',
    '$HOME',
    'a;b',
    '%2e%2e',
    'x'.repeat(300),
    'file:///etc/passwd',
    'http://',
    'javascript:alert(1)',
  ])('refuses %j', (input) => {
    const r = normaliseDomain(input);
    expect('problem' in r ? r.problem : `accepted as ${r.domain}`).toMatch(/domain|longer/);
  });
});

describe('isLocalHost', () => {
  it.each([
    'localhost',
    'app.localhost',
    'printer.local',
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.1.1',
    '0.0.0.0',
    '[::1]',
    '[fd00::1]',
    '[fe80::1]',
    '[::ffff:7f00:1]',
    '[::ffff:c0a8:101]',
  ])('%s is local', (h) => expect(isLocalHost(h)).toBe(true));

  it.each([
    'github.com',
    '8.8.8.8',
    '172.15.0.1',
    '172.32.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '[2001:db8::1]',
    'localhost.com',
    'mylocal',
  ])('%s is not local', (h) => expect(isLocalHost(h)).toBe(false));
});

describe('planProfileLookup', () => {
  const on = { prompts: true, allowLocal: false };
  it('looks up http(s) pages and prompts on public ones', () => {
    expect(planProfileLookup('https://www.github.com/a/b', on)).toEqual({ domain: 'github.com', prompt: true });
    expect(planProfileLookup('http://example.com:8080/', on)).toEqual({ domain: 'example.com_8080', prompt: true });
  });
  it('never prompts on loopback or private-network pages, but still finds their profiles', () => {
    for (const url of [
      'http://127.0.0.1:4173/a.html',
      'http://localhost:3000/',
      'http://10.1.2.3/',
      'http://192.168.0.10/',
      'http://172.20.0.2:8080/',
      'http://[::1]:9000/',
    ]) {
      expect(planProfileLookup(url, on)?.prompt, url).toBe(false);
    }
  });
  it('has nothing to look up on file:, about:, data:, chrome: and other non-web pages', () => {
    for (const url of [
      'about:blank',
      'file:///tmp/a.html',
      'data:text/html,hi',
      'chrome://version',
      'chrome-error://chromewebdata/',
      'devtools://devtools/x',
      'blob:https://a.com/1',
      'javascript:void(0)',
      'not a url',
      '',
    ]) {
      expect(planProfileLookup(url, on), url).toBeUndefined();
    }
  });
  it('CDP_SKILL_PROFILES=off turns the prompt off; the test-only ALLOW_LOCAL turns it on for local hosts', () => {
    expect(lookupOptionsFromEnv({})).toEqual({ prompts: true, allowLocal: false });
    expect(lookupOptionsFromEnv({ CDP_SKILL_PROFILES: 'off' }).prompts).toBe(false);
    expect(lookupOptionsFromEnv({ CDP_SKILL_PROFILES: 'OFF' }).prompts).toBe(false);
    expect(lookupOptionsFromEnv({ CDP_SKILL_PROFILES: 'on' }).prompts).toBe(true);
    expect(planProfileLookup('https://github.com/', { prompts: false, allowLocal: false })?.prompt).toBe(false);
    expect(
      planProfileLookup('http://127.0.0.1:1/', lookupOptionsFromEnv({ CDP_SKILL_PROFILES_ALLOW_LOCAL: '1' }))?.prompt,
    ).toBe(true);
  });
});

describe('profile store', () => {
  const savedHome = process.env.HOME;
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'cdp-skill-profiles-'));
    process.env.HOME = home;
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    rmSync(home, { recursive: true, force: true });
  });

  it('lives in ~/.cdp-skill/sites under $HOME', () => {
    expect(profilesDir()).toBe(join(home, '.cdp-skill', 'sites'));
    expect(profilePath('www.GitHub.com')).toBe(join(home, '.cdp-skill', 'sites', 'github.com.md'));
  });

  it('writes atomically and reads back, www. and case folded', async () => {
    expect(await readSiteProfile('github.com')).toBeUndefined();
    const path = await writeSiteProfile('WWW.github.com', '# github.com\nQuirks: none\n');
    expect(path).toBe(join(profilesDir(), 'github.com.md'));
    expect(await readSiteProfile('https://github.com/x')).toBe('# github.com\nQuirks: none\n');
    await writeSiteProfile('github.com', '# v2\n');
    expect(readFileSync(path, 'utf8')).toBe('# v2\n');
    expect(readdirSync(profilesDir())).toEqual(['github.com.md']); // no temp files left
  });

  it('never reads or writes outside the profiles folder', async () => {
    mkdirSync(join(home, 'etc'), { recursive: true });
    writeFileSync(join(home, 'etc', 'passwd.md'), 'secret');
    for (const bad of ['../../etc/passwd', '../etc', '..', '/etc/passwd', 'a\\..\\b', 'x\0y', '']) {
      expect(() => profilePath(bad), bad).toThrow(/domain/);
      await expect(readSiteProfile(bad)).rejects.toMatchObject({ type: 'VALIDATION' });
      await expect(writeSiteProfile(bad, 'x')).rejects.toMatchObject({ type: 'VALIDATION' });
    }
    expect(readFileSync(join(home, 'etc', 'passwd.md'), 'utf8')).toBe('secret');
    expect(readdirSync(profilesDir())).toEqual(['github.com.md']);
  });

  it('refuses content over the cap and cuts an oversized hand-written file on read', async () => {
    await expect(writeSiteProfile('big.example', 'x'.repeat(MAX_PROFILE_BYTES + 1))).rejects.toMatchObject({
      type: 'VALIDATION',
    });
    writeFileSync(join(profilesDir(), 'big.example.md'), 'y'.repeat(MAX_PROFILE_BYTES + 100));
    const text = await readSiteProfile('big.example');
    expect(text!.startsWith('y'.repeat(MAX_PROFILE_BYTES))).toBe(true);
    expect(text).toMatch(/cut at/);
  });

  it('the lookup gives the profile when there is one, the prompt when not, nothing on local pages', async () => {
    const on = { prompts: true, allowLocal: false };
    expect(await lookupSiteProfile('https://www.github.com/login', on)).toEqual({ siteProfile: '# v2\n' });
    const missing = await lookupSiteProfile('https://example.org/', on);
    expect(missing.actionRequired).toMatchObject({ action: 'createSiteProfile', domain: 'example.org' });
    expect(missing.actionRequired!.message).toContain('writeSiteProfile');
    expect(await lookupSiteProfile('http://127.0.0.1:4173/', on)).toEqual({});
    expect(await lookupSiteProfile('about:blank', on)).toEqual({});
    expect(await lookupSiteProfile('https://example.org/', { prompts: false, allowLocal: false })).toEqual({});
    await writeSiteProfile('127.0.0.1:4173', '# local\n');
    expect(await lookupSiteProfile('http://127.0.0.1:4173/a', on)).toEqual({ siteProfile: '# local\n' });
  });
});

describe('profile steps', () => {
  it('validate the domain before anything runs', () => {
    const read = getStep('readSiteProfile')!;
    const write = getStep('writeSiteProfile')!;
    expect(read.parse('www.GitHub.com')).toEqual({ domain: 'github.com' });
    expect(read.parse({ domain: 'github.com' })).toEqual({ domain: 'github.com' });
    expect(() => read.parse('../../etc')).toThrow(/"domain": .*not a domain/);
    expect(() => read.parse(true)).toThrow(/readSiteProfile takes/);
    expect(() => write.parse({ domain: 'a/b', content: 'x' })).toThrow(/not a domain/);
    expect(() => write.parse({ domain: 'a.com' })).toThrow(/"content" is required/);
    expect(() => write.parse({ content: 'x' })).toThrow(/"domain" is required/);
    expect(write.parse({ domain: 'a.com', content: '# a' })).toEqual({ domain: 'a.com', content: '# a' });
    expect(read.needsTab || write.needsTab || !read.readOnly || !write.readOnly).toBe(false);
  });
});
