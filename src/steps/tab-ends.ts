// What closing a tab ends with it (issue 21.4): its named browser context, disposed with its last
// tab; and the Chrome of a named profile, closed cleanly (Browser.close, so its cookies reach the
// disk) when no tab of ours and no page of substance is left in it, freeing the profile's folder.

import {
  closeProfileChrome,
  contextNames,
  disposeIfEmpty,
  forgetTab,
  isTargetClosed,
  listPageTargets,
  loadRegistry,
  namedProfileDir,
  updateRegistry,
  type Connection,
} from '../cdp/index.js';

/** Pages that hold nothing: Chrome's first window and new-tab pages. */
const isBlank = (url: string): boolean => url === 'about:blank' || url.startsWith('chrome://new');

export interface TabEnd {
  /** The named context this tab was the last of, now disposed. */
  contextDisposed?: string;
  /** The profile whose Chrome was closed with its last tab. */
  chromeClosed?: string;
}

/** The browser context of a tab about to close (undefined: the default one, or the tab is gone). */
export async function contextOfTarget(conn: Connection, targetId: string): Promise<string | undefined> {
  const info = await conn
    .browser()
    .send('Target.getTargetInfo', { targetId })
    .catch(() => undefined);
  return info?.targetInfo.browserContextId;
}

/**
 * After `closed` was closed (Chrome may still list it for a moment: it is not counted), ends what
 * it was the last tab of.
 */
export async function endWithTab(
  conn: Connection,
  closed: string,
  browserContextId: string | undefined,
  profile: string | undefined,
): Promise<TabEnd> {
  const end: TabEnd = {};
  // Only a context we named is ours to dispose (the default one, another program's are not).
  if (browserContextId && contextNames(conn).has(browserContextId)) {
    const disposed = await disposeIfEmpty(conn, browserContextId, closed);
    if (disposed) end.contextDisposed = disposed;
  }
  if (profile === undefined) return end;
  const registry = await loadRegistry();
  const ours = new Set(
    Object.values(registry.tabs)
      .filter((e) => e.profile === profile)
      .map((e) => e.targetId),
  );
  const left = (await listPageTargets(conn)).filter((t) => t.targetId !== closed);
  if (left.some((t) => ours.has(t.targetId) || !isBlank(t.url))) return end;
  await closeProfileChrome(conn, namedProfileDir(profile));
  // Its blank tabs went with it; so does the record of where it listened.
  for (const [alias, e] of Object.entries(registry.tabs))
    if (e.profile === profile && left.some((t) => t.targetId === e.targetId)) await forgetTab(alias);
  await updateRegistry((data) => {
    if (data.profiles) delete data.profiles[profile];
  });
  end.chromeClosed = profile;
  return end;
}

/**
 * Waits (at most `ms`) until Chrome no longer knows `targetId`: `Target.closeTarget` answers when
 * the close is under way, and the tab is still listed for a moment after — a `closed` told then
 * would be read back as a lie by whoever lists the tabs next. Whether it went in time.
 */
export async function untilGone(conn: Connection, targetId: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    const listed = await conn
      .browser()
      .sendWith('Target.getTargetInfo', { targetId }, { timeoutMs: Math.max(1, end - Date.now()) })
      .then(
        () => true,
        (err: unknown) => !isTargetClosed(err),
      );
    if (!listed) return true;
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}
