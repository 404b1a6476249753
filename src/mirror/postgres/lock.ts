/**
 * Who holds a lock, as Postgres shows them: the table's one-writer lock (a session-level advisory lock, its key made
 * in mirror.ts), and the table locks another session holds when a statement of ours waited lock_timeout for one (a
 * DBA's LOCK TABLE or ALTER, a reader's transaction).
 */
import type { Sql } from './driver.js';
import { PostgresLockTimeoutError } from './errors.js';
import { STATE_TABLE } from './schema.js';
import { lockTimeoutText, Session } from './session.js';
import type { PgTarget } from './target.js';

/** ISO time to the second, as the lines of swapx write times. */
const second = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/**
 * Who holds the table's lock (its `key`: mirror.ts), as Postgres shows them to us: ` (Postgres backend 4711 from 10.0.0.5, connected since 2026-11-25T17:02:03Z)`,
 * ` (Postgres backend 4711)` for another role's session, or '' when no session holds it (it let go meanwhile) or
 * Postgres cannot say.
 */
export async function lockHolder(db: Sql, key: bigint): Promise<string> {
  try {
    const [row] = await db<{ pid: number; client: string | null; since: Date | null }[]>`
      SELECT a.pid, host(a.client_addr) AS client, a.backend_start AS since
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.classid = ${String(BigInt.asUintN(32, key >> 32n))}::bigint::oid AND l.objid = ${String(BigInt.asUintN(32, key))}::bigint::oid`;
    if (!row) return '';
    // No address: a session over the Unix socket, or another role's (Postgres shows another role's address and
    // start only to a role that may read all statistics).
    const since = row.since ? `, connected since ${second(row.since)}` : '';
    return ` (Postgres backend ${row.pid}${row.client ? ` from ${row.client}` : ''}${since})`;
  } catch {
    return '';
  }
}

/**
 * The lock timeout `error` of a statement on the mirror's tables (`target`'s and the state table) with the session
 * that held the strongest lock on them named: its backend, application, client, the lock, and since when its
 * transaction is open (what the user needs to find it, and wait or end it). `error` as it is when no other session
 * holds one now, or Postgres cannot say.
 */
export async function namingLockHolder(sql: Sql, error: PostgresLockTimeoutError, target: PgTarget): Promise<PostgresLockTimeoutError> {
  let row: { pid: number; app: string | null; client: string | null; since: Date | null; mode: string; relation: string } | undefined;
  try {
    // The strongest lock first (an exclusive lock blocks us; a reader's ACCESS SHARE only a schema change), then the oldest.
    [row] = await sql<NonNullable<typeof row>[]>`
      SELECT a.pid, a.application_name AS app, host(a.client_addr) AS client, a.xact_start AS since, l.mode,
             n.nspname || '.' || c.relname AS relation
      FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'relation' AND l.granted AND l.pid <> pg_backend_pid()
        AND n.nspname = ${target.schema} AND c.relname IN (${target.table}, ${STATE_TABLE})
      ORDER BY array_position(ARRAY['AccessExclusiveLock', 'ExclusiveLock', 'ShareRowExclusiveLock', 'ShareLock',
        'ShareUpdateExclusiveLock', 'RowExclusiveLock', 'RowShareLock', 'AccessShareLock'], l.mode::text), a.xact_start
      LIMIT 1`;
  } catch {
    return error;
  }
  if (!row) return error;
  const who = [row.app ? `"${row.app}"` : '', row.client ? `from ${row.client}` : ''].filter(Boolean).join(' ');
  const since = row.since ? `, its transaction open since ${second(row.since)}` : '';
  const holder = `Postgres backend ${row.pid}${who ? ` (${who})` : ''} holds ${row.mode} on ${row.relation}${since}`;
  const message = `${error.message}: waited ${lockTimeoutText(target)} for a lock; ${holder}; run again once it lets go`;
  return new PostgresLockTimeoutError(message, error.sqlState, { cause: error.cause });
}

/** The same, asked on a session of its own (the one that waited is gone: opening failed). */
export async function namingLockHolderApart(target: PgTarget, error: PostgresLockTimeoutError): Promise<Error> {
  const session = await Session.open(target);
  try {
    return await session.run(() => namingLockHolder(session.db, error, target));
  } catch {
    return error;
  } finally {
    await session.end();
  }
}
