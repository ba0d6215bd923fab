// Tab and browser steps: openTab, connectTab, closeTab, listTabs, chromeStatus (SPEC §4, §5).

import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectionError, DEFAULT_HOST, DEFAULT_PORT, stateDir } from '../common/index.js';
import {
  ALIAS_FORM, TARGET_ID_FORM, canLaunchAt, ensureLocalChrome, findAlias, forgetTab, getVersion, isTargetClosed, listPageTargets, lockTab, lookupTab,
  normaliseAddress, probe, pruneTabs, loadRegistry, type BrowserAddress, type Connection,
} from '../cdp/index.js';
import { navigate } from '../page/index.js';
import { defineStep, type AttachedTab } from './registry.js';
import {
  navigableUrl, obj, optBool, optHost, optPort, optString, optWsEndpoint, ParamError, describe, type Obj,
} from './params.js';

const ADDRESS_KEYS = ['host', 'port', 'wsEndpoint'] as const;

function readAddress(o: Obj): Partial<BrowserAddress> {
  const host = optHost(o);
  const port = optPort(o);
  const wsEndpoint = optWsEndpoint(o);
  if (wsEndpoint && (host || port)) throw new ParamError('give either "wsEndpoint" or "host"/"port", not both');
  return { ...(host ? { host } : {}), ...(port ? { port } : {}), ...(wsEndpoint ? { wsEndpoint } : {}) };
}

// ── openTab ────────────────────────────────────────────────────────────────────────────────
interface OpenTabParams { url?: string; address: Partial<BrowserAddress>; headless?: boolean }

defineStep<OpenTabParams>({
  name: 'openTab',
  summary: 'Open a new tab (true | url | {url, host, port, wsEndpoint, headless}); launches Chrome if needed',
  needsTab: false,
  readOnly: false,
  providesTab: true,
  parse(v) {
    if (v === true) return { address: {} };
    if (typeof v === 'string') return { url: navigableUrl(v, 'openTab'), address: {} };
    const o = obj(v, ['url', ...ADDRESS_KEYS, 'headless'], 'openTab');
    const url = optString(o, 'url');
    return { ...(url ? { url: navigableUrl(url, 'url') } : {}), address: readAddress(o), headless: optBool(o, 'headless') };
  },
  async run(ctx, p) {
    const tab = await ctx.command.openTab(normaliseAddress(p.address), p.headless);
    if (!p.url) return undefined; // the alias is the answer's top-level "tab"
    return navigate(tab.page, p.url, 'load', ctx.deadline);
  },
});

// ── connectTab ─────────────────────────────────────────────────────────────────────────────
interface ConnectTabParams { alias?: string; targetId?: string; urlPattern?: RegExp; address: Partial<BrowserAddress> }

function parseRegex(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (err) {
    throw new ParamError(`"url" is not a valid regular expression: ${(err as Error).message}`);
  }
}

defineStep<ConnectTabParams>({
  name: 'connectTab',
  summary: 'Attach to an existing tab: "t1" | targetId | {targetId} | {url: regex} (+ host, port, wsEndpoint)',
  needsTab: false,
  readOnly: false,
  providesTab: true,
  parse(v) {
    if (typeof v === 'string' && v) return ALIAS_FORM.test(v) ? { alias: v, address: {} } : { targetId: targetIdOf(v, 'connectTab'), address: {} };
    const o = obj(v, ['tab', 'targetId', 'url', ...ADDRESS_KEYS], 'connectTab');
    const alias = aliasOf(optString(o, 'tab'));
    const targetId = targetIdOf(optString(o, 'targetId'), 'targetId');
    const url = optString(o, 'url');
    if ([alias, targetId, url].filter(Boolean).length !== 1) {
      throw new ParamError('connectTab needs exactly one of "tab" (alias), "targetId" or "url" (regex)');
    }
    return {
      ...(alias ? { alias } : {}), ...(targetId ? { targetId } : {}), ...(url ? { urlPattern: parseRegex(url) } : {}),
      address: readAddress(o),
    };
  },
  async run(ctx, p) {
    let address = normaliseAddress(p.address);
    let targetId = p.targetId;
    if (p.alias) {
      const entry = await lookupTab(p.alias);
      if (!entry) throw new ConnectionError(`Unknown tab alias "${p.alias}". Use listTabs to see open tabs.`);
      address = { host: entry.host, port: entry.port, ...(entry.wsEndpoint ? { wsEndpoint: entry.wsEndpoint } : {}) };
      targetId = entry.targetId;
    }
    if (p.urlPattern) {
      const conn = await ctx.command.browser(address);
      const targets = await listPageTargets(conn);
      const found = targets.find((t) => p.urlPattern!.test(t.url));
      if (!found) {
        const urls = targets.map((t) => t.url).slice(0, 10).join(', ') || 'none';
        throw new ConnectionError(`No open tab's URL matches /${p.urlPattern.source}/ (open tabs: ${urls})`);
      }
      targetId = found.targetId;
    }
    const tab = await ctx.command.connectTab(address, targetId!);
    const { targetInfo } = await tab.conn.browser().send('Target.getTargetInfo', { targetId: tab.entry.targetId });
    return { tab: tab.alias, targetId: targetInfo.targetId, url: targetInfo.url, title: targetInfo.title };
  },
});

// ── closeTab ───────────────────────────────────────────────────────────────────────────────
type CloseTabParams = { own: true } | { alias: string } | { targetId: string; address: Partial<BrowserAddress> };

function aliasOf(v: string | undefined): string | undefined {
  if (v !== undefined && !ALIAS_FORM.test(v)) throw new ParamError(`"tab" must be a tab alias like "t1", got ${describe(v)}`);
  return v;
}

function targetIdOf<T extends string | undefined>(v: T, what: string): T {
  if (v !== undefined && !TARGET_ID_FORM.test(v)) {
    throw new ParamError(`${what} must be a tab alias like "t1" or a target id (32 hex digits, see listTabs), got ${describe(v)}`);
  }
  return v;
}

interface CloseTarget { alias?: string; targetId: string; address: BrowserAddress }

/** The tab closeTab means, from the command's own tab, the registry (or an alias claim), or a raw target id. */
async function closeTarget(own: AttachedTab | undefined, p: CloseTabParams): Promise<CloseTarget> {
  if ('own' in p || ('alias' in p && own && p.alias === own.alias)) {
    if (!own) throw new ConnectionError('closeTab: true needs a "tab" in the command');
    return { alias: own.alias, targetId: own.entry.targetId, address: normaliseAddress(own.entry) };
  }
  if ('alias' in p) {
    const entry = await lookupTab(p.alias);
    if (!entry) throw new ConnectionError(`Unknown tab alias "${p.alias}" (already closed?). Use listTabs to see open tabs.`, { category: 'connection' });
    return { alias: p.alias, targetId: entry.targetId, address: normaliseAddress(entry) };
  }
  return { alias: findAlias(await loadRegistry(), p.targetId), targetId: p.targetId, address: normaliseAddress(p.address) };
}

/** Whether Chrome refused the close because no such target exists. */
const noSuchTarget = (err: unknown): boolean => err instanceof ConnectionError && isTargetClosed(err.cause ?? err);

defineStep<CloseTabParams>({
  name: 'closeTab',
  summary: 'Close a tab: true (this command\'s tab) | "t1" | {tab} | {targetId}; waits for a command running on it',
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (v === true) return { own: true };
    if (typeof v === 'string' && v) return ALIAS_FORM.test(v) ? { alias: v } : { targetId: targetIdOf(v, 'closeTab'), address: {} };
    const o = obj(v, ['tab', 'targetId', ...ADDRESS_KEYS], 'closeTab');
    const alias = aliasOf(optString(o, 'tab'));
    if (alias) return { alias };
    const targetId = targetIdOf(optString(o, 'targetId'), 'targetId');
    if (targetId) return { targetId, address: readAddress(o) };
    throw new ParamError(`closeTab needs true, an alias ("t1") or {targetId}, got ${describe(v)}`);
  },
  async run(ctx, p) {
    const own = ctx.command.tab;
    const { alias, targetId, address } = await closeTarget(own, p);
    const isOwn = own?.entry.targetId === targetId;
    // Like any command on that tab, the close waits for a command working on it (at most this step's time).
    const release = isOwn ? undefined : await lockTab(alias ?? targetId, targetId, ctx.deadline.remainingMs());
    try {
      const conn = await ctx.command.browser(address);
      let wasOpen = true;
      try {
        await ctx.deadline.race(conn.browser().send('Target.closeTarget', { targetId }), `Chrome to close ${alias ?? targetId}`);
      } catch (err) {
        if (!noSuchTarget(err)) throw err;
        wasOpen = false;
      }
      if (!wasOpen && !alias) throw new ConnectionError(`No tab with target id ${targetId} is open in the browser at ${address.wsEndpoint ?? `${address.host}:${address.port}`}. Use listTabs to see open tabs.`);
      if (isOwn) ctx.command.closedOwnTab = true;
      if (alias) {
        await forgetTab(alias);
        removeTabArtifacts(alias);
      }
      const gone = `${alias} was already closed (by another program, or Chrome restarted); its alias is forgotten`;
      return { closed: alias ?? targetId, ...(wasOpen ? {} : { wasOpen: false, warnings: [gone] }) };
    } finally {
      release?.();
    }
  },
});

/**
 * Screenshots and snapshots of a closed tab are not left in the temp dir: every file named for its
 * alias (`t3.after.png`, `t3.after.yaml`, `t3.s2.yaml`, `t3.step4.png`). Files saved to a `path`
 * the agent chose are the agent's.
 */
function removeTabArtifacts(alias: string): void {
  const dir = stateDir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith(`${alias}.`)) rmSync(join(dir, n), { force: true });
}

// ── listTabs ───────────────────────────────────────────────────────────────────────────────
defineStep<Partial<BrowserAddress>>({
  name: 'listTabs',
  summary: 'List open tabs with their aliases: true | {host, port, wsEndpoint}',
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (v === true) return {};
    return readAddress(obj(v, ADDRESS_KEYS, 'listTabs'));
  },
  async run(ctx, p) {
    const own = ctx.command.tab;
    const address = Object.keys(p).length || !own ? normaliseAddress(p) : normaliseAddress(own.entry);
    const conn = await ctx.command.browser(address);
    return { tabs: await tabsWithAliases(conn, address) };
  },
});

async function tabsWithAliases(conn: Connection, address: BrowserAddress): Promise<{ tab?: string; targetId: string; url: string; title: string }[]> {
  const targets = await listPageTargets(conn);
  await pruneTabs(address.host, address.port, new Set(targets.map((t) => t.targetId)), address.wsEndpoint);
  const registry = await loadRegistry();
  return targets.map((t) => {
    const alias = findAlias(registry, t.targetId);
    return { ...(alias ? { tab: alias } : {}), targetId: t.targetId, url: t.url, title: t.title };
  });
}

// ── chromeStatus ───────────────────────────────────────────────────────────────────────────
interface ChromeStatusParams { host: string; port: number; headless?: boolean; autoLaunch: boolean }

defineStep<ChromeStatusParams>({
  name: 'chromeStatus',
  summary: 'Check (and by default launch) Chrome: true | {host, port, headless, autoLaunch}',
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (v === true) return { host: DEFAULT_HOST, port: DEFAULT_PORT, autoLaunch: true };
    const o = obj(v, ['host', 'port', 'headless', 'autoLaunch'], 'chromeStatus');
    return {
      host: optHost(o) ?? DEFAULT_HOST,
      port: optPort(o) ?? DEFAULT_PORT,
      headless: optBool(o, 'headless'),
      autoLaunch: optBool(o, 'autoLaunch') ?? true,
    };
  },
  async run(ctx, p) {
    let version = await probe(p.host, p.port);
    let launched = false;
    if (!version) {
      if (!p.autoLaunch || !canLaunchAt(p.host)) {
        const why = await getVersion(p.host, p.port).then(() => '', (err: Error) => err.message);
        return { running: false, launched: false, port: p.port, error: why || `Chrome is not reachable at ${p.host}:${p.port}` };
      }
      const result = await ensureLocalChrome(p.port, p.headless);
      ({ version, launched } = result);
    }
    const address = { host: p.host, port: p.port };
    const conn = await ctx.command.browser(address);
    let tabs = await tabsWithAliases(conn, address);
    let note: string | undefined;
    if (tabs.length === 0) {
      await conn.browser().send('Target.createTarget', { url: 'about:blank', newWindow: true });
      tabs = await tabsWithAliases(conn, address);
      note = 'Chrome had no tabs open. Created a blank tab.';
    }
    return {
      running: true, launched, version: version.Browser, port: p.port, tabs,
      ...(note ? { createdTab: true, note } : {}),
    };
  },
});
