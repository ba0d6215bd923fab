// goto, back, forward, reload: start the navigation, then wait for the chosen lifecycle point
// of the document it produced, within the step deadline.

import { NavigationAbortedError, NavigationError, PageCrashedError, type Deadline } from '../common/index.js';
import { isNavigationAborted } from '../cdp/index.js';
import type { Page } from './tab.js';
import type { WaitUntil } from './lifecycle.js';

export interface NavigationResult {
  url: string;
  status?: number;
  noHistory?: boolean;
  /** The URL was a file to download: the tab stayed where it was (the answer's `downloads` lists the file). */
  download?: true;
}

const stripHash = (url: string): string => url.split('#')[0]!;

async function currentUrl(page: Page): Promise<string> {
  const { result } = await page.session.send('Runtime.evaluate', { expression: 'location.href', returnByValue: true });
  return typeof result.value === 'string' ? result.value : page.lifecycle.url;
}

/** Whether going from `from` to `url` only changes the hash: the document stays (DECISIONS). */
export function navigatesInPlace(from: string, url: string): boolean {
  return url.includes('#') && stripHash(url) === stripHash(from) && url !== from;
}

export async function navigate(
  page: Page,
  url: string,
  waitUntil: WaitUntil,
  deadline: Deadline,
): Promise<NavigationResult> {
  const from = page.lifecycle.url;
  if (navigatesInPlace(from, url)) {
    // DECISIONS: a hash-only change scrolls in place; Page.navigate would reload the document.
    const hash = url.slice(url.indexOf('#'));
    await page.guard(page.session.send('Runtime.evaluate', { expression: `location.hash = ${JSON.stringify(hash)}` }));
    return { url: await currentUrl(page) };
  }
  let status: number | undefined;
  let loaderId: string | undefined;
  const offResponse = page.session.on('Network.responseReceived', (e) => {
    if (
      e.type === 'Document' &&
      (loaderId === undefined || e.loaderId === loaderId) &&
      e.frameId === page.lifecycle.mainFrameId
    ) {
      status = e.response.status;
    }
  });
  try {
    const result = await page.guardNavigation(
      deadline.race(page.session.send('Page.navigate', { url }), `navigation to ${url} to start`),
    );
    // A file served as an attachment is downloaded, not shown: the page stays (issue 21.3).
    if (result.isDownload) return { url: await currentUrl(page), download: true };
    if (result.errorText) {
      if (isNavigationAborted(result.errorText)) {
        await throwIfCrashed(page, url, deadline); // chrome://crash aborts the navigation by killing the renderer
        throw new NavigationAbortedError(
          `Navigation to ${url} was aborted (${result.errorText}) — another navigation or a download replaced it.`,
        );
      }
      throw new NavigationError(`Navigation to ${url} failed: ${result.errorText}`);
    }
    loaderId = result.loaderId;
    if (loaderId === undefined) return { url: await currentUrl(page) }; // same-document navigation
    deadline.log(`navigation to ${url} started${status !== undefined ? ` (HTTP ${status})` : ''}`);
    await page.guardNavigation(
      page.lifecycle.waitForLoader(loaderId, waitUntil, deadline, `the ${waitUntil} event of ${url}`, () =>
        page.network.inflightNote(),
      ),
    );
    return { url: page.lifecycle.url, ...(status !== undefined ? { status } : {}) };
  } finally {
    offResponse();
  }
}

export async function reload(
  page: Page,
  waitUntil: WaitUntil,
  ignoreCache: boolean,
  deadline: Deadline,
): Promise<NavigationResult> {
  const before = page.lifecycle.snapshotCounts();
  await page.guardNavigation(page.session.send('Page.reload', { ignoreCache }));
  await page.guardNavigation(page.lifecycle.waitForNavigation(before, deadline, 'the reloaded document to commit'));
  await page.guard(
    page.lifecycle.waitForCurrent(waitUntil, deadline, `the ${waitUntil} event after reload`, () =>
      page.network.inflightNote(),
    ),
  );
  return { url: page.lifecycle.url };
}

export async function goHistory(
  page: Page,
  delta: -1 | 1,
  waitUntil: WaitUntil,
  deadline: Deadline,
): Promise<NavigationResult> {
  const { currentIndex, entries } = await page.guard(page.session.send('Page.getNavigationHistory'));
  const target = entries[currentIndex + delta];
  // A new tab's first entry is the blank page it was created with: not history an agent made.
  if (!target || (currentIndex + delta === 0 && target.url === 'about:blank'))
    return { url: await currentUrl(page), noHistory: true };
  const before = page.lifecycle.snapshotCounts();
  await page.guardNavigation(page.session.send('Page.navigateToHistoryEntry', { entryId: target.id }));
  await page.guardNavigation(page.lifecycle.waitForNavigation(before, deadline, `history navigation to ${target.url}`));
  if (page.lifecycle.documentCount > before.documents) {
    await page.guard(
      page.lifecycle.waitForCurrent(waitUntil, deadline, `the ${waitUntil} event of ${target.url}`, () =>
        page.network.inflightNote(),
      ),
    );
  }
  return { url: await currentUrl(page) };
}

/** How long an aborted navigation waits to learn whether the renderer is still there. */
const CRASH_CHECK_MS = 1_000;

/**
 * Throws the tab's crash when an aborted navigation was really the renderer dying. Chrome's debug
 * URLs (chrome://crash, chrome://kill) are given the whole check time, since the old renderer may
 * still answer before it dies; otherwise one answer from the page shows it alive.
 */
async function throwIfCrashed(page: Page, url: string, deadline: Deadline): Promise<void> {
  const check = deadline.cap(CRASH_CHECK_MS);
  try {
    await page.guard<unknown>(
      /^chrome:/i.test(url)
        ? check.sleep(CRASH_CHECK_MS)
        : check.race(page.session.send('Runtime.evaluate', { expression: '1' }), 'the page to answer'),
    );
  } catch (err) {
    if (err instanceof PageCrashedError) throw err;
    // Any other failure leaves the abort as the truest account.
  }
}
