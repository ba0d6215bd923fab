// Site profiles through the CLI: read/write steps, the automatic lookup after goto / openTab /
// connectTab, the local-host and CDP_SKILL_PROFILES=off rules, path safety (SPEC §12.4, §15).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let sites: string;
let domain: string; // the fixture server's host as a profile domain: 127.0.0.1_<port>
beforeAll(async () => {
  h = await startHarness();
  sites = join(h.env.HOME!, '.cdp-skill', 'sites');
  domain = new URL(h.baseUrl).host.replace(':', '_');
});
afterAll(async () => {
  await h?.close();
});

/** Test-only: lets the fixture server on 127.0.0.1 be prompted for like a public site. */
const ALLOW_LOCAL = { CDP_SKILL_PROFILES_ALLOW_LOCAL: '1' };

describe('readSiteProfile / writeSiteProfile', () => {
  it('writes a profile into ~/.cdp-skill/sites and reads it back, without a browser tab', async () => {
    const w = await h.cli({
      steps: [{ writeSiteProfile: { domain: 'WWW.Example.com', content: '# example.com\n## Quirks\n- none\n' } }],
    });
    expect(w.out.status).toBe('ok');
    expect(w.out.steps[0].output).toEqual({
      written: true,
      path: join(sites, 'example.com.md'),
      domain: 'example.com',
    });
    expect(readFileSync(join(sites, 'example.com.md'), 'utf8')).toBe('# example.com\n## Quirks\n- none\n');
    expect(w.out.screenshot).toBeUndefined(); // read-only: no capture

    const r = await h.cli({
      steps: [{ readSiteProfile: 'https://www.example.com/page' }, { readSiteProfile: { domain: 'nothing.example' } }],
    });
    expect(r.out.steps.map((s: any) => s.output)).toEqual([
      { found: true, domain: 'example.com', content: '# example.com\n## Quirks\n- none\n' },
      { found: false, domain: 'nothing.example' },
    ]);
  });

  it('keeps profiles private (issue 15 item 8): 0600 files in 0700 folders, also where an older version left 0755/0644', async () => {
    const home = join(h.env.HOME!, '.cdp-skill');
    mkdirSync(sites, { recursive: true, mode: 0o755 });
    chmodSync(home, 0o755);
    chmodSync(sites, 0o755);
    writeFileSync(join(sites, 'old.example.md'), 'old', { mode: 0o644 });
    const w = await h.cli({
      steps: [
        { writeSiteProfile: { domain: 'old.example', content: '# old.example\n' } },
        { writeSiteProfile: { domain: 'new.example', content: '# new\n' } },
      ],
    });
    expect(w.out.status, w.stdout).toBe('ok');
    const mode = (p: string): number => statSync(p).mode & 0o777;
    expect([mode(home), mode(sites), mode(join(sites, 'old.example.md')), mode(join(sites, 'new.example.md'))]).toEqual(
      [0o700, 0o700, 0o600, 0o600],
    );
    // The normal path: another call still reads them back.
    const r = await h.cli({ steps: [{ readSiteProfile: 'old.example' }] });
    expect(r.out.steps[0].output).toEqual({ found: true, domain: 'old.example', content: '# old.example\n' });
  });

  it.each(['../../etc/passwd', '../x', 'a/b', 'a\\b', '', '..'])(
    'refuses the domain %j before anything runs',
    async (bad) => {
      const before = readdirSync(sites);
      const r = await h.cli({
        steps: [
          { writeSiteProfile: { domain: 'ok.example', content: 'x' } },
          { writeSiteProfile: { domain: bad, content: 'pwned' } },
        ],
      });
      expect(r.code).toBe(1);
      expect(r.out.error.type).toBe('VALIDATION');
      expect(r.out.error.message).toMatch(/^Step 2 \(writeSiteProfile\): "domain"/);
      expect(readdirSync(sites)).toEqual(before); // not even step 1 ran
      for (const dir of [h.env.HOME!, join(h.env.HOME!, '.cdp-skill'), join(h.env.HOME!, '..')])
        expect(existsSync(join(dir, 'etc'))).toBe(false);
    },
  );
});

describe('automatic lookup', () => {
  let tab: string;
  beforeAll(async () => {
    tab = await h.open('basic.html');
  });

  it('asks for nothing on a loopback page', async () => {
    const r = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html` }] });
    expect(r.out.status).toBe('ok');
    expect(r.out.actionRequired).toBeUndefined();
    expect(r.out.siteProfile).toBeUndefined();
  });

  it('asks for a profile when the site has none (local allowed for the test), after the steps', async () => {
    const r = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/basic.html` }] }, { env: ALLOW_LOCAL });
    expect(r.out.actionRequired).toMatchObject({ action: 'createSiteProfile', domain });
    expect(r.out.actionRequired.message).toContain(`writeSiteProfile {"domain":"${domain}"`);
    const keys = Object.keys(r.out);
    expect(keys.indexOf('actionRequired')).toBeGreaterThan(keys.indexOf('steps'));
    expect(keys.indexOf('actionRequired')).toBeLessThan(keys.indexOf('viewportSnapshot'));
  });

  it('CDP_SKILL_PROFILES=off turns the prompt off', async () => {
    const r = await h.cli(
      { tab, steps: [{ goto: `${h.baseUrl}/basic.html` }] },
      { env: { ...ALLOW_LOCAL, CDP_SKILL_PROFILES: 'off' } },
    );
    expect(r.out.status).toBe('ok');
    expect(r.out.actionRequired).toBeUndefined();
  });

  it('does not look up after steps that are not navigations, nor on about:blank', async () => {
    const r = await h.cli({ tab, steps: [{ pageFunction: '1' }] }, { env: ALLOW_LOCAL });
    expect(r.out.actionRequired).toBeUndefined();
    const blank = await h.cli({ tab, steps: [{ goto: 'about:blank' }] }, { env: ALLOW_LOCAL });
    expect(blank.out.status).toBe('ok');
    expect(blank.out.actionRequired).toBeUndefined();
  });

  it('gives the profile after goto, once one is written — in the same command too', async () => {
    const content = `# ${domain}\n## Quirks\n- fixture pages record events in window.__events\n`;
    const r = await h.cli(
      { tab, steps: [{ writeSiteProfile: { domain: h.baseUrl, content } }, { goto: `${h.baseUrl}/basic.html` }] },
      { env: ALLOW_LOCAL },
    );
    expect(r.out.status).toBe('ok');
    expect(r.out.siteProfile).toBe(content);
    expect(r.out.actionRequired).toBeUndefined();
    // ...and without the test-only switch: an existing profile shows on local pages as well
    const plain = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/page2.html` }] });
    expect(plain.out.siteProfile).toBe(content);
  });

  it('gives the profile after openTab with a URL and after connectTab, not after openTab alone', async () => {
    const opened = await h.cli({ steps: [{ openTab: { url: `${h.baseUrl}/basic.html`, port: h.port } }] });
    expect(opened.out.siteProfile).toMatch(/^# 127\.0\.0\.1_/);
    const connected = await h.cli({ steps: [{ connectTab: opened.out.tab }] });
    expect(connected.out.status).toBe('ok');
    expect(connected.out.siteProfile).toMatch(/^# 127\.0\.0\.1_/);
    const blank = await h.cli({ steps: [{ openTab: { port: h.port } }] }, { env: ALLOW_LOCAL });
    expect(blank.out.status).toBe('ok');
    expect(blank.out.siteProfile).toBeUndefined();
    expect(blank.out.actionRequired).toBeUndefined();
    await h.cli({ steps: [{ closeTab: opened.out.tab }, { closeTab: blank.out.tab }] });
  });

  it('tells a different port apart: another site on the same host', async () => {
    const other = h.baseUrl.replace('127.0.0.1', 'localhost');
    const r = await h.cli({ tab, steps: [{ goto: `${other}/basic.html` }] }, { env: ALLOW_LOCAL });
    expect(r.out.siteProfile).toBeUndefined();
    expect(r.out.actionRequired.domain).toBe(`localhost_${new URL(h.baseUrl).port}`);
  });
});
