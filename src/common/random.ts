// Unpredictable bytes (WebSocket keys and masks, temporary file names) read from the kernel's
// /dev/urandom with the fs module every process has loaded anyway. node:crypto would give the same
// bytes but costs a short-lived process ~3.5 ms to load; it is the fallback where there is no
// /dev/urandom (Windows).

import { closeSync, openSync, readSync } from 'node:fs';
import { requireBuiltin } from './lazy.js';

/** Bytes read from the kernel at a time: a command needs a few hundred (4 per WebSocket frame). */
const POOL_BYTES = 1024;

let pool: Buffer = Buffer.alloc(0);
let used = 0;

function fromKernel(size: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    const buf = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const n = readSync(fd, buf, filled, size - filled, null);
      if (n <= 0) return undefined;
      filled += n;
    }
    return buf;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `size` fresh random bytes; no byte is handed out twice. */
export function randomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return fromKernel(size) ?? fromCrypto(size);
  if (used + size > pool.length) {
    pool = fromKernel(POOL_BYTES) ?? fromCrypto(POOL_BYTES);
    used = 0;
  }
  const out = Buffer.from(pool.subarray(used, used + size));
  pool.fill(0, used, used + size);
  used += size;
  return out;
}

function fromCrypto(size: number): Buffer {
  const { randomFillSync } = requireBuiltin('node:crypto') as typeof import('node:crypto');
  return randomFillSync(Buffer.allocUnsafe(size));
}
