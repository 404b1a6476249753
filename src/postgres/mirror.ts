/**
 * A mirror of swaps in a Postgres table, written exactly once:
 *
 * - One writer: a session-level advisory lock on the table, taken at open
 *   and never waited for (a second sync fails at once). It dies with the
 *   session, so a killed run leaves no lock behind; every commit first checks
 *   that it still runs on the session holding it.
 * - Rows are buffered as COPY text. A commit is ONE transaction: COPY into a
 *   temporary table, the keys repeated in the batch collapsed to their latest
 *   version, one set-based INSERT … ON CONFLICT that replaces a row only when
 *   the incoming version is newer (updatedAt to the nanosecond: a later tick
 *   in the same millisecond is newer, the same version changes nothing), and
 *   the cursors written to the state table. A run killed anywhere before the
 *   COMMIT leaves table and cursors as they were; replaying a batch changes
 *   no row.
 * - Readers are never blocked: the merge takes row locks only (no table lock
 *   beyond ROW EXCLUSIVE); only a schema change (a new table, a new column)
 *   takes a short exclusive lock, bounded by lock_timeout.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SWAP_FIELDS } from '../api/types.js';
import type { MirrorQuery, MirrorState } from '../sync/store.js';
import { SyncLockedError } from '../fs/lock.js';
import {
  COLUMNS,
  type Column,
  extraColumn,
  KEY_COLUMN,
  keyOf,
  versionOf,
  LOADED_COLUMN,
  quoteIdent,
  type RowEncoder,
  rowEncoder,
  VERSION_COLUMN,
} from './columns.js';
import { connect, type Db, describeError, type JSONValue, type Sql } from './driver.js';
import { addExtraColumns, ensureTables, type Ensured, qualified, STATE_TABLE, type TableName } from './schema.js';
import { describeTarget, type PgTarget } from './target.js';

export interface CommitCounts {
  /** swaps not held before, placed at or after the cursor given */
  newSwaps: number;
  /** swaps not held before, placed before it (late arrivals) */
  lateSwaps: number;
  /** swaps held in an older version, now replaced */
  updatedSwaps: number;
}

const KNOWN_FIELDS = new Set<string>(SWAP_FIELDS);
/** COPY data is sent in messages of about this many characters. */
const CHUNK_CHARS = 256 * 1024;

/** A row waiting for the commit: its COPY line, for the columns it was encoded for (a field first seen later adds some). */
interface Pending {
  line: string;
  columns: readonly Column[];
  version: bigint | undefined;
  placedMs: number;
}

/**
 * Whether a version replaces the one held for its key: a larger updatedAt does, and so does the same one or one
 * without a readable updatedAt when the held one has none (the later arrival is the server's later word); an
 * unreadable one never replaces a readable one. The same rule as the merge's, and as the folder mirror's.
 */
function replaces(version: bigint | undefined, held: bigint | undefined): boolean {
  if (held === undefined) return true;
  return version !== undefined && version >= held;
}

/** The lock of a table: a 64-bit key from its database, schema and name (the same for every swapx). */
function lockKey(target: PgTarget): bigint {
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
  /** the columns rows are encoded for now (the known ones, then the extra ones), and their encoder */
  private columns: readonly Column[] = COLUMNS;
  private encode: RowEncoder = rowEncoder(COLUMNS);
  /** fields the API sent that this swapx does not know, each in a jsonb column */
  private extras: Column[] = [];
  /** those of them the table lacks: added by the next commit */
  private newExtras: Column[] = [];
  private readonly name: TableName;
  private closed = false;

  private constructor(
    private readonly db: Db,
    readonly target: PgTarget,
    /** the backend holding the lock: a commit on another (a reconnect) would write unlocked */
    private pid: number,
    private readonly tableColumns: Map<string, string>,
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
    try {
      let pid: number;
      try {
        const [row] = await db<{ locked: boolean; pid: number }[]>`
          SELECT pg_try_advisory_lock(${String(lockKey(target))}::bigint) AS locked, pg_backend_pid() AS pid`;
        if (!row!.locked)
          throw new SyncLockedError(`${describeTarget(target)} is being written by another swapx sync${await holder(db, target)}; this run stopped`);
        pid = row!.pid;
        // A batch (about 1.5 KB a row, up to some 100 MB) stays in memory as the temporary table it is loaded
        // into; set before the session's first temporary table, as Postgres requires.
        await db`SET temp_buffers = '128MB'`;
      } catch (error) {
        throw describeError(error, target, 'connect');
      }
      let ensured: Ensured;
      try {
        ensured = await ensureTables(db, { schema: target.schema, table: target.table });
      } catch (error) {
        throw describeError(error, target, `create or check ${target.schema}.${target.table}`);
      }
      return new PostgresMirror(db, target, pid, ensured.columns, ensured, options.version);
    } catch (error) {
      await db.end({ timeout: 1 }).catch(() => {});
      throw error;
    }
  }

  /** rows buffered (one per key) */
  get size(): number {
    return this.pending.size;
  }

  /** The cursors committed last, or undefined when this table has none yet. */
  async readState(): Promise<MirrorState | undefined> {
    try {
      return await selectState(this.db, this.name);
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
    try {
      const [found] = await db<{ exists: boolean }[]>`SELECT to_regclass(${`${quoteIdent(target.schema)}.${quoteIdent(STATE_TABLE)}`}) IS NOT NULL AS exists`;
      return found!.exists ? await selectState(db, { schema: target.schema, table: target.table }) : undefined;
    } catch (error) {
      throw describeError(error, target, 'read the state');
    } finally {
      await db.end({ timeout: 1 }).catch(() => {});
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
          `the connection to ${describeTarget(this.target)} was lost, and another swapx sync took its lock meanwhile${await holder(sql, this.target)}; this run stopped`,
        );
      }
      this.pid = row!.pid;
      await sql`SET temp_buffers = '128MB'`;
    } catch (error) {
      throw describeError(error, this.target, 'check the lock');
    }
  }

  /**
   * Undoes what a first run that committed no row made: the state row, and the tables it created if they hold nothing
   * (a failed first run leaves the database as it found it).
   */
  async discard(): Promise<void> {
    const state: TableName = { schema: this.name.schema, table: STATE_TABLE };
    try {
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
    } catch {
      // Nothing more to undo on a connection lost: the next run finds a new mirror's start, or nothing.
    }
  }

  /** Buffers a swap; `placedMs` is the completion time it counts as (new or late) when its completedAt is unreadable. */
  add(swap: Record<string, unknown>, placedMs: number): void {
    for (const field in swap) {
      if (KNOWN_FIELDS.has(field) || this.extras.some((c) => c.field === field)) continue;
      const column = extraColumn(field);
      // A user's own column of that name (not jsonb) is left alone: the field is not written.
      if (this.tableColumns.has(column.name) && this.tableColumns.get(column.name) !== 'jsonb') continue;
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(column.name)) continue;
      this.extras.push(column);
      if (!this.tableColumns.has(column.name)) this.newExtras.push(column);
    }
    if (this.columns.length !== COLUMNS.length + this.extras.length) {
      this.columns = [...COLUMNS, ...this.extras];
      this.encode = rowEncoder(this.columns);
    }
    const key = keyOf(swap);
    const version = versionOf(swap.updatedAt);
    const held = this.pending.get(key);
    // Two versions of a swap in one batch (a re-scan and the Updated pass): only the latest is kept.
    if (held && !replaces(version, held.version)) return;
    this.pending.set(key, { line: this.encode(swap, key, version), columns: this.columns, version, placedMs });
  }

  /**
   * Merges the buffered rows and writes `next` as the table's state, in one transaction. `cursor` tells new swaps
   * from late ones. On a failure nothing of it is written, and the buffer is kept.
   */
  async commit(next: MirrorState, cursor: number): Promise<CommitCounts> {
    if (this.closed) throw new Error('commit after close');
    let counts: CommitCounts = { newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 };
    try {
      counts = await this.db.begin(async (tx) => {
        await this.checkLock(tx);
        let result: CommitCounts = { newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 };
        if (this.pending.size > 0) {
          if (this.newExtras.length > 0) await addExtraColumns(tx, this.name, this.newExtras);
          const columns = this.columns;
          await tx.unsafe(`CREATE TEMP TABLE swapx_batch (${columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')}) ON COMMIT DROP`);
          await copyRows(tx, this.pending);
          const [merged] = await tx.unsafe(mergeSql(this.name, columns), [new Date(cursor).toISOString()]);
          // A row without a readable completedAt counts by the time the caller placed it at.
          const undated = merged!.undated as string[];
          const undatedLate = undated.filter((key) => this.pending.get(key)!.placedMs < cursor).length;
          result = {
            newSwaps: Number(merged!.new_swaps) + undated.length - undatedLate,
            lateSwaps: Number(merged!.late_swaps) + undatedLate,
            updatedSwaps: Number(merged!.updated_swaps),
          };
        }
        await writeState(tx, this.name, next, this.version);
        return result;
      });
    } catch (error) {
      throw describeError(error, this.target, `write ${this.name.schema}.${this.name.table}`);
    }
    for (const column of this.newExtras) this.tableColumns.set(column.name, column.type);
    this.newExtras = [];
    this.pending = new Map();
    return counts;
  }

  /** Ends the session (and with it the lock). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.end({ timeout: 5 }).catch(() => {});
  }
}

/** Who holds the lock, as Postgres sees them: ` (backend 4711 from 10.0.0.5, since 2026-11-25T17:02:03Z)` or ''. */
async function holder(db: Sql, target: PgTarget): Promise<string> {
  const key = lockKey(target);
  try {
    const [row] = await db<{ pid: number; client: string | null; since: Date | null }[]>`
      SELECT a.pid, host(a.client_addr) AS client, a.backend_start AS since
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.classid = ${String(BigInt.asUintN(32, key >> 32n))}::bigint::oid AND l.objid = ${String(BigInt.asUintN(32, key))}::bigint::oid`;
    if (!row) return '';
    return ` (Postgres backend ${row.pid}${row.client ? ` from ${row.client}` : ''}${row.since ? `, connected since ${row.since.toISOString().replace(/\.\d+Z$/, 'Z')}` : ''})`;
  } catch {
    return '';
  }
}

/**
 * COPY of the batch into the temporary table, a COPY for each set of columns its lines were encoded for. The data
 * is made into chunks as the server takes them, so Node joins the next chunk while Postgres parses the last.
 */
async function copyRows(tx: Sql, pending: ReadonlyMap<string, Pending>): Promise<void> {
  const groups = new Map<readonly Column[], Pending[]>();
  for (const row of pending.values()) {
    const rows = groups.get(row.columns);
    if (rows) rows.push(row);
    else groups.set(row.columns, [row]);
  }
  for (const [columns, rows] of groups) {
    function* chunks(): Generator<Buffer> {
      let chunk = '';
      for (const row of rows) {
        chunk += row.line;
        if (chunk.length >= CHUNK_CHARS) {
          yield Buffer.from(chunk);
          chunk = '';
        }
      }
      if (chunk !== '') yield Buffer.from(chunk);
    }
    const writable = await tx.unsafe(`COPY swapx_batch (${columns.map((c) => quoteIdent(c.name)).join(', ')}) FROM STDIN`).writable();
    await pipeline(Readable.from(chunks()), writable);
  }
}

/**
 * The merge, one statement: each row of the batch (one per key) inserted, or replacing the held row when newer. A
 * held row without a readable updatedAt is older than any with one, and is replaced by another without one only when
 * the row differs (the folder mirror's rule). Returns the counts, by completedAt against the cursor ($1), and the
 * keys of inserted rows without a completedAt (counted by the caller).
 */
function mergeSql(name: TableName, columns: readonly Column[]): string {
  const cols = columns.map((c) => quoteIdent(c.name));
  const key = quoteIdent(KEY_COLUMN);
  const version = quoteIdent(VERSION_COLUMN);
  const updates = columns.filter((c) => c.name !== KEY_COLUMN).map((c) => `${quoteIdent(c.name)} = EXCLUDED.${quoteIdent(c.name)}`);
  const rowOf = (alias: string) => `(${cols.map((c) => `${alias}.${c}`).join(', ')})`;
  return `
    WITH merged AS (
      INSERT INTO ${qualified(name)} AS held (${cols.join(', ')})
      SELECT ${cols.join(', ')} FROM swapx_batch
      ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}, ${quoteIdent(LOADED_COLUMN)} = now()
      WHERE held.${version} < EXCLUDED.${version}
         OR (held.${version} IS NULL AND EXCLUDED.${version} IS NOT NULL)
         OR (held.${version} IS NULL AND EXCLUDED.${version} IS NULL AND ${rowOf('held')} IS DISTINCT FROM ${rowOf('EXCLUDED')})
      RETURNING (held.xmax = 0) AS inserted, held.completed_at, held.${key} AS key
    )
    SELECT count(*) FILTER (WHERE inserted AND completed_at >= $1::timestamptz) AS new_swaps,
           count(*) FILTER (WHERE inserted AND completed_at < $1::timestamptz) AS late_swaps,
           count(*) FILTER (WHERE NOT inserted) AS updated_swaps,
           coalesce(json_agg(key) FILTER (WHERE inserted AND completed_at IS NULL), '[]') AS undated
    FROM merged`;
}

/** The state row of a mirror table; the caller words an error. */
async function selectState(sql: Sql, name: TableName): Promise<MirrorState | undefined> {
  const rows = await sql.unsafe(
    `SELECT query, since, completed_cursor, updated_cursor, rescan_base, rescanned_at, rescanned_to FROM ${qualified({ schema: name.schema, table: STATE_TABLE })} WHERE mirror = $1`,
    [name.table],
  );
  const row = rows[0];
  if (!row) return undefined;
  const ms = (value: unknown) => (value instanceof Date ? value.getTime() : Number.NaN);
  const state: MirrorState = {
    query: row.query as MirrorQuery,
    since: ms(row.since),
    cursor: ms(row.completed_cursor),
    updatedCursor: ms(row.updated_cursor),
    rescanBase: ms(row.rescan_base),
    rescannedAt: row.rescanned_at === null ? undefined : ms(row.rescanned_at),
  };
  if (row.rescanned_to !== null) state.rescannedTo = ms(row.rescanned_to);
  return state;
}

async function writeState(tx: Sql, name: TableName, state: MirrorState, version: string): Promise<void> {
  const table: TableName = { schema: name.schema, table: STATE_TABLE };
  const iso = (ms: number) => new Date(ms).toISOString();
  await tx.unsafe(
    `INSERT INTO ${qualified(table)} (mirror, query, since, completed_cursor, updated_cursor, rescan_base, rescanned_at, rescanned_to, swapx_version, updated_at)
     VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9, now())
     ON CONFLICT (mirror) DO UPDATE SET query = EXCLUDED.query, since = EXCLUDED.since, completed_cursor = EXCLUDED.completed_cursor,
       updated_cursor = EXCLUDED.updated_cursor, rescan_base = EXCLUDED.rescan_base, rescanned_at = EXCLUDED.rescanned_at, rescanned_to = EXCLUDED.rescanned_to,
       swapx_version = EXCLUDED.swapx_version, updated_at = EXCLUDED.updated_at`,
    [
      name.table,
      // The object itself: the driver serializes a jsonb parameter, so a string given here would be stored as a JSON string.
      state.query as unknown as JSONValue,
      iso(state.since),
      iso(state.cursor),
      iso(state.updatedCursor),
      iso(state.rescanBase),
      state.rescannedAt === undefined ? null : iso(state.rescannedAt),
      state.rescannedTo === undefined ? null : iso(state.rescannedTo),
      version,
    ],
  );
}
