/** A window split after timeouts is still one window: its parts' swaps are kept once each and sorted together. */
import { describe, expect, it } from 'vitest';
import type { SwapWindowQuery } from '../../src/api/client.js';
import { TimeoutError } from '../../src/api/errors.js';
import type { Swap } from '../../src/api/types.js';
import { fetchWindow } from '../../src/windows/fetch-window.js';
import type { ReadWindow, SwapVisitor, WindowRead } from '../../src/windows/read-window.js';

const from = Date.parse('2026-11-01T00:00:00Z');
const to = Date.parse('2026-11-01T00:30:00Z');
const mid = Date.parse('2026-11-01T00:15:00Z');
const at = (ms: number) => new Date(ms).toISOString();
const swap = (id: string | null, withdrawnAt: string | null) => ({ id, withdrawnAt }) as unknown as Swap;

/**
 * A server that times out on the whole window and answers its halves as the API does (both ends included), plus,
 * in every answer, a swap without a filter time (a server fault) and one without an id exactly on the middle.
 */
function splittingReader(): { read: ReadWindow; asked: string[] } {
  const asked: string[] = [];
  const swaps = [
    swap('a', at(from + 60_000)),
    swap('mid', at(mid)),
    swap(null, at(mid)),
    swap('b', at(mid + 60_000)),
    swap('c', at(to - 1)),
    swap('next', at(to)),
  ];
  const read = async (query: SwapWindowQuery, visit: SwapVisitor): Promise<WindowRead> => {
    const [qFrom, qTo] = [Number(query.from), Number(query.to)];
    asked.push(`${at(qFrom)} ${at(qTo)}`);
    if (qTo - qFrom > 15 * 60_000) throw new TimeoutError('request timed out', { method: 'GET', path: '/swaps' });
    const answer = [swap('no-time', null), ...swaps.filter((s) => Date.parse(s.withdrawnAt!) >= qFrom && Date.parse(s.withdrawnAt!) <= qTo)];
    for (const s of answer) visit(s, undefined);
    return { count: answer.length, body: Buffer.from(asked.at(-1)!) };
  };
  return { read, asked };
}

describe('fetchWindow after a timeout', () => {
  it('asks for the halves and keeps each swap once, in the window’s order (one without a time last)', async () => {
    const { read, asked } = splittingReader();
    const stats = { splits: 0 };
    const kept = await fetchWindow(read, { from, to }, undefined, stats);
    expect(asked).toEqual([`${at(from)} ${at(to)}`, `${at(from)} ${at(mid)}`, `${at(mid)} ${at(to)}`]);
    expect(stats.splits).toBe(1);
    expect(kept.swaps.map((s) => s.id)).toEqual(['a', null, 'mid', 'b', 'c', 'no-time']);
    // The middle's two swaps from the first half and 'next' (the next window's) are edge duplicates; so is the second 'no-time'.
    expect(kept.dropped).toBe(4);
    expect(kept.outside).toEqual([]);
  });
});
