// Tab and browser steps: openTab, connectTab, closeTab, listTabs, chromeStatus (SPEC §4, §5).

import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  clipText,
  ConnectionError,
  markEndpointSecrets,
  MAX_TITLE_CHARS,
  MAX_URL_CHARS,
  progress,
  stateDir,
} from '../common/index.js';
import {
  ALIAS_FORM,
  TARGET_ID_FORM,
  canLaunchAt,
  connectOwnBrowser,
  CONTEXT_NAME_FORM,
  contextNames,
  PROFILE_NAME_FORM,
  ensureLocalChrome,
  findAlias,
  forgetTab,
  getVersion,
  isTargetClosed,
  listPageTargets,
  lockTab,
  lookupTab,
  normaliseAddress,
  probe,
  pruneTabs,
  loadRegistry,
  releaseIfLast,
  resolvedAddress,
  type BrowserAddress,
  type Connection,
} from '../cdp/index.js';
import { navigate } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema, type AttachedTab, type StepContext } from './registry.js';
import { contextOfTarget, endWithTab, untilGone } from './tab-ends.js';
import {
  navigableUrl,
  obj,
  optBool,
  optHost,
  optPort,
  optString,
  optWsEndpoint,
  ParamError,
  describe,
  type Obj,
} from './params.js';
import { readGrid } from './farm-params.js';
import { farmStatus, gridTabs, isFarmAddress } from './farm-status.js';

function readAddress(o: Obj): Partial<BrowserAddress> {
  const host = readHost(o);
  const port = optPort(o);
  const wsEndpoint = optWsEndpoint(o);
  const grid = readGrid(o, { host, port, wsEndpoint });
  if (grid) return { grid };
  if (wsEndpoint && (host || port)) throw new ParamError('give either "wsEndpoint" or "host"/"port", not both');
  return { ...(host ? { host } : {}), ...(port ? { port } : {}), ...(wsEndpoint ? { wsEndpoint } : {}) };
}

/** The "host" given, checked; credentials (user:password@) in it are marked never to be shown first, error messages included (issue 15 item 5). */
function readHost(o: Obj): string | undefined {
  if (typeof o.host === 'string' && o.host) markEndpointSecrets(o.host.includes('://') ? o.host : `ws://${o.host}`);
  return optHost(o);
}

// ── openTab ────────────────────────────────────────────────────────────────────────────────
interface OpenTabParams {
  url?: string;
  address: Partial<BrowserAddress>;
  headless?: boolean;
  /** A named browser context of that Chrome (issue 21.4). */
  context?: string;
}

const OPEN_TAB_PARAMS: ParamSchema = {
  forms: ['true', '"url"'],
  keys: {
    url: '',
    host: '',
    port: '',
    wsEndpoint: '',
    grid: '',
    capabilities: '',
    session: '-',
    headless: '-',
    profile: '',
    context: '',
  },
  returns: '{url, status}',
  note: 'first step',
};

defineStep<OpenTabParams>({
  name: 'openTab',
  summary: 'Open a new tab; launches Chrome if needed',
  params: OPEN_TAB_PARAMS,
  landsOnUrl: true,
  needsTab: false,
  readOnly: false,
  providesTab: true,
  parse(v) {
    if (v === true) return { address: {} };
    if (typeof v === 'string') return { url: navigableUrl(v, 'openTab'), address: {} };
    const o = obj(v, keysOf(OPEN_TAB_PARAMS), 'openTab');
    const url = optString(o, 'url');
    const profile = nameOf(o, 'profile', PROFILE_NAME_FORM);
    const context = nameOf(o, 'context', CONTEXT_NAME_FORM);
    const address = readAddress(o);
    if (profile && Object.keys(address).length)
      throw new ParamError(
        '"profile" opens the tab in that profile\'s own Chrome: leave out "host", "port" and "wsEndpoint"',
      );
    return {
      ...(url ? { url: navigableUrl(url, 'url') } : {}),
      address: { ...address, ...(profile ? { profile } : {}) },
      headless: optBool(o, 'headless'),
      ...(context ? { context } : {}),
    };
  },
  async run(ctx, p) {
    const tab = await ctx.command.openTab(normaliseAddress(p.address), p.headless, p.context);
    // A Grid session's id lets other agents open their tabs in it ({"grid", "session"}).
    const session = tab.entry.grid ? { session: tab.entry.grid.sessionId } : {};
    if (!p.url) return tab.entry.grid ? session : undefined; // the alias is the answer's top-level "tab"
    return { ...(await navigate(tab.page, p.url, 'load', ctx.deadline)), ...session };
  },
});

/** A profile or context name: a plain word (letters, digits, `.`, `_`, `-`), never a path. */
function nameOf(o: Obj, key: string, form: RegExp): string | undefined {
  const v = optString(o, key);
  if (v !== undefined && !form.test(v))
    throw new ParamError(
      `"${key}" must be a name like "work" (letters, digits, ".", "_", "-"; at most 64), got ${describe(v)}`,
    );
  return v;
}

// ── connectTab ─────────────────────────────────────────────────────────────────────────────
interface ConnectTabParams {
  alias?: string;
  targetId?: string;
  urlPattern?: RegExp;
  address: Partial<BrowserAddress>;
}

function parseRegex(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (err) {
    throw new ParamError(`"url" is not a valid regular expression: ${(err as Error).message}`);
  }
}

const CONNECT_TAB_PARAMS: ParamSchema = {
  forms: ['"t1"', '"targetId"'],
  keys: { tab: '', targetId: '', url: 'regex', host: '-', port: '-', wsEndpoint: '-' },
  returns: '{tab, url, title}',
  note: 'first step',
};

defineStep<ConnectTabParams>({
  name: 'connectTab',
  summary: 'Attach to an existing tab',
  params: CONNECT_TAB_PARAMS,
  landsOnUrl: true,
  needsTab: false,
  readOnly: false,
  providesTab: true,
  parse(v) {
    if (typeof v === 'string' && v)
      return ALIAS_FORM.test(v) ? { alias: v, address: {} } : { targetId: targetIdOf(v, 'connectTab'), address: {} };
    const o = obj(v, keysOf(CONNECT_TAB_PARAMS), 'connectTab');
    const alias = aliasOf(optString(o, 'tab'));
    const targetId = targetIdOf(optString(o, 'targetId'), 'targetId');
    const url = optString(o, 'url');
    if ([alias, targetId, url].filter(Boolean).length !== 1) {
      throw new ParamError('connectTab needs exactly one of "tab" (alias), "targetId" or "url" (regex)');
    }
    return {
      ...(alias ? { alias } : {}),
      ...(targetId ? { targetId } : {}),
      ...(url ? { urlPattern: parseRegex(url) } : {}),
      address: readAddress(o),
    };
  },
  async run(ctx, p) {
    let address = normaliseAddress(p.address);
    let targetId = p.targetId;
    if (p.alias) {
      const entry = await lookupTab(p.alias);
      if (!entry) throw new ConnectionError(`Unknown tab alias "${p.alias}". Use listTabs to see open tabs.`);
      address = normaliseAddress(entry);
      targetId = entry.targetId;
    }
    if (p.urlPattern) {
      const conn = await ctx.command.browser(address);
      const targets = await listPageTargets(conn);
      const found = targets.find((t) => p.urlPattern!.test(t.url));
      if (!found) {
        const urls =
          targets
            .map((t) => t.url)
            .slice(0, 10)
            .join(', ') || 'none';
        throw new ConnectionError(`No open tab's URL matches /${p.urlPattern.source}/ (open tabs: ${urls})`);
      }
      targetId = found.targetId;
    }
    const tab = await ctx.command.connectTab(address, targetId!);
    const { targetInfo } = await tab.conn.browser().send('Target.getTargetInfo', { targetId: tab.entry.targetId });
    return {
      tab: tab.alias,
      targetId: targetInfo.targetId,
      url: clipText(targetInfo.url, MAX_URL_CHARS),
      title: clipText(targetInfo.title, MAX_TITLE_CHARS),
    };
  },
});

// ── closeTab ───────────────────────────────────────────────────────────────────────────────
type CloseTabParams = { own: true } | { alias: string } | { targetId: string; address: Partial<BrowserAddress> };

function aliasOf(v: string | undefined): string | undefined {
  if (v !== undefined && !ALIAS_FORM.test(v))
    throw new ParamError(`"tab" must be a tab alias like "t1", got ${describe(v)}`);
  return v;
}

function targetIdOf<T extends string | undefined>(v: T, what: string): T {
  if (v !== undefined && !TARGET_ID_FORM.test(v)) {
    throw new ParamError(
      `${what} must be a tab alias like "t1" or a target id (32 hex digits, see listTabs), got ${describe(v)}`,
    );
  }
  return v;
}

interface CloseTarget {
  alias?: string;
  targetId: string;
  address: BrowserAddress;
}

/** The tab closeTab means, from the command's own tab, the registry (or an alias claim), or a raw target id. */
async function closeTarget(own: AttachedTab | undefined, p: CloseTabParams): Promise<CloseTarget> {
  if ('own' in p || ('alias' in p && own && p.alias === own.alias)) {
    if (!own) throw new ConnectionError('closeTab: true needs a "tab" in the command');
    return { alias: own.alias, targetId: own.entry.targetId, address: normaliseAddress(own.entry) };
  }
  if ('alias' in p) {
    const entry = await lookupTab(p.alias);
    if (!entry)
      throw new ConnectionError(`Unknown tab alias "${p.alias}" (already closed?). Use listTabs to see open tabs.`, {
        category: 'connection',
      });
    return { alias: p.alias, targetId: entry.targetId, address: normaliseAddress(entry) };
  }
  return {
    alias: findAlias(await loadRegistry(), p.targetId),
    targetId: p.targetId,
    address: normaliseAddress(p.address),
  };
}

/** Whether Chrome refused the close because no such target exists. */
const noSuchTarget = (err: unknown): boolean => err instanceof ConnectionError && isTargetClosed(err.cause ?? err);

const CLOSE_TAB_PARAMS: ParamSchema = {
  forms: ['"t1"', 'true'],
  keys: { tab: '', targetId: '', host: '-', port: '-', wsEndpoint: '-' },
  returns: '{closed}',
  note: "true: this call's tab, as last step",
};

defineStep<CloseTabParams>({
  name: 'closeTab',
  summary: 'Close a tab',
  params: CLOSE_TAB_PARAMS,
  mustComeLast: (p) => 'own' in p,
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (v === true) return { own: true };
    if (typeof v === 'string' && v)
      return ALIAS_FORM.test(v) ? { alias: v } : { targetId: targetIdOf(v, 'closeTab'), address: {} };
    const o = obj(v, keysOf(CLOSE_TAB_PARAMS), 'closeTab');
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
      let wasOpen = true;
      let conn: Connection | undefined;
      let browserContextId: string | undefined;
      const lingering: string[] = [];
      try {
        conn = await ctx.command.browser(address);
        browserContextId = await contextOfTarget(conn, targetId);
        await ctx.deadline.race(
          conn.browser().send('Target.closeTarget', { targetId }),
          `Chrome to close ${alias ?? targetId}`,
        );
        // Told closed only once Chrome no longer lists it (at most 2 s, within the step's time).
        if (!(await untilGone(conn, targetId, Math.min(2_000, ctx.deadline.remainingMs()))))
          lingering.push(`Chrome still lists ${alias ?? targetId} after closing it; listTabs shows when it is gone`);
      } catch (err) {
        // A farm browser that is gone (a reaped Grid session) took the tab with it: the farm said so.
        if (alias && err instanceof ConnectionError && err.details.browserGone) {
          removeTabArtifacts(alias);
          return { closed: alias, wasOpen: false, warnings: [err.message] };
        }
        if (!noSuchTarget(err)) throw err;
        wasOpen = false;
      }
      if (!wasOpen && !alias)
        throw new ConnectionError(
          `No tab with target id ${targetId} is open in the browser at ${address.wsEndpoint ?? `${address.host}:${address.port}`}. Use listTabs to see open tabs.`,
        );
      if (isOwn) ctx.command.closedOwnTab = true;
      if (alias) {
        await forgetTab(alias);
        removeTabArtifacts(alias);
      }
      const released = await releaseIfLast(address, ctx.deadline.remainingMs()); // a farm session with its last tab
      const gone = `${alias} was already closed (by another program, or Chrome restarted); its alias is forgotten`;
      const ended = wasOpen && conn ? await endWithTab(conn, targetId, browserContextId, address.profile) : {};
      const warnings = [
        ...((released.warnings as string[] | undefined) ?? []),
        ...(wasOpen ? [] : [gone]),
        ...lingering,
      ];
      return {
        closed: alias ?? targetId,
        ...released,
        ...ended,
        ...(wasOpen ? {} : { wasOpen: false }),
        ...(warnings.length ? { warnings } : {}),
      };
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
  for (const n of names)
    if (n.startsWith(`${alias}.`) && !takenThisCommand(join(dir, n), n)) rmSync(join(dir, n), { force: true });
}

/** A screenshot a step of this very command took: its answer gives the path, so the file stays. */
function takenThisCommand(path: string, name: string): boolean {
  if (!/\.step\d+\.(png|jpeg|webp)$/.test(name)) return false;
  try {
    return statSync(path).mtimeMs >= progress.startedAt;
  } catch {
    return false;
  }
}

// ── listTabs ───────────────────────────────────────────────────────────────────────────────
const LIST_TABS_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: { host: '', port: '', wsEndpoint: '', grid: '', profile: '-' },
  returns: '{tabs}',
};

defineStep<Partial<BrowserAddress>>({
  name: 'listTabs',
  summary: 'List open tabs with their aliases',
  params: LIST_TABS_PARAMS,
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (v === true) return {};
    const o = obj(v, keysOf(LIST_TABS_PARAMS), 'listTabs');
    const profile = nameOf(o, 'profile', PROFILE_NAME_FORM);
    return { ...readAddress(o), ...(profile ? { profile } : {}) };
  },
  async run(ctx, p) {
    if (p.grid) return gridTabs(ctx, p.grid.url, tabsWithAliases);
    const own = ctx.command.tab;
    const address = Object.keys(p).length || !own ? normaliseAddress(p) : normaliseAddress(own.entry);
    const conn = await ctx.command.browser(address);
    return { tabs: await tabsWithAliases(conn, resolvedAddress(address, conn)) };
  },
});

export async function tabsWithAliases(
  conn: Connection,
  address: BrowserAddress,
): Promise<{ tab?: string; context?: string; targetId: string; url: string; title: string }[]> {
  const targets = await listPageTargets(conn);
  await pruneTabs(address.host, address.port, new Set(targets.map((t) => t.targetId)), address.wsEndpoint);
  const registry = await loadRegistry();
  const contexts = contextNames(conn);
  return targets.map((t) => {
    const alias = findAlias(registry, t.targetId);
    const context = t.browserContextId && contexts.get(t.browserContextId);
    return {
      ...(alias ? { tab: alias } : {}),
      ...(context ? { context } : {}),
      targetId: t.targetId,
      url: clipText(t.url, MAX_URL_CHARS),
      title: clipText(t.title, MAX_TITLE_CHARS),
    };
  });
}

// ── chromeStatus ───────────────────────────────────────────────────────────────────────────
interface ChromeStatusParams {
  address: Partial<BrowserAddress>;
  headless?: boolean;
  autoLaunch: boolean;
}

const CHROME_STATUS_PARAMS: ParamSchema = {
  forms: ['true'],
  keys: { host: '', port: '', wsEndpoint: '', grid: '', headless: '-', autoLaunch: '-' },
  returns: '{running, version, tabs}',
};

defineStep<ChromeStatusParams>({
  name: 'chromeStatus',
  summary: 'Check (and by default launch) Chrome',
  params: CHROME_STATUS_PARAMS,
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (v === true) return { address: {}, autoLaunch: true };
    const o = obj(v, keysOf(CHROME_STATUS_PARAMS), 'chromeStatus');
    return {
      address: readAddress(o),
      headless: optBool(o, 'headless'),
      autoLaunch: optBool(o, 'autoLaunch') ?? true,
    };
  },
  async run(ctx, p) {
    if (isFarmAddress(p.address)) return farmStatus(ctx, p.address, tabsWithAliases);
    const address = normaliseAddress(p.address);
    return address.own ? ownStatus(ctx, p) : namedStatus(ctx, address, p);
  },
});

/** Our own Chrome (no port named): found and checked as every call does, launched when allowed. */
async function ownStatus(ctx: StepContext, p: ChromeStatusParams): Promise<Record<string, unknown>> {
  let found: { conn: Connection; launched: boolean };
  try {
    found = await connectOwnBrowser({
      autoLaunch: p.autoLaunch,
      headless: p.headless,
      timeoutMs: ctx.deadline.remainingMs(),
    });
  } catch (err) {
    if (p.autoLaunch || !(err instanceof ConnectionError)) throw err;
    return { running: false, launched: false, error: err.message };
  }
  const { conn, launched } = found;
  try {
    const { product } = await conn.browser().send('Browser.getVersion');
    const address = resolvedAddress(normaliseAddress({}), conn);
    return { running: true, launched, version: product, port: address.port, ...(await tabsOrBlank(conn, address)) };
  } finally {
    conn.close();
  }
}

async function namedStatus(
  ctx: StepContext,
  address: BrowserAddress,
  p: ChromeStatusParams,
): Promise<Record<string, unknown>> {
  const { host, port } = address;
  let version = await probe(host, port);
  let launched = false;
  if (!version) {
    if (!p.autoLaunch || !canLaunchAt(host)) {
      const why = await getVersion(host, port).then(
        () => '',
        (err: Error) => err.message,
      );
      return { running: false, launched: false, port, error: why || `Chrome is not reachable at ${host}:${port}` };
    }
    ({ version, launched } = await ensureLocalChrome(port, p.headless));
  }
  const conn = await ctx.command.browser(address);
  return { running: true, launched, version: version.Browser, port, ...(await tabsOrBlank(conn, address)) };
}

/** The browser's tabs; one blank tab is opened when it has none. */
async function tabsOrBlank(conn: Connection, address: BrowserAddress): Promise<Record<string, unknown>> {
  let tabs = await tabsWithAliases(conn, address);
  if (tabs.length) return { tabs };
  await conn.browser().send('Target.createTarget', { url: 'about:blank', newWindow: true });
  tabs = await tabsWithAliases(conn, address);
  return { tabs, createdTab: true, note: 'Chrome had no tabs open. Created a blank tab.' };
}
