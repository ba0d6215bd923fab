// Aliases kept where a damaged tabs.json cannot reach them: each alias handed out is claimed by a
// file of its own (`aliases/t7.json`, created exclusively, naming the tab's target and browser),
// and the highest number ever handed out is kept in `aliases/high-water`. A rebuilt registry gives
// each live tab its claimed alias back, and no alias is handed out twice while either survives.
//
// Why files and not the tab itself: Chrome keeps no per-target field we could set (createTarget
// takes no name), and anything in the page (window.name, a global) is the page's to change — a
// hostile page could claim another agent's alias. The private state dir (0700) is ours alone.

import { mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from '../common/index.js';
import { createWhole } from './lock.js';
import type { GridSession } from './tab-registry.js';

export interface ClaimedTab {
  targetId: string;
  host: string;
  port: number;
  wsEndpoint?: string;
  /** A tab of our own Chrome: reached only once that browser proves its id (own-browser.ts). */
  own?: boolean;
  /** The Grid session holding it, so a rebuilt registry still deletes the session with its last tab. */
  grid?: GridSession;
  keep?: 'reconnect';
  /** The named profile whose Chrome it is in. */
  profile?: string;
}

/** What an alias looks like: t1, t2, … (anything else — "__proto__", "constructor" — is no alias). */
export const ALIAS_FORM = /^t[1-9]\d{0,8}$/;
/** What a target id looks like: Chrome's are 32 hex digits (other CDP servers: hex with dashes). */
export const TARGET_ID_FORM = /^[0-9A-Fa-f-]{16,64}$/;

const claimsDir = (dir: string): string => join(dir, 'aliases');
const highWaterPath = (dir: string): string => join(claimsDir(dir), 'high-water');
const claimPath = (dir: string, alias: string): string => join(claimsDir(dir), `${alias}.json`);

function isClaim(v: unknown): v is ClaimedTab {
  const c = v as ClaimedTab;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.targetId === 'string' &&
    c.targetId.length > 0 &&
    typeof c.host === 'string' &&
    Number.isInteger(c.port) &&
    (c.wsEndpoint === undefined || typeof c.wsEndpoint === 'string') &&
    (c.own === undefined || typeof c.own === 'boolean') &&
    (c.grid === undefined || (typeof c.grid === 'object' && c.grid !== null && typeof c.grid.sessionId === 'string')) &&
    (c.keep === undefined || c.keep === 'reconnect') &&
    (c.profile === undefined || typeof c.profile === 'string')
  );
}

/** The tab an alias was handed out for, when its claim file is intact. */
export function readClaim(alias: string, dir = stateDir()): ClaimedTab | undefined {
  if (!ALIAS_FORM.test(alias)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(claimPath(dir, alias), 'utf8'));
    return isClaim(parsed) ? parsed : undefined;
  } catch {
    return undefined; // never claimed, released, or torn: no tab to name
  }
}

/** Every intact claim: alias → tab. */
export function readClaims(dir = stateDir()): Map<string, ClaimedTab> {
  const claims = new Map<string, ClaimedTab>();
  let names: string[];
  try {
    names = readdirSync(claimsDir(dir));
  } catch {
    return claims; // no claims yet
  }
  for (const name of names) {
    const alias = name.replace(/\.json$/, '');
    const claim = name.endsWith('.json') ? readClaim(alias, dir) : undefined;
    if (claim) claims.set(alias, claim);
  }
  return claims;
}

/** The high-water mark alone (one small read, cheap enough for every registry read). */
export function highWaterMark(dir = stateDir()): number {
  const n = Number(safeRead(highWaterPath(dir)).trim());
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The highest alias number handed out, as far as the claims say (high-water file and claim names). */
export function claimedHighWater(dir = stateDir()): number {
  let highest = Number(safeRead(highWaterPath(dir)).trim());
  if (!Number.isInteger(highest) || highest < 0) highest = 0;
  let names: string[] = [];
  try {
    names = readdirSync(claimsDir(dir));
  } catch {
    /* no claims yet: the high-water file alone */
  }
  for (const n of names) {
    const m = /^t(\d+)\.json$/.exec(n);
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  return highest;
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // missing or unreadable: counts as 0, other sources set the floor
  }
}

/**
 * Claims the first free alias numbered `floor` or above for `tab`: raises the high-water mark
 * first, then creates the claim file exclusively and whole (a number someone holds is skipped).
 * Runs under the registry lock; a full disk fails here, before any alias is handed out.
 */
export function claimAlias(tab: ClaimedTab, floor: number, dir = stateDir()): string {
  mkdirSync(claimsDir(dir), { recursive: true, mode: 0o700 });
  for (let n = Math.max(floor, claimedHighWater(dir) + 1); ; n++) {
    writeAtomically(highWaterPath(dir), String(n));
    if (createWhole(claimPath(dir, `t${n}`), JSON.stringify(tab))) return `t${n}`;
  }
}

/** Claims a specific alias for a tab (restoring one salvaged from a damaged registry). */
export function restoreClaim(alias: string, tab: ClaimedTab, dir = stateDir()): void {
  if (!ALIAS_FORM.test(alias) || readClaim(alias, dir)) return;
  mkdirSync(claimsDir(dir), { recursive: true, mode: 0o700 });
  const n = Number(alias.slice(1));
  if (n > claimedHighWater(dir)) writeAtomically(highWaterPath(dir), String(n));
  writeAtomically(claimPath(dir, alias), JSON.stringify(tab));
}

/** Drops a closed tab's claim; the high-water mark keeps its number from being handed out again. */
export function releaseClaim(alias: string, dir = stateDir()): void {
  if (!ALIAS_FORM.test(alias)) return;
  try {
    unlinkSync(claimPath(dir, alias));
  } catch {
    /* never claimed (a registry from before claims) or already released */
  }
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw err;
  }
}
