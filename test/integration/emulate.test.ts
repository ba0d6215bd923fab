// Issue 21 item 7 and the touch half of item 6: emulation kept with the tab. CDP emulation ends
// with the session that set it, so each setting must be put back at every attach: the page's own
// answers (matchMedia, navigator, Intl, its recorded events) are read over the test's own CDP
// socket while a command runs — the one that set it, and a later one, a new process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpToPage, startHarness, type CdpClient, type Harness } from './harness.js';

let h: Harness;
let tab: string;
let page: CdpClient;
/** The page's environment before any emulation, as it sees it. */
let plain: Record<string, unknown>;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('input-emulate.html');
  page = await cdpToPage(h.port, `${h.baseUrl}/input-emulate.html`);
  plain = await page.value('window.__environment()');
});
afterAll(async () => {
  page?.close();
  await h?.close();
});

type Env = Record<string, unknown>;
const matches = (env: Env | undefined, want: Env): boolean =>
  !!env && Object.entries(want).every(([k, v]) => env[k] === v);

/**
 * Runs a command and, while it is attached, reads the page's environment over the test's own socket
 * until it shows `want` (or the command ends). `steps` end with a wait that holds the command open.
 */
async function whileRunning(
  steps: unknown[],
  want: Env,
  alsoThen?: () => Promise<unknown>,
): Promise<{ env: Env; out: Record<string, any>; also?: unknown }> {
  let finished = false;
  const running = h.cli({ tab, steps: [...steps, { wait: 3000 }] }).finally(() => {
    finished = true;
  });
  let env: Env | undefined;
  while (!finished) {
    env = await page.value('window.__environment()');
    if (matches(env, want)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const also = !finished && alsoThen ? await alsoThen() : undefined;
  const r = await running;
  expect(r.out.status, r.stdout).toBe('ok');
  return { env: env!, out: r.out, also };
}

const pick = (env: Env, want: Env): Env => Object.fromEntries(Object.keys(want).map((k) => [k, env[k]]));

const PARIS = {
  dark: true,
  reducedMotion: true,
  print: true,
  background: 'rgb(17, 17, 17)',
  onLine: false,
  timeZone: 'Europe/Paris',
  locale: 'fr-FR',
  language: 'fr-FR',
  userAgent: 'cdp-skill-test/1.0',
};

describe('emulate', () => {
  it('puts dark mode, print, reduced motion, offline, zone, locale and agent in force, and answers what is', async () => {
    const { env, out } = await whileRunning(
      [
        {
          emulate: {
            colorScheme: 'dark',
            reducedMotion: 'reduce',
            media: 'print',
            offline: true,
            timezone: 'Europe/Paris',
            locale: 'fr-FR',
            userAgent: 'cdp-skill-test/1.0',
          },
        },
      ],
      PARIS,
    );
    expect(pick(env, PARIS)).toEqual(PARIS);
    expect(out.steps[0].output).toEqual({
      colorScheme: 'dark',
      reducedMotion: 'reduce',
      media: 'print',
      offline: true,
      timezone: 'Europe/Paris',
      locale: 'fr-FR',
      userAgent: 'cdp-skill-test/1.0',
    });
    // The page was told: its own offline and colour-scheme listeners fired.
    const events: string[] = await page.value('window.__events');
    expect(events).toContain('offline');
    expect(events).toContain('dark');
  });

  it('keeps all of it in a later command: a new process attaching puts it back; offline, requests fail', async () => {
    const fetched = () =>
      page.send('Runtime.evaluate', {
        expression: 'fetch("/basic.html?offline").then(() => "loaded", () => "failed")',
        awaitPromise: true,
        returnByValue: true,
      });
    const { env, also } = await whileRunning([], PARIS, fetched);
    expect(pick(env, PARIS)).toEqual(PARIS);
    expect((also as any)?.result.value).toBe('failed');
  });

  it('adds to what is in force, and null clears one key', async () => {
    const want = { ...PARIS, print: false, effectiveType: '2g' };
    const { env, out } = await whileRunning([{ emulate: { media: null, offline: false, network: 'slow-3g' } }], {
      ...want,
      onLine: true,
    });
    expect(pick(env, { ...want, onLine: true })).toEqual({ ...want, onLine: true });
    expect(out.steps[0].output).toEqual({
      colorScheme: 'dark',
      reducedMotion: 'reduce',
      timezone: 'Europe/Paris',
      locale: 'fr-FR',
      userAgent: 'cdp-skill-test/1.0',
      network: 'slow-3g',
    });
  });

  it('grants the permissions the page asks about', async () => {
    const r = await h.cli({ tab, steps: [{ emulate: { permissions: ['notifications', 'geolocation'] } }] });
    expect(r.out.steps[0].output.permissions).toEqual(['notifications', 'geolocation']);
    let finished = false;
    const running = h.cli({ tab, steps: [{ wait: 3000 }] }).finally(() => {
      finished = true;
    });
    let seen: unknown;
    const query =
      'Promise.all([Notification.permission, navigator.permissions.query({name: "geolocation"}).then((s) => s.state)])';
    while (!finished) {
      seen = (await page.send('Runtime.evaluate', { expression: query, awaitPromise: true, returnByValue: true }))
        .result.value;
      if (JSON.stringify(seen) === '["granted","granted"]') break;
      await new Promise((res) => setTimeout(res, 25));
    }
    await running;
    expect(seen).toEqual(['granted', 'granted']);
  });

  it('slows the CPU the page runs on', async () => {
    // The page times a fixed loop itself: at 4x throttling it takes well over twice as long.
    const loop =
      '(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 3e6; i++) x += i % 7; return performance.now() - t; })()';
    const base = Math.min(await page.value(loop), await page.value(loop));
    let finished = false;
    const running = h.cli({ tab, steps: [{ emulate: { cpu: 4 } }, { wait: 3000 }] }).finally(() => {
      finished = true;
    });
    let slowed = 0;
    while (!finished && slowed < base * 2.5) {
      slowed = Math.max(slowed, await page.value(loop));
    }
    await running;
    expect(slowed).toBeGreaterThan(base * 2);
  });

  it('resets: the next command finds the page as it was', async () => {
    const r = await h.cli({ tab, steps: [{ emulate: 'reset' }] });
    expect(r.out.steps[0].output).toEqual({ reset: true });
    const want = pick(plain, PARIS);
    const { env } = await whileRunning([], want);
    expect(pick(env, want)).toEqual(want);
  });

  it('refuses unknown zones, locales, presets, permissions and a CPU below 1 before running', async () => {
    for (const bad of [
      { timezone: 'Mars/Olympus' },
      { locale: 'fr_FR' },
      { locale: 'xx-YY' },
      { network: '5g' },
      { network: { latency: 100 } },
      { cpu: 0.5 },
      { permissions: ['telepathy'] },
      { colorScheme: 'blue' },
      { offline: 'yes' },
      { darkMode: true },
      {},
    ]) {
      const v = await h.cli({ tab, steps: [{ emulate: bad }] });
      expect(v.out.error?.type, JSON.stringify(bad)).toBe('VALIDATION');
    }
  });
});

describe('touch with mobile viewports (issue 21 item 6)', () => {
  it('a mobile viewport has a touch screen, told in the answer and seen by the page in later commands', async () => {
    const r = await h.cli({ tab, steps: [{ viewport: { width: 390, height: 844, mobile: true } }] });
    expect(r.out.steps[0].output).toMatchObject({ mobile: true, hasTouch: true });
    const want = { coarse: true, maxTouchPoints: 5 };
    const { env } = await whileRunning([], want);
    expect(pick(env, want)).toEqual(want);
    const back = await whileRunning([{ viewport: 'reset' }], { coarse: false });
    expect(back.env.coarse).toBe(false);
  });
});
