// Request interception for one CDP session (the `route` step; Fetch domain): rules that answer
// matching requests with a mocked response or fail them, counted per rule. Interception lives as
// long as the session that armed it: the CLI arms a tab's persisted rules at each attach, and a
// long-lived front (MCP) can keep one RouteTable armed between calls.

import type { CdpSession, Protocol, RouteRule } from '../cdp/index.js';
import { chromeUrlPattern, urlMatcher } from './network-match.js';

export type { RouteRule };

/** What a rule intercepted: how many requests, the first few URLs. */
export interface RouteHits {
  url: string;
  status?: number;
  abort?: true;
  count: number;
  urls: string[];
}

const URLS_SHOWN = 5;
const MAX_URL = 200;

export class RouteTable {
  readonly #session: CdpSession;
  /** Newest first: a later rule wins over an earlier one for the same request. */
  #rules: RouteRule[];
  readonly #hits = new Map<RouteRule, { count: number; urls: string[] }>();
  readonly #onRouted: ((networkId: string, how: 'fulfilled' | 'aborted') => void) | undefined;
  #armed = false;

  /** Listens at once; nothing is intercepted until arm(). */
  constructor(
    session: CdpSession,
    rules: readonly RouteRule[] = [],
    onRouted?: (networkId: string, how: 'fulfilled' | 'aborted') => void,
  ) {
    this.#session = session;
    this.#rules = [...rules];
    this.#onRouted = onRouted;
    session.on('Fetch.requestPaused', (e) => {
      void this.#answer(e);
    });
  }

  get rules(): readonly RouteRule[] {
    return this.#rules;
  }

  /** The rules to keep with the tab. */
  get persisted(): RouteRule[] {
    return this.#rules.filter((r) => r.persist);
  }

  /** Adds a rule (replacing one for the same `url`) and arms the table. */
  async add(rule: RouteRule): Promise<void> {
    this.#rules = [rule, ...this.#rules.filter((r) => r.url !== rule.url)];
    await this.arm();
  }

  /** Removes every rule and stops intercepting; how many there were. */
  async clear(): Promise<number> {
    const n = this.#rules.length;
    this.#rules = [];
    await this.arm();
    return n;
  }

  /** Tells Chrome which requests to pause (Fetch.enable replaces the patterns), or to stop when no rule is left. */
  async arm(): Promise<void> {
    if (!this.#rules.length) {
      if (this.#armed) await this.#session.send('Fetch.disable');
      this.#armed = false;
      return;
    }
    const patterns = this.#rules.map((r) => ({
      urlPattern: chromeUrlPattern(r.url),
      requestStage: 'Request' as const,
    }));
    await this.#session.send('Fetch.enable', { patterns });
    this.#armed = true;
  }

  /**
   * The command ended: its own rules go, persisted ones stay armed (on a session a warm host keeps,
   * they answer between calls too). Only a rule that is not persisted costs a call to Chrome.
   */
  async endCommand(): Promise<void> {
    const kept = this.persisted;
    if (kept.length === this.#rules.length) return;
    this.#rules = kept;
    await this.arm();
  }

  /** A kept session starts another command: its answer counts only what this one intercepts. */
  beginCommand(): void {
    this.#hits.clear();
  }

  /** The rules that intercepted something, with counts and the first URLs. */
  report(): RouteHits[] {
    const out: RouteHits[] = [];
    for (const [rule, hit] of this.#hits) {
      out.push({
        url: rule.url,
        ...(rule.abort ? { abort: true as const } : { status: rule.status ?? 200 }),
        count: hit.count,
        urls: hit.urls,
      });
    }
    return out;
  }

  async #answer(e: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const url = e.request.url + (e.request.urlFragment ?? '');
    const rule = this.#rules.find((r) => urlMatcher(r.url)(url));
    try {
      if (!rule) await this.#session.send('Fetch.continueRequest', { requestId: e.requestId });
      else if (isPreflight(e.request)) await this.#session.send('Fetch.fulfillRequest', preflightAnswer(e));
      else {
        this.#count(rule, url);
        if (e.networkId) this.#onRouted?.(e.networkId, rule.abort ? 'aborted' : 'fulfilled');
        await (rule.abort
          ? this.#session.send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'Failed' })
          : this.#session.send('Fetch.fulfillRequest', fulfilment(rule, e)));
      }
    } catch {
      // The request went (its page navigated, the tab closed) while paused: nothing to answer.
    }
  }

  #count(rule: RouteRule, url: string): void {
    const hit = this.#hits.get(rule) ?? { count: 0, urls: [] };
    hit.count++;
    if (hit.urls.length < URLS_SHOWN) hit.urls.push(url.length > MAX_URL ? `${url.slice(0, MAX_URL - 1)}…` : url);
    this.#hits.set(rule, hit);
  }
}

function headerOf(request: Protocol.Network.Request, name: string): string | undefined {
  const key = Object.keys(request.headers).find((k) => k.toLowerCase() === name);
  return key ? String(request.headers[key]) : undefined;
}

function isPreflight(request: Protocol.Network.Request): boolean {
  return request.method === 'OPTIONS' && headerOf(request, 'access-control-request-method') !== undefined;
}

/** A cross-origin request the page makes must be allowed to read the mocked answer, as the real server would. */
function corsHeaders(request: Protocol.Network.Request): Protocol.Fetch.HeaderEntry[] {
  const origin = headerOf(request, 'origin');
  if (!origin) return [];
  return [
    { name: 'access-control-allow-origin', value: origin },
    { name: 'access-control-allow-credentials', value: 'true' },
  ];
}

function preflightAnswer(e: Protocol.Fetch.RequestPausedEvent): Protocol.Fetch.FulfillRequestRequest {
  const asked = headerOf(e.request, 'access-control-request-headers');
  return {
    requestId: e.requestId,
    responseCode: 204,
    responseHeaders: [
      ...corsHeaders(e.request),
      { name: 'access-control-allow-methods', value: headerOf(e.request, 'access-control-request-method') ?? '*' },
      ...(asked ? [{ name: 'access-control-allow-headers', value: asked }] : []),
    ],
  };
}

function fulfilment(rule: RouteRule, e: Protocol.Fetch.RequestPausedEvent): Protocol.Fetch.FulfillRequestRequest {
  const given = Object.entries(rule.headers ?? {}).map(([name, value]) => ({ name, value }));
  const has = (name: string): boolean => given.some((h) => h.name.toLowerCase() === name);
  const cors = has('access-control-allow-origin') ? [] : corsHeaders(e.request);
  // The page may read the headers the rule gives, cross-origin too.
  const exposed =
    cors.length && given.length
      ? [{ name: 'access-control-expose-headers', value: given.map((h) => h.name).join(', ') }]
      : [];
  const headers = [
    ...given,
    ...(rule.contentType && !has('content-type') ? [{ name: 'content-type', value: rule.contentType }] : []),
    ...cors,
    ...exposed,
  ];
  return {
    requestId: e.requestId,
    responseCode: rule.status ?? 200,
    responseHeaders: headers,
    body: Buffer.from(rule.body ?? '').toString('base64'),
  };
}
