/**
 * A `swapx sync` into Postgres killed with SIGKILL (the real bin, a process of its own) during its COPY, during its
 * merge, and with its rows merged but not committed: each time the table and the cursors are as they were before
 * the run, the killed run's lock is gone with its session, and the next run converges to the API row for row.
 * The merge and the commit are caught by a lock the test holds (a row the merge must wait for, the state row), so
 * the kill falls exactly there; a COPY by watching the server's activity. That may see a later batch's COPY than the
 * first (the run commits early, and a loaded machine polls slowly): the table is compared with what it was while that
 * COPY ran, seen before and after the look.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type postgres from 'postgres';
import { collect, spawnCli } from '../../helpers/cli.js';
import { useClockedSandbox } from '../../helpers/clocked-sandbox.js';
import { until } from '../../helpers/wait.js';
import { usePostgres } from '../../helpers/postgres.js';
import { runSwapx } from '../../helpers/run.js';
import { expectedRows } from '../../helpers/sync.js';
import { comparableSwap, tableSwaps } from '../../../scripts/support/comparable.js';

const db = usePostgres();
const CLOCK = Date.parse('2026-11-10T06:10:00Z');
const SINCE = '2026-11-10T00:00:00Z';
/** the first run holds the first hour; the killed runs add five more */
const FIRST = '2026-11-10T01:00:00Z';
const UNTIL = '2026-11-10T06:00:00Z';
/** About 10,000 swaps in the killed run's hours: a COPY that lasts long enough to be caught. */
const dense = { seed: 77, swapsPerHour: 2000 };
/** The merge and the commit are held up by the test's locks: a tenth of the swaps does. */
const sparse = { seed: 77, swapsPerHour: 200 };
const apis = { dense: useClockedSandbox({ ...dense, clock: CLOCK }), sparse: useClockedSandbox({ ...sparse, clock: CLOCK }) };
type Api = keyof typeof apis;

const env = (api: Api) => ({ ...apis[api].env(), ...db.env });
const args = (table: string, until: string) => ['sync', '--out', `${db.url}?table=${table}`, '--since', SINCE, '--until', until, '-q'];

/** What the table and its cursors are: compared before a killed run and after it. */
async function snapshot(table: string) {
  const rows = await db.sql.unsafe(`SELECT count(*)::int AS n, coalesce(sum(xmin::text::bigint), 0)::text AS versions FROM ${table}`);
  const state = await db.sql`SELECT completed_cursor, updated_cursor, rescan_base FROM swapx_sync_state WHERE mirror = ${table}`;
  return { rows: rows[0], state: state[0] };
}

/** The backends of swapx syncs (by their application name) */
const syncBackends = (where = 'true') =>
  db.admin.unsafe(
    `SELECT pid, state, xact_start::text AS xact_start, wait_event_type AS wait, query FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database() AND ${where}`,
  );

const expected: Partial<Record<Api, Record<string, unknown>[]>> = {};
beforeAll(() => {
  expected.dense = expectedRows(dense, SINCE, UNTIL, CLOCK).map(comparableSwap);
  expected.sparse = expectedRows(sparse, SINCE, UNTIL, CLOCK).map(comparableSwap);
});

/** A table holding the first hour, synced in process. */
async function started(api: Api, table: string): Promise<void> {
  const r = await runSwapx(args(table, FIRST), { env: env(api) });
  expect(r.code, r.stderr).toBe(0);
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/**
 * Spawns the sync of the rest, SIGKILLs it when `moment` says so (it resolves once the run is there, with the table
 * as the transaction it caught began from, where that may not be as the run found it), lets the server end the dead
 * session (`release` undoes what held the run), and checks that nothing changed; then runs again.
 */
async function killAndRerun(
  api: Api,
  table: string,
  moment: () => Promise<Snapshot | undefined>,
  release: () => Promise<void> = async () => {},
): Promise<void> {
  let before = await snapshot(table);
  const child = spawnCli(args(table, UNTIL), { env: env(api) });
  const done = collect(child);
  try {
    before = (await Promise.race([moment(), done.then((r) => Promise.reject(new Error(`the sync ended before the kill: ${r.code} ${r.stderr}`)))])) ?? before;
  } finally {
    child.kill('SIGKILL');
  }
  expect((await done).signal).toBe('SIGKILL');
  await release();
  // The server notices the dead client and ends its session: the transaction is rolled back, the lock released.
  await until(async () => ((await syncBackends()).length === 0 ? true : undefined), 20_000, 'the dead session to end');
  expect(await snapshot(table)).toEqual(before);
  const rerun = await runSwapx(args(table, UNTIL), { env: env(api) });
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(await tableSwaps(db.sql, table)).toEqual(expected[api]);
  const [state] = await db.sql`SELECT completed_cursor FROM swapx_sync_state WHERE mirror = ${table}`;
  expect(state).toEqual({ completed_cursor: new Date(UNTIL) });
}

// Spawned runs and thousands of rows: on a loaded machine a case takes longer than the default 30 s, which is no failure.
describe('SIGKILL, then a rerun', { timeout: 120_000 }, () => {
  let holder: postgres.ReservedSql | undefined;
  afterAll(() => holder?.release());

  it('during a COPY: nothing of its batch is in the table, and the next run converges to the API', async () => {
    await started('dense', 'killed_copy');
    await killAndRerun('dense', 'killed_copy', async () => {
      const copying = `state = 'active' AND query LIKE 'COPY swapx_batch%'`;
      for (;;) {
        const copy = await until(async () => (await syncBackends(copying))[0], 20_000, 'a COPY');
        // Read while that transaction runs (its COPY seen before and after): the table as that transaction began from.
        const during = await snapshot('killed_copy');
        const same = `${copying} AND pid = ${Number(copy.pid)} AND xact_start::text = '${String(copy.xact_start)}'`;
        if ((await syncBackends(same)).length > 0) return during;
        // That COPY ended meanwhile (a loaded machine): the next one.
      }
    });
  });

  it('during the merge (held up by a row the test inserts and keeps uncommitted)', async () => {
    await started('sparse', 'killed_merge');
    const later = expected.sparse!.find((row) => (row.completedAt as number) >= Date.parse('2026-11-10T03:00:00Z'))!;
    holder = await db.sql.reserve();
    await holder`BEGIN`;
    await holder.unsafe(`INSERT INTO killed_merge (_swapx_key, id) VALUES ($1, $1)`, [later.id as string]);
    await killAndRerun(
      'sparse',
      'killed_merge',
      async () => {
        await until(async () => (await syncBackends(`wait_event_type = 'Lock' AND query LIKE '%INSERT INTO%killed_merge%'`))[0], 20_000, 'the merge to wait');
        return undefined;
      },
      async () => {
        await holder!`ROLLBACK`;
        holder!.release();
        holder = undefined;
      },
    );
  });

  it('with its rows merged, before the commit (its cursors held up by a lock on the state row)', async () => {
    await started('sparse', 'killed_commit');
    holder = await db.sql.reserve();
    await holder`BEGIN`;
    await holder`SELECT * FROM swapx_sync_state WHERE mirror = 'killed_commit' FOR UPDATE`;
    await killAndRerun(
      'sparse',
      'killed_commit',
      async () => {
        await until(async () => (await syncBackends(`wait_event_type = 'Lock' AND query LIKE '%swapx_sync_state%'`))[0], 20_000, 'the cursors to wait');
        return undefined;
      },
      async () => {
        await holder!`ROLLBACK`;
        holder!.release();
        holder = undefined;
      },
    );
  });
});
