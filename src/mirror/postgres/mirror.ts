/**
 * A mirror of swaps in a Postgres table, written exactly once:
 *
 * - One writer: a session-level advisory lock on the table, taken at open
 *   and never waited for (a second sync fails at once). It dies with the
 *   session, so a killed run leaves no lock behind; every commit first checks
 *   that it still runs on the session holding it.
 * - Rows are buffered as COPY text, a key repeated before a commit collapsed
 *   to its latest version as it is added (merge.ts). A commit is ONE
 *   transaction: COPY into a temporary table, one set-based
 *   INSERT … ON CONFLICT that replaces a row only when
 *   the incoming version is newer (updatedAt to the nanosecond: a later tick
 *   in the same millisecond is newer, the same version changes nothing), and
 *   the cursors written to the state table. A run killed anywhere before the
 *   COMMIT leaves table and cursors as they were; replaying a batch changes
 *   no row.
 * - Readers are never blocked: the merge takes row locks only (no table lock
 *   beyond ROW EXCLUSIVE); only a schema change at open (a new table, a
 *   column a table of an older swapx lacks) takes a short exclusive lock,
 *   bounded by lock_timeout. A field the API adds needs none: it goes in
 *   _swapx_extra.
 */
import { createHash } from 'node:crypto';
import type { MirrorState, RunRecord, UnfitValue } from '../../sync/store.js';
import { SyncLockedError } from '../../fs/lock.js';
import { COLUMNS, keyOf, versionOf, quoteIdent } from './columns.js';
import { connect, type Db, describeError, type Sql } from './driver.js';
import { copyRows, mergeSql, type Pending, replaces } from './merge.js';
import { encodeRow } from './row.js';
import { ensureTables, type Ensured, qualified, STATE_TABLE, type TableName } from './schema.js';
import { selectState, writeRun, writeState } from './state.js';
import { describeTarget, type PgTarget } from './target.js';
import { PostgresLockTimeoutError } from './errors.js';
import { lockHolder, namingLockHolder, namingLockHolderApart } from './lock.js';
import { configure, Session } from './session.js';

export interface CommitCounts {
  /** swaps not held before, placed at or after the cursor given */
  newSwaps: number;
  /** swaps not held before, placed before it (late arrivals) */
  lateSwaps: number;
  /** swaps held in an older version, now replaced */
  updatedSwaps: number;
  /** values of the rows written that their columns cannot hold, kept in _swapx_extra; absent when none */
  unfit?: UnfitValue[];
}

/** The lock of a table: a 64-bit key from its database, schema and name (the same for every swapx). */
export function lockKey(target: PgTarget): bigint {
  const digest = createHash('sha256').update(`swapx sync\u0000${target.database}\u0000${target.schema}\u0000${target.table}`).digest();
  return digest.readBigInt64BE(0);
}

export interface OpenOptions {
  /** the swapx version, kept with the cursors (a table written by another version is checked, not trusted) */
  version: string;
}

export class PostgresMirror {
  /** the batch: the latest version of each key added since the last commit, collapsed here, so the merge meets each key once */
  private pending = new Map<string, Pending>();
  private readonly name: TableName;
  private closed = false;

  private constructor(
    private readonly db: Db,
    readonly target: PgTarget,
    /** the backend holding the lock: a commit on another (a reconnect) would write unlocked */
    private pid: number,
    /** what opening did to the table */
    readonly ensured: Ensured,
    private readonly version: string,
  ) {
    this.name = { schema: target.schema, table: target.table };
  }

  /**
   * Connects, takes the table's lock (SyncLockedError at once when another run holds it), and creates or checks
   * the tables. Every failure is one line naming the server and the cause, never the password.
   */
  static async open(target: PgTarget, options: OpenOptions): Promise<PostgresMirror> {
    const db = await connect(target);
    // Bounded (session.ts): a statement left unanswered drops the connection, and this fails at once.
    const session = Session.attach(target, db).begin();
    try {
      let pid: number;
      try {
        const [row] = await db<{ locked: boolean; pid: number }[]>`
          SELECT pg_try_advisory_lock(${String(lockKey(target))}::bigint) AS locked, pg_backend_pid() AS pid`;
        if (!row!.locked)
          throw new SyncLockedError(
            `${describeTarget(target)} is being written by another swapx sync${await lockHolder(db, lockKey(target))}; this run stopped`,
          );
        pid = row!.pid;
        await configure(db, target.settings);
      } catch (error) {
        throw describeError(error, target, 'connect');
      }
      let ensured: Ensured;
      try {
        ensured = await ensureTables(db, { schema: target.schema, table: target.table });
      } catch (error) {
        throw describeError(error, target, `create or check ${target.schema}.${target.table}`);
      }
      return new PostgresMirror(db, target, pid, ensured, options.version);
    } catch (error) {
      await session.end();
      // A schema change waited for a lock another session holds: which one is said (asked on a session of its own).
      throw session.lost ?? (error instanceof PostgresLockTimeoutError ? await namingLockHolderApart(target, error) : error);
    } finally {
      session.settle();
    }
  }

  /** the session's bounds, and whether its connection was lost (session.ts) */
  private get session(): Session {
    return Session.of(this.db);
  }

  /**
   * Runs an operation of the mirror's (a commit) within the session's bounds; a statement that waited lock_timeout for
   * another session's lock fails naming that session (asked on this one: the transaction was rolled back).
   */
  async bounded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await this.session.run(operation);
    } catch (error) {
      if (!(error instanceof PostgresLockTimeoutError) || this.session.lost) throw error;
      throw await this.session.run(() => namingLockHolder(this.db, error, this.target)).catch(() => error);
    }
  }

  /** rows buffered (one per key) */
  get size(): number {
    return this.pending.size;
  }

  /** The cursors committed last, or undefined when this table has none yet. */
  async readState(): Promise<MirrorState | undefined> {
    try {
      return await this.session.run(() => selectState(this.db, this.name));
    } catch (error) {
      throw describeError(error, this.target, 'read the state');
    }
  }

  /**
   * The state saved for `target`'s table, read on a connection of its own without the lock (the checks before a
   * run), or undefined when there is none (no state table yet, or no row for the table).
   */
  static async peekState(target: PgTarget): Promise<MirrorState | undefined> {
    const db = await connect(target);
    const session = Session.attach(target, db).begin();
    try {
      const [found] = await db<{ exists: boolean }[]>`SELECT to_regclass(${`${quoteIdent(target.schema)}.${quoteIdent(STATE_TABLE)}`}) IS NOT NULL AS exists`;
      return found!.exists ? await selectState(db, { schema: target.schema, table: target.table }) : undefined;
    } catch (error) {
      throw session.lost ?? describeError(error, target, 'read the state');
    } finally {
      session.settle();
      await session.end();
    }
  }

  /**
   * Throws SyncLockedError unless this run holds the table's lock on the session it writes with. A connection lost and
   * made again (the driver reconnects) has lost the lock with its session: it is taken again on the new one if no other
   * sync took it meanwhile (the merge keeps newer versions only, so what that sync wrote stays right).
   */
  async checkLock(sql: Sql = this.db): Promise<void> {
    try {
      const [row] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      if (row!.pid === this.pid) return;
      const [again] = await sql<{ locked: boolean }[]>`SELECT pg_try_advisory_lock(${String(lockKey(this.target))}::bigint) AS locked`;
      if (!again!.locked) {
        throw new SyncLockedError(
          `the connection to ${describeTarget(this.target)} was lost, and another swapx sync took its lock meanwhile${await lockHolder(sql, lockKey(this.target))}; this run stopped`,
        );
      }
      this.pid = row!.pid;
      await configure(sql, this.target.settings);
    } catch (error) {
      throw describeError(error, this.target, 'check the lock');
    }
  }

  /**
   * Undoes what a first run that committed no row made: the state row, and the tables it created if they hold nothing
   * (a failed first run leaves the database as it found it). False when it cannot: the connection was lost during a
   * statement (what was made stays, for the next run to continue from).
   */
  async discard(): Promise<boolean> {
    const state: TableName = { schema: this.name.schema, table: STATE_TABLE };
    if (this.session.lost) return false;
    try {
      await this.session.run(async () => {
        await this.checkLock();
        await this.db.begin(async (tx) => {
          await tx.unsafe(`DELETE FROM ${qualified(state)} WHERE mirror = $1`, [this.name.table]);
          if (this.ensured.created) {
            const [rows] = await tx.unsafe(`SELECT count(*)::int AS n FROM ${qualified(this.name)}`);
            if (rows!.n === 0) await tx.unsafe(`DROP TABLE ${qualified(this.name)}`);
          }
          if (this.ensured.createdState) {
            const [rows] = await tx.unsafe(`SELECT count(*)::int AS n FROM ${qualified(state)}`);
            if (rows!.n === 0) await tx.unsafe(`DROP TABLE ${qualified(state)}`);
          }
        });
      });
    } catch {
      // Nothing more to undo on a connection lost: the next run finds a new mirror's start, or nothing.
    }
    return this.session.lost === undefined;
  }

  /** Records a run in the state row (status.ts reads it), within the session's bounds. */
  async recordRun(run: RunRecord): Promise<void> {
    await this.session.run(() => writeRun(this.db, this.name, run));
  }

  /** Buffers a swap; `placedMs` is the completion time it counts as (new or late) when its completedAt is unreadable. */
  add(swap: Record<string, unknown>, placedMs: number): void {
    const key = keyOf(swap);
    const version = versionOf(swap.updatedAt);
    const held = this.pending.get(key);
    // Two versions of a swap in one batch (a re-scan and the Updated pass): only the latest is kept.
    if (held && !replaces(version, held.version)) return;
    this.pending.set(key, { ...encodeRow(swap, key, version), version, placedMs });
  }

  /**
   * Merges the buffered rows and writes `next` as the table's state, in one transaction. `cursor` tells new swaps
   * from late ones. On a failure nothing of it is written, and the buffer is kept. Names the values kept aside
   * (row.ts) of the rows it wrote.
   */
  async commit(next: MirrorState, cursor: number): Promise<CommitCounts> {
    if (this.closed) throw new Error('commit after close');
    let counts: CommitCounts;
    try {
      counts = await this.db.begin(async (tx) => {
        await this.checkLock(tx);
        let result: CommitCounts = { newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 };
        if (this.pending.size > 0) {
          await tx.unsafe(`CREATE TEMP TABLE swapx_batch (${COLUMNS.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')}) ON COMMIT DROP`);
          await copyRows(tx, this.pending);
          const aside = [...this.pending].filter(([, row]) => row.unfit).map(([key]) => key);
          const [merged] = await tx.unsafe(mergeSql(this.name, COLUMNS), [new Date(cursor).toISOString(), JSON.stringify(aside)]);
          // A row without a readable completedAt counts by the time the caller placed it at.
          const undated = merged!.undated as string[];
          const undatedLate = undated.filter((key) => this.pending.get(key)!.placedMs < cursor).length;
          result = {
            newSwaps: Number(merged!.new_swaps) + undated.length - undatedLate,
            lateSwaps: Number(merged!.late_swaps) + undatedLate,
            updatedSwaps: Number(merged!.updated_swaps),
          };
          // Said only of a row written: a version not newer than the one held (a run replayed) changed nothing.
          const written = new Set(merged!.unfit as string[]);
          const unfit = [...this.pending].filter(([key, row]) => row.unfit && written.has(key)).flatMap(([, row]) => row.unfit!);
          if (unfit.length > 0) result.unfit = unfit;
        }
        await writeState(tx, this.name, next, this.version);
        return result;
      });
    } catch (error) {
      throw describeError(error, this.target, `write ${this.name.schema}.${this.name.table}`);
    }
    this.pending = new Map();
    return counts;
  }

  /** Ends the session (and with it the lock), within seconds whatever the server does. */
  async close(): Promise<void> {
    this.closed = true;
    await this.session.end();
  }
}
