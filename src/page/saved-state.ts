// A tab's login state as data (issue 21.4): every cookie of its browser context (HttpOnly ones too,
// read by the browser, not the page) and the localStorage and sessionStorage of its frames'
// origins; and putting such state back. The file itself is the step's (steps/state-file.ts).

import { StepValidationError, type Deadline } from '../common/index.js';
import { asCookieParam, attachToTarget, type CdpSession, type Connection, type Protocol } from '../cdp/index.js';
import { navigate } from './navigation.js';
import type { Page } from './tab.js';

export interface StorageItem {
  name: string;
  value: string;
}

export interface OriginState {
  origin: string;
  localStorage: StorageItem[];
  sessionStorage: StorageItem[];
}

/** The file's shape: Playwright's storageState (cookies, origins with localStorage), plus sessionStorage. */
export interface SavedState {
  cookies: Protocol.Network.Cookie[];
  origins: OriginState[];
}

/** What a save or load says: counts, never values. */
export interface StateCounts {
  cookies: number;
  origins: number;
  keys: number;
}

export function countsOf(state: SavedState): StateCounts {
  const keys = state.origins.reduce((n, o) => n + o.localStorage.length + o.sessionStorage.length, 0);
  return { cookies: state.cookies.length, origins: state.origins.length, keys };
}

/** The browser context the tab lives in (undefined: the default one). */
async function contextOf(conn: Connection, targetId: string): Promise<string | undefined> {
  const { targetInfo } = await conn.browser().send('Target.getTargetInfo', { targetId });
  return targetInfo.browserContextId;
}

const isWebOrigin = (origin: string): boolean => /^https?:\/\//.test(origin);

async function storageOf(session: CdpSession, origin: string, isLocalStorage: boolean): Promise<StorageItem[]> {
  const { entries } = await session.send('DOMStorage.getDOMStorageItems', {
    storageId: { securityOrigin: origin, isLocalStorage },
  });
  return entries.map(([name, value]) => ({ name: name ?? '', value: value ?? '' }));
}

/** The web storage of every origin among the tab's frames (each read through the session its frame lives in). */
async function framesStorage(page: Page, deadline: Deadline): Promise<OriginState[]> {
  const seen = new Map<string, OriginState>();
  for (const f of await page.frames.list(deadline)) {
    let origin: string;
    try {
      origin = new URL(f.url).origin;
    } catch {
      continue;
    }
    if (!isWebOrigin(origin) || seen.has(origin)) continue;
    const { session } = await page.frames.target(f.frameId, deadline).catch(() => ({ session: page.session }));
    const [localStorage, sessionStorage] = await Promise.all([
      storageOf(session, origin, true),
      storageOf(session, origin, false),
    ]);
    seen.set(origin, { origin, localStorage, sessionStorage });
  }
  return [...seen.values()].filter((o) => o.localStorage.length || o.sessionStorage.length);
}

/** The tab's state: its context's cookies and its frames' web storage. */
export async function readState(conn: Connection, page: Page, deadline: Deadline): Promise<SavedState> {
  const browserContextId = await contextOf(conn, page.targetId);
  const [{ cookies }, origins] = await Promise.all([
    deadline.race(
      conn.browser().send('Storage.getCookies', browserContextId ? { browserContextId } : {}),
      'the browser context cookies',
    ),
    deadline.race(framesStorage(page, deadline), 'the web storage of the tab'),
  ]);
  return { cookies, origins };
}

/** An empty document, served by us for the origin whose storage is being written: the site's server is never asked. */
const BLANK = Buffer.from('<!doctype html><title>cdp-skill: restoring state</title>').toString('base64');

/**
 * Puts `state` back in the tab: cookies into its browser context, then for each origin the tab
 * visits an empty document of that origin (answered by us over a session of its own, through
 * Fetch) and writes its storage there. Storage belongs to a document of its origin: Chrome has no
 * other way in. The tab then goes back to where it was, which now sees the state.
 */
export async function restoreState(
  conn: Connection,
  page: Page,
  state: SavedState,
  deadline: Deadline,
): Promise<string> {
  const visit = (url: string) => navigate(page, url, 'load', deadline);
  const browserContextId = await contextOf(conn, page.targetId);
  if (state.cookies.length)
    await deadline
      .race(
        conn.browser().send('Storage.setCookies', {
          cookies: state.cookies.map(asCookieParam),
          ...(browserContextId ? { browserContextId } : {}),
        }),
        'Chrome to take the cookies',
      )
      .catch((err: Error) => {
        throw new StepValidationError(`Chrome refused the saved cookies: ${err.message}`);
      });
  const origins = state.origins.filter((o) => isWebOrigin(o.origin));
  if (!origins.length) return page.lifecycle.url;
  const from = page.lifecycle.url;
  const intercept = await attachToTarget(conn, page.targetId);
  try {
    await intercept.send('Fetch.enable', { patterns: origins.map((o) => ({ urlPattern: `${o.origin}/*` })) });
    intercept.on('Fetch.requestPaused', (e) => {
      void intercept
        .send('Fetch.fulfillRequest', {
          requestId: e.requestId,
          responseCode: 200,
          responseHeaders: [{ name: 'content-type', value: 'text/html' }],
          body: BLANK,
        })
        .catch(() => undefined); // the navigation was replaced: nothing waits for it
    });
    for (const o of origins) await writeOrigin(page, o, visit, deadline);
  } finally {
    await conn
      .browser()
      .send('Target.detachFromTarget', { sessionId: intercept.id! })
      .catch(() => undefined); // the tab is gone: so is the session
  }
  return (await visit(/^(https?|file):/.test(from) ? from : 'about:blank')).url;
}

async function writeOrigin(
  page: Page,
  o: OriginState,
  visit: (url: string) => Promise<unknown>,
  deadline: Deadline,
): Promise<void> {
  await visit(`${o.origin}/`);
  const put = (items: StorageItem[], isLocalStorage: boolean) =>
    Promise.all(
      items.map((i) =>
        page.session.send('DOMStorage.setDOMStorageItem', {
          storageId: { securityOrigin: o.origin, isLocalStorage },
          key: i.name,
          value: i.value,
        }),
      ),
    );
  await deadline.race(
    Promise.all([put(o.localStorage, true), put(o.sessionStorage, false)]),
    `the storage of ${o.origin}`,
  );
}
