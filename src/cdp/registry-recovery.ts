// Rebuilding a torn or corrupt tab registry: the alias claims (alias-claims.ts) and what can be
// read of the damaged text say which alias each tab had; the browsers cdp-skill knows of are asked
// for their tabs (`/json/list`), and every live page gets its alias back, or a new one never handed out.

import { readdirSync } from 'node:fs';
import { httpJson, type TargetListEntry } from './discovery.js';
import type { RegistryData, TabEntry } from './tab-registry.js';
import { claimAlias, claimedHighWater, readClaims, restoreClaim } from './alias-claims.js';

/** One browser's tab list may take this long; refused ports answer at once. */
const LIST_TIMEOUT_MS = 1_500;

const ENTRY =
  /"(t\d+)"\s*:\s*\{\s*"targetId"\s*:\s*"([^"\\]+)"\s*,\s*"host"\s*:\s*"([^"\\]*)"\s*,\s*"port"\s*:\s*(\d+)(?:\s*,\s*"wsEndpoint"\s*:\s*"([^"\\]+)")?/g;

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
  } catch {
    /* no state dir listing: the registry text alone sets the floor */
  }
  return highest;
}

/** Local ports of Chromes cdp-skill launched (their profiles are `chrome-profile-<port>`). */
function launchedPorts(dir: string): number[] {
  try {
    return readdirSync(dir)
      .map((n) => /^chrome-profile-(\d+)/.exec(n)?.[1])
      .filter((p) => p !== undefined)
      .map(Number);
  } catch {
    return []; // no state dir listing: only the salvaged entries name browsers
  }
}

type Browser = { host: string; port: number };
type Listed = Browser & { targets: TargetListEntry[] | undefined };

/** The browsers to ask for their tabs: those named by salvaged entries, claims and launched profiles. */
function knownBrowsers(entries: TabEntry[], dir: string): Browser[] {
  const browsers = new Map<string, Browser>();
  for (const e of entries) if (!e.wsEndpoint) browsers.set(`${e.host}:${e.port}`, { host: e.host, port: e.port });
  for (const port of launchedPorts(dir)) browsers.set(`127.0.0.1:${port}`, { host: '127.0.0.1', port });
  return [...browsers.values()];
}

function listTabs(b: Browser): Promise<Listed> {
  return httpJson<TargetListEntry[]>(b.host, b.port, '/json/list', LIST_TIMEOUT_MS).then(
    (targets) => ({ ...b, targets: targets.filter((t) => t.type === 'page') }),
    () => ({ ...b, targets: undefined }), // not running: its entries are kept as they were
  );
}

/**
 * A new registry from a damaged one's text. Each live page of the known browsers gets the alias
 * it was claimed under (alias-claims.ts), else the one the damaged text still names, else a new
 * one above any number seen before; entries of browsers that cannot be asked are kept.
 */
export async function rebuildRegistry(text: string, dir: string): Promise<RegistryData> {
  const { data: salvaged, highestSeen } = salvageRegistry(text);
  const claims = readClaims(dir);
  // Claims were written by us alone, at the time the alias was handed out: they win over the text.
  const known = new Map<string, TabEntry>([...Object.entries(salvaged.tabs), ...claims]);
  const floor = Math.max(highestSeen, highestArtifactAlias(dir), claimedHighWater(dir)) + 1;
  const data: RegistryData = { nextId: floor, tabs: {}, browsers: {} };
  const entries = [...known.entries()];
  const listed = await Promise.all(knownBrowsers([...known.values()], dir).map(listTabs));
  for (const b of listed) {
    const sameBrowser = ([, e]: [string, TabEntry]): boolean => !e.wsEndpoint && e.host === b.host && e.port === b.port;
    if (!b.targets) {
      for (const [alias, e] of entries.filter(sameBrowser)) data.tabs[alias] = e;
      continue;
    }
    for (const t of b.targets) {
      const entry: TabEntry = { targetId: t.id, host: b.host, port: b.port };
      const alias =
        entries.find((kv) => sameBrowser(kv) && kv[1].targetId === t.id)?.[0] ?? claimAlias(entry, data.nextId, dir);
      restoreClaim(alias, entry, dir);
      data.tabs[alias] = entry;
      data.nextId = Math.max(data.nextId, Number(alias.slice(1)) + 1);
    }
  }
  // Remote browsers reached by WebSocket endpoint have no /json/list to ask: keep what was read.
  for (const [alias, e] of entries) if (e.wsEndpoint) data.tabs[alias] = e;
  return data;
}
