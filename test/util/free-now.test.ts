import { markAsUntransferable } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { freeNow } from '../../src/util/free-now.js';
import { expectEqual } from '../helpers/equal.js';

describe('freeNow', () => {
  it('frees a buffer that is all of its memory: it and every view of it read as empty', () => {
    const bytes = Buffer.alloc(64 * 1024, 1);
    const view = bytes.subarray(10, 20);
    expect(freeNow(bytes)).toBe(true);
    expect([bytes.length, view.length, bytes.buffer.byteLength]).toEqual([0, 0, 0]);
  });

  it.each([
    // Node's pool: other buffers share its memory.
    ['a small buffer', () => Buffer.from('small')],
    ['a part of a larger buffer', () => Buffer.alloc(64 * 1024, 1).subarray(0, 1024)],
    ['an empty buffer', () => Buffer.alloc(0)],
    [
      'memory Node keeps for itself',
      () => {
        const bytes = Buffer.alloc(64 * 1024, 1);
        markAsUntransferable(bytes.buffer);
        return bytes;
      },
    ],
  ])('leaves %s alone', (_, make) => {
    const bytes = make();
    const before = Buffer.from(bytes);
    expect(freeNow(bytes)).toBe(false);
    expectEqual(bytes, before);
  });
});
