// JSON over HTTP(S) for browser farms (a Selenium Grid's WebDriver endpoints): any method, a JSON
// body, Basic auth from the URL's user:password@, a bound on the whole exchange. Unlike discovery.ts
// (Chrome's own /json endpoints), an HTTP error is an answer here: the caller reads the farm's message.

import { ConnectionError, requireBuiltin, tracked } from '../common/index.js';

export interface FarmAnswer {
  status: number;
  /** The parsed JSON body, or undefined when the body was not JSON. */
  json: unknown;
  /** The body's first characters, for a message when it was not JSON. */
  text: string;
}

/** The URL without user:password@ and query, for messages (the caller's redaction covers the rest). */
export const shownUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

function basicAuth(url: URL): Record<string, string> {
  if (!url.username) return {};
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** One request; rejects only when there is no answer (refused, reset, timed out), with a ConnectionError. */
export function farmRequest(
  url: URL,
  options: { method: string; body?: unknown; timeoutMs: number; what: string },
): Promise<FarmAnswer> {
  const secure = url.protocol === 'https:';
  const { request } = requireBuiltin(secure ? 'node:https' : 'node:http') as typeof import('node:http');
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...basicAuth(url),
    ...(payload ? { 'content-type': 'application/json; charset=utf-8', 'content-length': String(payload.length) } : {}),
  };
  return tracked(
    `${options.what} (${options.method} ${shownUrl(url)})`,
    new Promise<FarmAnswer>((resolve, reject) => {
      const req = request(url, { method: options.method, headers, timeout: options.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(new ConnectionError(`${options.what}: the answer broke off (${err.message})`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined; // a proxy's HTML error page, say: the caller shows `text`
          }
          resolve({ status: res.statusCode ?? 0, json, text: text.slice(0, 300) });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs}ms`)));
      req.on('error', (err) =>
        reject(new ConnectionError(`${options.what}: ${shownUrl(url)} is not reachable (${err.message})`)),
      );
      req.end(payload);
    }),
  );
}

/** The WebDriver error message of an answer (`{"value": {"error", "message"}}`), first line, capped. */
export function webDriverMessage(answer: FarmAnswer): string {
  const value = (answer.json as { value?: { message?: unknown; error?: unknown } } | undefined)?.value;
  const raw = typeof value?.message === 'string' ? value.message : answer.text;
  const line = raw.split('\n')[0]!.trim();
  const text = line.length > 240 ? `${line.slice(0, 240)}…` : line;
  return typeof value?.error === 'string' ? `${value.error}: ${text}` : `HTTP ${answer.status}: ${text}`;
}
