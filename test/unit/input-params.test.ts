// Issue 21 items 5–7, the pure parts: which texts are shaped like credentials, a secret the agent
// asked to see, the emulate and click keys as the registry parses them, paste combinations.
import { describe, expect, it } from 'vitest';
import { AskedSecret, looksLikeToken, redactSecrets } from '../../src/common/index.js';
import { REDACTED } from '../../src/shared/index.js';
import { comboCommands, parseCombo } from '../../src/dom/index.js';
import { getStep } from '../../src/steps/index.js';
import { mergeEmulation } from '../../src/steps/emulate.js';

describe('looksLikeToken', () => {
  it('knows vendors key formats, JWTs and long random runs', () => {
    for (const t of [
      'sk-live-4f9Qx7Lm2Zp8Rt6Wv3Ny',
      'sk-proj-abcdefgh12345678',
      'sk_test_51Habcdef0123456789',
      'ghp_0123456789abcdefghijABCDEFGHIJ012345',
      'github_pat_11ABCDEFG0123456789_abcdefghij',
      'xoxb-1234567890-abcdefghijkl',
      'AKIAIOSFODNN7EXAMPLE',
      'AIzaSyA1234567890abcdefghijklmnopqrstu',
      'glpat-abcdefghij1234567890',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'q7Zr9Lm2Xp4Wv8Ny3Tb6Kc1Hd5Fg0Js',
      '  sk-live-4f9Qx7Lm2Zp8Rt6Wv3Ny\n',
    ])
      expect(looksLikeToken(t), t).toBe(true);
  });

  it('leaves words, sentences, links, ids and numbers alone', () => {
    for (const t of [
      '',
      'hello',
      'Meeting at 10:30, room 4',
      'http://127.0.0.1/docs/getting-started',
      'https://example.com/a/VeryLong1Path2With3Digits',
      '550e8400-e29b-41d4-a716-446655440000',
      '1234567890123456789012345',
      'ThisIsAVeryLongCamelCaseIdentifierName',
      'skeleton-loader-component',
      'sk-1',
    ])
      expect(looksLikeToken(t), t).toBe(false);
  });
});

describe('AskedSecret', () => {
  it('is shown where the step answers it and •••• everywhere else, also when serialised directly', () => {
    const key = 'sk-live-unit-test-key-9Zq';
    const answer = { steps: [{ output: { text: new AskedSecret(key) } }], changes: { text: [`value '${key}'`] } };
    expect(redactSecrets(answer)).toEqual({
      steps: [{ output: { text: key } }],
      changes: { text: [`value '${REDACTED}'`] },
    });
    expect(JSON.stringify(answer.steps)).toBe(`[{"output":{"text":"${REDACTED}"}}]`);
  });
});

describe('emulate parameters', () => {
  const parse = (v: unknown) => getStep('emulate')!.parse(v);

  it('takes each key, spelled as Chrome and ICU spell it, and null to clear one', () => {
    expect(parse('reset')).toEqual({ reset: true });
    expect(
      parse({
        colorScheme: 'dark',
        reducedMotion: 'reduce',
        media: 'print',
        offline: true,
        network: 'slow-3g',
        cpu: 4,
        timezone: 'europe/paris',
        locale: 'FR-fr',
        userAgent: 'Agent/1',
        permissions: ['geolocation', 'geolocation', 'notifications'],
      }),
    ).toEqual({
      patch: {
        colorScheme: 'dark',
        reducedMotion: 'reduce',
        media: 'print',
        offline: true,
        network: { preset: 'slow-3g', latency: 2000, download: 400, upload: 400 },
        cpu: 4,
        timezone: 'Europe/Paris',
        locale: 'fr-FR',
        userAgent: 'Agent/1',
        permissions: ['geolocation', 'notifications'],
      },
    });
    expect(
      parse({ offline: false, cpu: 1, media: null, network: { latency: 100, download: 1000, upload: 500 } }),
    ).toEqual({
      patch: { offline: null, cpu: null, media: null, network: { latency: 100, download: 1000, upload: 500 } },
    });
  });

  it('names what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [{ timezone: 'Mars/Olympus' }, /unknown time zone "Mars\/Olympus"/],
      [{ locale: 'fr_FR' }, /did you mean "fr-FR"/],
      [{ locale: 'xx-YY' }, /unknown locale/],
      [{ network: '5g' }, /slow-3g, fast-3g/],
      [{ network: { latency: 100 } }, /"download" and "upload"/],
      [{ cpu: 0.5 }, /at least 1/],
      [{ permissions: ['telepathy'] }, /unknown permission "telepathy"/],
      [{ permissions: 'geolocation' }, /must be a list/],
      [{ colorScheme: 'blue' }, /dark, light/],
      [{ offline: 'yes' }, /"offline" must be true/],
      [{ darkMode: true }, /unknown key "darkMode"/],
      [{}, /at least one of/],
      [42, /object of settings or "reset"/],
    ];
    for (const [v, message] of cases) expect(() => parse(v), JSON.stringify(v)).toThrow(message);
  });

  it('merges over what was in force; null and an empty list clear', () => {
    const was = { colorScheme: 'dark' as const, timezone: 'Europe/Paris', permissions: ['geolocation'] };
    expect(mergeEmulation(was, { offline: true, timezone: null, permissions: [] })).toEqual({
      colorScheme: 'dark',
      offline: true,
    });
  });
});

describe('click buttons, modifiers and counts', () => {
  const parse = (v: unknown) => (getStep('click')!.parse(v) as { opts: Record<string, unknown> }).opts;

  it('reads them; a left button and one click are the defaults, doubleClick is clickCount 2', () => {
    expect(
      parse({ selector: '#a', button: 'right', modifiers: ['Control', 'Shift', 'Control'], clickCount: 3 }),
    ).toMatchObject({
      button: 'right',
      modifiers: ['Control', 'Shift'],
      clickCount: 3,
    });
    expect(parse({ selector: '#a', button: 'left', clickCount: 1 })).not.toHaveProperty('button');
    expect(parse({ selector: '#a', doubleClick: true })).toMatchObject({ clickCount: 2 });
    expect(parse({ selector: '#a', modifiers: 'Alt' })).toMatchObject({ modifiers: ['Alt'] });
  });

  it('refuses what cannot be done', () => {
    expect(() => parse({ selector: '#a', button: 'back' })).toThrow(/left, right, middle/);
    expect(() => parse({ selector: '#a', modifiers: ['Ctrl'] })).toThrow(/unknown modifier "Ctrl".*Control/);
    expect(() => parse({ selector: '#a', button: 'right', jsClick: true })).toThrow(/plain left click/);
    expect(() => parse({ selector: '#a', clickCount: 4 })).toThrow(/at most 3/);
    expect(() => parse({ selector: '#a', doubleClick: true, clickCount: 3 })).toThrow(/contradict/);
  });
});

describe('clipboard parameters and paste combinations', () => {
  const parse = (v: unknown) => getStep('clipboard')!.parse(v);

  it('reads "read", {read: true} and {write}; refuses the rest', () => {
    expect(parse('read')).toEqual({ read: true });
    expect(parse({ read: true })).toEqual({ read: true });
    expect(parse({ write: '' })).toEqual({ write: '' });
    for (const bad of ['paste', { write: 1 }, { write: 'x', read: true }, {}, { read: false }])
      expect(() => parse(bad), JSON.stringify(bad)).toThrow();
  });

  it('knows which combinations paste', () => {
    const commands = (combo: string) => {
      const p = parseCombo(combo);
      if (!p.ok) throw new Error(combo);
      return comboCommands(p.combo);
    };
    expect(commands('Control+V')).toEqual(['paste']);
    expect(commands('Meta+v')).toEqual(['paste']);
    expect(commands('Control+Shift+V')).toEqual(['pasteAndMatchStyle']);
    expect(commands('v')).toEqual([]);
    expect(commands('Control+C')).toEqual(['copy']);
  });
});
