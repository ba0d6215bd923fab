// The console step: messages the page logged in earlier invocations come back (replayed by Chrome),
// formatted like DevTools, filtered by level/type/since/limit, capped at 500 characters, with stacks
// on request — and `clear` really clears them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type Harness } from './harness.js';

let h: Harness;
let tab: string;
beforeAll(async () => {
  h = await startHarness();
  tab = await h.open('console-log.html');
});
afterAll(async () => {
  await h?.close();
});

const run = (steps: unknown[], on = tab) => h.cli({ tab: on, steps, stopOnError: false });
const output = (r: CliResult, i = 0) => r.out.steps[i].output;
interface Msg {
  level: string;
  type: string;
  text: string;
  url?: string;
  line?: number;
  timestamp: number;
  stack?: unknown[];
}
const brief = (m: Msg) => `${m.level}/${m.type}: ${m.text.slice(0, 40)}`;

describe('console', () => {
  it('returns what the page logged before this call, in order, formatted, with where it came from', async () => {
    const r = await run([{ console: true }]);
    expect(r.out.status).toBe('ok');
    expect(r.out.screenshot).toBeUndefined();
    const out = output(r);
    const page = `${h.baseUrl}/console-log.html`;
    const messages = (out.messages as Msg[]).filter((m) => !m.url?.endsWith('/favicon.ico'));
    expect(messages.map(brief).sort()).toEqual(
      [
        'log/console: plain log',
        'info/console: info cart has 3 items',
        'debug/console: debug detail',
        'warning/console: deprecated thing {"a":1,"b":"x"}',
        'error/console: failed to load [1,2]',
        `log/console: long ${'x'.repeat(35)}`,
        'error/network: Failed to load resource: the server resp',
        'error/exception: Error: boom at load',
      ].sort(),
    );
    // Console calls in the order the page made them.
    expect(messages.filter((m) => m.type === 'console').map((m) => m.text.slice(0, 5))).toEqual([
      'plain',
      'info ',
      'debug',
      'depre',
      'faile',
      'long ',
    ]);
    // (Network and exception entries interleave by Chrome's timestamps, which may tie: compare the console's own.)
    const first = messages.find((m) => m.type === 'console')!;
    expect(first).toEqual({
      level: 'log',
      type: 'console',
      text: 'plain log',
      url: page,
      line: 8,
      timestamp: first.timestamp,
    });
    const long = messages.find((m) => m.text.startsWith('long'))!;
    expect(long.text).toHaveLength(500);
    expect(long.text.endsWith('…')).toBe(true);
    expect(messages.find((m) => m.type === 'network')!.url).toBe(`${h.baseUrl}/missing-image.png`);
    expect(messages.find((m) => m.type === 'exception')).toMatchObject({ url: page, line: 14 });
    expect(messages.every((m) => m.stack === undefined)).toBe(true);
    expect(out.total).toBe(out.messages.length);
    expect(out.showing).toBe(out.messages.length);
    // Timestamps are ordered.
    const times = (out.messages as Msg[]).map((m) => m.timestamp);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('filters by level (one or several), type, since and limit (the most recent), and adds stacks on request', async () => {
    const r = await run([
      { console: { level: 'warning' } },
      { console: { level: ['error', 'warn'], type: 'console' } },
      { console: { type: 'exception', stackTrace: true } },
      { console: { limit: 2, type: 'console' } },
    ]);
    expect((output(r, 0).messages as Msg[]).map(brief)).toEqual(['warning/console: deprecated thing {"a":1,"b":"x"}']);
    expect((output(r, 1).messages as Msg[]).map(brief)).toEqual([
      'warning/console: deprecated thing {"a":1,"b":"x"}',
      'error/console: failed to load [1,2]',
    ]);
    const [ex] = output(r, 2).messages as Msg[];
    expect(ex!.stack).toEqual([{ fn: 'explode', url: `${h.baseUrl}/console-log.html`, line: 14, col: 30 }]);
    expect(output(r, 3)).toMatchObject({ total: 6, showing: 2 });
    expect((output(r, 3).messages as Msg[]).map((m) => m.text.slice(0, 12))).toEqual([
      'failed to lo',
      `long ${'x'.repeat(7)}`,
    ]);
    // Strictly after the last message so far (two messages logged in one millisecond share a timestamp).
    const since = Math.max(...(output(r, 3).messages as Msg[]).map((m) => m.timestamp));
    const later = await run([{ click: '#more' }, { console: { since, type: 'console' } }]);
    expect((output(later, 1).messages as Msg[]).map(brief)).toEqual([
      'warning/console: clicked warn',
      'error/console: clicked error',
    ]);
  });

  it('clear empties the log for good; later messages are kept', async () => {
    const r = await run([{ console: { limit: 1, clear: true } }]);
    expect(output(r).cleared).toBeGreaterThanOrEqual(10);
    const after = await run([{ console: true }]);
    expect(output(after)).toEqual({ total: 0, showing: 0, messages: [] });
    await run([{ pageFunction: 'console.log("fresh %o", {n: 1})' }]);
    const next = await run([{ console: true }]);
    expect((output(next).messages as Msg[]).map((m) => m.text)).toEqual(['fresh {"n":1}']);
  });

  it('rejects unknown levels before running', async () => {
    const r = await run([{ console: { level: 'fatal' } }]);
    expect(r.out.error?.type).toBe('VALIDATION');
    expect(r.out.error?.message).toMatch(/"level" is one of error, warning, info, log, debug/);
  });
});
