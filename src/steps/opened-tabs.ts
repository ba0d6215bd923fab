// Tabs an action opened: a target=_blank link or window.open (Chrome names their opener), or a
// Control+click / middle click on a link (a new tab with no opener, found as a target that was not
// there before the click). Each is registered with an alias the agent can use at once.

import { findAlias, readRegistry, registerTab, type TabEntry } from '../cdp/index.js';
import { Deadline } from '../common/index.js';
import type { SettleResult } from '../dom/index.js';
import type { AttachedTab } from './registry.js';

/** Time a newly opened tab gets to show up as a target. */
const NEW_TAB_WAIT_MS = 1_000;

export interface NewTab {
  tab: string;
  targetId: string;
  url: string;
}

/** The page targets of the tab's browser now: taken before a click that may open a tab without an opener. */
export async function pageTargetIds(tab: AttachedTab): Promise<Set<string>> {
  const { targetInfos } = await tab.page.guard(tab.conn.browser().send('Target.getTargets'));
  return new Set(targetInfos.filter((t) => t.type === 'page').map((t) => t.targetId));
}

/**
 * Registers the tabs this page opened during the action: those Chrome names this tab the opener
 * of, or, given `before`, the pages of the tab's browser context that were not there before it.
 * Waits (bounded) until `expected` show up.
 */
export async function registerOpenedTabs(tab: AttachedTab, expected: number, before?: Set<string>): Promise<NewTab[]> {
  const until = Deadline.after(NEW_TAB_WAIT_MS);
  const known = new Set(Object.values(readRegistry().tabs).map((e) => e.targetId));
  let found: { targetId: string; url: string }[] = [];
  while (true) {
    const { targetInfos } = await tab.conn.browser().send('Target.getTargets');
    const context = targetInfos.find((t) => t.targetId === tab.page.targetId)?.browserContextId;
    found = targetInfos.filter(
      (t) =>
        t.type === 'page' &&
        !known.has(t.targetId) &&
        (before ? !before.has(t.targetId) && t.browserContextId === context : t.openerId === tab.page.targetId),
    );
    if (found.length >= expected || until.expired()) break;
    await until.sleep(50);
  }
  const out: NewTab[] = [];
  for (const t of found) {
    const entry: TabEntry = {
      targetId: t.targetId,
      host: tab.entry.host,
      port: tab.entry.port,
      ...(tab.entry.wsEndpoint ? { wsEndpoint: tab.entry.wsEndpoint } : {}),
    };
    const alias = findAlias(readRegistry(), t.targetId) ?? (await registerTab(entry));
    out.push({ tab: alias, targetId: t.targetId, url: t.url });
  }
  return out;
}

/**
 * The answer's navigation and new-tab fields after an action. `before` (the page targets before a
 * Control+click or middle click) finds tabs opened without an opener; `link` says one is expected.
 */
export async function settledOutput(
  tab: AttachedTab,
  s: SettleResult,
  opening?: { before: Set<string>; link?: string },
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (s.navigated) {
    out.navigated = true;
    out.newUrl = s.newUrl;
  }
  if (s.opened?.length) out.newTabs = await registerOpenedTabs(tab, s.opened.length);
  else if (opening) {
    const tabs = await registerOpenedTabs(tab, opening.link ? 1 : 0, opening.before);
    if (tabs.length) out.newTabs = tabs;
  }
  return out;
}
