// Rebuilding a torn or corrupt tab registry: the alias claims (alias-claims.ts) say which alias
// each tab was handed out under, and what can be read of the damaged text adds entries no claim
// names (a registry from before claims). Nothing is asked of the browsers and no alias is made up:
// a tab nobody was handed an alias for stays without one (listTabs shows it by target id), and
// the rebuild runs start to end under the registry lock with nothing to wait for.

import { readdirSync } from 'node:fs';
import type { RegistryData, TabEntry } from './tab-registry.js';
import { claimedHighWater, readClaims, restoreClaim } from './alias-claims.js';

const ENTRY =
  /"(t\d+)"\s*:\s*\{\s*"targetId"\s*:\s*"([^"\\]+)"\s*,\s*"host"\s*:\s*"([^"\\]*)"\s*,\s*"port"\s*:\s*(\d+)(?:\s*,\s*"wsEndpoint"\s*:\s*"([^"\\]+)")?(\s*,\s*"own"\s*:\s*true)?/g;

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
    if (m[6]) entry.own = true;
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

/** The browser a tab belongs to and its target: one tab, whatever alias a text gives it. */
const tabKey = (e: TabEntry): string => `${e.wsEndpoint ?? `${e.host}:${e.port}`} ${e.targetId}`;

/**
 * A new registry from a damaged one's text: every claimed alias names its tab again (claims were
 * written by us alone, when the alias was handed out, so they win over the text); an entry the
 * text still holds is kept when no claim contradicts it, and claimed from now on. The counter
 * starts above any alias number seen anywhere. Tabs that have closed meanwhile are dropped later,
 * as always (listTabs prunes them; a command on one answers that it no longer exists).
 */
export function rebuildRegistry(text: string, dir: string): RegistryData {
  const { data: salvaged, highestSeen } = salvageRegistry(text);
  const claims = readClaims(dir);
  const floor = Math.max(highestSeen, highestArtifactAlias(dir), claimedHighWater(dir)) + 1;
  const data: RegistryData = { nextId: floor, tabs: {}, browsers: {} };
  const claimed = new Set([...claims.values()].map(tabKey));
  for (const [alias, entry] of Object.entries(salvaged.tabs)) {
    if (claims.has(alias) || claimed.has(tabKey(entry))) continue;
    restoreClaim(alias, entry, dir);
    data.tabs[alias] = entry;
  }
  for (const [alias, claim] of claims) data.tabs[alias] = { ...claim };
  return data;
}
