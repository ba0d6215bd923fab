// A WebSocket client for Chrome's DevTools endpoint, straight on a TCP socket: the opening
// handshake of RFC 6455 §4 and the framing of websocket-frames.ts. A general client (ws) goes
// through Node's HTTP client for the handshake and loads TLS, HTTPS and zlib up front; in a
// process that lives for one command that was ~7 ms of every call. wss:// endpoints (remote
// browser farms) load TLS when they are used.

import { connect as netConnect, type Socket } from 'node:net';
import { randomBytes, requireBuiltin, sha1 } from '../common/index.js';
import { FrameError, FrameReader, OPCODE, closePayload, encodeFrame } from './websocket-frames.js';

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** The longest handshake answer we read before calling it garbage. */
const MAX_HEAD_BYTES = 16 * 1024;
/** How long a closing handshake may take before the socket is simply destroyed. */
const CLOSE_GRACE_MS = 1_000;

export interface WebSocketOptions {
  /** Bound on the TCP connect plus the opening handshake. */
  timeoutMs: number;
  /** Largest message accepted, in bytes. */
  maxPayload: number;
  /** Each text (or binary) message, decoded as UTF-8. */
  onMessage: (text: string) => void;
  /** Once, after the handshake, when the connection is gone for any reason, with a sentence saying why. */
  onClose: (reason: string) => void;
}

export class WebSocketClient {
  readonly #socket: Socket;
  readonly #onClose: (reason: string) => void;
  #closed = false;

  private constructor(socket: Socket, rest: Buffer, options: WebSocketOptions) {
    this.#socket = socket;
    this.#onClose = options.onClose;
    const reader = new FrameReader(
      {
        message: (_, data) => options.onMessage(data.toString('utf8')),
        ping: (payload) => this.#write(encodeFrame(OPCODE.pong, payload)),
        pong: () => {},
        close: (code, reason) => {
          this.#write(encodeFrame(OPCODE.close, code === undefined ? Buffer.alloc(0) : closePayload(code)));
          socket.end();
          this.#finish(`WebSocket closed (code ${code ?? 1005}${reason ? `, ${reason}` : ''})`);
        },
      },
      options.maxPayload,
    );
    const feed = (chunk: Buffer): void => {
      try {
        reader.push(chunk);
      } catch (err) {
        const code = err instanceof FrameError ? err.closeCode : 1002;
        this.#write(encodeFrame(OPCODE.close, closePayload(code)));
        socket.destroy();
        this.#finish(httpAnswerOnSocket(chunk) ?? `WebSocket protocol error: ${(err as Error).message}`);
      }
    };
    socket.on('data', feed);
    socket.on('error', (err) => this.#finish(`WebSocket error: ${err.message}`));
    socket.on('close', () => this.#finish('WebSocket closed (code 1006, connection lost)'));
    if (rest.length) feed(rest); // frames that came with the handshake answer
  }

  /** Connects and completes the opening handshake, or rejects with a sentence saying what failed. */
  static open(url: string, options: WebSocketOptions): Promise<WebSocketClient> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.reject(new Error(`not a WebSocket URL: ${url}`));
    }
    const secure = target.protocol === 'wss:';
    if (!secure && target.protocol !== 'ws:') return Promise.reject(new Error(`not a ws:// or wss:// URL: ${url}`));
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port || (secure ? 443 : 80));
    const socket: Socket = secure
      ? loadTls().connect({ host, port, servername: isIpAddress(host) ? undefined : host })
      : netConnect({ host, port });
    socket.setNoDelay(true); // commands are small: Nagle's algorithm would hold them back
    const key = randomBytes(16).toString('base64');
    return new Promise((resolve, reject) => {
      let head: Buffer = Buffer.alloc(0);
      const timer = setTimeout(() => fail(new Error(noHandshake(options.timeoutMs))), options.timeoutMs);
      const cleanUp = (): void => {
        clearTimeout(timer);
        socket.removeListener('data', onData);
        socket.removeListener('error', fail);
        socket.removeListener('close', onClose);
      };
      function fail(err: Error): void {
        cleanUp();
        socket.destroy();
        reject(err);
      }
      function onClose(): void {
        fail(new Error('the server closed the connection during the WebSocket handshake'));
      }
      function onData(chunk: Buffer): void {
        head = head.length ? Buffer.concat([head, chunk]) : chunk;
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          if (head.length > MAX_HEAD_BYTES) fail(new Error('the WebSocket handshake answer is too long'));
          return;
        }
        const problem = handshakeProblem(head.subarray(0, end).toString('latin1'), key);
        if (problem) {
          const body = bodyLine(head.subarray(end + 4));
          fail(new Error(body && !problem.includes(body) ? `${problem} (${body})` : problem));
          return;
        }
        cleanUp();
        resolve(new WebSocketClient(socket, head.subarray(end + 4), options));
      }
      socket.on('data', onData);
      socket.once('error', fail);
      socket.once('close', onClose);
      socket.write(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\n` +
          `Host: ${target.host}\r\n` +
          'Upgrade: websocket\r\n' +
          'Connection: Upgrade\r\n' +
          `Sec-WebSocket-Key: ${key}\r\n` +
          'Sec-WebSocket-Version: 13\r\n' +
          (target.username
            ? `Authorization: Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}\r\n`
            : '') +
          '\r\n',
      );
    });
  }

  /** Sends one text message; `done` hears of a failed write. */
  send(text: string, done?: (err?: Error) => void): void {
    if (this.#closed) {
      done?.(new Error('the WebSocket is closed'));
      return;
    }
    this.#socket.write(encodeFrame(OPCODE.text, Buffer.from(text, 'utf8')), (err) => done?.(err ?? undefined));
  }

  /** Starts the closing handshake; the socket is destroyed if the peer does not finish it soon. */
  close(): void {
    if (this.#closed) return;
    this.#write(encodeFrame(OPCODE.close, closePayload(1000)));
    this.#socket.end();
    setTimeout(() => this.#socket.destroy(), CLOSE_GRACE_MS).unref();
    this.#finish('WebSocket closed (code 1000)');
  }

  /** Drops the connection at once. */
  terminate(): void {
    this.#socket.destroy();
    this.#finish('WebSocket terminated');
  }

  #write(frame: Buffer): void {
    if (!this.#socket.destroyed && this.#socket.writable) this.#socket.write(frame);
  }

  #finish(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose(reason);
  }
}

/** What is wrong with a handshake answer (its head, without the blank line), or undefined. */
export function handshakeProblem(head: string, key: string): string | undefined {
  const [status = '', ...lines] = head.split('\r\n');
  if (!/^HTTP\/1\.1 101\b/.test(status)) {
    return `the server refused the WebSocket upgrade: ${status.replace(/^HTTP\/\d\.\d\s*/, '') || 'no status line'}`;
  }
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  if (headers.get('upgrade')?.toLowerCase() !== 'websocket')
    return 'the server answered the upgrade without "Upgrade: websocket"';
  const expected = sha1(key + ACCEPT_GUID).toString('base64');
  if (headers.get('sec-websocket-accept') !== expected)
    return 'the server answered the upgrade with a wrong Sec-WebSocket-Accept';
  if (headers.has('sec-websocket-extensions')) return 'the server enabled a WebSocket extension that was not asked for';
  return undefined;
}

const noHandshake = (ms: number): string =>
  `no WebSocket handshake within ${ms}ms (a browser service may be holding the connection in its queue while all its browsers are busy)`;

/** The first line of a refusal's body (a browser service says why there: "Couldn't locate browser …"). */
function bodyLine(body: Buffer): string {
  const line = body.toString('utf8').trim().split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * When the bytes that broke the framing are an HTTP answer, what it says. A browser service that
 * ends a connection for its own reasons (browserless's per-connection time limit) writes an HTTP
 * response onto the upgraded socket; read as a frame its "H" has reserved bits set.
 */
export function httpAnswerOnSocket(chunk: Buffer): string | undefined {
  const text = chunk.subarray(0, 1024).toString('latin1');
  const status = /^HTTP\/1\.[01] (\d{3})([^\r\n]*)/.exec(text);
  if (!status) return undefined;
  const split = text.indexOf('\r\n\r\n');
  const body = split < 0 ? '' : bodyLine(Buffer.from(text.slice(split + 4), 'latin1'));
  const said = `the browser service ended the connection with HTTP ${status[1]}${status[2]}${body ? ` ("${body}")` : ''}`;
  return status[1] === '408'
    ? `${said}: its time limit for one connection ran out (browserless: TIMEOUT, or &timeout=<ms> on the endpoint; other services: their session timeout)`
    : said;
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** TLS only for wss:// endpoints: most calls never pay for loading it. */
function loadTls(): typeof import('node:tls') {
  return requireBuiltin('node:tls') as typeof import('node:tls');
}
