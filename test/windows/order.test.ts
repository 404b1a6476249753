import { describe, expect, it, onTestFinished } from 'vitest';
import type { DateRangeFilter, Swap } from '../../src/api/types.js';
import { type Kept, WindowKeeper } from '../../src/windows/order.js';

/** A whole list offered to a WindowKeeper, as fetchWindow offers a window's swaps one at a time. */
function keepWindow(swaps: readonly Swap[], from: number, to: number, filter: DateRangeFilter | undefined): Kept {
  const keeper = new WindowKeeper<Swap>(from, to, filter, (swap) => swap);
  for (const swap of swaps) keeper.offer(swap);
  return keeper.result();
}

const swap = (id: string, withdrawnAt: string, completedAt = withdrawnAt) => ({ id, withdrawnAt, completedAt }) as unknown as Swap;
const from = Date.parse('2026-11-01T00:00:00Z');
const to = Date.parse('2026-11-01T00:30:00Z');

describe('keepWindow', () => {
  it('keeps [from, to): a swap on the end edge belongs to the next window', () => {
    const kept = keepWindow([swap('b', '2026-11-01T00:30:00Z'), swap('a', '2026-11-01T00:00:00Z'), swap('c', '2026-11-01T00:29:59.999Z')], from, to, undefined);
    expect(kept.swaps.map((s) => s.id)).toEqual(['a', 'c']);
    expect(kept.dropped).toBe(1);
  });
  it('orders by the filter time, then id', () => {
    const list = [
      swap('z', '2026-11-01T00:10:00Z', '2026-11-01T00:01:00Z'),
      swap('y', '2026-11-01T00:05:00Z', '2026-11-01T00:20:00Z'),
      swap('x', '2026-11-01T00:05:00Z', '2026-11-01T00:02:00Z'),
    ];
    expect(keepWindow(list, from, to, 'Withdrawn').swaps.map((s) => s.id)).toEqual(['x', 'y', 'z']);
    expect(keepWindow(list, from, to, 'Completed').swaps.map((s) => s.id)).toEqual(['z', 'x', 'y']);
  });
  it('counts swaps outside [from, to] apart from edge duplicates, and returns them', () => {
    const kept = keepWindow(
      [
        swap('a', '2026-11-01T00:01:00Z'),
        swap('early', '2026-10-31T23:59:59Z'),
        swap('edge', '2026-11-01T00:30:00Z'),
        swap('late', '2026-11-01T00:30:00.001Z'),
      ],
      from,
      to,
      undefined,
    );
    expect(kept.swaps.map((s) => s.id)).toEqual(['a']);
    expect(kept.dropped).toBe(1);
    expect(kept.outside.map((s) => s.id)).toEqual(['early', 'late']);
  });
  it('drops a repeated id', () => {
    const kept = keepWindow([swap('a', '2026-11-01T00:01:00Z'), swap('a', '2026-11-01T00:01:00Z')], from, to, undefined);
    expect(kept.swaps).toHaveLength(1);
    expect(kept.dropped).toBe(1);
  });
  it('is independent of input order', () => {
    const list = Array.from({ length: 50 }, (_, i) => swap(`id${(i * 7) % 50}`, `2026-11-01T00:${String(i % 30).padStart(2, '0')}:00Z`));
    const a = keepWindow(list, from, to, undefined).swaps;
    const b = keepWindow([...list].reverse(), from, to, undefined).swaps;
    expect(b).toEqual(a);
  });
});

describe('keepWindow with zoneless API times', () => {
  it('reads them as UTC, so no swap is dropped on a machine in another zone', () => {
    const zone = process.env.TZ;
    // Node applies a TZ change at once: this runs as on a machine in New York.
    process.env.TZ = 'America/New_York';
    onTestFinished(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    expect(new Date(Date.parse('2026-11-01T00:00:00')).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    const list = [swap('a', '2026-11-01T00:00:00'), swap('b', '2026-11-01T00:10:00.1234567'), swap('c', '2026-11-01T00:29:59')];
    expect(keepWindow(list, from, to, undefined).swaps.map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });
});
