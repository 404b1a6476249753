/**
 * What every MirrorStore (src/sync/store.ts) must do, as one suite any store runs against its real destination:
 * the folder of partitions here (folder-store.test.ts), a database table next to it. The engine relies on each
 * point: the saved state read back as written, rows and state committed together, the newer-version rule (later
 * updatedAt, digits past the millisecond included, down to the microsecond that Parquet and timestamptz keep; a
 * key repeated before a commit collapsed to the latest; an older or the same version changes nothing), new and late told apart, one writer, and a failed first run undone.
 */
import { describe, expect, it } from 'vitest';
import type { Swap } from '../../src/api/types.js';
import { SyncLockedError } from '../../src/fs/lock.js';
import { newState } from '../../src/sync/store.js';
import type { MirrorQuery, MirrorRow, MirrorState, MirrorStore } from '../../src/sync/store.js';
import { ONE_SWAP } from './one-swap.js';

export interface StoreUnderTest<Q extends MirrorQuery> {
  /** a store on a destination of its own, new (no state, no rows) */
  store: MirrorStore<Q>;
  /** another store on the same destination (a second sync) */
  another(): MirrorStore<Q>;
  /** every row held: at least id, updatedAt and depositUsdAmount, in any order */
  held(): Promise<Record<string, unknown>[]>;
}

const T = Date.parse('2026-11-01T00:00:00Z');
const note = () => {};

/** A swap completed `minutes` after T, in version `updatedAt` with `usd` as its amount. */
function swap(id: string, minutes: number, updatedAt: string, usd: number): Swap {
  const completedAt = new Date(T + minutes * 60_000).toISOString();
  return { ...ONE_SWAP, id, completedAt, withdrawnAt: completedAt, updatedAt, depositUsdAmount: usd } as unknown as Swap;
}

const row = (s: Swap): MirrorRow => ({ swap: s, completedMs: Date.parse(String(s.completedAt)) });
const amounts = async (store: StoreUnderTest<MirrorQuery>) =>
  Object.fromEntries((await store.held()).map((r) => [String(r.id), Number(r.depositUsdAmount)]).sort(([a], [b]) => String(a).localeCompare(String(b))));

/** Opens a new mirror and records its start, as the engine does. */
async function started<Q extends MirrorQuery>(subject: StoreUnderTest<Q>): Promise<MirrorState<Q>> {
  const { store } = subject;
  expect(await store.readState()).toBeUndefined();
  expect(await store.open(note)).toBeUndefined();
  const state = newState(store.resolveQuery('https://api.example.test', undefined), T);
  expect(await store.commit(state, state.cursor)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, touched: [] });
  return state;
}

export function describeMirrorStore<Q extends MirrorQuery>(name: string, make: () => Promise<StoreUnderTest<Q>>): void {
  describe(`${name}: the MirrorStore contract`, () => {
    it('a new mirror: no state; its start, committed alone, reads back as written', async () => {
      const subject = await make();
      const state = await started(subject);
      expect(await subject.store.readState()).toEqual(state);
      expect(await subject.held()).toEqual([]);
      await subject.store.close(false);
      expect(await subject.another().readState()).toEqual(state);
    });

    it('rows commit with the next state; new and late are told apart by newFrom; the same versions again change nothing', async () => {
      const subject = await make();
      const { store } = subject;
      const state = await started(subject);
      for (const s of [swap('a', 10, '2026-11-01T00:10:00.0000001Z', 1), swap('b', 70, '2026-11-01T01:10:00Z', 2), swap('c', 130, '2026-11-01T02:10:00Z', 3)])
        await store.add(row(s));
      expect(store.buffered).toBe(3);
      const next = { ...state, cursor: T + 3 * 3_600_000, updatedCursor: T + 3 * 3_600_000 };
      const first = await store.commit(next, T + 60 * 60_000);
      expect(first).toMatchObject({ newSwaps: 2, lateSwaps: 1, updatedSwaps: 0 });
      expect(first.touched.length).toBeGreaterThan(0);
      expect(store.buffered).toBe(0);
      expect(await store.readState()).toEqual(next);
      expect(await amounts(subject as unknown as StoreUnderTest<MirrorQuery>)).toEqual({ a: 1, b: 2, c: 3 });

      await store.add(row(swap('a', 10, '2026-11-01T00:10:00.0000001Z', 1)));
      expect(await store.commit(next, next.cursor)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, touched: [] });
      await store.close(false);
    });

    it('a later updatedAt replaces the held version, a tick past the millisecond included; an older one changes nothing', async () => {
      const subject = await make();
      const { store } = subject;
      const state = await started(subject);
      await store.add(row(swap('a', 10, '2026-11-01T05:00:00.1230010Z', 1)));
      await store.commit(state, T);
      await store.add(row(swap('a', 10, '2026-11-01T05:00:00.1230090Z', 2)));
      expect(await store.commit(state, T)).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1 });
      await store.add(row(swap('a', 10, '2026-11-01T04:00:00Z', 3)));
      expect(await store.commit(state, T)).toMatchObject({ updatedSwaps: 0, touched: [] });
      expect(await amounts(subject as unknown as StoreUnderTest<MirrorQuery>)).toEqual({ a: 2 });
      await store.close(false);
    });

    it('a key repeated before a commit collapses to its latest version, whatever the order it came in', async () => {
      const subject = await make();
      const { store } = subject;
      const state = await started(subject);
      await store.add(row(swap('a', 10, '2026-11-01T06:00:00.5000020Z', 2)));
      await store.add(row(swap('a', 10, '2026-11-01T06:00:00.5000010Z', 1)));
      await store.add(row(swap('b', 20, '2026-11-01T06:00:00Z', 1)));
      await store.add(row(swap('b', 20, '2026-11-01T07:00:00Z', 2)));
      expect(await store.commit(state, T)).toMatchObject({ newSwaps: 2, updatedSwaps: 0 });
      expect(await amounts(subject as unknown as StoreUnderTest<MirrorQuery>)).toEqual({ a: 2, b: 2 });
      await store.close(false);
    });

    it('one writer: a second store cannot open while the first holds the lock, and can once it is closed', async () => {
      const subject = await make();
      await started(subject);
      await subject.store.checkLock();
      const second = subject.another();
      await expect(second.open(note)).rejects.toBeInstanceOf(SyncLockedError);
      await subject.store.close(false);
      const third = subject.another();
      expect(await third.open(note)).toBeDefined();
      await third.close(false);
    });

    it('close(discard) after a first run that committed only its start leaves no state behind', async () => {
      const subject = await make();
      await started(subject);
      await subject.store.close(true);
      expect(await subject.another().readState()).toBeUndefined();
    });
  });
}
