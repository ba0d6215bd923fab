// Every request of the command as Chrome's Network domain reports it: method, URL, type, headers
// (the raw ones of the ExtraInfo events when Chrome sends them), status or failure, size, timing;
// redirects as hops of their own. Bodies are read from Chrome's buffer (network-body.ts); the
// response of a failed request is read the moment it finishes, so the answer can quote it.

import type { Deadline } from '../common/index.js';
import type { CdpSession, Protocol } from '../cdp/index.js';
import { readResponseBody, type BodyRead } from './network-body.js';
import type { HarAsked } from './network-har.js';
import { typeOfCdp } from './network-match.js';

export interface RequestRecord {
  /** Chrome's request id (a redirect hop: with `#n`). */
  id: string;
  /** The id Chrome's body calls take (the last hop of a redirect chain owns the body). */
  readonly requestId: string;
  method: string;
  url: string;
  /** Our vocabulary (network-match.ts). */
  type: string;
  /** Wall-clock start, epoch milliseconds. */
  startedMs: number;
  /** Chrome's monotonic clock at the start, seconds (timings are relative to it). */
  startTs: number;
  requestHeaders: Record<string, string>;
  postData?: string;
  hasPostData?: boolean;
  status?: number;
  statusText?: string;
  mimeType?: string;
  protocol?: string;
  remoteAddress?: string;
  responseHeaders?: Record<string, string>;
  /** Chrome said raw response headers (Set-Cookie among them) will come in an ExtraInfo event, and they have not yet. */
  extraPending?: boolean;
  /** The raw response headers came. */
  extraSeen?: boolean;
  timing?: Protocol.Network.ResourceTiming;
  endTs?: number;
  /** Bytes received, headers included. */
  bytes?: number;
  /** The failure (`net::ERR_…`), when no response came. */
  error?: string;
  canceled?: boolean;
  /** Where a redirect hop went. */
  redirectedTo?: string;
  done: boolean;
  /** A route answered it (network-route.ts). */
  routed?: 'fulfilled' | 'aborted';
  /** The response body, read once. */
  body?: Promise<BodyRead>;
  /** Made while no call ran, on a page the warm host kept watching (counted in `betweenCommands`). */
  between?: true;
  /** Its outcome (done, or failed) was told in a `betweenCommands` answer; one still loading then is the call's to tell. */
  told?: true;
}

/** Requests kept per command; more are counted, not kept. */
const MAX_RECORDS = 2000;
/** Failed responses whose bodies are read as they finish (the answer shows 10). */
const EAGER_READS = 10;

/** The browser's own favicon probe fails on most sites and says nothing about the page's health. */
export function isBrowserChrome(url: string): boolean {
  return /^[a-z]+:\/\/[^/]+\/favicon\.ico(?:[?#]|$)/i.test(url);
}

/** A request that failed: an HTTP error, or no response at all (not one the page itself canceled). */
export function hasFailed(r: RequestRecord): boolean {
  if (isBrowserChrome(r.url)) return false;
  return (r.status !== undefined && r.status >= 400) || (r.error !== undefined && !r.canceled);
}

export class RequestLog {
  readonly #session: CdpSession;
  readonly #byId = new Map<string, RequestRecord>();
  readonly #all: RequestRecord[] = [];
  readonly #waiters = new Set<() => void>();
  /** Raw request headers that came before their request. */
  readonly #early = new Map<string, Record<string, string>>();
  /** Raw response headers that came before their request was seen (the network service answers apart from the renderer). */
  readonly #earlyResponse = new Map<string, Record<string, string>>();
  /** Routes that answered a request before Chrome reported it. */
  readonly #routedEarly = new Map<string, 'fulfilled' | 'aborted'>();
  #eagerReads = 0;
  /** Requests beyond MAX_RECORDS. */
  dropped = 0;
  /** HAR files the command's steps asked for, written when it ends (network-har.ts). */
  readonly harAsked: HarAsked[] = [];
  /** Where the records made after the last command ended begin (a warm host's kept page), else undefined. */
  #betweenFrom: number | undefined;

  /** Subscribes at once: made before Network.enable, so no request of the command is missed. */
  constructor(session: CdpSession) {
    this.#session = session;
    session.on('Network.requestWillBeSent', (e) => this.#started(e));
    session.on('Network.requestWillBeSentExtraInfo', (e) => {
      // The raw headers (Cookie among them) often come before the request they belong to.
      const r = this.#byId.get(e.requestId);
      if (r && !r.done) Object.assign(r.requestHeaders, lowerKeys(e.headers));
      else if (this.#early.size < MAX_RECORDS) this.#early.set(e.requestId, lowerKeys(e.headers));
    });
    session.on('Network.responseReceived', (e) => {
      this.#responded(e.requestId, e.response, e.type);
      const r = this.#byId.get(e.requestId);
      // Under load the raw headers may come after the request finished: readers wait for them (whenHeaders).
      if (r && e.hasExtraInfo && !r.extraSeen) r.extraPending = true;
    });
    session.on('Network.responseReceivedExtraInfo', (e) => {
      const r = this.#byId.get(e.requestId);
      if (!r) {
        if (this.#earlyResponse.size < MAX_RECORDS) this.#earlyResponse.set(e.requestId, lowerKeys(e.headers));
        return;
      }
      r.responseHeaders = { ...r.responseHeaders, ...lowerKeys(e.headers) };
      r.extraSeen = true;
      r.extraPending = false;
      this.#wake();
    });
    session.on('Network.loadingFinished', (e) => {
      const r = this.#byId.get(e.requestId);
      if (!r) return;
      r.bytes = e.encodedDataLength;
      this.#finish(r, e.timestamp);
      // The body of a failed response is read now, while Chrome's buffer surely has it (the
      // first few: an answer quotes no more).
      if (hasFailed(r) && this.#eagerReads < EAGER_READS) {
        this.#eagerReads++;
        this.bodyOf(r);
      }
    });
    session.on('Network.loadingFailed', (e) => {
      const r = this.#byId.get(e.requestId);
      if (!r) return;
      r.error = e.blockedReason ? `${e.errorText} (blocked: ${e.blockedReason})` : e.errorText;
      if (e.canceled) r.canceled = true;
      this.#finish(r, e.timestamp);
    });
  }

  #started(e: Protocol.Network.RequestWillBeSentEvent): void {
    const prev = this.#byId.get(e.requestId);
    if (prev && e.redirectResponse) {
      // The same id continues at the new URL: the hop so far becomes a record of its own.
      this.#responded(e.requestId, e.redirectResponse, e.type);
      prev.redirectedTo = e.request.url;
      prev.id = `${e.requestId}#${this.#all.filter((r) => r.requestId === e.requestId).length}`;
      this.#finish(prev, e.timestamp);
    }
    if (this.#all.length >= MAX_RECORDS) {
      this.dropped++;
      this.#byId.delete(e.requestId);
      return;
    }
    const r: RequestRecord = {
      id: e.requestId,
      requestId: e.requestId,
      method: e.request.method,
      url: e.request.url + (e.request.urlFragment ?? ''),
      type: typeOfCdp(e.type),
      startedMs: Math.round(e.wallTime * 1000),
      startTs: e.timestamp,
      requestHeaders: { ...lowerKeys(e.request.headers), ...this.#early.get(e.requestId) },
      ...(e.request.postData !== undefined ? { postData: e.request.postData } : {}),
      ...(e.request.hasPostData ? { hasPostData: true } : {}),
      ...(this.#routedEarly.has(e.requestId) ? { routed: this.#routedEarly.get(e.requestId) } : {}),
      done: false,
    };
    this.#early.delete(e.requestId);
    this.#routedEarly.delete(e.requestId);
    const raw = this.#earlyResponse.get(e.requestId);
    if (raw) {
      r.responseHeaders = raw;
      r.extraSeen = true;
      this.#earlyResponse.delete(e.requestId);
    }
    this.#byId.set(e.requestId, r);
    this.#all.push(r);
  }

  #responded(requestId: string, res: Protocol.Network.Response, type: Protocol.Network.ResourceType | undefined): void {
    const r = this.#byId.get(requestId);
    if (!r) return;
    r.status = res.status;
    r.statusText = res.statusText;
    r.mimeType = res.mimeType;
    r.protocol = res.protocol;
    r.remoteAddress = res.remoteIPAddress;
    r.responseHeaders = { ...lowerKeys(res.headers), ...r.responseHeaders };
    r.timing = res.timing;
    if (type) r.type = typeOfCdp(type);
  }

  #finish(r: RequestRecord, timestamp: number): void {
    r.endTs = timestamp;
    r.done = true;
    this.#wake();
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  /**
   * A page kept attached between calls (the MCP server's warm host) starts another command: the
   * log holds this command's requests only, as a new session's would (earlier ones: resource timing).
   */
  beginCommand(): void {
    // Requests made while no call ran stay (with their bodies, which Chrome keeps for this session).
    const between = this.#betweenFrom === undefined ? [] : this.#all.slice(this.#betweenFrom);
    this.#betweenFrom = undefined;
    this.#byId.clear();
    this.#all.length = 0;
    for (const r of between) {
      r.between = true;
      this.#all.push(r);
      this.#byId.set(r.requestId, r);
    }
    this.#early.clear();
    this.#earlyResponse.clear();
    this.#routedEarly.clear();
    this.#eagerReads = 0;
    this.dropped = 0;
    this.harAsked.length = 0;
  }

  /** A call on the kept page ended: what comes from now on was made between calls. */
  endCommand(): void {
    this.#betweenFrom = this.#all.length;
  }

  /** The requests made since the last call ended (a warm host's kept page), oldest first. */
  betweenCalls(): readonly RequestRecord[] {
    return this.#betweenFrom === undefined ? [] : this.#all.slice(this.#betweenFrom);
  }

  /** Every request of the command so far, oldest first. */
  get all(): readonly RequestRecord[] {
    return this.#all;
  }

  /** A route answered the request `requestId` (Fetch's networkId), maybe before Chrome reported the request. */
  markRouted(requestId: string, how: 'fulfilled' | 'aborted'): void {
    const r = this.#byId.get(requestId);
    if (r) r.routed = how;
    else if (this.#routedEarly.size < MAX_RECORDS) this.#routedEarly.set(requestId, how);
  }

  /** The failed requests of the command, oldest first (those whose failure was told between calls are not). */
  failed(): RequestRecord[] {
    return this.#all.filter((r) => hasFailed(r) && !r.told);
  }

  /** The response body of `r`, read from Chrome once it finished (before, what has arrived, each time). */
  bodyOf(r: RequestRecord): Promise<BodyRead> {
    if (r.body) return r.body;
    const read = readResponseBody(this.#session, r);
    if (r.done) r.body = read;
    return read;
  }

  /** The request body: as Chrome sent it with the request, else asked for. */
  async postDataOf(r: RequestRecord): Promise<string | undefined> {
    if (r.postData !== undefined || !r.hasPostData) return r.postData;
    try {
      r.postData = (await this.#session.send('Network.getRequestPostData', { requestId: r.requestId })).postData;
    } catch {
      return undefined; // Chrome kept none (a file upload): the answer says the body is not known
    }
    return r.postData;
  }

  /** Resolves when every record in `records` is done, or at the deadline (never rejects): whether they all were. */
  whenDone(records: readonly RequestRecord[], deadline: Deadline): Promise<boolean> {
    return this.#when(() => records.every((r) => r.done), deadline);
  }

  /** Resolves when the raw response headers Chrome announced for `records` came, or at the deadline (never rejects). */
  whenHeaders(records: readonly RequestRecord[], deadline: Deadline): Promise<boolean> {
    return this.#when(() => !records.some((r) => r.extraPending), deadline);
  }

  async #when(allDone: () => boolean, deadline: Deadline): Promise<boolean> {
    if (allDone()) return true;
    let waiter: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      waiter = () => {
        if (allDone()) resolve();
      };
      this.#waiters.add(waiter);
    });
    try {
      await deadline.race(done, 'requests to finish');
      return true;
    } catch {
      return false; // the caller says which are still loading
    } finally {
      this.#waiters.delete(waiter);
    }
  }
}

function lowerKeys(headers: Protocol.Network.Headers | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = String(v);
  return out;
}
