// One WebSocket to Chrome's browser endpoint, multiplexing flat-mode target sessions:
// id-correlated commands with their own timers, event dispatch per session, clean close.
// Incoming frames are `unknown` until narrowed here; nothing past this file sees raw JSON.

import { ConnectionError, ExecutionError, DEFAULT_COMMAND_TIMEOUT_MS, pendingStart, tracked } from '../common/index.js';
import type { CdpSession, CommandName, CommandResult, EventName, EventPayload, SendOptions } from './protocol.js';
import { isTargetClosed } from './protocol-errors.js';
import { WebSocketClient } from './websocket.js';

interface Pending {
  method: string;
  error: Error; // made at send time, so its stack points at the caller
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

interface Incoming {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message?: string; data?: string; code?: number };
  sessionId?: string;
}

type Listener = (params: unknown) => void;

/** A CDP error reply; classified by cdp/protocol-errors.ts. */
export class ProtocolError extends ExecutionError {}

export class Connection {
  #ws: WebSocketClient | undefined;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<Listener>>(); // key: `${sessionId ?? ''} ${method}`
  readonly #closeHandlers = new Set<(reason: string) => void>();
  #nextId = 1;
  #closedReason: string | undefined;
  readonly url: string;

  private constructor(url: string) {
    this.url = url;
  }

  static async open(url: string, timeoutMs: number): Promise<Connection> {
    const conn = new Connection(url);
    try {
      conn.#ws = await tracked(
        `the WebSocket handshake with ${url.replace(/\/devtools\/browser\/.*/, '')}`,
        WebSocketClient.open(url, {
          timeoutMs,
          maxPayload: 512 * 1024 * 1024,
          onMessage: (text) => conn.#onMessage(text),
          onClose: (reason) => conn.#onClose(reason),
        }),
      );
    } catch (err) {
      throw new ConnectionError(`Cannot connect to ${url}: ${(err as Error).message}`);
    }
    return conn;
  }

  get closed(): boolean {
    return this.#closedReason !== undefined;
  }

  /** The browser-level session (no sessionId). */
  browser(): CdpSession {
    return this.session(undefined);
  }

  session(sessionId: string | undefined): CdpSession {
    const send = <M extends CommandName>(method: M, params: unknown, options: SendOptions): Promise<CommandResult<M>> =>
      this.#send(method, params, sessionId, options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS) as Promise<
        CommandResult<M>
      >;
    const on = <E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void): (() => void) =>
      this.#on(sessionId, event, handler as Listener);
    return {
      id: sessionId,
      send: (method, ...params) => send(method, params[0], {}),
      sendWith: (method, params, options) => send(method, params, options),
      on,
      waitFor: (event, predicate) => {
        let off: () => void = () => {};
        const promise = new Promise<EventPayload<typeof event>>((resolve) => {
          off = on(event, (payload) => {
            if (predicate && !predicate(payload)) return;
            off();
            resolve(payload);
          });
        });
        return { promise, cancel: () => off() };
      },
    };
  }

  /**
   * A command outside the protocol's types: a browser service's own (Browserless.reconnect). Its
   * answer is `unknown` until the caller narrows it.
   */
  sendVendor(method: string, params: object, timeoutMs: number): Promise<unknown> {
    return this.#send(method, params, undefined, timeoutMs);
  }

  onClose(handler: (reason: string) => void): () => void {
    this.#closeHandlers.add(handler);
    return () => this.#closeHandlers.delete(handler);
  }

  close(): void {
    if (this.closed) return;
    this.#onClose('closed by cdp-skill');
    this.#ws?.close();
  }

  #send(method: string, params: unknown, sessionId: string | undefined, timeoutMs: number): Promise<unknown> {
    const error = new ProtocolError(`${method} failed`);
    const ws = this.#ws;
    if (this.#closedReason || !ws) {
      return Promise.reject(new ConnectionError(`Cannot send ${method}: ${this.#closedReason ?? 'not connected'}`));
    }
    const id = this.#nextId++;
    const message = JSON.stringify({ id, method, params: params ?? {}, ...(sessionId ? { sessionId } : {}) });
    const done = pendingStart(`Chrome's answer to ${method}`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new ConnectionError(`Chrome did not answer ${method} within ${timeoutMs}ms`));
      }, timeoutMs);
      this.#pending.set(id, { method, error, resolve, reject, timer });
      ws.send(message, (err) => {
        if (!err) return;
        clearTimeout(timer);
        this.#pending.delete(id);
        reject(new ConnectionError(`Cannot send ${method}: ${err.message}`));
      });
    }).finally(done);
  }

  #on(sessionId: string | undefined, method: string, handler: Listener): () => void {
    const key = `${sessionId ?? ''} ${method}`;
    let set = this.#listeners.get(key);
    if (!set) this.#listeners.set(key, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  #onMessage(text: string): void {
    let msg: Incoming;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null) return;
      msg = parsed as Incoming;
    } catch {
      return; // not JSON: nothing Chrome sends; ignore rather than crash on a proxy's noise
    }
    if (typeof msg.id === 'number') {
      const pending = this.#pending.get(msg.id);
      if (!pending) return;
      this.#pending.delete(msg.id);
      clearTimeout(pending.timer);
      if (msg.error) {
        const detail = [msg.error.message, msg.error.data].filter(Boolean).join(': ');
        pending.error.message = `${pending.method}: ${detail || 'unknown protocol error'}`;
        if (isTargetClosed(pending.error)) {
          pending.reject(
            new ConnectionError(`The tab is gone (${pending.error.message})`, {}, { cause: pending.error }),
          );
        } else {
          pending.reject(pending.error);
        }
      } else {
        pending.resolve(msg.result ?? {});
      }
      return;
    }
    if (typeof msg.method === 'string') {
      const set = this.#listeners.get(`${msg.sessionId ?? ''} ${msg.method}`);
      if (set) for (const handler of [...set]) handler(msg.params ?? {});
    }
  }

  #onClose(reason: string): void {
    if (this.#closedReason) return;
    this.#closedReason = reason;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      pending.reject(new ConnectionError(`Lost connection to Chrome during ${pending.method}: ${reason}`));
    }
    for (const handler of this.#closeHandlers) handler(reason);
  }
}
