// Installing the page runtime (page/evaluate.ts), in-process against the real browser: calls that
// find a fresh document without it install it once between them — after a navigation the capture
// makes three calls at once, and each used to send the whole runtime (~150 KB) for the page to parse.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attachToTarget, Connection, type CdpSession } from '../../src/cdp/index.js';
import { callIsolated, IsolatedWorlds, type EvaluateOptions } from '../../src/page/index.js';
import type { PageRuntime } from '../../src/injected/index.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let conn: Connection;
let session: CdpSession;
beforeAll(async () => {
  h = await startHarness();
  const tab = await h.open('basic.html');
  const registry = JSON.parse(readFileSync(join(h.tmp, 'cdp-skill', 'tabs.json'), 'utf8'));
  conn = await Connection.open(Object.values(registry.browsers)[0] as string, 10_000);
  targetId = registry.tabs[tab].targetId;
  session = await attachToTarget(conn, targetId);
});
afterAll(async () => {
  conn?.close();
  await h?.close();
});

let targetId: string;
/** A runtime call in our isolated world of the tab's top frame, each with worlds learnt afresh (as a new process would). */
function call<A, R>(
  s: CdpSession,
  fn: (rt: PageRuntime, arg: A) => R,
  arg: A,
  options: EvaluateOptions = {},
): Promise<Awaited<R>> {
  return callIsolated(new IsolatedWorlds(), { session: s, frameId: targetId }, fn, arg, options);
}

/** The session, counting the evaluations that carry the runtime's source. */
function counting(): { session: CdpSession; installs: () => number } {
  let installs = 0;
  const counted: CdpSession = {
    ...session,
    sendWith: (method, params, options) => {
      if (method === 'Runtime.evaluate' && (params as { expression: string }).expression.length > 50_000) installs++;
      return session.sendWith(method, params, options);
    },
  };
  return { session: counted, installs: () => installs };
}

/** Navigates the tab to a new document and waits for its load event. */
async function freshDocument(path: string): Promise<void> {
  await session.send('Page.enable');
  const loaded = session.waitFor('Page.loadEventFired');
  await session.send('Page.navigate', { url: `${h.baseUrl}/${path}` });
  await loaded.promise;
}

it('installs the runtime once for calls that find a new document without it at the same time', async () => {
  await freshDocument('page2.html');
  const c = counting();
  const answers = await Promise.all(
    [1, 2, 3].map((n) => call(c.session, (rt, k) => [typeof rt.ariaSnapshot.ariaSnapshot, k], n)),
  );
  expect(answers).toEqual([
    ['function', 1],
    ['function', 2],
    ['function', 3],
  ]);
  expect(c.installs()).toBe(1);
  expect(await call(c.session, (rt) => typeof rt.pageContext.pageContext, undefined)).toBe('function');
  expect(c.installs()).toBe(1); // installed: later calls take the one-round-trip path
}, 30_000);

it('installs it again in the next document, and a callee that throws still leaves it installed for the others', async () => {
  await freshDocument('basic.html');
  const c = counting();
  const failing = call(
    c.session,
    () => {
      throw new Error('callee failed');
    },
    undefined,
  );
  const others = [1, 2].map((n) => call(c.session, (rt, k) => [typeof rt.pageContext.pageContext, k], n));
  await expect(failing).rejects.toThrow(/callee failed/);
  expect(await Promise.all(others)).toEqual([
    ['function', 1],
    ['function', 2],
  ]);
  expect(c.installs()).toBe(1);
}, 30_000);
