import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/**
 * `expect(actual).toEqual(expected)`, tried first as node:util's isDeepStrictEqual. Vitest's equality walks a
 * Buffer byte by byte as keys, and arrays of records key by key (a second for 600 Parquet rows); a strict match
 * is also a toEqual match, so the verdict is the same, and a mismatch still gets toEqual's diff.
 */
export function expectEqual<T>(actual: T, expected: T, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}
