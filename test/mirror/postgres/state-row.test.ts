/**
 * The state row of a mirror table (src/mirror/postgres/state.ts) against the real server: every cursor written as a
 * timestamptz and read back to the millisecond, the query as a JSON object, the optional re-scan times as NULL,
 * and a second write replacing every column of the row (one row per mirror table, others untouched).
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../src/mirror/postgres/driver.js';
import { ensureTables } from '../../../src/mirror/postgres/schema.js';
import { selectState, writeState } from '../../../src/mirror/postgres/state.js';
import type { MirrorState } from '../../../src/sync/store.js';
import { useDriver, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
let sql: Db;
const NAME = { schema: 'public', table: 'swaps' };

useDriver(db, async (opened) => {
  sql = opened;
  await ensureTables(sql, NAME);
});

const QUERY = { baseUrl: 'https://api.example/v1', filter: 'Completed' as const, fields: ['id', 'completedAt', 'updatedAt'] };
const T = Date.parse('2026-11-10T00:00:00.123Z');

/** The row as Postgres holds it: times as ISO text in UTC, the query's JSON type. */
async function stored(mirror: string) {
  const rows = await db.sql`
    SELECT mirror, jsonb_typeof(query) AS query_type, query, to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS since,
      to_char(completed_cursor AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS cursor,
      to_char(updated_cursor AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS updated_cursor,
      to_char(rescan_base AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS rescan_base,
      to_char(rescanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS rescanned_at,
      to_char(rescanned_to AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS rescanned_to,
      swapx_version, updated_at = now() AS now_at_read, updated_at <= now() AS updated_before
    FROM swapx_sync_state WHERE mirror = ${mirror}`;
  return rows[0];
}

describe('the state row', () => {
  it('a table without a row has no state', async () => {
    expect(await selectState(sql, { schema: 'public', table: 'nothing_here' })).toBeUndefined();
  });

  it('is written with each cursor to the millisecond and read back as written; no re-scan: both NULL', async () => {
    const state: MirrorState = { query: QUERY, since: T, cursor: T + 1, updatedCursor: T + 2, rescanBase: T + 3, rescannedAt: undefined };
    await sql.begin((tx) => writeState(tx, NAME, state, '1.2.3'));
    expect(await stored('swaps')).toEqual({
      mirror: 'swaps',
      query_type: 'object',
      query: QUERY,
      since: '2026-11-10T00:00:00.123',
      cursor: '2026-11-10T00:00:00.124',
      updated_cursor: '2026-11-10T00:00:00.125',
      rescan_base: '2026-11-10T00:00:00.126',
      rescanned_at: null,
      rescanned_to: null,
      swapx_version: '1.2.3',
      now_at_read: false,
      updated_before: true,
    });
    const read = await selectState(sql, NAME);
    expect(read).toStrictEqual({ query: QUERY, since: T, cursor: T + 1, updatedCursor: T + 2, rescanBase: T + 3, rescannedAt: undefined });
    expect(Object.keys(read!)).toEqual(['query', 'since', 'cursor', 'updatedCursor', 'rescanBase', 'rescannedAt']);
  });

  it('a second write replaces every column of the row; another mirror of the schema keeps its own', async () => {
    const other = { schema: 'public', table: 'other' };
    const first: MirrorState = { query: QUERY, since: T, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: undefined };
    await sql.begin((tx) => writeState(tx, other, first, '0.0.1'));
    const [before] = await db.sql`SELECT updated_at::text FROM swapx_sync_state WHERE mirror = 'other'`;
    const query = { ...QUERY, baseUrl: 'https://elsewhere.example' };
    const next: MirrorState = {
      query,
      since: T + 10,
      cursor: T + 20,
      updatedCursor: T + 30,
      rescanBase: T + 40,
      rescannedAt: T + 50,
      rescannedTo: T + 60,
    };
    await sql.begin((tx) => writeState(tx, other, next, '0.0.2'));
    expect(await stored('other')).toMatchObject({
      query,
      since: '2026-11-10T00:00:00.133',
      cursor: '2026-11-10T00:00:00.143',
      updated_cursor: '2026-11-10T00:00:00.153',
      rescan_base: '2026-11-10T00:00:00.163',
      rescanned_at: '2026-11-10T00:00:00.173',
      rescanned_to: '2026-11-10T00:00:00.183',
      swapx_version: '0.0.2',
    });
    // Compared as the server's text, to the microsecond: two transactions can fall in one millisecond.
    const [after] = await db.sql`SELECT updated_at::text FROM swapx_sync_state WHERE mirror = 'other'`;
    expect(after!.updated_at > before!.updated_at, `${after!.updated_at} after ${before!.updated_at}`).toBe(true);
    expect(await selectState(sql, other)).toStrictEqual(next);
    // The first mirror's row is its own.
    expect(await selectState(sql, NAME)).toMatchObject({ since: T, rescannedAt: undefined });
    const [count] = await db.sql`SELECT count(*)::int AS n FROM swapx_sync_state`;
    expect(count).toEqual({ n: 2 });
  });

  it('a re-scan time without rescannedTo: rescanned_to stays NULL, and the state has no rescannedTo', async () => {
    const name = { schema: 'public', table: 'third' };
    await sql.begin((tx) =>
      writeState(tx, name, { query: QUERY, since: T, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: T + 5, rescannedTo: T + 7 }, 'v'),
    );
    await sql.begin((tx) => writeState(tx, name, { query: QUERY, since: T, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: T + 5 }, 'v'));
    expect(await stored('third')).toMatchObject({ rescanned_at: '2026-11-10T00:00:00.128', rescanned_to: null });
    const read = await selectState(sql, name);
    expect(read).toStrictEqual({ query: QUERY, since: T, cursor: T, updatedCursor: T, rescanBase: T, rescannedAt: T + 5 });
    expect('rescannedTo' in read!).toBe(false);
  });

  it('reads the state table of its own schema', async () => {
    await db.sql`CREATE SCHEMA IF NOT EXISTS second`;
    const name = { schema: 'second', table: 'swaps' };
    await ensureTables(sql, name);
    expect(await selectState(sql, name)).toBeUndefined();
    await sql.begin((tx) => writeState(tx, name, { query: QUERY, since: 0, cursor: 0, updatedCursor: 0, rescanBase: 0, rescannedAt: undefined }, 'v'));
    expect(await selectState(sql, name)).toMatchObject({ since: 0 });
    expect(await selectState(sql, NAME)).toMatchObject({ since: T });
  });
});
