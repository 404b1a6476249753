/**
 * The Postgres mirror (src/mirror/postgres/mirror.ts) beyond test/mirror/postgres/mirror.test.ts: the lock's key (the same for every
 * swapx), who holds it, the state read without the lock, discard after a first run, the fields the API adds (in
 * _swapx_extra, with no DDL), counts of undated rows, and a commit after close.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { SyncLockedError } from '../../../src/fs/lock.js';
import type { Db } from '../../../src/mirror/postgres/driver.js';
import { lockHolder } from '../../../src/mirror/postgres/lock.js';
import { lockKey, PostgresMirror } from '../../../src/mirror/postgres/mirror.js';
import type { PgTarget } from '../../../src/mirror/postgres/target.js';
import type { MirrorState } from '../../../src/sync/store.js';
import { ONE_SWAP } from '../../helpers/one-swap.js';
import { pgTarget, type TestDatabase, usePostgres } from '../../helpers/postgres.js';
import { adminConnection } from '../../../scripts/support/postgres-cluster.js';

const db = usePostgres();
const OPEN = { version: '1.0.0-mm' };
const T = Date.parse('2026-11-01T00:00:00Z');
const STATE: MirrorState = {
  query: { baseUrl: 'https://api.example', filter: 'Completed', fields: ['id'] },
  since: T,
  cursor: T + 60_000,
  updatedCursor: T + 60_000,
  rescanBase: T,
  rescannedAt: undefined,
};

let tables = 0;
const target = (extra: Partial<PgTarget> = {}) => pgTarget(db, { table: `mm_${++tables}`, ...extra });
const opened: PostgresMirror[] = [];
async function open(t: PgTarget): Promise<PostgresMirror> {
  const mirror = await PostgresMirror.open(t, OPEN);
  opened.push(mirror);
  return mirror;
}
afterEach(async () => {
  for (const mirror of opened.splice(0)) await mirror.close();
});

const swap = (id: string, extra: Record<string, unknown> = {}) => ({ ...ONE_SWAP, id, ...extra }) as Record<string, unknown>;
const exists = async (name: string) => (await db.sql`SELECT to_regclass(${name}) IS NOT NULL AS ok`)[0]!.ok;
/** The mirror's own connection (private: for what only its session shows). */
const session = (mirror: PostgresMirror) => (mirror as unknown as { db: Db }).db;
/** Lets the driver see its session ended (the next query then connects again). */
const lost = () => new Promise((resolve) => setTimeout(resolve, 300));
/** Runs `fn` while this database takes no connection, the mirrors' sessions ended. */
async function closed(fn: () => Promise<unknown>): Promise<void> {
  const root = adminConnection(db.server);
  try {
    await root.unsafe(`ALTER DATABASE ${db.database} ALLOW_CONNECTIONS false`);
    await endSessions();
    await lost();
    await fn();
  } finally {
    await root.unsafe(`ALTER DATABASE ${db.database} ALLOW_CONNECTIONS true`);
    await root.end({ timeout: 1 });
  }
}
/** This database's swapx sessions (other files' syncs run on the same server). */
const endSessions = () =>
  db.admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database()`;

/** A table's lock key as every swapx derives it: the first 8 bytes of sha256 of its database, schema and name. */
const lockKeyOf = (t: PgTarget) => createHash('sha256').update(`swapx sync\u0000${db.database}\u0000public\u0000${t.table}`).digest().readBigInt64BE(0);

/** What a mirror opening `t` meets while a session of `sessions` holds t's lock, and that session's backend. */
async function openWhileHeld(sessions: TestDatabase['sql'], t: PgTarget): Promise<{ error: Error; pid: number }> {
  const other = await sessions.reserve();
  try {
    await other`SELECT pg_advisory_lock(${String(lockKeyOf(t))}::bigint)`;
    const [{ pid }] = (await other`SELECT pg_backend_pid() AS pid`) as unknown as [{ pid: number }];
    const error = (await PostgresMirror.open(t, OPEN).catch((e: unknown) => e)) as Error;
    await other`SELECT pg_advisory_unlock_all()`;
    return { error, pid };
  } finally {
    other.release();
  }
}

describe('the lock', () => {
  it("is the advisory lock keyed by the first 8 bytes of sha256 of the database, schema and table, on the mirror's session", async () => {
    const t = target();
    await open(t);
    const key = lockKeyOf(t);
    const [held] = await db.admin`
      SELECT count(*)::int AS n, bool_and(a.application_name = 'swapx sync') AS ours FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.classid = ${String(BigInt.asUintN(32, key >> 32n))}::bigint::oid AND l.objid = ${String(BigInt.asUintN(32, key))}::bigint::oid`;
    expect(held).toEqual({ n: 1, ours: true });
    // Its session keeps a batch (the temporary table it is loaded into) in memory.
    expect(await session(opened[0]!)`SHOW temp_buffers`).toEqual([{ temp_buffers: '128MB' }]);
  });

  it('a second mirror is told who holds it: the backend, no address over a socket, since when', async () => {
    const t = target({ host: db.server.socketDir, sslMode: 'disable' });
    await open(t);
    const error = (await PostgresMirror.open(t, OPEN).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(SyncLockedError);
    expect(error.message).toMatch(
      new RegExp(
        `^swapx_test@${db.server.socketDir} \\(socket, port ${db.server.port}\\)/${db.database} public\\.${t.table} is being written by another swapx sync \\(Postgres backend \\d+, connected since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\); this run stopped$`,
      ),
    );
  });

  it('held under its key by any session (not a swapx): that session is named, with its address', async () => {
    const { error, pid } = await openWhileHeld(db.sql, target());
    expect(error.message).toMatch(
      new RegExp(`is being written by another swapx sync \\(Postgres backend ${pid} from 127\\.0\\.0\\.1, connected since .*Z\\); this run stopped$`),
    );
  });

  it("held by another role's session: named by its backend alone (Postgres shows us no more of it)", async () => {
    // Without pg_read_all_stats, pg_stat_activity hides another role's address and start time (null).
    const { error, pid } = await openWhileHeld(db.admin, target());
    expect(error).toBeInstanceOf(SyncLockedError);
    expect(error.message).toMatch(new RegExp(`is being written by another swapx sync \\(Postgres backend ${pid}\\); this run stopped$`));
  });

  it('after its session was lost, checkLock takes the lock again on the new one and the mirror writes on', async () => {
    const t = target();
    const mirror = await open(t);
    await endSessions();
    await lost();
    await mirror.checkLock();
    // A second mirror is refused: the lock is held again.
    await expect(PostgresMirror.open(t, OPEN)).rejects.toBeInstanceOf(SyncLockedError);
    // The new session holds a batch in memory as the first did.
    expect(await session(mirror)`SHOW temp_buffers`).toEqual([{ temp_buffers: '128MB' }]);
    mirror.add(swap('a'), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
    // The session it holds now is the one it checks against: no reconnect, no new lock taken.
    await mirror.checkLock();
  });

  it('a check on a connection that cannot be made: one line saying so', async () => {
    const t = target();
    const mirror = await open(t);
    await closed(async () => {
      const refused = `(database "${db.database}" is not currently accepting connections, SQLSTATE 55000)`;
      await expect(mirror.checkLock()).rejects.toThrow(`Postgres at 127.0.0.1:${db.server.port}: check the lock failed ${refused}`);
      await expect(mirror.readState()).rejects.toThrow(`Postgres at 127.0.0.1:${db.server.port}: read the state failed ${refused}`);
      await expect(PostgresMirror.peekState(t)).rejects.toThrow(`Postgres at 127.0.0.1:${db.server.port}: read the state failed ${refused}`);
    });
  });
});

describe('the state', () => {
  it('peekState: none without a state table, none without a row, else the row; the lock is not needed', async () => {
    const schema = `peek_${++tables}`;
    await db.sql.unsafe(`CREATE SCHEMA ${schema}`);
    const t = target({ schema });
    expect(await PostgresMirror.peekState(t)).toBeUndefined();
    const mirror = await open(t);
    expect(await PostgresMirror.peekState(t)).toBeUndefined();
    expect(await mirror.readState()).toBeUndefined();
    await mirror.commit(STATE, T);
    expect(await PostgresMirror.peekState(t)).toEqual(STATE);
    expect(await mirror.readState()).toEqual(STATE);
    // Its connection is closed after: none of this database's swapx sessions is left but the mirror's.
    const [sessions] = await db.admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database()`;
    expect(sessions).toEqual({ n: 1 });
    expect(await PostgresMirror.peekState({ ...t, table: 'other' })).toBeUndefined();
  });
});

describe('discard', () => {
  it('after a first run with no row: the state row, the table and the state table it made are gone', async () => {
    const schema = `discard_${++tables}`;
    await db.sql.unsafe(`CREATE SCHEMA ${schema}`);
    const t = target({ schema });
    const mirror = await open(t);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 });
    await mirror.discard();
    expect(await exists(`${schema}.${t.table}`)).toBe(false);
    expect(await exists(`${schema}.swapx_sync_state`)).toBe(false);
  });

  it('keeps a table that holds rows, a state table other mirrors use, and tables it did not make', async () => {
    const schema = `keep_${++tables}`;
    await db.sql.unsafe(`CREATE SCHEMA ${schema}`);
    const first = await open(target({ schema }));
    await first.commit(STATE, T);
    // A second mirror of the schema: the state table is not its own.
    const t = target({ schema });
    const second = await open(t);
    await second.commit(STATE, T);
    await second.discard();
    expect(await exists(`${schema}.${t.table}`)).toBe(false);
    expect(await exists(`${schema}.swapx_sync_state`)).toBe(true);
    expect(await db.sql.unsafe(`SELECT mirror FROM ${schema}.swapx_sync_state`)).toEqual([{ mirror: first.target.table }]);
    // A table that holds rows is kept; the state table it made, now empty, goes.
    first.add(swap('a'), T);
    await first.commit(STATE, T);
    await first.discard();
    expect(await exists(`${schema}.${first.target.table}`)).toBe(true);
    expect(await exists(`${schema}.swapx_sync_state`)).toBe(false);
    // Opened again, it made the state table but not the mirror table: that one is kept even when empty.
    await db.sql.unsafe(`DELETE FROM ${schema}.${first.target.table}`);
    await first.close();
    const again = await open(first.target);
    expect(again.ensured).toMatchObject({ created: false, createdState: true });
    await again.commit(STATE, T);
    await again.discard();
    expect(await exists(`${schema}.${first.target.table}`)).toBe(true);
    expect(await exists(`${schema}.swapx_sync_state`)).toBe(false);
  });

  it("leaves the state table it made while another mirror's row is in it, and an empty one it did not make", async () => {
    const schema = `share_${++tables}`;
    await db.sql.unsafe(`CREATE SCHEMA ${schema}`);
    // The first mirror makes the state table; the second commits its row into it; the first gives up.
    const first = await open(target({ schema }));
    const second = await open(target({ schema }));
    expect([first.ensured.createdState, second.ensured.createdState]).toEqual([true, false]);
    await second.commit(STATE, T);
    await first.commit(STATE, T);
    await first.discard();
    expect(await db.sql.unsafe(`SELECT mirror FROM ${schema}.swapx_sync_state`)).toEqual([{ mirror: second.target.table }]);
    // The second gives up too: the state table, empty now, is not its own to drop.
    await second.discard();
    expect(await exists(`${schema}.swapx_sync_state`)).toBe(true);
    expect(await db.sql.unsafe(`SELECT mirror FROM ${schema}.swapx_sync_state`)).toEqual([]);
  });

  it('on a lost connection does nothing and says nothing', async () => {
    const mirror = await open(target());
    await mirror.commit(STATE, T);
    await closed(() => mirror.discard());
    expect(await exists(mirror.target.table)).toBe(true);
  });
});

describe('lockHolder', () => {
  it('is empty when no session holds the lock (it let go meanwhile), or when Postgres cannot be asked', async () => {
    expect(await lockHolder(db.sql, lockKey(target()))).toBe('');
    const ended = adminConnection(db.server, db.database);
    await ended.end();
    expect(await lockHolder(ended, lockKey(target()))).toBe('');
  });
});

describe('fields the API adds', () => {
  it("each goes in _swapx_extra, whatever its name; the user's own columns of those names are left alone, and no column is added", async () => {
    const t = target();
    const first = await open(t);
    await first.close();
    await db.sql.unsafe(`ALTER TABLE ${t.table} ADD COLUMN mine text, ADD COLUMN theirs jsonb`);
    const before = await db.sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = ${t.table} ORDER BY ordinal_position`;
    const mirror = await open(t);
    mirror.add(swap('a', { mine: 'x', theirs: { a: 1 }, 'bad-name': 1, ['x'.repeat(64)]: 2, riskScore: 3 }), T);
    mirror.add(swap('b', { riskScore: 4, later: [1] }), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 2, lateSwaps: 0, updatedSwaps: 0 });
    expect(await db.sql.unsafe(`SELECT id, mine, theirs, _swapx_extra AS extra FROM ${t.table} ORDER BY id`)).toEqual([
      { id: 'a', mine: null, theirs: null, extra: { mine: 'x', theirs: { a: 1 }, 'bad-name': 1, ['x'.repeat(64)]: 2, riskScore: 3 } },
      { id: 'b', mine: null, theirs: null, extra: { riskScore: 4, later: [1] } },
    ]);
    expect(await db.sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = ${t.table} ORDER BY ordinal_position`).toEqual(before);
  });

  it('a table of an older swapx: its per-field columns are left as they are and no longer written; the field goes in _swapx_extra', async () => {
    const t = target();
    const first = await open(t);
    first.add(swap('a'), T);
    await first.commit(STATE, T);
    await first.close();
    // As an older swapx left it: a jsonb column of the field's own, and no _swapx_extra.
    await db.sql.unsafe(`ALTER TABLE ${t.table} DROP COLUMN _swapx_extra, ADD COLUMN risk_score jsonb`);
    await db.sql.unsafe(`UPDATE ${t.table} SET risk_score = '1'`);
    const mirror = await open(t);
    expect(mirror.ensured.added).toEqual(['_swapx_extra']);
    mirror.add(swap('a', { updatedAt: '2026-11-01T00:03:00Z', riskScore: 2 }), T);
    mirror.add(swap('b', { riskScore: 3 }), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 1 });
    expect(await db.sql.unsafe(`SELECT id, risk_score, _swapx_extra AS extra FROM ${t.table} ORDER BY id`)).toEqual([
      { id: 'a', risk_score: 1, extra: { riskScore: 2 } },
      { id: 'b', risk_score: null, extra: { riskScore: 3 } },
    ]);
  });

  it("a field never seen before is written with no ALTER: a reader's open transaction does not hold it up", async () => {
    const t = target();
    const mirror = await open(t);
    mirror.add(swap('a'), T);
    await mirror.commit(STATE, T);
    // An analyst's open transaction that has read the table: an ALTER TABLE would wait for it (and give up after 10 s).
    const reader = await db.sql.reserve();
    try {
      await reader.unsafe('BEGIN');
      await reader.unsafe(`SELECT count(*) FROM ${t.table}`);
      mirror.add(swap('b', { brandNew: { a: 1 } }), T);
      const started = Date.now();
      expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
      expect(Date.now() - started).toBeLessThan(5_000);
      await reader.unsafe('ROLLBACK');
    } finally {
      reader.release();
    }
    expect(await db.sql.unsafe(`SELECT id, _swapx_extra AS extra FROM ${t.table} ORDER BY id`)).toEqual([
      { id: 'a', extra: null },
      { id: 'b', extra: { brandNew: { a: 1 } } },
    ]);
  });

  it('rows of one commit with and without a field: each holds its own', async () => {
    const t = target();
    const mirror = await open(t);
    mirror.add(swap('a'), T);
    mirror.add(swap('b', { extraOne: 'x' }), T);
    mirror.add(swap('c'), T);
    expect(mirror.size).toBe(3);
    await mirror.commit(STATE, T);
    expect(mirror.size).toBe(0);
    expect(await db.sql.unsafe(`SELECT id, _swapx_extra AS extra FROM ${t.table} ORDER BY id`)).toEqual([
      { id: 'a', extra: null },
      { id: 'b', extra: { extraOne: 'x' } },
      { id: 'c', extra: null },
    ]);
  });
});

describe('commit', () => {
  it('undated rows count as new or late by the time they were placed at; on the cursor is new', async () => {
    const mirror = await open(target());
    mirror.add(swap('a', { completedAt: null }), T - 1);
    mirror.add(swap('b', { completedAt: null }), T);
    mirror.add(swap('c', { completedAt: null }), T + 1);
    mirror.add(swap('d', { completedAt: new Date(T - 5).toISOString() }), T + 5);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 2, lateSwaps: 2, updatedSwaps: 0 });
  });

  it('a failed commit keeps the batch: the same commit again writes it', async () => {
    const t = target();
    const mirror = await open(t);
    mirror.add(swap('a'), T);
    await db.sql.unsafe(`ALTER TABLE ${t.table} ADD CONSTRAINT no_b CHECK (bridge <> 'B')`);
    await expect(mirror.commit(STATE, T)).rejects.toThrow(/SQLSTATE 23514\)$/);
    expect(mirror.size).toBe(1);
    await db.sql.unsafe(`ALTER TABLE ${t.table} DROP CONSTRAINT no_b`);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
  });

  it('two versions of a swap in one batch: the later is written, in whichever order they came', async () => {
    const t = target();
    const mirror = await open(t);
    mirror.add(swap('a', { updatedAt: '2026-11-01T00:05:00.0000002Z', bridge: 'later' }), T);
    mirror.add(swap('a', { updatedAt: '2026-11-01T00:05:00.0000001Z', bridge: 'earlier' }), T);
    mirror.add(swap('b', { updatedAt: '2026-11-01T00:05:00Z', bridge: 'earlier' }), T);
    mirror.add(swap('b', { updatedAt: '2026-11-01T00:06:00Z', bridge: 'later' }), T);
    expect(mirror.size).toBe(2);
    await mirror.commit(STATE, T);
    expect(await db.sql.unsafe(`SELECT id, bridge FROM ${t.table} ORDER BY id`)).toEqual([
      { id: 'a', bridge: 'later' },
      { id: 'b', bridge: 'later' },
    ]);
  });

  it('after close: refused; close twice is nothing', async () => {
    const mirror = await open(target());
    await mirror.close();
    await mirror.close();
    await expect(mirror.commit(STATE, T)).rejects.toThrow('commit after close');
  });
});
