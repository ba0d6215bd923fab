// Rebuilding a torn or corrupt tab registry: what can be read of the damaged text is kept (aliases
// of targets, the alias counter), the browsers cdp-skill knows of are asked for their tabs
// (`/json/list`), and every live page gets an alias again, never one already handed out.

import { readdirSync } from 'node:fs';
import { httpJson, type TargetListEntry } from './discovery.js';
import type { RegistryData, TabEntry } from './tab-registry.js';

/** One browser's tab list may take this long; refused ports answer at once. */
const LIST_TIMEOUT_MS = 1_500;

const ENTRY = /"(t\d+)"\s*:\s*\{\s*"targetId"\s*:\s*"([^"\\]+)"\s*,\s*"host"\s*:\s*"([^"\\]*)"\s*,\s*"port"\s*:\s*(\d+)(?:\s*,\s*"wsEndpoint"\s*:\s*"([^"\\]+)")?/g;

/** Whatever a damaged registry text still says: complete entries and the highest alias number. */
export function salvageRegistry(text: string): { data: RegistryData; highestSeen: number } {
  const data: RegistryData = { nextId: 1, tabs: {}, browsers: {} };
  let highestSeen = 0;
  for (const m of text.matchAll(/"t(\d+)"/g)) highestSeen = Math.max(highestSeen, Number(m[1]));
  const next = /"nextId"\s*:\s*(\d+)/.exec(text);
  if (next) highestSeen = Math.max(highestSeen, Number(next[1]) - 1);
  for (const m of text.matchAll(ENTRY)) {
    const entry: TabEntry = { targetId: m[2]!, host: m[3]!, port: Number(m[4]) };
    if (m[5]) entry.wsEndpoint = m[5];
    data.tabs[m[1]!] = entry;
  }
  data.nextId = highestSeen + 1;
  return { data, highestSeen };
}

/** Aliases still named by files in the state dir (`t7.after.png`): those numbers are taken too. */
function highestArtifactAlias(dir: string): number {
  let highest = 0;
  try {
    for (const name of readdirSync(dir)) {
      const m = /^t(\d+)\./.exec(name);
      if (m) highest = Math.max(highest, Number(m[1]));
    }
  } catch { /* no state dir listing: the registry text alone sets the floor */ }
  return highest;
}

/** Local ports of Chromes cdp-skill launched (their profiles are `chrome-profile-<port>`). */
function launchedPorts(dir: string): number[] {
  try {
    return readdirSync(dir).map((n) => /^chrome-profile-(\d+)/.exec(n)?.[1]).filter((p) => p !== undefined).map(Number);
  } catch {
    return []; // no state dir listing: only the salvaged entries name browsers
  }
}

/**
 * A new registry from a damaged one's text: salvaged entries whose targets still exist keep their
 * alias; other live pages of the known browsers get new aliases above any number seen before.
 */
export async function rebuildRegistry(text: string, stateDir: string): Promise<RegistryData> {
  const { data: salvaged, highestSeen } = salvageRegistry(text);
  const data: RegistryData = { nextId: Math.max(highestSeen, highestArtifactAlias(stateDir)) + 1, tabs: {}, browsers: {} };
  const browsers = new Map<string, { host: string; port: number }>();
  for (const e of Object.values(salvaged.tabs)) if (!e.wsEndpoint) browsers.set(`${e.host}:${e.port}`, { host: e.host, port: e.port });
  for (const port of launchedPorts(stateDir)) browsers.set(`127.0.0.1:${port}`, { host: '127.0.0.1', port });
  const listed = await Promise.all([...browsers.values()].map(async (b) => {
    try {
      const targets = await httpJson<TargetListEntry[]>(b.host, b.port, '/json/list', LIST_TIMEOUT_MS);
      return { ...b, targets: targets.filter((t) => t.type === 'page') };
    } catch {
      return { ...b, targets: undefined }; // not running: its salvaged entries are kept as they were
    }
  }));
  const salvagedEntries = Object.entries(salvaged.tabs);
  for (const b of listed) {
    const sameBrowser = ([, e]: [string, TabEntry]): boolean => !e.wsEndpoint && e.host === b.host && e.port === b.port;
    if (!b.targets) {
      for (const [alias, e] of salvagedEntries.filter(sameBrowser)) data.tabs[alias] = e;
      continue;
    }
    for (const t of b.targets) {
      const known = salvagedEntries.find((kv) => sameBrowser(kv) && kv[1].targetId === t.id);
      data.tabs[known?.[0] ?? `t${data.nextId++}`] = { targetId: t.id, host: b.host, port: b.port };
    }
  }
  // Remote browsers reached by WebSocket endpoint have no /json/list to ask: keep what was read.
  for (const [alias, e] of salvagedEntries) if (e.wsEndpoint) data.tabs[alias] = e;
  return data;
}
