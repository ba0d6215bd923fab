// Our WebSocket client (src/cdp/websocket*.ts): the frame reader against hand-made byte streams
// cut at every position, and the client against an independent implementation (the ws package's
// server) for what Chrome never does on demand: fragmented messages, pings, closing, refusing.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import {
  FrameError,
  FrameReader,
  OPCODE,
  closePayload,
  encodeFrame,
  type FrameSink,
} from '../../src/cdp/websocket-frames.js';
import { WebSocketClient, handshakeProblem } from '../../src/cdp/websocket.js';

/** A server frame (unmasked unless a mask is given). */
function serverFrame(opcode: number, payload: Buffer, fin = true, mask?: Buffer): Buffer {
  const len = payload.length;
  const ext = len < 126 ? Buffer.alloc(0) : len < 0x10000 ? Buffer.alloc(2) : Buffer.alloc(8);
  if (ext.length === 2) ext.writeUInt16BE(len);
  if (ext.length === 8) ext.writeBigUInt64BE(BigInt(len));
  const b1 = (mask ? 0x80 : 0) | (len < 126 ? len : len < 0x10000 ? 126 : 127);
  const body = mask ? Buffer.from(payload.map((b, i) => b ^ mask[i & 3]!)) : payload;
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, b1]), ext, mask ?? Buffer.alloc(0), body]);
}

interface Seen {
  messages: string[];
  pings: string[];
  closes: Array<[number | undefined, string]>;
}

function reader(maxPayload = 1 << 20): { r: FrameReader; seen: Seen } {
  const seen: Seen = { messages: [], pings: [], closes: [] };
  const sink: FrameSink = {
    message: (_, data) => seen.messages.push(data.toString('utf8')),
    ping: (p) => seen.pings.push(p.toString()),
    pong: () => {},
    close: (code, reason) => seen.closes.push([code, reason]),
  };
  return { r: new FrameReader(sink, maxPayload), seen };
}

describe('FrameReader', () => {
  const big = 'x'.repeat(70_000); // 64-bit length
  const mid = 'é'.repeat(200); // 16-bit length, multi-byte UTF-8
  const stream = Buffer.concat([
    serverFrame(OPCODE.text, Buffer.from('{"id":1}')),
    serverFrame(OPCODE.text, Buffer.from(mid)),
    serverFrame(OPCODE.text, Buffer.from('frag-'), false),
    serverFrame(OPCODE.ping, Buffer.from('p1')), // control frames may come between fragments
    serverFrame(OPCODE.continuation, Buffer.from('ment'), false),
    serverFrame(OPCODE.continuation, Buffer.from('ed'), true),
    serverFrame(OPCODE.text, Buffer.from(big)),
    serverFrame(OPCODE.text, Buffer.from('masked'), true, Buffer.from([1, 2, 3, 4])),
    serverFrame(OPCODE.close, closePayload(1001, 'going away')),
  ]);
  const expected = ['{"id":1}', mid, 'frag-mented', big, 'masked'];

  it('reads a stream given whole', () => {
    const { r, seen } = reader();
    r.push(stream);
    expect(seen).toEqual({ messages: expected, pings: ['p1'], closes: [[1001, 'going away']] });
  });

  it('reads the same stream cut at every position into two chunks, and byte by byte', () => {
    for (let cut = 1; cut < 400; cut++) {
      const { r, seen } = reader();
      r.push(stream.subarray(0, cut));
      r.push(stream.subarray(cut));
      expect(seen.messages, `cut at ${cut}`).toEqual(expected);
    }
    const { r, seen } = reader();
    for (let i = 0; i < stream.length; i++) r.push(stream.subarray(i, i + 1));
    expect(seen.messages).toEqual(expected);
    expect(seen.closes).toEqual([[1001, 'going away']]);
  });

  it('fails on protocol violations, with the close code to send', () => {
    const cases: Array<[Buffer, number]> = [
      [Buffer.from([0xc1, 0x00]), 1002], // RSV1 without an extension
      [serverFrame(OPCODE.continuation, Buffer.from('x')), 1002], // continuation of nothing
      [
        Buffer.concat([serverFrame(OPCODE.text, Buffer.from('a'), false), serverFrame(OPCODE.text, Buffer.from('b'))]),
        1002,
      ],
      [serverFrame(OPCODE.ping, Buffer.alloc(126)), 1002], // oversized control frame
      [serverFrame(0x3, Buffer.from('x')), 1002], // reserved opcode
      [serverFrame(OPCODE.text, Buffer.alloc(2000)), 1009], // over maxPayload
    ];
    for (const [bytes, code] of cases) {
      const { r } = reader(1000);
      let err: unknown;
      try {
        r.push(bytes);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FrameError);
      expect((err as FrameError).closeCode).toBe(code);
    }
  });
});

describe('encodeFrame', () => {
  it('writes masked client frames a reader (and the mask) turn back into the payload', () => {
    for (const len of [0, 5, 125, 126, 65_535, 65_536, 100_000]) {
      const payload = Buffer.alloc(len, 'ab');
      const frame = encodeFrame(OPCODE.text, payload);
      expect(frame[1]! & 0x80).toBe(0x80); // masked, as clients must
      const { r, seen } = reader();
      r.push(frame);
      expect(seen.messages[0]?.length).toBe(len);
      expect(seen.messages[0]).toBe(payload.toString());
    }
  });
});

describe('handshakeProblem', () => {
  const key = 'dGhlIHNhbXBsZSBub25jZQ=='; // RFC 6455 §1.3's example
  const ok =
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=';
  it('accepts the RFC example and refuses what is not an upgrade', () => {
    expect(handshakeProblem(ok, key)).toBeUndefined();
    expect(handshakeProblem('HTTP/1.1 404 Not Found\r\nContent-Length: 0', key)).toMatch(
      /refused the WebSocket upgrade: 404 Not Found/,
    );
    expect(handshakeProblem(ok.replace('s3pP', 'AAAA'), key)).toMatch(/Sec-WebSocket-Accept/);
    expect(handshakeProblem(ok.replace('Upgrade: websocket', 'Upgrade: h2c'), key)).toMatch(/Upgrade: websocket/);
    expect(handshakeProblem(`${ok}\r\nSec-WebSocket-Extensions: permessage-deflate`, key)).toMatch(/extension/);
  });
});

describe('WebSocketClient against an independent server', () => {
  let http: Server | undefined;
  let wss: WebSocketServer | undefined;
  afterEach(async () => {
    wss?.close();
    http?.closeAllConnections();
    await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)));
    http = undefined;
    wss = undefined;
  });

  async function serve(onConnection: (ws: ServerSocket) => void): Promise<string> {
    http = createServer((_, res) => res.writeHead(403).end());
    wss = new WebSocketServer({ server: http, perMessageDeflate: false });
    wss.on('connection', onConnection);
    await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
    return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/devtools/browser/x?token=1`;
  }

  function client(
    url: string,
    maxPayload = 1 << 24,
  ): Promise<{ ws: WebSocketClient; messages: string[]; closed: Promise<string> }> {
    const messages: string[] = [];
    let closed: (reason: string) => void = () => {};
    const closedP = new Promise<string>((resolve) => {
      closed = resolve;
    });
    return WebSocketClient.open(url, {
      timeoutMs: 2000,
      maxPayload,
      onMessage: (t) => messages.push(t),
      onClose: closed,
    }).then((ws) => ({
      ws,
      messages,
      closed: closedP,
    }));
  }

  it('echoes text both ways, answers pings, reads fragmented and large messages, closes cleanly', async () => {
    const pongs: string[] = [];
    let serverClosed: Promise<[number, string]> = Promise.resolve([0, '']);
    const url = await serve((ws) => {
      serverClosed = new Promise((resolve) => ws.on('close', (code, reason) => resolve([code, reason.toString()])));
      ws.on('pong', (p) => pongs.push(p.toString()));
      ws.on('message', (data) => {
        const text = data.toString();
        ws.ping('are you there');
        ws.send('part one, ', { fin: false });
        ws.send('part two', { fin: true });
        ws.send(text.repeat(3));
      });
    });
    const { ws, messages, closed } = await client(url);
    const long = `${'ü'.repeat(100_000)}end`;
    ws.send(long);
    await expect.poll(() => messages.length).toBe(2);
    expect(messages[0]).toBe('part one, part two');
    expect(messages[1]).toBe(long.repeat(3));
    await expect.poll(() => pongs).toEqual(['are you there']);
    ws.close();
    expect(await closed).toMatch(/code 1000/);
    expect(await serverClosed).toEqual([1000, '']);
  });

  it('reports the server closing the connection, with its code and reason', async () => {
    const url = await serve((ws) => ws.close(4001, 'bye now'));
    const { closed } = await client(url);
    expect(await closed).toBe('WebSocket closed (code 4001, bye now)');
  });

  it('fails a message over maxPayload as a protocol error instead of buffering it', async () => {
    const url = await serve((ws) => ws.send('y'.repeat(5000)));
    const { closed, messages } = await client(url, 1000);
    expect(await closed).toMatch(/protocol error: message larger than 1000 bytes/);
    expect(messages).toEqual([]);
  });

  it('refuses a server that does not upgrade, and a port nobody listens on, without hanging', async () => {
    const url = await serve(() => {});
    http!.removeAllListeners('upgrade'); // now plain HTTP answers 403
    await expect(client(url)).rejects.toThrow(/refused the WebSocket upgrade: 403/);
    const port = (http!.address() as AddressInfo).port;
    http!.closeAllConnections();
    await new Promise((resolve) => http!.close(resolve));
    http = undefined;
    await expect(client(`ws://127.0.0.1:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
    await expect(client('http://127.0.0.1:1/')).rejects.toThrow(/not a ws:\/\/ or wss:\/\/ URL/);
  });

  it('times out a server that accepts the connection but never answers the handshake', async () => {
    const { createServer: createTcp } = await import('node:net');
    const silent = createTcp(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const started = Date.now();
    await expect(
      WebSocketClient.open(`ws://127.0.0.1:${port}/`, {
        timeoutMs: 300,
        maxPayload: 1000,
        onMessage: () => {},
        onClose: () => {},
      }),
    ).rejects.toThrow(/no WebSocket handshake within 300ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    silent.close();
  });
});
