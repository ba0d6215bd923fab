// A command's traffic as a HAR 1.2 file (`network {har}`): every request the command's session saw,
// redirects as entries of their own, bodies from Chrome's buffer (capped), credentials hidden in
// headers, cookies, bodies and URLs. Written when the command ends, so it holds all the command's traffic.

import { readFileSync, writeFileSync } from 'node:fs';
import { redactSecrets, type Deadline } from '../common/index.js';
import type { Protocol } from '../cdp/index.js';
import { readRequestBody, type BodyRead } from './network-body.js';
import { requestMatcher, type RequestFilter } from './network-match.js';
import { isBrowserChrome, type RequestLog, type RequestRecord } from './network-record.js';
import { markUrlSecrets, redactBody, redactHeaders } from './network-redact.js';

/** Characters of one body the HAR keeps. */
const HAR_BODY_CHARS = 100_000;
/** Bodies read from Chrome at once. */
const READ_AT_ONCE = 8;

type NameValue = { name: string; value: string };
const ms = (n: number): number => (n < 0 ? -1 : Math.round(n * 1000) / 1000);
const pairs = (o: Record<string, string>): NameValue[] => Object.entries(o).map(([name, value]) => ({ name, value }));

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function cookiesOf(header: string | undefined, response: boolean): NameValue[] {
  if (!header) return [];
  const items = response ? header.split('\n').map((c) => c.split(';')[0] ?? '') : header.split(';');
  return items
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => ({ name: c.split('=')[0] ?? '', value: '••••' }));
}

function harText(text: string, mimeType: string | undefined): { text: string; comment?: string } {
  const redacted = redactBody(text, mimeType);
  if (redacted.length <= HAR_BODY_CHARS) return { text: redacted };
  return { text: redacted.slice(0, HAR_BODY_CHARS), comment: `cut at ${HAR_BODY_CHARS} characters` };
}

function content(r: RequestRecord, read: BodyRead | undefined): Record<string, unknown> {
  const mimeType = r.mimeType ?? '';
  if (!read || read.error) return { size: 0, mimeType, ...(read?.error ? { comment: `body ${read.error}` } : {}) };
  if (read.binary) return { size: read.bytes, mimeType, comment: `binary, ${read.bytes} bytes, not included` };
  const text = harText(read.text ?? '', mimeType);
  const partial = read.partial ? 'as received so far: the page had not read the whole response' : undefined;
  const comment = [text.comment, partial].filter(Boolean).join('; ');
  return { size: read.bytes, mimeType, text: text.text, ...(comment ? { comment } : {}) };
}

/** HAR timings from Chrome's: blocked/dns/connect/ssl before the send, wait for the headers, receive the rest. */
function timings(r: RequestRecord): { total: number; t: Record<string, number> } {
  const total = r.endTs !== undefined ? Math.max(0, (r.endTs - r.startTs) * 1000) : 0;
  const tm: Protocol.Network.ResourceTiming | undefined = r.timing;
  if (!tm) return { total, t: { send: 0, wait: total, receive: 0 } };
  const span = (a: number, b: number): number => (a >= 0 && b >= 0 ? Math.max(0, b - a) : -1);
  const offset = Math.max(0, (tm.requestTime - r.startTs) * 1000);
  const headersAt = offset + tm.receiveHeadersEnd;
  return {
    total,
    t: {
      blocked: Math.max(0, offset + Math.max(0, tm.sendStart)),
      dns: span(tm.dnsStart, tm.dnsEnd),
      connect: span(tm.connectStart, tm.connectEnd),
      ssl: span(tm.sslStart, tm.sslEnd),
      send: Math.max(0, span(tm.sendStart, tm.sendEnd)),
      wait: Math.max(0, tm.receiveHeadersEnd - tm.sendEnd),
      receive: Math.max(0, total - headersAt),
    },
  };
}

function entry(r: RequestRecord, read: BodyRead | undefined, post: string | undefined): Record<string, unknown> {
  const { total, t } = timings(r);
  const postBody = readRequestBody(post);
  const reqType = r.requestHeaders['content-type'] ?? '';
  markUrlSecrets(r.url);
  return {
    startedDateTime: new Date(r.startedMs).toISOString(),
    time: ms(total),
    request: {
      method: r.method,
      url: r.url,
      httpVersion: r.protocol ?? '',
      cookies: cookiesOf(r.requestHeaders.cookie, false),
      headers: pairs(redactHeaders(r.requestHeaders, 10_000)),
      queryString: queryOf(r.url),
      ...(postBody
        ? {
            postData: {
              mimeType: reqType,
              ...(postBody.text !== undefined
                ? harText(postBody.text, reqType)
                : { text: '', comment: `binary, ${postBody.bytes} bytes, not included` }),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: postBody?.bytes ?? 0,
    },
    response: {
      status: r.status ?? 0,
      statusText: r.statusText ?? '',
      httpVersion: r.protocol ?? '',
      cookies: cookiesOf(r.responseHeaders?.['set-cookie'], true),
      headers: pairs(redactHeaders(r.responseHeaders, 10_000)),
      content: content(r, read),
      redirectURL: r.redirectedTo ?? '',
      headersSize: -1,
      bodySize: r.bytes ?? -1,
      ...(r.error ? { _error: r.error } : {}),
    },
    cache: {},
    timings: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, ms(v)])),
    ...(r.remoteAddress ? { serverIPAddress: r.remoteAddress } : {}),
    _resourceType: r.type,
    ...(r.routed ? { comment: `answered by a route (${r.routed})` } : {}),
  };
}

/** Reads the bodies of `records` a few at a time, each within the deadline (none: no body in the HAR). */
async function readAll(log: RequestLog, records: readonly RequestRecord[], deadline: Deadline) {
  const out: { read?: BodyRead; post?: string }[] = [];
  for (let i = 0; i < records.length; i += READ_AT_ONCE) {
    const batch = records.slice(i, i + READ_AT_ONCE).map(async (r) => {
      const hasBody = r.status !== undefined && !r.redirectedTo;
      const [read, post] = await Promise.all([
        hasBody && !deadline.expired()
          ? deadline.race(log.bodyOf(r), 'response bodies').catch(() => undefined)
          : undefined,
        deadline.race(log.postDataOf(r), 'request bodies').catch(() => undefined),
      ]);
      return { read, post };
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** The package's version, for the HAR's creator (the bundle sits in dist/, beside package.json's folder). */
function ourVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown'; // run from elsewhere (unit tests of build/): the HAR stays valid
  }
}

/** How long a HAR waits for raw response headers still to come. */
const HEADERS_WAIT_MS = 3_000;

/** Writes `records` as HAR 1.2 to `path`; answers what an agent needs to find and trust it. */
async function writeHar(
  log: RequestLog,
  records: readonly RequestRecord[],
  path: string,
  deadline: Deadline,
): Promise<{ path: string; entries: number; bytes: number }> {
  // Raw headers Chrome announced but has not sent yet (they lag under load): a few seconds at most.
  await log.whenHeaders(records, deadline.cap(HEADERS_WAIT_MS));
  const bodies = await readAll(log, records, deadline);
  const entries = records.map((r, i) => entry(r, bodies[i]?.read, bodies[i]?.post));
  const har = { log: { version: '1.2', creator: { name: 'cdp-skill', version: ourVersion() }, pages: [], entries } };
  const text = JSON.stringify(redactSecrets(har));
  writeFileSync(path, text, { mode: 0o600 });
  return { path, entries: entries.length, bytes: Buffer.byteLength(text) };
}

/** A HAR a `network` step asked for: written when the command ends, of the requests `filter` keeps. */
export interface HarAsked {
  path: string;
  filter: RequestFilter;
  /** The asking step (1-based): its output becomes what was written. */
  step: number;
}

export type HarWritten = { path: string; entries: number; bytes: number } | { path: string; error: string };

/** Writes every HAR the command's steps asked for, with all the command's traffic; never rejects. */
export async function writeAskedHars(
  log: RequestLog,
  deadline: Deadline,
): Promise<{ step: number; output: HarWritten }[]> {
  const out: { step: number; output: HarWritten }[] = [];
  // Taken, not read: a long-lived front that keeps the log across calls writes each file once.
  for (const asked of log.harAsked.splice(0)) {
    const keep = requestMatcher(asked.filter);
    const records = log.all.filter((r) => !isBrowserChrome(r.url) && keep(r));
    try {
      out.push({ step: asked.step, output: await writeHar(log, records, asked.path, deadline) });
    } catch (err) {
      out.push({ step: asked.step, output: { path: asked.path, error: `not written: ${(err as Error).message}` } });
    }
  }
  return out;
}
