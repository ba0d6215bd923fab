// One request of the command in detail (`network {url | id, body: true}`): its request and response
// headers, credentials hidden, and with `body` both bodies (text capped, binary described). Only
// the command's own requests have this: Chrome keeps headers and bodies for the session that saw them.

import { RequestNotFoundError, type Deadline } from '../common/index.js';
import { readRequestBody, showBody, type ShownBody } from './network-body.js';
import { urlMatcher } from './network-match.js';
import { isBrowserChrome, type RequestRecord } from './network-record.js';
import { markUrlSecrets, redactHeaders } from './network-redact.js';
import type { Page } from './tab.js';

/** Characters of a body the detail shows. */
const DETAIL_BODY_CHARS = 10_000;
/** Headers every request of the browser carries, which say nothing about the app: left out of the detail (the HAR keeps them). */
const BOILERPLATE =
  /^(user-agent|sec-ch-ua(-.*)?|sec-fetch-.*|accept-encoding|accept-language|connection|keep-alive|date)$/i;

function appHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !BOILERPLATE.test(name)));
}

/** How long `body: true` waits for the request to finish. */
const DETAIL_WAIT_MS = 5_000;

export interface RequestDetail {
  id: string;
  method: string;
  url: string;
  status?: number;
  statusText?: string;
  error?: string;
  type: string;
  ms?: number;
  bytes?: number;
  routed?: string;
  redirectedTo?: string;
  request: { headers: Record<string, string> } & ShownBody;
  response?: { mimeType?: string; headers: Record<string, string> } & ShownBody;
  /** Other requests of the command the `url` also matches (ask by `id` for one of them). */
  alsoMatching?: number;
}

/** The request `id` names, or the newest of the command's whose URL `url` matches. */
function pick(
  records: readonly RequestRecord[],
  by: { id?: string; url?: string },
): { r?: RequestRecord; others: number } {
  if (by.id !== undefined) return { r: records.find((x) => x.id === by.id), others: 0 };
  const match = urlMatcher(by.url ?? '');
  const found = records.filter((x) => match(x.url) && !isBrowserChrome(x.url));
  return { r: found.at(-1), others: Math.max(0, found.length - 1) };
}

function notFound(by: { id?: string; url?: string }, total: number): RequestNotFoundError {
  const what = by.id !== undefined ? `id "${by.id}"` : `url "${by.url}"`;
  return new RequestNotFoundError(
    `No request of this command matches ${what} (it saw ${total}). Headers and bodies exist only for requests made ` +
      'during the same command (Chrome keeps them for the connection that saw them): run the step that makes the ' +
      'request and this one together, e.g. [{"click": "Save"}, {"network": {"url": "/api/…", "body": true}}]. ' +
      '{"network": true} lists earlier requests too.',
    { category: 'request-not-found' },
  );
}

/** The detail of one request of the command; with `body`, its bodies (waiting for it to finish, within the deadline). */
export async function requestDetail(
  page: Page,
  by: { id?: string; url?: string },
  body: boolean,
  deadline: Deadline,
): Promise<RequestDetail> {
  const log = page.requests;
  const { r, others } = pick(log.all, by);
  if (!r) throw notFound(by, log.all.length);
  // A response the page never reads to its end never finishes: a few seconds, then what arrived.
  if (body) await log.whenDone([r], deadline.cap(DETAIL_WAIT_MS));
  await log.whenHeaders([r], deadline.cap(DETAIL_WAIT_MS));
  const requestHeaders = appHeaders(redactHeaders(r.requestHeaders));
  const responseHeaders = r.responseHeaders ? appHeaders(redactHeaders(r.responseHeaders)) : undefined;
  markUrlSecrets(r.url);
  const reqBody = body ? readRequestBody(await log.postDataOf(r)) : undefined;
  const resBody = body && r.status !== undefined ? await log.bodyOf(r) : undefined;
  const contentType = r.requestHeaders['content-type'];
  return {
    id: r.id,
    method: r.method,
    url: r.url,
    ...(r.status !== undefined ? { status: r.status, statusText: r.statusText } : { error: r.error }),
    type: r.type,
    ...(r.endTs !== undefined ? { ms: Math.round((r.endTs - r.startTs) * 1000) } : {}),
    ...(r.bytes !== undefined ? { bytes: r.bytes } : {}),
    ...(r.routed ? { routed: r.routed } : {}),
    ...(r.redirectedTo ? { redirectedTo: r.redirectedTo } : {}),
    request: { headers: requestHeaders, ...showBody(reqBody, contentType, DETAIL_BODY_CHARS) },
    ...(responseHeaders
      ? {
          response: {
            mimeType: r.mimeType,
            headers: responseHeaders,
            ...showBody(resBody, r.mimeType, DETAIL_BODY_CHARS),
          },
        }
      : {}),
    ...(others ? { alsoMatching: others } : {}),
  };
}
