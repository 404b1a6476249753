/**
 * The Postgres table as the sync engine's store (src/mirror/postgres/store.ts), beyond the contract every store meets: its
 * name, its query, the note on a table of an older swapx, what it holds buffered, what a commit says it touched,
 * and close with and without discarding a first run.
 */
import { describe, expect, it } from 'vitest';
import { SWAP_FIELDS, type Swap } from '../../../src/api/types.js';
import { SyncLockedError } from '../../../src/fs/lock.js';
import { PostgresStore } from '../../../src/mirror/postgres/store.js';
import { newState } from '../../../src/sync/store.js';
import type { MirrorRow } from '../../../src/sync/store.js';
import { ONE_SWAP } from '../../helpers/one-swap.js';
import { pgTarget, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
const T = Date.parse('2026-11-01T00:00:00Z');
let tables = 0;
const make = (table = `store_${++tables}`) => new PostgresStore(pgTarget(db, { table }), '9.9.9');
const row = (id: string, minutes: number, updatedAt = '2026-11-01T00:00:00Z'): MirrorRow => {
  const completedAt = new Date(T + minutes * 60_000).toISOString();
  return { swap: { ...ONE_SWAP, id, completedAt, updatedAt } as unknown as Swap, completedMs: Date.parse(completedAt) };
};
const exists = async (table: string) => (await db.sql`SELECT to_regclass(${table}) IS NOT NULL AS ok`)[0]!.ok;

describe('PostgresStore', () => {
  it('is named by its user, server, database and table; its query keeps every field', () => {
    const store = make('named');
    expect(store.name).toBe(`swapx_test@127.0.0.1:${db.server.port}/${db.database} public.named`);
    const saved = { baseUrl: 'https://old.example', filter: 'Completed' as const, fields: ['id'] };
    expect(store.resolveQuery('https://api.example', saved)).toEqual({ baseUrl: 'https://api.example', filter: 'Completed', fields: [...SWAP_FIELDS] });
    expect(store.buffered).toBe(0);
  });

  it('buffers rows until a commit; a commit touches the table only when it changed a row', async () => {
    const store = make('touched');
    const notes: string[] = [];
    expect(await store.open((m) => notes.push(m))).toBeUndefined();
    expect(notes).toEqual([]);
    const state = newState(store.resolveQuery('https://api.example', undefined), T);
    expect(await store.commit(state, T)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, touched: [] });
    await store.add(row('a', 5));
    await store.add(row('b', 6));
    await store.add(row('a', 5));
    expect(store.buffered).toBe(2);
    expect(await store.commit(state, T)).toEqual({ newSwaps: 2, lateSwaps: 0, updatedSwaps: 0, touched: ['public.touched'] });
    expect(store.buffered).toBe(0);
    // Only a late one: touched.
    await store.add(row('c', 1));
    expect(await store.commit(state, T + 10 * 60_000)).toEqual({ newSwaps: 0, lateSwaps: 1, updatedSwaps: 0, touched: ['public.touched'] });
    // Only an update: touched.
    await store.add(row('a', 5, '2026-11-02T00:00:00Z'));
    expect(await store.commit(state, T)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1, touched: ['public.touched'] });
    // The same again: nothing.
    await store.add(row('a', 5, '2026-11-02T00:00:00Z'));
    expect(await store.commit(state, T)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, touched: [] });
    await store.checkLock();
    await store.close(false);
    expect(store.buffered).toBe(0);
    expect(await make('touched').readState()).toEqual(state);
    // Closed twice: nothing to do.
    await store.close(true);
    expect(await exists('touched')).toBe(true);
  });

  it('notes the columns it added to a table of an older swapx', async () => {
    const first = make('older');
    await first.open(() => {});
    await first.close(false);
    await db.sql.unsafe('ALTER TABLE older DROP COLUMN tags, DROP COLUMN balance_changes');
    const notes: string[] = [];
    const again = make('older');
    await again.open((m) => notes.push(m));
    await again.close(false);
    expect(notes).toEqual(['public.older was made by an older swapx: added the column(s) tags, balance_changes']);
  });

  it('close(true) undoes a first run that committed no row: no table, no state row; close(false) keeps them', async () => {
    const kept = make('kept');
    await kept.open(() => {});
    await kept.commit(newState(kept.resolveQuery('https://api.example', undefined), T), T);
    await kept.close(false);
    expect(await exists('kept')).toBe(true);
    const store = make('undone');
    await store.open(() => {});
    await store.commit(newState(store.resolveQuery('https://api.example', undefined), T), T);
    await store.close(true);
    expect(await exists('undone')).toBe(false);
    expect(await db.sql`SELECT mirror FROM swapx_sync_state WHERE mirror IN ('kept', 'undone')`).toEqual([{ mirror: 'kept' }]);
    // A store never opened closes without a word.
    await make('never').close(true);
    expect(await exists('never')).toBe(false);
  });

  it('checkLock: a store whose session was lost, its lock taken by another sync meanwhile, stops', async () => {
    const first = make('lost');
    await first.open(() => {});
    await first.checkLock();
    // Its session ends (only this database's: other files' syncs run on the same server).
    await db.admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database()`;
    const second = make('lost');
    await second.open(() => {});
    try {
      await expect(first.checkLock()).rejects.toBeInstanceOf(SyncLockedError);
    } finally {
      await second.close(false);
      await first.close(false);
    }
  });
});
