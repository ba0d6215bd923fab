// Request and response bodies as an answer may show them: read from Chrome's buffer of the
// session (Network.enable's buffer sizes bound what it keeps), text decoded, binary described
// rather than dumped, secrets hidden (network-redact.ts), long text cut with the cut said.

import { redactSecrets } from '../common/index.js';
import { isBodyEvicted, isBodyMissing, type CdpSession } from '../cdp/index.js';
import { redactBody } from './network-redact.js';

/** A body as read: text (capped at MAX_KEPT_CHARS), or binary with its size; or why there is none. */
export interface BodyRead {
  text?: string;
  binary?: boolean;
  bytes: number;
  error?: string;
  /** Read before Chrome finished loading it (the page had not read it all): what had arrived. */
  partial?: boolean;
}

/** What one body may hold in memory; answers and HAR files cut it shorter. */
const MAX_KEPT_CHARS = 1_000_000;

const TEXTUAL =
  /^(text\/|application\/(json|.*\+json|javascript|ecmascript|xml|.*\+xml|x-www-form-urlencoded|graphql)|image\/svg)/i;

export function isTextual(mimeType: string | undefined): boolean {
  return TEXTUAL.test(mimeType ?? '');
}

/** Chrome's refusals in plain words. */
function whyNoBody(err: unknown): string {
  if (isBodyEvicted(err)) return "not kept: larger than Chrome's buffer for this tab, or pushed out by later responses";
  if (isBodyMissing(err)) return 'none (no body, or the request is not finished)';
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

/** Text of `bytes` when it is text (UTF-8 without stray bytes, or a textual type). */
function decode(bytes: Buffer, mimeType: string | undefined): string | undefined {
  const text = bytes.toString('utf8');
  const broken = (text.match(/\uFFFD/g)?.length ?? 0) > text.length / 100;
  if (broken || (!isTextual(mimeType) && text.includes('\u0000'))) return undefined;
  return text;
}

/** `body` (base64 or not) as a BodyRead: text when it decodes as text, else binary with its size. */
function bodyRead(body: string, base64Encoded: boolean, mimeType: string | undefined): BodyRead {
  if (!base64Encoded) return { text: body.slice(0, MAX_KEPT_CHARS), bytes: Buffer.byteLength(body) };
  const bytes = Buffer.from(body, 'base64');
  const text = decode(bytes, mimeType);
  return text === undefined
    ? { binary: true, bytes: bytes.length }
    : { text: text.slice(0, MAX_KEPT_CHARS), bytes: bytes.length };
}

/**
 * The response body of a request, from Chrome's buffer. A response the page has not read to its
 * end never finishes loading in Chrome (a fetch whose body nobody reads): what has arrived is
 * read through Network.streamResourceContent instead, and marked partial. Never rejects.
 */
export async function readResponseBody(
  session: CdpSession,
  r: { requestId: string; mimeType?: string; done: boolean },
): Promise<BodyRead> {
  try {
    const { body, base64Encoded } = await session.send('Network.getResponseBody', { requestId: r.requestId });
    return bodyRead(body, base64Encoded, r.mimeType);
  } catch (err) {
    if (r.done) return { bytes: 0, error: whyNoBody(err) };
  }
  try {
    const { bufferedData } = await session.send('Network.streamResourceContent', { requestId: r.requestId });
    return { ...bodyRead(bufferedData, true, r.mimeType), partial: true };
  } catch (err) {
    return { bytes: 0, error: whyNoBody(err) };
  }
}

/** A request body (post data as Chrome gives it: text, or bytes it could not decode). */
export function readRequestBody(postData: string | undefined): BodyRead | undefined {
  if (postData === undefined) return undefined;
  const binary = postData.includes('\uFFFD') || postData.includes('\u0000');
  return binary
    ? { binary: true, bytes: Buffer.byteLength(postData) }
    : { text: postData, bytes: Buffer.byteLength(postData) };
}

/** The text of an HTML page, roughly: what a person reads of an error page, not its markup. */
function htmlText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export interface ShownBody {
  /** The text, secrets hidden, cut at the cap (ends with …). */
  body?: string;
  /** When the body is not shown as text: binary (with type and size), not kept, or none. */
  bodyNote?: string;
  /** The body's whole size in bytes, when it was cut. */
  bodyBytes?: number;
}

/**
 * A body as an answer shows it: text with secrets hidden, cut at `maxChars`. A `preview` (the
 * answer's failed list) shows HTML as its text with whitespace runs kept short. Binary is
 * described, never dumped.
 */
export function showBody(
  read: BodyRead | undefined,
  mimeType: string | undefined,
  maxChars: number,
  preview = false,
): ShownBody {
  if (!read) return {};
  if (read.error) return { bodyNote: `body ${read.error}` };
  if (read.binary) return { bodyNote: `binary${mimeType ? ` ${mimeType}` : ''}, ${read.bytes} bytes` };
  if (!read.text) return {};
  // Secrets hidden before the cut, so no prefix of one survives it.
  let text = redactSecrets(redactBody(read.text, mimeType));
  if (preview && /html/i.test(mimeType ?? '')) text = htmlText(text);
  if (preview) text = text.replace(/\s+/g, ' ').trim();
  const partial = read.partial && !preview ? { bodyNote: 'as received: the page had not read it to the end' } : {};
  if (text.length <= maxChars) return { body: text, ...partial };
  return { body: `${text.slice(0, maxChars - 1)}…`, bodyBytes: read.bytes, ...partial };
}
