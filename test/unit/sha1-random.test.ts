// The two stand-ins for node:crypto on every call's path (src/common/sha1.ts, random.ts): SHA-1
// must agree with Node's own implementation byte for byte, and random bytes must never repeat.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomBytes, sha1 } from '../../src/common/index.js';

const nodeSha1 = (data: string | Uint8Array): string => createHash('sha1').update(data).digest('hex');

describe('sha1', () => {
  it('matches the FIPS 180 examples', () => {
    expect(sha1('abc').toString('hex')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1('').toString('hex')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq').toString('hex')).toBe(
      '84983e441c3bd26ebaae4aa1f95129e5e54670f1',
    );
  });

  it('matches node:crypto at every length around the padding boundaries, and on large input', () => {
    for (let n = 0; n <= 200; n++) {
      const s = 'ab\u00e9\u{1F600}'.repeat(n).slice(0, n);
      expect(sha1(s).toString('hex'), `length ${n}`).toBe(nodeSha1(s));
    }
    const big = Buffer.alloc(3_000_017);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
    expect(sha1(big).toString('hex')).toBe(nodeSha1(big));
  });

  it('computes the RFC 6455 handshake example', () => {
    const accept = sha1('dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11').toString('base64');
    expect(accept).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });
});

describe('randomBytes', () => {
  it('gives the size asked for, never the same bytes twice, across pool refills and large requests', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const b = randomBytes(16);
      expect(b).toHaveLength(16);
      seen.add(b.toString('hex'));
    }
    expect(seen.size).toBe(2_000);
    const large = randomBytes(5_000);
    expect(large).toHaveLength(5_000);
    expect(new Set(large).size).toBeGreaterThan(200); // all 256 values are near certain in 5,000 bytes
  });

  it('hands out copies: changing one does not change the next', () => {
    const a = randomBytes(4);
    a.fill(0);
    expect(randomBytes(4).equals(Buffer.alloc(4))).toBe(false);
  });
});
