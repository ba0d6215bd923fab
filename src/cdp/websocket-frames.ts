// The WebSocket framing of RFC 6455 as a CDP client needs it: masked frames out, a streaming
// reader in (any chunking, fragmented messages, control frames between fragments). Pure: no
// sockets here, so every edge is unit-tested; websocket.ts puts it on a socket.

import { randomBytes } from '../common/index.js';

export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** A frame or message the peer should never have sent: the connection must fail (RFC 6455 §7.1.7). */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly closeCode: number,
  ) {
    super(message);
  }
}

/** What the reader hands on: whole data messages and each control frame. */
export interface FrameSink {
  message(opcode: typeof OPCODE.text | typeof OPCODE.binary, data: Buffer): void;
  ping(payload: Buffer): void;
  pong(payload: Buffer): void;
  close(code: number | undefined, reason: string): void;
}

/** One client frame (FIN set, masked as RFC 6455 §5.3 requires of clients). */
export function encodeFrame(opcode: number, payload: Buffer, mask: Buffer = randomBytes(4)): Buffer {
  const len = payload.length;
  const lenBytes = len < 126 ? 0 : len < 0x10000 ? 2 : 8;
  const frame = Buffer.allocUnsafe(2 + lenBytes + 4 + len);
  frame[0] = 0x80 | opcode;
  if (lenBytes === 0) {
    frame[1] = 0x80 | len;
  } else if (lenBytes === 2) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(len, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(len), 2);
  }
  const at = 2 + lenBytes;
  mask.copy(frame, at, 0, 4);
  for (let i = 0; i < len; i++) frame[at + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** A close frame's payload: the status code and a reason cut to fit a control frame. */
export function closePayload(code: number, reason = ''): Buffer {
  const text = Buffer.from(reason).subarray(0, 123);
  const payload = Buffer.allocUnsafe(2 + text.length);
  payload.writeUInt16BE(code, 0);
  text.copy(payload, 2);
  return payload;
}

/**
 * Turns the byte stream from the server into frames. Chunks are kept as they come and joined
 * once per frame, so a multi-megabyte message (a screenshot) costs one copy, whatever its chunking.
 */
export class FrameReader {
  readonly #sink: FrameSink;
  readonly #maxPayload: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #fragments: Buffer[] = [];
  #fragmentsLength = 0;
  #fragmentOpcode: typeof OPCODE.text | typeof OPCODE.binary | undefined;
  #failed = false;

  constructor(sink: FrameSink, maxPayload: number) {
    this.#sink = sink;
    this.#maxPayload = maxPayload;
  }

  /** Feeds bytes; throws FrameError on a protocol violation (the reader is then done). */
  push(chunk: Buffer): void {
    if (this.#failed || chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    try {
      while (this.#readFrame()) {
        /* one frame per turn */
      }
    } catch (err) {
      this.#failed = true;
      throw err;
    }
  }

  #readFrame(): boolean {
    if (this.#buffered < 2) return false;
    const head = this.#peek(Math.min(this.#buffered, 14));
    const b0 = head[0]!;
    const b1 = head[1]!;
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    const masked = (b1 & 0x80) !== 0;
    const len7 = b1 & 0x7f;
    const lenBytes = len7 === 126 ? 2 : len7 === 127 ? 8 : 0;
    const headerLength = 2 + lenBytes + (masked ? 4 : 0);
    if (this.#buffered < headerLength) return false;
    if ((b0 & 0x70) !== 0) throw new FrameError('reserved bits set (no extension was negotiated)', 1002);
    let length = len7;
    if (lenBytes === 2) length = head.readUInt16BE(2);
    if (lenBytes === 8) {
      const big = head.readBigUInt64BE(2);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new FrameError('frame length out of range', 1009);
      length = Number(big);
    }
    const control = opcode >= 0x8;
    if (control && (!fin || length > 125)) throw new FrameError('fragmented or oversized control frame', 1002);
    if (!control && this.#fragmentsLength + length > this.#maxPayload) {
      throw new FrameError(`message larger than ${this.#maxPayload} bytes`, 1009);
    }
    if (this.#buffered < headerLength + length) return false;
    const mask = masked ? Buffer.from(head.subarray(2 + lenBytes, headerLength)) : undefined;
    this.#take(headerLength);
    let payload = this.#take(length);
    if (mask) {
      // servers never mask; unmask into a copy, so the caller's bytes stay as given
      payload = Buffer.from(payload);
      for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i & 3]!;
    }
    this.#frame(fin, opcode, payload);
    return true;
  }

  #frame(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case OPCODE.text:
      case OPCODE.binary:
        if (this.#fragmentOpcode !== undefined) throw new FrameError('new message inside a fragmented one', 1002);
        if (fin) {
          this.#sink.message(opcode, payload);
        } else {
          this.#fragmentOpcode = opcode;
          this.#fragments = [payload];
          this.#fragmentsLength = payload.length;
        }
        return;
      case OPCODE.continuation: {
        const first = this.#fragmentOpcode;
        if (first === undefined) throw new FrameError('continuation frame without a message', 1002);
        this.#fragments.push(payload);
        this.#fragmentsLength += payload.length;
        if (!fin) return;
        const data = Buffer.concat(this.#fragments, this.#fragmentsLength);
        this.#fragments = [];
        this.#fragmentsLength = 0;
        this.#fragmentOpcode = undefined;
        this.#sink.message(first, data);
        return;
      }
      case OPCODE.ping:
        this.#sink.ping(payload);
        return;
      case OPCODE.pong:
        this.#sink.pong(payload);
        return;
      case OPCODE.close:
        if (payload.length === 1) throw new FrameError('close frame with a one-byte payload', 1002);
        this.#sink.close(
          payload.length >= 2 ? payload.readUInt16BE(0) : undefined,
          payload.subarray(2).toString('utf8'),
        );
        return;
      default:
        throw new FrameError(`unknown opcode ${opcode}`, 1002);
    }
  }

  /** The first n buffered bytes, without consuming them (n ≤ buffered). */
  #peek(n: number): Buffer {
    const first = this.#chunks[0]!;
    if (first.length >= n) return first;
    return this.#gather(n, false);
  }

  /** Consumes and returns the first n buffered bytes (n ≤ buffered). */
  #take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const first = this.#chunks[0]!;
    if (first.length === n) {
      this.#chunks.shift();
      this.#buffered -= n;
      return first;
    }
    if (first.length > n) {
      this.#chunks[0] = first.subarray(n);
      this.#buffered -= n;
      return first.subarray(0, n);
    }
    return this.#gather(n, true);
  }

  #gather(n: number, consume: boolean): Buffer {
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    let i = 0;
    while (filled < n) {
      const chunk = this.#chunks[i]!;
      const use = Math.min(chunk.length, n - filled);
      chunk.copy(out, filled, 0, use);
      filled += use;
      if (consume && use < chunk.length) this.#chunks[i] = chunk.subarray(use);
      else i++;
    }
    if (consume) {
      this.#chunks.splice(0, i);
      this.#buffered -= n;
    }
    return out;
  }
}
