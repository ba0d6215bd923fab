// Chrome's HTTP discovery endpoints (/json/version, /json/list): reachability probes and the
// browser WebSocket URL. node:http rather than fetch: it loads faster in a short-lived CLI, and
// only when a call needs discovery (most connect straight to a stored WebSocket URL).

import { ConnectionError, PROBE_TIMEOUT_MS, requireBuiltin, tracked } from '../common/index.js';

export interface BrowserVersion {
  Browser: string;
  'Protocol-Version': string;
  webSocketDebuggerUrl: string;
}

export interface TargetListEntry {
  id: string;
  type: string;
  url: string;
  title: string;
  webSocketDebuggerUrl?: string;
}

export function httpJson<T>(
  host: string,
  port: number,
  path: string,
  timeoutMs = PROBE_TIMEOUT_MS,
  method = 'GET',
): Promise<T> {
  const { request } = requireBuiltin('node:http') as typeof import('node:http');
  return tracked(
    `an HTTP answer from http://${host}:${port}${path}`,
    new Promise((resolve, reject) => {
      const req = request(
        { host, port, path, method, timeout: timeoutMs, headers: { host: `${host}:${port}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString();
            if ((res.statusCode ?? 500) >= 400) {
              reject(
                new ConnectionError(`http://${host}:${port}${path} answered ${res.statusCode}: ${body.slice(0, 200)}`),
              );
              return;
            }
            try {
              resolve(JSON.parse(body) as T);
            } catch {
              reject(new ConnectionError(`http://${host}:${port}${path} did not answer JSON`));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs}ms`)));
      req.on('error', (err) =>
        reject(new ConnectionError(`Chrome is not reachable at ${host}:${port} (${err.message})`)),
      );
      req.end();
    }),
  );
}

export function getVersion(host: string, port: number, timeoutMs?: number): Promise<BrowserVersion> {
  return httpJson<BrowserVersion>(host, port, '/json/version', timeoutMs);
}

/** The browser's version when Chrome answers on host:port, undefined when nothing does. */
export async function probe(host: string, port: number, timeoutMs?: number): Promise<BrowserVersion | undefined> {
  try {
    return await getVersion(host, port, timeoutMs);
  } catch {
    return undefined; // unreachable is the answer a probe exists to give
  }
}

/** Rewrites a discovered WebSocket URL to the host the caller reached (Chrome reports its own idea). */
export function rehostWsUrl(wsUrl: string, host: string, port: number): string {
  const url = new URL(wsUrl);
  url.hostname = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  url.port = String(port);
  return url.toString();
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}
