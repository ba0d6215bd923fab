// The failed requests a command's answer lists (SPEC §17.4, issue 21): each with the start of its
// response body, so "why does Save fail?" is answered by the click itself. Bodies are read before
// the session ends; a command where nothing failed waits for nothing.

import type { Deadline } from '../common/index.js';
import { showBody } from './network-body.js';
import { hasFailed, type RequestLog, type RequestRecord } from './network-record.js';
import { markUrlSecrets, redactHeaders } from './network-redact.js';

export interface FailedRequest {
  method: string;
  url: string;
  status?: number;
  error?: string;
  type: string;
  /** The first ~300 characters of the response body (HTML as its text), secrets hidden. */
  body?: string;
  bodyNote?: string;
  /** A route answered it: the failure is the mock's. */
  routed?: string;
  /** Made while no call ran; its failure came during this call. */
  betweenCommands?: true;
}

/** Requests shown per answer: an agent otherwise never sees a failing API call. */
const MAX_SHOWN = 10;
const BODY_CHARS = 300;
const MAX_URL = 150;
/** How long a failed request still loading its body may hold the answer (then what arrived is shown). */
const BODY_WAIT_MS = 500;

/** Marks the credentials a request carried (headers, URL query) secret, so its body or URL never shows them. */
export function markRequestSecrets(r: RequestRecord): void {
  redactHeaders(r.requestHeaders);
  redactHeaders(r.responseHeaders);
  markUrlSecrets(r.url);
}

async function entry(log: RequestLog, r: RequestRecord, deadline: Deadline): Promise<FailedRequest> {
  markRequestSecrets(r);
  const read =
    r.status !== undefined
      ? await deadline.race(log.bodyOf(r), 'a failed response body').catch(() => undefined)
      : undefined;
  const shown = showBody(read, r.mimeType, BODY_CHARS, true);
  // In this short list, a missing body needs no word; a partial one does.
  const note = shown.bodyNote && !/^body none/.test(shown.bodyNote) ? shown.bodyNote : undefined;
  return {
    method: r.method,
    url: r.url.length > MAX_URL ? `${r.url.slice(0, MAX_URL - 1)}…` : r.url,
    ...(r.status !== undefined ? { status: r.status } : { error: r.error }),
    type: r.type,
    ...(shown.body ? { body: shown.body } : {}),
    ...(note ? { bodyNote: note } : {}),
    ...(r.routed ? { routed: r.routed } : {}),
    ...(r.between && !r.told ? { betweenCommands: true as const } : {}),
  };
}

/** The command's failed requests (or those of `among`), the first MAX_SHOWN with their bodies; `more` counts the rest. */
export async function failedRequests(
  log: RequestLog,
  deadline: Deadline,
  among?: readonly RequestRecord[],
): Promise<{ failed: FailedRequest[]; more?: number } | undefined> {
  const all = among ? among.filter(hasFailed) : log.failed();
  if (!all.length) return undefined;
  const shown = all.slice(0, MAX_SHOWN);
  const loading = shown.filter((r) => r.status !== undefined && !r.done);
  if (loading.length) await log.whenDone(loading, deadline.cap(BODY_WAIT_MS));
  const failed = await Promise.all(shown.map((r) => entry(log, r, deadline)));
  return { failed, ...(all.length > shown.length ? { more: all.length - shown.length } : {}) };
}
