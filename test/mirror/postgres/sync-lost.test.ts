/**
 * The database going away mid-sync (`pg_terminate_backend`, as a failover or a restart ends a session), through the
 * built bin, a process of its own: the run exits 1 within seconds with one line on stderr (a `sync-failed` JSON
 * line), no stack, and the process ends; a first run's clean-up is skipped with a one-line note instead of hanging;
 * the next run continues and the table is the API's. And a run blocked by another session's lock fails after
 * lock_timeout naming that session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { collect, spawnCli } from '../../helpers/cli.js';
import { useClockedSandbox } from '../../helpers/clocked-sandbox.js';
import { comparableSwap, tableSwaps } from '../../../scripts/support/comparable.js';
import { until } from '../../helpers/wait.js';
import { usePostgres } from '../../helpers/postgres.js';
import { adminConnection, startCluster } from '../../../scripts/support/postgres-cluster.js';
import { runSwapx } from '../../helpers/run.js';
import { expectedRows } from '../../helpers/sync.js';

const db = usePostgres();
const CLOCK = Date.parse('2026-11-10T06:10:00Z');
const SINCE = '2026-11-10T00:00:00Z';
/** the first run holds the first hour; the runs that lose their connection add two more */
const FIRST = '2026-11-10T01:00:00Z';
const UNTIL = '2026-11-10T03:00:00Z';
const data = { seed: 91, swapsPerHour: 300 };
const api = useClockedSandbox({ ...data, clock: CLOCK });
const env = () => ({ ...api.env(), ...db.env });
const args = (table: string, until = UNTIL) => ['sync', '--out', `${db.url}?table=${table}`, '--since', SINCE, '--until', until, '--summary-json'];

let expected: Record<string, unknown>[] = [];
beforeAll(() => {
  expected = expectedRows(data, SINCE, UNTIL, CLOCK).map(comparableSwap);
});

/** The sync's backends in this database, by the application name swapx gives them */
const syncBackends = (where: string) =>
  db.admin.unsafe(`SELECT pid FROM pg_stat_activity WHERE application_name = 'swapx sync' AND datname = current_database() AND ${where}`);

/** The stderr lines of a run, parsed (each must be JSON), and what the process did. */
const jsonLines = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * Spawns the sync, holds it up with a lock the test takes first (`hold`), terminates its backend while it waits for
 * it (`waiting`: the statement's text), and returns how the process ended and how long after the kill.
 */
async function terminatedWhileWaiting(table: string, hold: (sql: postgres.ReservedSql) => Promise<unknown>, waiting: string) {
  const holder = await db.sql.reserve();
  try {
    await holder`BEGIN`;
    await hold(holder);
    const child = spawnCli(args(table), { env: env() });
    const done = collect(child);
    const [backend] = await Promise.race([
      until(
        async () => {
          const rows = await syncBackends(`wait_event_type = 'Lock' AND query LIKE '${waiting}'`);
          return rows.length > 0 ? rows : undefined;
        },
        20_000,
        'the sync to wait',
      ),
      done.then((r) => Promise.reject(new Error(`the sync ended first: ${r.code} ${r.stderr}`))),
    ]);
    await db.admin`SELECT pg_terminate_backend(${backend!.pid})`;
    const killedAt = Date.now();
    const result = await done;
    return { ...result, afterKillMs: Date.now() - killedAt };
  } finally {
    await holder`ROLLBACK`;
    holder.release();
  }
}

// Spawned runs against a real server: generous bounds on a loaded machine; they prove "does not hang", not speed.
describe('the backend terminated mid-sync', { timeout: 90_000 }, () => {
  it('during the merge: exit 1 within seconds, one JSON line naming the lost connection, no stack; the next run continues and the table is right', async () => {
    const table = 'lost_merge';
    const first = await runSwapx(args(table, FIRST).slice(0, -1), { env: env() });
    expect(first.code, first.stderr).toBe(0);
    // A row the merge must replace, inserted and kept uncommitted: the merge waits for it.
    const later = expected.find((row) => (row.completedAt as number) >= Date.parse(FIRST))!;
    const r = await terminatedWhileWaiting(
      table,
      (holder) => holder.unsafe(`INSERT INTO ${table} (_swapx_key, id) VALUES ($1, $1)`, [later.id as string]),
      `%INSERT INTO%${table}%`,
    );
    expect(r.code).toBe(1);
    expect(r.afterKillMs).toBeLessThan(15_000);
    expect(r.stderr).not.toMatch(/\n\s+at |TypeError/);
    const lines = jsonLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: 'sync-failed',
      exitCode: 1,
      error: 'PostgresConnectionError',
      message: `lost the connection to Postgres at 127.0.0.1:${db.server.port} while trying to write public.${table} (the server closed the connection); run again when it is up`,
    });
    const rerun = await runSwapx(args(table), { env: env() });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await tableSwaps(db.sql, table)).toEqual(expected);
  });

  it("during a first run's first commit: its clean-up is skipped with one note (not a hang), then the failure line; the next run makes the mirror", async () => {
    const table = 'lost_first';
    // The state table exists (the test above made it); the first run's start, written to it, waits for the test's lock.
    const r = await terminatedWhileWaiting(table, (holder) => holder`LOCK TABLE swapx_sync_state IN SHARE MODE`, '%INSERT INTO%swapx_sync_state%');
    expect(r.code).toBe(1);
    expect(r.afterKillMs).toBeLessThan(15_000);
    expect(r.stderr).not.toMatch(/\n\s+at |TypeError/);
    expect(jsonLines(r.stderr).map((line) => [line.event, line.error ?? line.message])).toEqual([
      [
        'sync-warning',
        `the connection to swapx_test@127.0.0.1:${db.server.port}/${db.database} public.${table} was lost: this first run's start (its state row, and the table if it made one) was left in place, and the next run continues from it`,
      ],
      ['sync-failed', 'PostgresConnectionError'],
    ]);
    const rerun = await runSwapx(args(table), { env: env() });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await tableSwaps(db.sql, table)).toEqual(expected);
  });
});

describe("the server stopped mid-sync (a server of the test's own, stopped as a restart or a failover stops it)", { timeout: 90_000 }, () => {
  const slow = useClockedSandbox({ ...data, clock: CLOCK, latencyMs: 150 });
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  afterAll(() => cluster?.stop());

  it('exit 1 within seconds, one JSON line saying the server cannot be reached, no stack', async () => {
    cluster = await startCluster();
    const { server } = cluster;
    const root = adminConnection(server);
    await root`CREATE DATABASE lost OWNER swapx_test`;
    await root.end();
    const out = `postgres://swapx_test@127.0.0.1:${server.port}/lost?table=stopped`;
    const run = (until: string) => ['sync', '--out', out, '--since', SINCE, '--until', until, '--summary-json'];
    const own = { ...slow.env(), PGPASSWORD: server.password };
    const first = await runSwapx(run(FIRST), { env: own });
    expect(first.code, first.stderr).toBe(0);
    const child = spawnCli(run(UNTIL), { env: own });
    const done = collect(child);
    // Once the sync holds its session (its windows are slow to come), the server goes.
    const admin = adminConnection(server, 'lost');
    await until(
      async () => ((await admin`SELECT 1 FROM pg_stat_activity WHERE application_name = 'swapx sync'`).length > 0 ? true : undefined),
      20_000,
      'the sync',
    );
    await admin.end({ timeout: 1 });
    cluster.stop();
    cluster = undefined;
    const stoppedAt = Date.now();
    const r = await done;
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/\n\s+at |TypeError/);
    const lines = jsonLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'sync-failed', exitCode: 1, error: 'PostgresConnectionError' });
    expect(lines[0]!.message).toMatch(new RegExp(`Postgres at 127\\.0\\.0\\.1:${server.port}\\b.*; run again when it is up$`));
  });
});

describe("a wait on another session's lock", { timeout: 90_000 }, () => {
  let dba: postgres.Sql | undefined;
  afterAll(() => dba?.end({ timeout: 1 }));

  // lock_timeout is 10 s unless the user sets it as libpq takes settings (PGOPTIONS, the URL's options): 1 s here.
  it.each([
    [
      'a LOCK TABLE … IN ACCESS EXCLUSIVE MODE held in an open transaction (lock_timeout from PGOPTIONS)',
      'lock_table',
      'AccessExclusiveLock on public.lock_table',
      'PGOPTIONS',
    ],
    [
      "a reader's row lock on the state row, SELECT … FOR UPDATE (lock_timeout from the URL's options)",
      'lock_row',
      'RowShareLock on public.swapx_sync_state',
      'options',
    ],
  ])('%s: the run fails after lock_timeout, naming the session, how and since when it holds it', async (_name, table, lock, how) => {
    const first = await runSwapx(args(table, FIRST), { env: env() });
    expect(first.code, first.stderr).toBe(0);
    dba = postgres({
      host: db.server.host,
      port: db.server.port,
      user: db.server.user,
      pass: db.server.password,
      database: db.database,
      max: 1,
      onnotice: () => {},
      connection: { application_name: 'dba console' },
    });
    const session = await dba.reserve();
    try {
      await session`BEGIN`;
      if (table === 'lock_table') await session.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      else await session`SELECT * FROM swapx_sync_state WHERE mirror = ${table} FOR UPDATE`;
      const [held] = await session<
        { pid: number; since: Date }[]
      >`SELECT pg_backend_pid() AS pid, xact_start AS since FROM pg_stat_activity WHERE pid = pg_backend_pid()`;
      const started = Date.now();
      const blocked = args(table).map((arg) => (how === 'options' && arg.startsWith('postgres://') ? `${arg}&options=-c%20lock_timeout%3D1s` : arg));
      const r = await runSwapx(blocked, { env: { ...env(), ...(how === 'PGOPTIONS' ? { PGOPTIONS: '--lock-timeout=1s' } : {}) } });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(r.code).toBe(1);
      const lines = jsonLines(r.stderr);
      expect(lines).toHaveLength(1);
      const since = `${held!.since.toISOString().slice(0, 19)}Z`;
      expect(lines[0]).toMatchObject({
        event: 'sync-failed',
        exitCode: 1,
        error: 'PostgresLockTimeoutError',
        message: `Postgres at 127.0.0.1:${db.server.port}: write public.${table} failed (canceling statement due to lock timeout, SQLSTATE 55P03): waited 1s for a lock; Postgres backend ${held!.pid} ("dba console" from 127.0.0.1) holds ${lock}, its transaction open since ${since}; run again once it lets go`,
      });
    } finally {
      await session`ROLLBACK`;
      session.release();
    }
    // Once it lets go, the next run continues.
    const rerun = await runSwapx(args(table), { env: env() });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await tableSwaps(db.sql, table)).toEqual(expected);
  });
});
