/**
 * fetchWindow at its edges, against a reader of the test's own: which errors split a window (a timeout, on a window of
 * two minutes or more) and which are thrown as they are, where the halves fall on an odd span, halves split again,
 * and what it passes through (the filter, the signal, the maker of each kept swap).
 */
import { describe, expect, it } from 'vitest';
import { createClient, type SwapWindowQuery } from '../../src/api/client.js';
import { ApiError, TimeoutError } from '../../src/api/errors.js';
import type { Swap } from '../../src/api/types.js';
import { fetchWindow } from '../../src/windows/fetch-window.js';
import type { SwapVisitor, WindowRead } from '../../src/windows/read-window.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { useRouteServer } from '../helpers/route-server.js';

const from = Date.parse('2026-11-01T00:00:00Z');
const at = (ms: number) => new Date(ms).toISOString();
const span = (q: SwapWindowQuery) => `+${(Number(q.from) - from) / 1000}s..+${(Number(q.to) - from) / 1000}s`;
const timeout = () => new TimeoutError('request timed out', { method: 'GET', path: '/swaps' });

/** A reader that throws `fail(query)` when it returns an error, else visits `swaps` that lie in the query's range. */
function reader(fail: (q: SwapWindowQuery) => unknown, swaps: Swap[] = []) {
  const asked: string[] = [];
  const queries: SwapWindowQuery[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const read = async (query: SwapWindowQuery, visit: SwapVisitor, signal?: AbortSignal): Promise<WindowRead> => {
    asked.push(span(query));
    queries.push(query);
    signals.push(signal);
    const error = fail(query);
    if (error) throw error;
    const inside = swaps.filter((s) => {
      const time = Date.parse((s.completedAt ?? s.withdrawnAt)!);
      return time >= Number(query.from) && time < Number(query.to);
    });
    for (const s of inside) visit(s, Buffer.from(JSON.stringify(s)));
    return { count: inside.length, body: Buffer.alloc(0) };
  };
  return { read, asked, queries, signals };
}

const longerThan = (ms: number) => (q: SwapWindowQuery) => (Number(q.to) - Number(q.from) > ms ? timeout() : undefined);

describe('fetchWindow: what splits a window', () => {
  it('throws an error other than a timeout as it is, without splitting', async () => {
    const failure = new ApiError('server error', 500, {}, undefined, { method: 'GET', path: '/swaps' });
    const { read, asked } = reader(() => failure);
    const stats = { splits: 0 };
    await expect(fetchWindow(read, { from, to: from + 1_800_000 }, undefined, stats)).rejects.toBe(failure);
    expect([asked, stats.splits]).toEqual([['+0s..+1800s'], 0]);
  });

  it('throws a timeout of a window shorter than two minutes', async () => {
    const error = timeout();
    const { read, asked } = reader(() => error);
    const stats = { splits: 0 };
    await expect(fetchWindow(read, { from, to: from + 119_999 }, undefined, stats)).rejects.toBe(error);
    expect([asked, stats.splits]).toEqual([['+0s..+119.999s'], 0]);
  });

  it('splits a window of exactly two minutes into two of one, and throws when one of them times out', async () => {
    const { read, asked } = reader(longerThan(60_000));
    const stats = { splits: 0 };
    const kept = await fetchWindow(read, { from, to: from + 120_000 }, undefined, stats);
    expect([asked, stats.splits, kept.swaps]).toEqual([['+0s..+120s', '+0s..+60s', '+60s..+120s'], 1, []]);
    const error = timeout();
    const again = reader(() => error);
    await expect(fetchWindow(again.read, { from, to: from + 120_000 }, undefined, { splits: 0 })).rejects.toBe(error);
    expect(again.asked).toEqual(['+0s..+120s', '+0s..+60s']);
  });

  it('halves an odd span on whole seconds, and splits halves that time out again', async () => {
    const odd = reader(longerThan(100_000));
    const stats = { splits: 0 };
    await fetchWindow(odd.read, { from, to: from + 150_500 }, undefined, stats);
    expect([odd.asked, stats.splits]).toEqual([['+0s..+150.5s', '+0s..+75s', '+75s..+150.5s'], 1]);

    const deep = reader(longerThan(60_000));
    const counted = { splits: 2 };
    await fetchWindow(deep.read, { from, to: from + 240_000 }, undefined, counted);
    expect(deep.asked).toEqual(['+0s..+240s', '+0s..+120s', '+0s..+60s', '+60s..+120s', '+120s..+240s', '+120s..+180s', '+180s..+240s']);
    expect(counted.splits).toBe(5);
  });

  it('counts no split when none is needed, with or without stats given', async () => {
    const { read, asked } = reader(() => undefined);
    const stats = { splits: 0 };
    await fetchWindow(read, { from, to: from + 1_800_000 }, undefined, stats);
    expect([asked, stats.splits]).toEqual([['+0s..+1800s'], 0]);
    expect((await fetchWindow(read, { from, to: from + 60_000 }, undefined)).swaps).toEqual([]);
  });
});

describe('fetchWindow: what it passes on', () => {
  const swaps = [
    { id: 'b', completedAt: at(from + 2_000), withdrawnAt: at(from + 500) },
    { id: 'a', completedAt: at(from + 1_000), withdrawnAt: at(from + 3_000) },
  ] as unknown as Swap[];

  it('asks with the filter and the signal, and keeps by the filter time, made by `make` with the raw bytes', async () => {
    const { read, queries, signals } = reader(() => undefined, swaps);
    const controller = new AbortController();
    const made = await fetchWindow(
      read,
      { from, to: from + 60_000 },
      'Completed',
      { splits: 0 },
      controller.signal,
      (swap, raw) => `${swap.id}:${raw?.length}`,
    );
    expect(queries.map((q) => [q.filter, Number(q.from), Number(q.to)])).toEqual([['Completed', from, from + 60_000]]);
    expect(signals).toEqual([controller.signal]);
    expect(made.swaps).toEqual([`a:${JSON.stringify(swaps[1]).length}`, `b:${JSON.stringify(swaps[0]).length}`]);
  });

  it('keeps the swaps themselves without `make`', async () => {
    const { read } = reader(() => undefined, swaps);
    const kept = await fetchWindow(read, { from, to: from + 60_000 }, 'Completed');
    expect(kept.swaps).toEqual([swaps[1], swaps[0]]);
    expect(kept.dropped).toBe(0);
  });
});

describe('fetchWindow over a client', () => {
  const urls: string[] = [];
  const server = useRouteServer({
    '/s': (req, res) => {
      urls.push(decodeURIComponent(req.url ?? ''));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ ...ONE_SWAP, completedAt: '2026-11-01T00:00:30Z' }]));
    },
  });

  it("reads the window through the client's window reader", async () => {
    const client = createClient({ baseUrl: `${server.base}/s`, retries: 0 });
    const kept = await fetchWindow(client, { from, to: from + 60_000 }, 'Completed');
    expect(urls).toEqual(['/s/v1/external/swaps?From=2026-11-01T00:00:00Z&To=2026-11-01T00:01:00Z&Filter=Completed']);
    expect(kept.swaps.map((s) => [s.id, s.completedAt])).toEqual([['a1', '2026-11-01T00:00:30Z']]);
  });
});
