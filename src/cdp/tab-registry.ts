// The tab registry: alias → how to reach the tab, plus per-tab state a CDP session forgets
// (viewport emulation, ref counters). One JSON file in the private state dir, written atomically
// (temp file + rename) under a lock, so several agents can open tabs at once; a torn or corrupt
// file — or a directory, or anything not shaped as we write it — is moved aside and rebuilt
// (registry-recovery.ts); aliases are claimed outside it (alias-claims.ts), so none is reused.
// Every read-modify-write runs start to end under the lock with nothing awaited in between (the
// rebuild included): no other writer, in this process or another, can come between.

import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir, REGISTRY_LOCK_TIMEOUT_MS } from '../common/index.js';
import { withLock } from './lock.js';
import { rebuildRegistry, salvageRegistry } from './registry-recovery.js';
import {
  ALIAS_FORM,
  claimAlias,
  claimedHighWater,
  highWaterMark,
  readClaim,
  readClaims,
  releaseClaim,
  type ClaimedTab,
} from './alias-claims.js';

export interface ViewportMetrics {
  width: number;
  height: number;
  deviceScaleFactor: number;
  mobile: boolean;
  hasTouch: boolean;
  isLandscape?: boolean;
}

/** An emulated position (DECISIONS: geolocation). */
export interface GeolocationSetting {
  latitude: number;
  longitude: number;
  /** Metres. */
  accuracy?: number;
}

/** A Selenium Grid session behind a tab (farms): its hub, its id, and whether cdp-skill created it (and so deletes it with its last tab). */
export interface GridSession {
  url: string;
  sessionId: string;
  created: boolean;
}

/** Network conditions of an emulated connection: latency in ms, throughput in kilobits per second. */
export interface NetworkThrottle {
  preset?: 'slow-3g' | 'fast-3g';
  latency: number;
  download: number;
  upload: number;
}

/** The emulate step's settings (media, network, CPU, zone, locale, agent, permissions), kept like the viewport. */
export interface EmulationSetting {
  colorScheme?: 'dark' | 'light';
  reducedMotion?: 'reduce' | 'no-preference';
  media?: 'print' | 'screen';
  offline?: true;
  network?: NetworkThrottle;
  cpu?: number;
  timezone?: string;
  locale?: string;
  userAgent?: string;
  permissions?: string[];
  /** The tab's browser context when not the default one: permissions are granted per context. */
  browserContextId?: string;
}

/** A `route` rule (page/network-route.ts): requests whose URL `url` names are answered, or aborted. */
export interface RouteRule {
  /** A substring of the URL, or a glob (`*`: any characters) over the whole URL. */
  url: string;
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  contentType?: string;
  abort?: boolean;
  /** Kept with the tab and armed again at every later command's attach. */
  persist?: boolean;
}

export interface TabEntry {
  targetId: string;
  host: string;
  port: number;
  /** Browser WebSocket endpoint given by the agent (remote browser farms); host/port are then informational. */
  wsEndpoint?: string;
  /** A tab of our own auto-launched Chrome (no port named): reached only once it proves its id (own-browser.ts). */
  own?: boolean;
  /** The Grid session whose browser holds the tab (wsEndpoint is then its se:cdp, through the hub). */
  grid?: GridSession;
  /** The endpoint's browser is kept between connections by the service's reconnect command (lasting-browser.ts). */
  keep?: 'reconnect';
  /** A tab of the Chrome of a named profile (`openTab {profile}`): an own Chrome on that profile's folder. */
  profile?: string;
  /** The named browser context the tab lives in (`openTab {context}`; cdp/contexts.ts). */
  context?: string;
  viewport?: ViewportMetrics;
  /** Emulated position, re-applied on attach until {"geolocation": false}. */
  geolocation?: GeolocationSetting;
  /** Emulated media, network, CPU, zone, locale…, re-applied on attach until {"emulate": "reset"}. */
  emulation?: EmulationSetting;
  /** Snapshot and element counters, continued across documents so refs are never recycled. */
  counters?: { snapshot: number; element: number };
  /** Content hashes of recent agent snapshots by id, for snapshot {since}. */
  snapshotHashes?: Record<string, string>;
  /** Cross-origin frames whose refs the agent was given: `f{i+1}s…e…` is in frameRefs[i] (aria/frames.ts). */
  frameRefs?: string[];
  /** The frame steps run in (SPEC §13.2, §19.12), until {"frame": "top"} or a new top document. */
  frame?: { frameId: string; url: string };
  /**
   * Our isolated world in the top document as the last command left it (its system-unique context
   * id, and the document's loaderId): the next command's before-look goes out with the domain
   * enables instead of after them (runner/capture.ts).
   */
  world?: { uniqueId: string; loaderId: string };
  /** `route` rules with `persist`, armed again at every attach until {"route": false}. */
  routes?: RouteRule[];
}

export interface RegistryData {
  nextId: number;
  tabs: Record<string, TabEntry>;
  /** Cached browser WebSocket URLs by `host:port`, so a call needs no HTTP discovery. */
  browsers: Record<string, string>;
  /** Our own auto-launched Chrome: its WebSocket URL (with the browser id) and the context id it must present. */
  own?: OwnBrowserRecord;
  /** The Chrome of each named profile, recorded like `own`. */
  profiles?: Record<string, OwnBrowserRecord>;
  /** Named browser contexts by browser (its WebSocket URL, new at each Chrome start): name → browserContextId. */
  contexts?: Record<string, Record<string, string>>;
}

export interface OwnBrowserRecord {
  /** ws://127.0.0.1:<port>/devtools/browser/<id>, as DevToolsActivePort gave it. */
  wsUrl: string;
  /** Its default browser context's id (Target.getBrowserContexts): random per start, told only to CDP clients of that browser. */
  browserContextId: string;
}

export const registryPath = (): string => join(stateDir(), 'tabs.json');

function empty(): RegistryData {
  return { nextId: 1, tabs: {}, browsers: {} };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const optional = (v: unknown, check: (x: unknown) => boolean): boolean => v === undefined || check(v);
const allNumbers = (v: unknown, keys: string[]): v is Record<string, unknown> =>
  isObject(v) && keys.every((k) => optional(v[k], (x) => typeof x === 'number'));

export function isGridSession(v: unknown): v is GridSession {
  return isObject(v) && typeof v.url === 'string' && typeof v.sessionId === 'string' && typeof v.created === 'boolean';
}

/** Every field of an entry has the type it is written with; anything else is damage. */
function isEntry(v: unknown): v is TabEntry {
  if (!isObject(v)) return false;
  return (
    typeof v.targetId === 'string' &&
    v.targetId.length > 0 &&
    v.targetId.length <= 128 &&
    typeof v.host === 'string' &&
    isInt(v.port, 1, 65_535) &&
    optional(v.wsEndpoint, (x) => typeof x === 'string') &&
    optional(v.grid, isGridSession) &&
    optional(v.keep, (x) => x === 'reconnect') &&
    optional(v.profile, (x) => typeof x === 'string') &&
    optional(v.context, (x) => typeof x === 'string') &&
    optional(
      v.viewport,
      (x) => allNumbers(x, ['width', 'height', 'deviceScaleFactor']) && typeof x.width === 'number',
    ) &&
    optional(
      v.geolocation,
      (x) => allNumbers(x, ['latitude', 'longitude', 'accuracy']) && typeof x.latitude === 'number',
    ) &&
    optional(v.emulation, isObject) &&
    optional(v.counters, (x) => isObject(x) && isInt(x.snapshot, 0) && isInt(x.element, 0)) &&
    optional(v.snapshotHashes, (x) => isObject(x) && Object.values(x).every((h) => typeof h === 'string')) &&
    optional(v.frame, (x) => isObject(x) && typeof x.frameId === 'string' && typeof x.url === 'string') &&
    optional(v.frameRefs, (x) => Array.isArray(x) && x.every((f) => typeof f === 'string')) &&
    optional(v.routes, (x) => Array.isArray(x) && x.every((r) => isObject(r) && typeof r.url === 'string'))
  );
}

function ownRecord(v: unknown): OwnBrowserRecord | undefined {
  const r = v as Partial<OwnBrowserRecord> | undefined;
  return typeof r?.wsUrl === 'string' && typeof r.browserContextId === 'string'
    ? { wsUrl: r.wsUrl, browserContextId: r.browserContextId }
    : undefined;
}

/**
 * The registry in `text`, or undefined when any part of it is not what cdp-skill writes (torn
 * text, a counter that is not a positive integer, an alias not of the form t<n>, an entry with a
 * field of the wrong type): a registry that is partly wrong is not trusted in any part.
 */
export function parseRegistry(text: string): RegistryData | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(raw) || !isInt(raw.nextId, 1) || !isObject(raw.tabs) || !optional(raw.browsers, isObject))
    return undefined;
  const data = empty();
  data.nextId = raw.nextId as number;
  for (const [alias, entry] of Object.entries(raw.tabs)) {
    if (!ALIAS_FORM.test(alias)) return undefined;
    if (isEntry(entry)) data.tabs[alias] = entry;
    else if (typeof entry === 'string' && entry)
      data.tabs[alias] = { targetId: entry, host: '127.0.0.1', port: 9222 }; // first format
    else return undefined;
    data.nextId = Math.max(data.nextId, Number(alias.slice(1)) + 1);
  }
  for (const [key, url] of Object.entries(raw.browsers ?? {})) {
    if (typeof url !== 'string') return undefined;
    data.browsers[key] = url;
  }
  const own = ownRecord(raw.own);
  if (own) data.own = own;
  if (isObject(raw.profiles)) {
    const profiles = Object.entries(raw.profiles).flatMap(([name, r]) => {
      const rec = ownRecord(r);
      return rec ? [[name, rec] as const] : [];
    });
    if (profiles.length) data.profiles = Object.fromEntries(profiles);
  }
  if (isObject(raw.contexts)) {
    const byBrowser = Object.entries(raw.contexts).filter(
      (e): e is [string, Record<string, string>] =>
        isObject(e[1]) && Object.values(e[1]).every((id) => typeof id === 'string'),
    );
    if (byBrowser.length) data.contexts = Object.fromEntries(byBrowser);
  }
  return data;
}

/**
 * What is on disk: a registry to use as it is, one to use once repaired (`repair` says why; `data`
 * is already repaired in memory), or a damaged text to rebuild from.
 */
type FileState = { data: RegistryData; repair?: string } | { corrupt: string; what: string };

/**
 * A well-formed registry behind the aliases handed out (rewritten by hand or by an old copy, or
 * its writer died between claiming an alias and writing): its counter is raised above every
 * alias ever claimed, and each claimed alias it lacks comes back from its claim, unless its tab
 * is known under another alias. Nothing else changes: the other tabs keep their state.
 */
function caughtUp(data: RegistryData): RegistryData {
  data.nextId = Math.max(data.nextId, claimedHighWater() + 1);
  const known = new Set(Object.values(data.tabs).map((e) => e.targetId));
  for (const [alias, claim] of readClaims()) {
    if (Object.hasOwn(data.tabs, alias) || known.has(claim.targetId)) continue;
    data.tabs[alias] = { ...claim };
  }
  return data;
}

function readFile(): FileState {
  const path = registryPath();
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return checked(empty()); // no registry yet, or deleted: the claims still name the tabs
  // A directory, symlink, FIFO… in its place is moved aside like a corrupt file (a FIFO would block a read).
  if (!st.isFile())
    return {
      corrupt: '',
      what: st.isDirectory() ? 'a directory' : st.isSymbolicLink() ? 'a symlink' : 'not a regular file',
    };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return checked(empty()); // moved aside just now
    throw err;
  }
  const data = parseRegistry(text);
  if (!data) return { corrupt: text, what: text.trim() ? 'not a valid registry' : 'empty' };
  return checked(data);
}

/** A registry whose counter is not above the high-water mark is behind the aliases handed out. */
function checked(data: RegistryData): FileState {
  if (data.nextId <= highWaterMark()) return { data: caughtUp(data), repair: 'behind the alias claims' };
  return { data };
}

/**
 * Reads the registry without waiting on anything. A torn or corrupt file gives what can be
 * salvaged from it; loadRegistry() and every update repair it on disk.
 */
export function readRegistry(): RegistryData {
  const state = readFile();
  return 'corrupt' in state ? salvageRegistry(state.corrupt).data : state.data;
}

/** Moves a damaged registry aside (tabs.json.corrupt-<ts>) and rebuilds it from the alias claims and what it still says; the caller writes it. */
function recover(text: string): RegistryData {
  const path = registryPath();
  try {
    renameSync(path, `${path}.corrupt-${Date.now()}`);
  } catch {
    /* gone already: the rebuilt registry is written below either way */
  }
  removeStrayTempFiles();
  return rebuildRegistry(text, stateDir());
}

/** Temp files of writers that died between write and rename (or between write and link, for the lock). */
function removeStrayTempFiles(): void {
  const dir = stateDir();
  for (const name of readdirSync(dir)) {
    const m = /^tabs\.json\.(?:lock\.(?:break\.)?)?(\d+)(?:\.\d+)?\.tmp$/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      rmSync(join(dir, name), { force: true, recursive: true }); // its writer is dead
    }
  }
}

/** The registry on disk, made whole: a damaged file rebuilt, one behind the claims caught up. Under the lock only. */
function current(): { data: RegistryData; changed: boolean } {
  const state = readFile();
  if ('corrupt' in state) return { data: recover(state.corrupt), changed: true };
  return { data: state.data, changed: state.repair !== undefined };
}

/** Reads the registry, first repairing a torn, corrupt or outdated file (never a crash). */
export async function loadRegistry(): Promise<RegistryData> {
  const state = readFile();
  if (!('corrupt' in state) && state.repair === undefined) return state.data;
  return withLock(`${registryPath()}.lock`, REGISTRY_LOCK_TIMEOUT_MS, 'The tab registry', () => {
    const again = current(); // another process may have repaired it while we waited
    if (again.changed) writeRegistry(again.data);
    return again.data;
  });
}

/** Written to a temp file and renamed over the registry: a reader sees the old or the new file, never half. */
function writeRegistry(data: RegistryData): void {
  const path = registryPath();
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true }); // a full disk leaves no temp file behind
    throw err;
  }
}

/** Read-modify-write under the registry lock, synchronous from the read to the write. */
export function updateRegistry<T>(change: (data: RegistryData) => T): Promise<T> {
  return withLock(`${registryPath()}.lock`, REGISTRY_LOCK_TIMEOUT_MS, 'The tab registry', () => {
    const { data } = current();
    const result = change(data);
    writeRegistry(data);
    return result;
  });
}

/** The registry's entry for `alias`: own keys of the form t<n> only ("__proto__" is no tab). */
export function entryOf(data: RegistryData, alias: string): TabEntry | undefined {
  return ALIAS_FORM.test(alias) && Object.hasOwn(data.tabs, alias) ? data.tabs[alias] : undefined;
}

/**
 * The tab behind an alias: the registry's entry, else the alias's claim (an entry lost from a
 * damaged or rewritten registry), which is written back to the registry.
 */
export async function lookupTab(alias: string): Promise<TabEntry | undefined> {
  const known = entryOf(await loadRegistry(), alias);
  if (known) return known;
  const claim = readClaim(alias);
  if (!claim) return undefined;
  return updateRegistry((data) => {
    const entry = entryOf(data, alias) ?? (findAlias(data, claim.targetId) ? undefined : { ...claim });
    if (entry) data.tabs[alias] = entry;
    return entry;
  });
}

export function findAlias(data: RegistryData, targetId: string): string | undefined {
  return Object.keys(data.tabs).find((alias) => data.tabs[alias]!.targetId === targetId);
}

/** Registers a target (or returns its existing alias). Aliases are never reused. */
export function registerTab(entry: TabEntry): Promise<string> {
  return updateRegistry((data) => {
    const existing = findAlias(data, entry.targetId);
    if (existing) return existing;
    const claim: ClaimedTab = {
      targetId: entry.targetId,
      host: entry.host,
      port: entry.port,
      ...(entry.wsEndpoint ? { wsEndpoint: entry.wsEndpoint } : {}),
      ...(entry.own ? { own: true } : {}),
      ...(entry.grid ? { grid: entry.grid } : {}),
      ...(entry.keep ? { keep: entry.keep } : {}),
      ...(entry.profile ? { profile: entry.profile } : {}),
    };
    const alias = claimAlias(claim, data.nextId);
    data.nextId = Number(alias.slice(1)) + 1;
    data.tabs[alias] = entry;
    return alias;
  });
}

/** Drops a tab and releases its claim, in one update (no reader sees the claim without the entry). */
export async function forgetTab(alias: string): Promise<void> {
  await updateRegistry((data) => {
    delete data.tabs[alias];
    releaseClaim(alias);
  });
}

/** Drops every tab `match` picks (the tabs of a browser that is gone) and releases their claims; their aliases. */
export function forgetTabs(match: (entry: TabEntry) => boolean): Promise<string[]> {
  return updateRegistry((data) => {
    const gone = Object.keys(data.tabs).filter((alias) => match(data.tabs[alias]!));
    for (const alias of gone) {
      delete data.tabs[alias];
      releaseClaim(alias);
    }
    return gone;
  });
}

export function patchTab(alias: string, patch: Partial<TabEntry>): Promise<void> {
  return updateRegistry((data) => {
    const entry = entryOf(data, alias);
    if (!entry) return;
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete (entry as unknown as Record<string, unknown>)[key];
      else (entry as unknown as Record<string, unknown>)[key] = value;
    }
  });
}

/** Drops entries of one browser whose targets no longer exist. */
export async function pruneTabs(
  host: string,
  port: number,
  liveTargetIds: Set<string>,
  wsEndpoint?: string,
): Promise<string[]> {
  const dead = (data: RegistryData): string[] =>
    Object.entries(data.tabs)
      .filter(([, e]) => {
        const sameBrowser = wsEndpoint
          ? e.wsEndpoint === wsEndpoint
          : !e.wsEndpoint && e.host === host && e.port === port;
        return sameBrowser && !liveTargetIds.has(e.targetId);
      })
      .map(([alias]) => alias);
  // Mostly nothing is dead: then a read is enough, without the lock and the write.
  if (!dead(await loadRegistry()).length) return [];
  return updateRegistry((data) => {
    const dropped = dead(data);
    for (const alias of dropped) {
      delete data.tabs[alias];
      releaseClaim(alias);
    }
    return dropped;
  });
}
