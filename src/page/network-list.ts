// The tab's requests for the `network` step, newest first: the command's own from Chrome's Network
// domain (method, id, full detail), and those made before it — while no command ran — from what the
// page keeps: its resource timing (injected/request-log.ts; status, type, size, duration, but no
// method, headers or bodies) and Chrome's log of failed loads (the reason of a network error).

import type { Deadline } from '../common/index.js';
import type { TimedRequest } from '../injected/index.js';
import type { CdpSession } from '../cdp/index.js';
import { requestMatcher, typeOfInitiator, type RequestFilter } from './network-match.js';
import { isBrowserChrome, type RequestRecord } from './network-record.js';
import { markUrlSecrets } from './network-redact.js';
import type { Page } from './tab.js';

/** One request as the list shows it; `id` and `method` only for the command's own requests. */
export interface ListedRequest {
  id?: string;
  method?: string;
  url: string;
  status?: number;
  error?: string;
  type?: string;
  bytes?: number;
  ms?: number;
  /** How long ago it started. */
  agoMs: number;
  pending?: true;
  routed?: string;
  /** Made while no call ran (a kept page of the MCP server): full detail, as the call's own. */
  betweenCommands?: true;
}

const MAX_URL = 300;
/** A page's timing and a CDP record of one request start within this much of each other. */
const SAME_REQUEST_MS = 1_000;
/** Chrome logs a failed load when it ends: within this much after the timing's end. */
const LOG_MATCH_MS = 3_000;

const capUrl = (url: string): string => (url.length > MAX_URL ? `${url.slice(0, MAX_URL - 1)}…` : url);

function fromRecord(r: RequestRecord, now: number): ListedRequest {
  return {
    id: r.id,
    method: r.method,
    url: r.url,
    ...(r.status !== undefined ? { status: r.status } : r.error ? { error: r.error } : {}),
    type: r.type,
    ...(r.bytes !== undefined ? { bytes: r.bytes } : {}),
    ...(r.endTs !== undefined ? { ms: Math.round((r.endTs - r.startTs) * 1000) } : {}),
    agoMs: Math.max(0, now - r.startedMs),
    ...(r.done ? {} : { pending: true as const }),
    ...(r.routed ? { routed: r.routed } : {}),
    ...(r.between ? { betweenCommands: true as const } : {}),
  };
}

interface LoggedFailure {
  url: string;
  text: string;
  timestamp: number;
  requestId?: string;
}

/** Chrome's log of failed loads (replayed to a session that enables it), network entries only. */
async function loggedFailures(session: CdpSession, deadline: Deadline): Promise<LoggedFailure[]> {
  const seen: LoggedFailure[] = [];
  const off = session.on('Log.entryAdded', ({ entry: e }) => {
    if (e.source === 'network' && e.url)
      seen.push({ url: e.url, text: e.text, timestamp: e.timestamp, requestId: e.networkRequestId });
  });
  try {
    await deadline.race(session.send('Log.enable'), "Chrome's log of failed loads");
  } catch {
    return seen; // the reasons are a detail: the list stands without them
  } finally {
    off();
    session.send('Log.disable').catch(() => {
      /* the session is going; nothing to turn off */
    });
  }
  return seen;
}

/** "Failed to load resource: net::ERR_…" / "…status of 422 (…)" as a reason or a status. */
function reasonOf(text: string): { error?: string; status?: number } {
  const status = /status of (\d{3})/.exec(text)?.[1];
  if (status) return { status: Number(status) };
  return {
    error: /net::ERR_[A-Z_]+/.exec(text)?.[0] ?? text.replace(/^Failed to load resource:\s*/, '').slice(0, 100),
  };
}

/** The failure Chrome logged for a timed request that has no status, taken from `log` so it is used once. */
function takeLogged(t: TimedRequest, log: LoggedFailure[]): LoggedFailure | undefined {
  const end = t.startMs + t.durationMs;
  let best = -1;
  log.forEach((l, i) => {
    if (l.url !== t.url || l.timestamp < t.startMs - 50 || l.timestamp > end + LOG_MATCH_MS) return;
    if (best < 0 || Math.abs(l.timestamp - end) < Math.abs(log[best]!.timestamp - end)) best = i;
  });
  return best < 0 ? undefined : log.splice(best, 1)[0];
}

function fromTiming(t: TimedRequest, log: LoggedFailure[], now: number): ListedRequest {
  const logged = t.status ? undefined : takeLogged(t, log);
  return {
    url: t.url,
    ...(t.status ? { status: t.status } : logged ? reasonOf(logged.text) : {}),
    type: typeOfInitiator(t.initiator, t.url),
    ...(t.bytes ? { bytes: t.bytes } : {}),
    ms: t.durationMs,
    agoMs: Math.max(0, now - t.startMs),
  };
}

/** Requests the page's timing has that the command's records do not (made before it, or unseen). */
function earlierOnly(timed: TimedRequest[], records: readonly RequestRecord[]): TimedRequest[] {
  const unmatched = [...records];
  return timed.filter((t) => {
    const i = unmatched.findIndex((r) => r.url === t.url && Math.abs(r.startedMs - t.startMs) < SAME_REQUEST_MS);
    if (i < 0) return true;
    unmatched.splice(i, 1);
    return false;
  });
}

export interface RequestList {
  requests: ListedRequest[];
  more?: number;
  /** Said when requests from before the command are listed. */
  note?: string;
}

/** The tab's requests matching `filter`, newest first, at most `limit`. */
export async function listRequests(
  page: Page,
  filter: RequestFilter,
  limit: number,
  deadline: Deadline,
): Promise<RequestList> {
  const now = Date.now();
  const records = page.requests.all.filter((r) => !isBrowserChrome(r.url));
  const timing = await page
    .scopeAt(undefined, deadline)
    .call((rt) => rt.requestLog.readRequests(), null, { what: "the page's resource timing" })
    .catch(() => undefined); // a page that cannot answer: the command's own requests are still known
  const earlier = timing ? earlierOnly(timing.requests, records) : [];
  const log = earlier.some((t) => !t.status) ? await loggedFailures(page.session, deadline.cap(2_000)) : [];
  const known = new Set(records.map((r) => r.requestId));
  const unseen = log.filter((l) => !l.requestId || !known.has(l.requestId));
  const all = [...records.map((r) => fromRecord(r, now)), ...earlier.map((t) => fromTiming(t, unseen, now))]
    .filter(requestMatcher(filter))
    .sort((a, b) => a.agoMs - b.agoMs);
  const shown = all.slice(0, limit).map((r) => ({ ...r, url: capUrl(r.url) }));
  for (const r of shown) markUrlSecrets(r.url);
  const notes = [
    ...(shown.some((r) => !r.id) ? [NOTE_EARLIER] : []),
    ...(timing?.bufferFull ? [NOTE_FULL] : []),
    ...(timing ? [] : ["the page did not answer: only this command's requests are listed"]),
  ];
  return {
    requests: shown,
    ...(all.length > shown.length ? { more: all.length - shown.length } : {}),
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

const NOTE_EARLIER =
  "entries without id were made before this command: from the page's resource timing (top document), without method, headers or bodies";
const NOTE_FULL = "the page's timing buffer was full (250): its later requests before this command are missing";
