/**
 * WindowKeeper at its edges: times within one millisecond ordered by their digits past it, the id tie-break
 * whatever the order swaps arrive in, swaps without an id never taken for duplicates, the edges of a part.
 */
import { describe, expect, it } from 'vitest';
import type { DateRangeFilter, Swap } from '../../src/api/types.js';
import { WindowKeeper } from '../../src/windows/order.js';

const from = Date.parse('2026-11-01T00:00:00Z');
const to = Date.parse('2026-11-01T00:30:00Z');

const swap = (id: string | undefined, withdrawnAt: unknown, extra: Record<string, unknown> = {}) => ({ id, withdrawnAt, ...extra }) as unknown as Swap;

function keep(swaps: readonly Swap[], filter?: DateRangeFilter, range: [number, number] = [from, to]) {
  const keeper = new WindowKeeper<Swap>(range[0], range[1], filter, (s) => s);
  for (const s of swaps) keeper.offer(s);
  const kept = keeper.result();
  return { ids: kept.swaps.map((s) => s.id ?? `(${String(s.withdrawnAt)})`), dropped: kept.dropped, outside: kept.outside.map((s) => s.id) };
}

describe('WindowKeeper order', () => {
  it('orders swaps of one millisecond by the digits past it, before their ids', () => {
    const swaps = [swap('a', '2026-11-01T00:10:00.1234567Z'), swap('b', '2026-11-01T00:10:00.1230001Z'), swap('c', '2026-11-01T00:10:00.1230000Z')];
    expect(keep(swaps).ids).toEqual(['c', 'b', 'a']);
    expect(keep([...swaps].reverse()).ids).toEqual(['c', 'b', 'a']);
  });

  it('reads the digits past the millisecond as a number: .123Z is before .1230001Z, a whole second before .0000001 past it', () => {
    // System.Text.Json trims a fraction's trailing zeros: .1230000 comes as .123, and a whole second has none.
    const swaps = [
      swap('b', '2026-11-01T00:10:00.1230001Z'),
      swap('a', '2026-11-01T00:10:00.123Z'),
      swap('d', '2026-11-01T00:10:01.0000001Z'),
      swap('c', '2026-11-01T00:10:01Z'),
    ];
    expect(keep(swaps).ids).toEqual(['a', 'b', 'c', 'd']);
    expect(keep([...swaps].reverse()).ids).toEqual(['a', 'b', 'c', 'd']);
  });

  it('reads fewer than six digits past the millisecond as the leading ones: .1231 (100 µs) after .1230002 (0.2 µs)', () => {
    const swaps = [swap('a', '2026-11-01T00:10:00.1231Z'), swap('b', '2026-11-01T00:10:00.1230002Z')];
    expect(keep(swaps).ids).toEqual(['b', 'a']);
  });

  it('orders one instant written two ways by its text, then by id', () => {
    const swaps = [swap('a', '2026-11-01T02:10:00+02:00'), swap('b', '2026-11-01T00:10:00Z')];
    expect(keep(swaps).ids).toEqual(['b', 'a']);
    expect(keep([...swaps].reverse()).ids).toEqual(['b', 'a']);
  });

  it('sorts many swaps of one time by id, and keeps swaps without an id of one time in the order they came', () => {
    const t = '2026-11-01T00:10:00Z';
    const ids = Array.from({ length: 60 }, (_, i) => `id${String((i * 37) % 60).padStart(2, '0')}`);
    expect(keep(ids.map((id) => swap(id, t))).ids).toEqual([...ids].sort());
    const keeper = new WindowKeeper<number>(from, to, undefined, (s) => (s as unknown as { n: number }).n);
    for (let n = 0; n < 60; n++) keeper.offer(swap(undefined, t, { n }));
    expect(keeper.result().swaps).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  it('puts a time that is not text before unreadable text of the same (unplaceable) end', () => {
    expect(keep([swap('a', 'A-not-a-time'), swap('z', undefined)]).ids).toEqual(['z', 'a']);
  });

  it('breaks a tie of the very same time by id, whatever the order they came in', () => {
    const t = '2026-11-01T00:10:00Z';
    expect(keep([swap('b', t), swap('a', t), swap('c', t)]).ids).toEqual(['a', 'b', 'c']);
    expect(keep([swap('a', t), swap('c', t), swap('b', t)]).ids).toEqual(['a', 'b', 'c']);
    expect(keep([swap('c', t), swap('b', t), swap('a', t)]).ids).toEqual(['a', 'b', 'c']);
  });

  it('orders by time before the text of the time (an offset is read, not compared as text)', () => {
    const swaps = [swap('early', '2026-11-01T02:00:00+02:00'), swap('late', '2026-11-01T00:10:00Z')];
    expect(keep(swaps).ids).toEqual(['early', 'late']);
    expect(keep([...swaps].reverse()).ids).toEqual(['early', 'late']);
  });

  it('keeps swaps without a readable time last, in their id order', () => {
    const swaps = [swap('z', 'garbage'), swap('m', undefined), swap('a', '2026-11-01T00:20:00Z'), swap('b', 12)];
    expect(keep(swaps)).toEqual({ ids: ['a', 'b', 'm', 'z'], dropped: 0, outside: [] });
  });
});

describe('WindowKeeper: what is kept once', () => {
  it('keeps every swap without an id, even two alike', () => {
    const t = '2026-11-01T00:10:00Z';
    expect(keep([swap(undefined, t), swap(undefined, t), swap('', t)])).toEqual({
      ids: ['(2026-11-01T00:10:00Z)', '(2026-11-01T00:10:00Z)', ''],
      dropped: 0,
      outside: [],
    });
  });

  it('drops a repeated id of the same content, counting it', () => {
    expect(keep([swap('a', '2026-11-01T00:10:00Z'), swap('a', '2026-11-01T00:10:00Z'), swap('a', '2026-11-01T00:10:00Z')])).toEqual({
      ids: ['a'],
      dropped: 2,
      outside: [],
    });
  });

  it('keeps [from, to): from is kept, to is an edge duplicate, a millisecond either side is outside', () => {
    const swaps = [
      swap('from', '2026-11-01T00:00:00Z'),
      swap('to', '2026-11-01T00:30:00Z'),
      swap('before', '2026-10-31T23:59:59.999Z'),
      swap('after', '2026-11-01T00:30:00.001Z'),
      swap('last', '2026-11-01T00:29:59.999Z'),
    ];
    expect(keep(swaps)).toEqual({ ids: ['from', 'last'], dropped: 1, outside: ['before', 'after'] });
  });

  it('a swap dropped on the edge or outside is not taken as seen: its id inside the window is kept', () => {
    const swaps = [swap('a', '2026-11-01T00:30:00Z'), swap('b', '2026-11-01T01:00:00Z'), swap('a', '2026-11-01T00:10:00Z'), swap('b', '2026-11-01T00:11:00Z')];
    expect(keep(swaps)).toEqual({ ids: ['a', 'b'], dropped: 1, outside: ['b'] });
  });

  it('reads the filter field: withdrawnAt when none, each filter its own', () => {
    const s = swap('a', '2026-11-01T05:00:00Z', { completedAt: '2026-11-01T00:10:00Z', depositedAt: '2026-11-01T00:30:00Z', updatedAt: 'x' });
    expect(keep([s]).outside).toEqual(['a']);
    expect(keep([s], 'Withdrawn').outside).toEqual(['a']);
    expect(keep([s], 'Completed')).toEqual({ ids: ['a'], dropped: 0, outside: [] });
    expect(keep([s], 'Deposited')).toEqual({ ids: [], dropped: 1, outside: [] });
    expect(keep([s], 'Updated')).toEqual({ ids: ['a'], dropped: 0, outside: [] });
  });

  it('a part of a window has its own edges, and the window keeps its ids and order', () => {
    const keeper = new WindowKeeper<string>(from, to, undefined, (s, bytes) => `${s.id}:${bytes?.toString() ?? '-'}`);
    keeper.part(from, from + 600_000);
    keeper.offer(swap('b', '2026-11-01T00:05:00Z'), Buffer.from('B'));
    keeper.offer(swap('edge', '2026-11-01T00:10:00Z'));
    keeper.offer(swap('later', '2026-11-01T00:15:00Z'));
    keeper.part(from + 600_000, to);
    keeper.offer(swap('edge', '2026-11-01T00:10:00Z'), Buffer.from('E'));
    keeper.offer(swap('b', '2026-11-01T00:05:00Z'));
    keeper.offer(swap('a', '2026-11-01T00:12:00Z'));
    const kept = keeper.result();
    expect(kept.swaps).toEqual(['b:B', 'edge:E', 'a:-']);
    expect(kept.dropped).toBe(1);
    expect(kept.outside.map((s) => s.id)).toEqual(['later', 'b']);
  });
});
