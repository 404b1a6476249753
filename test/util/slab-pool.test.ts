import { describe, expect, it } from 'vitest';
import { SlabPool } from '../../src/util/slab-pool.js';

const KIB = 1024;

/** A pool of the test's own: the process's one is shared with every other test file that runs in this worker. */
function pool(): { takeSlab: (size: number) => Buffer; intoSlab: (bytes: Buffer) => Buffer; giveSlab: (bytes: Buffer | ArrayBufferLike) => boolean } {
  const own = new SlabPool();
  return { takeSlab: (size) => own.take(size), intoSlab: (bytes) => own.into(bytes), giveSlab: (bytes) => own.give(bytes) };
}

describe('slab pool', () => {
  it('allocates small and very large buffers as usual and takes none of them back', () => {
    const { takeSlab, intoSlab, giveSlab } = pool();
    const small = takeSlab(100 * KIB);
    const huge = takeSlab(5 * KIB * KIB);
    expect([small.length, huge.length]).toEqual([100 * KIB, 5 * KIB * KIB]);
    expect([giveSlab(small), giveSlab(huge)]).toEqual([false, false]);
    const body = Buffer.alloc(5 * KIB * KIB);
    expect(intoSlab(body)).toBe(body);
    expect(giveSlab(Buffer.alloc(300 * KIB))).toBe(false);
  });

  it('gives memory back out for a buffer that fits, and replaces the free memory nearest in size when none does', () => {
    const { takeSlab, giveSlab } = pool();
    const first = takeSlab(300 * KIB);
    expect([first.length, first.buffer.byteLength]).toEqual([300 * KIB, 512 * KIB]);
    expect(giveSlab(first)).toBe(true);
    const again = takeSlab(400 * KIB);
    expect([again.length, again.buffer]).toEqual([400 * KIB, first.buffer]);
    giveSlab(again);
    // Too large for the free one: that one is freed, a larger one made.
    const larger = takeSlab(600 * KIB);
    expect([larger.buffer.byteLength, first.buffer.byteLength]).toEqual([768 * KIB, 0]);
    giveSlab(larger);
  });

  it('keeps two free buffers at most and frees the others', () => {
    const { takeSlab, giveSlab } = pool();
    const taken = [takeSlab(300 * KIB), takeSlab(300 * KIB), takeSlab(300 * KIB)];
    const memories = taken.map((bytes) => bytes.buffer);
    for (const bytes of taken) expect(giveSlab(bytes)).toBe(true);
    expect(memories.map((memory) => memory.byteLength > 0)).toEqual([true, true, false]);
    // Given back twice: kept once.
    expect(giveSlab(memories[0]!)).toBe(true);
    const reused = [takeSlab(300 * KIB), takeSlab(300 * KIB)].map((bytes) => bytes.buffer);
    expect(new Set(reused)).toEqual(new Set(memories.slice(0, 2)));
  });

  it('moves a large buffer into pooled memory and frees its own; leaves others as they are', () => {
    const { intoSlab, giveSlab } = pool();
    const body = Buffer.alloc(300 * KIB, 7);
    const moved = intoSlab(body);
    expect([moved.length, moved.every((byte) => byte === 7), body.length]).toEqual([300 * KIB, true, 0]);
    expect(giveSlab(moved)).toBe(true);
    const part = Buffer.alloc(600 * KIB, 1).subarray(0, 300 * KIB);
    const small = Buffer.alloc(10 * KIB);
    expect([intoSlab(part), intoSlab(small)]).toEqual([part, small]);
    expect([intoSlab(part) === part, intoSlab(small) === small]).toEqual([true, true]);
  });
});
