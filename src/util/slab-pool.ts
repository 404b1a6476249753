/**
 * Memory for a dense export's large buffers (each window's response body and its encoded text, ~1.5 MB each), used
 * again window after window instead of allocated and freed for each. Allocated and freed in sizes that differ a
 * little each time, they leave the C heap full of holes that fit none of the next ones: a 10-day export grew by
 * ~6 MB over its run for that alone (1.07–1.11× the 1-day export's peak; pooled, 1.02–1.04×). Pooled, the memory
 * is what the busiest moment needed, reached early and kept.
 */
import { freeNow } from './free-now.js';

/** Buffers below this (sparse windows, lookups) are allocated as usual. */
const MIN_POOLED = 256 * 1024;
/**
 * And above this: a window this large is rare (it is ~20,000 swaps an hour), and keeping it would hold that much
 * more (a copy of the body, the free buffers kept) for the rest of the export.
 */
const MAX_POOLED = 4 * 1024 * 1024;
/** Pooled memory comes in multiples of this, so that a buffer a little larger than the last still fits. */
const STEP = 256 * 1024;
/** Free buffers kept at most; the others are freed (keeping more only raised the peak). */
const KEEP = 2;

/** A pool: the process has one (takeSlab, intoSlab, giveSlab); tests make their own. */
export class SlabPool {
  private readonly free: ArrayBuffer[] = [];
  private readonly pooled = new WeakSet<ArrayBuffer>();

  /** `size` bytes, not zeroed: from the pool when the size is worth it (give them back with give). */
  take(size: number): Buffer {
    if (size < MIN_POOLED || size > MAX_POOLED) return Buffer.allocUnsafe(size);
    const { free } = this;
    let best = -1;
    for (let i = 0; i < free.length; i++) {
      const length = free[i]!.byteLength;
      if (length >= size && (best < 0 || length < free[best]!.byteLength)) best = i;
    }
    if (best >= 0) return Buffer.from(free.splice(best, 1)[0]!, 0, size);
    // None fits: the largest free one is the nearest in size, and gives way to one that does.
    if (free.length > 0) {
      let largest = 0;
      for (let i = 1; i < free.length; i++) if (free[i]!.byteLength > free[largest]!.byteLength) largest = i;
      this.release(free.splice(largest, 1)[0]!);
    }
    const memory = Buffer.allocUnsafeSlow(Math.ceil(size / STEP) * STEP).buffer as ArrayBuffer;
    this.pooled.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /**
   * `bytes` moved into pooled memory when they are large enough and all of their memory (which is freed at once);
   * else `bytes` as they are. For buffers allocated elsewhere (a response body): their own memory then lives only
   * until here.
   */
  into(bytes: Buffer): Buffer {
    if (bytes.length < MIN_POOLED || bytes.length > MAX_POOLED || bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) return bytes;
    const copy = this.take(bytes.length);
    copy.set(bytes);
    freeNow(bytes);
    return copy;
  }

  /**
   * Takes back the memory of a buffer take gave, once nothing reads any view of it any more; whether it was this
   * pool's (other memory is left alone).
   */
  give(bytes: Buffer | ArrayBufferLike): boolean {
    const memory = Buffer.isBuffer(bytes) ? bytes.buffer : bytes;
    if (!(memory instanceof ArrayBuffer) || !this.pooled.has(memory)) return false;
    if (!this.free.includes(memory)) {
      if (this.free.length < KEEP) this.free.push(memory);
      else this.release(memory);
    }
    return true;
  }

  private release(memory: ArrayBuffer): void {
    this.pooled.delete(memory);
    freeNow(Buffer.from(memory));
  }
}

const shared = new SlabPool();

export const takeSlab = (size: number): Buffer => shared.take(size);
export const intoSlab = (bytes: Buffer): Buffer => shared.into(bytes);
export const giveSlab = (bytes: Buffer | ArrayBufferLike): boolean => shared.give(bytes);

/** Bytes nobody reads any more: back to the pool if they came from it, else freed now (when they are all of their memory). */
export function discard(bytes: Buffer): void {
  if (!shared.give(bytes)) freeNow(bytes);
}
