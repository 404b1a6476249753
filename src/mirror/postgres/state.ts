/** The state row of a mirror table in swapx's state table: its query and cursors, written in the commit's transaction. */
import type { MirrorQuery, MirrorState, RunRecord } from '../../sync/store.js';
import type { JSONValue, Sql } from './driver.js';
import { qualified, STATE_TABLE, type TableName } from './schema.js';

/** The state row of a mirror table; the caller words an error. */
export async function selectState(sql: Sql, name: TableName): Promise<MirrorState | undefined> {
  const rows = await sql.unsafe(
    `SELECT query, since, completed_cursor, updated_cursor, rescan_base, rescanned_at, rescanned_to FROM ${qualified({ schema: name.schema, table: STATE_TABLE })} WHERE mirror = $1`,
    [name.table],
  );
  const row = rows[0];
  if (!row) return undefined;
  // Each time column is timestamptz (the table is checked when opened), which the driver reads as a Date.
  const ms = (value: unknown) => (value as Date).getTime();
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

export async function writeState(tx: Sql, name: TableName, state: MirrorState, version: string): Promise<void> {
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

/** Records a run of the mirror in its state row (none yet for a new mirror's start: its row comes with its first commit). */
export async function writeRun(sql: Sql, name: TableName, run: RunRecord): Promise<void> {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  await sql.unsafe(
    `UPDATE ${qualified({ schema: name.schema, table: STATE_TABLE })} SET last_run_started_at = $2, last_run_ended_at = $3, last_run_outcome = $4, last_run_message = $5 WHERE mirror = $1`,
    [name.table, iso(run.startedAt), iso(run.endedAt), run.outcome, run.message ?? null],
  );
}

/** The last run recorded in the state row, or undefined. */
export async function selectRun(sql: Sql, name: TableName): Promise<RunRecord | undefined> {
  const [row] = await sql.unsafe(
    `SELECT last_run_started_at AS started, last_run_ended_at AS ended, last_run_outcome AS outcome, last_run_message AS message FROM ${qualified({ schema: name.schema, table: STATE_TABLE })} WHERE mirror = $1`,
    [name.table],
  );
  if (!row || row.started === null) return undefined;
  const run: RunRecord = { startedAt: (row.started as Date).getTime(), outcome: row.outcome as RunRecord['outcome'] };
  if (row.ended !== null) run.endedAt = (row.ended as Date).getTime();
  if (row.message !== null) run.message = row.message as string;
  return run;
}
