// The tab registry: alias → how to reach the tab, plus per-tab state a CDP session forgets
// (viewport emulation, ref counters). One JSON file in the private state dir, written atomically
// (temp file + rename) under a lock, so several agents can open tabs at once; a torn or corrupt
// file is moved aside and rebuilt (registry-recovery.ts).

import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir, REGISTRY_LOCK_TIMEOUT_MS } from '../common/index.js';
import { withLock } from './lock.js';
import { rebuildRegistry, salvageRegistry } from './registry-recovery.js';

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

export interface TabEntry {
  targetId: string;
  host: string;
  port: number;
  /** Browser WebSocket endpoint given by the agent (remote browser farms); host/port are then informational. */
  wsEndpoint?: string;
  /** A tab of our own auto-launched Chrome (no port named): reached only once it proves its id (own-browser.ts). */
  own?: boolean;
  viewport?: ViewportMetrics;
  /** Emulated position, re-applied on attach until {"geolocation": false}. */
  geolocation?: GeolocationSetting;
  /** Snapshot and element counters, continued across documents so refs are never recycled. */
  counters?: { snapshot: number; element: number };
  /** Content hashes of recent agent snapshots by id, for snapshot {since}. */
  snapshotHashes?: Record<string, string>;
  /** The frame steps run in (SPEC §13.2, §19.12), until {"frame": "top"} or a new top document. */
  frame?: { frameId: string; url: string };
}

export interface RegistryData {
  nextId: number;
  tabs: Record<string, TabEntry>;
  /** Cached browser WebSocket URLs by `host:port`, so a call needs no HTTP discovery. */
  browsers: Record<string, string>;
  /** Our own auto-launched Chrome: its WebSocket URL (with the browser id) and the context id it must present. */
  own?: OwnBrowserRecord;
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

function isEntry(v: unknown): v is TabEntry {
  const e = v as TabEntry;
  return typeof e === 'object' && e !== null && typeof e.targetId === 'string'
    && typeof e.host === 'string' && typeof e.port === 'number';
}

/** The registry in `text`, or undefined when the text is torn or not a registry at all. */
function parseRegistry(text: string): RegistryData | undefined {
  let raw: Partial<RegistryData>;
  try {
    raw = JSON.parse(text) as Partial<RegistryData>;
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof raw.tabs !== 'object' || raw.tabs === null) return undefined;
  const data = empty();
  if (Number.isInteger(raw.nextId) && (raw.nextId as number) > 0) data.nextId = raw.nextId as number;
  for (const [alias, entry] of Object.entries(raw.tabs)) {
    if (isEntry(entry)) data.tabs[alias] = entry;
    else if (typeof entry === 'string') data.tabs[alias] = { targetId: entry, host: '127.0.0.1', port: 9222 };
  }
  if (typeof raw.browsers === 'object' && raw.browsers !== null) {
    for (const [key, url] of Object.entries(raw.browsers)) if (typeof url === 'string') data.browsers[key] = url;
  }
  const own = raw.own as Partial<OwnBrowserRecord> | undefined;
  if (typeof own?.wsUrl === 'string' && typeof own.browserContextId === 'string') data.own = { wsUrl: own.wsUrl, browserContextId: own.browserContextId };
  for (const alias of Object.keys(data.tabs)) {
    const n = Number(alias.slice(1));
    if (alias.startsWith('t') && n >= data.nextId) data.nextId = n + 1;
  }
  return data;
}

type FileState = { data: RegistryData } | { corrupt: string };

function readFile(): FileState {
  let text: string;
  try {
    text = readFileSync(registryPath(), 'utf8');
  } catch {
    return { data: empty() }; // no registry yet
  }
  const data = parseRegistry(text);
  return data ? { data } : { corrupt: text };
}

/**
 * Reads the registry without waiting on anything. A torn or corrupt file gives what can be
 * salvaged from it; loadRegistry() and every update repair it on disk.
 */
export function readRegistry(): RegistryData {
  const state = readFile();
  return 'data' in state ? state.data : salvageRegistry(state.corrupt).data;
}

/** Moves a damaged registry aside (tabs.json.corrupt-<ts>) and rebuilds it from the browsers. */
async function recover(text: string): Promise<RegistryData> {
  const path = registryPath();
  try {
    renameSync(path, `${path}.corrupt-${Date.now()}`);
  } catch { /* gone already: the rebuilt registry is written below either way */ }
  const data = await rebuildRegistry(text, stateDir());
  writeRegistry(data);
  return data;
}

/** Reads the registry, first repairing a torn or corrupt file (never a crash). */
export async function loadRegistry(): Promise<RegistryData> {
  const state = readFile();
  if ('data' in state) return state.data;
  return withLock(`${registryPath()}.lock`, REGISTRY_LOCK_TIMEOUT_MS, 'The tab registry', () => {
    const again = readFile(); // another process may have repaired it while we waited
    return 'data' in again ? again.data : recover(again.corrupt);
  });
}

/** Written to a temp file and renamed over the registry: a reader sees the old or the new file, never half. */
function writeRegistry(data: RegistryData): void {
  const path = registryPath();
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
  renameSync(tmp, path);
}

/** Read-modify-write under the registry lock. */
export function updateRegistry<T>(change: (data: RegistryData) => T): Promise<T> {
  return withLock(`${registryPath()}.lock`, REGISTRY_LOCK_TIMEOUT_MS, 'The tab registry', async () => {
    const state = readFile();
    const data = 'data' in state ? state.data : await recover(state.corrupt);
    const result = change(data);
    writeRegistry(data);
    return result;
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
    const alias = `t${data.nextId++}`;
    data.tabs[alias] = entry;
    return alias;
  });
}

export function forgetTab(alias: string): Promise<void> {
  return updateRegistry((data) => { delete data.tabs[alias]; });
}

export function patchTab(alias: string, patch: Partial<TabEntry>): Promise<void> {
  return updateRegistry((data) => {
    const entry = data.tabs[alias];
    if (!entry) return;
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete (entry as unknown as Record<string, unknown>)[key];
      else (entry as unknown as Record<string, unknown>)[key] = value;
    }
  });
}

/** Drops entries of one browser whose targets no longer exist. */
export async function pruneTabs(host: string, port: number, liveTargetIds: Set<string>, wsEndpoint?: string): Promise<string[]> {
  const dead = (data: RegistryData): string[] => Object.entries(data.tabs).filter(([, e]) => {
    const sameBrowser = wsEndpoint ? e.wsEndpoint === wsEndpoint : !e.wsEndpoint && e.host === host && e.port === port;
    return sameBrowser && !liveTargetIds.has(e.targetId);
  }).map(([alias]) => alias);
  // Mostly nothing is dead: then a read is enough, without the lock and the write.
  if (!dead(await loadRegistry()).length) return [];
  return updateRegistry((data) => {
    const dropped = dead(data);
    for (const alias of dropped) delete data.tabs[alias];
    return dropped;
  });
}
