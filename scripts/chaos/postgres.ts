// The chaos cases of the Postgres mirror (`swapx sync --out postgres://…`), on a real PostgreSQL server: a sync
// through faults at rate 0.3, killed with SIGKILL at random moments of its fetch, killed while the server runs its
// COPY or its merge, and catch-ups days later (versions) killed or through faults. Each case ends with the table
// compared row for row with what the API serves at the last clock, and with a folder mirror of the same clocks (a
// clean sync, JSON Lines): a missing, extra, duplicate or stale row is a difference. Drives the built CLI.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { PostgresMirror } from '../../src/mirror/postgres/mirror.js';
import { parseTarget } from '../../src/mirror/postgres/target.js';
import { type FaultKind, type RunningSandbox, type SandboxOptions, swapsInWindow } from '../../src/sandbox/index.js';
import { comparableSwap, tableSwaps } from '../support/comparable.js';
import { adminConnection, type PostgresServer, startCluster } from '../support/postgres-cluster.js';
import { rowDifferences, type SyncedRow, syncedRow, syncedRows } from './compare.js';
import { faultsText } from './faults.js';
import type { CaseRow } from './report.js';
import type { Chaos, SyncQuery } from './chaos.js';
import { failureLine, runThrough, spawnSwapx } from './spawn.js';

const DAY = 86_400_000;
const ALL_KINDS: FaultKind[] = ['429', '500', '503', 'reset', 'truncated', 'slow'];
/** The run's error lines, for the notes (or its first line). */

/** Where a kill falls: a moment after the sandbox's first answer, or a statement the server shows running. */
type Moment = { afterMs: number } | { statement: 'COPY' | 'merge' };

export class PostgresChaos {
  #tables = 0;

  private constructor(
    private readonly chaos: Chaos,
    private readonly server: PostgresServer,
    private readonly stop: () => void,
    /** the test role's connection to the database of the cases */
    private readonly sql: postgres.Sql,
    private readonly database: string,
  ) {}

  /** A new PostgreSQL cluster (or the given server) and a database for the cases. */
  static async start(chaos: Chaos, given?: PostgresServer): Promise<PostgresChaos> {
    const started = given ? { server: given, stop: () => {} } : await startCluster();
    const { server } = started;
    const database = `chaos_${process.pid}_${Date.now()}`;
    const admin = adminConnection(server);
    try {
      await admin.unsafe(`CREATE DATABASE ${database} OWNER ${server.user}`);
    } finally {
      await admin.end({ timeout: 1 });
    }
    const sql = postgres({ host: server.host, port: server.port, user: server.user, pass: server.password, database, onnotice: () => {}, max: 2 });
    return new PostgresChaos(chaos, server, started.stop, sql, database);
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 1 });
    this.stop();
  }

  #env(sandbox: RunningSandbox): NodeJS.ProcessEnv {
    return { ...this.chaos.env(sandbox), PGPASSWORD: this.server.password };
  }

  #url(table: string): string {
    return `postgres://${this.server.user}@${this.server.host}:${this.server.port}/${this.database}?table=${table}&sslmode=disable`;
  }

  /** The table's rows as compared, by id. */
  async #tableRows(table: string): Promise<SyncedRow[]> {
    const exists = await this.sql`SELECT to_regclass(${table}) IS NOT NULL AS ok`;
    if (!exists[0]!.ok) return [];
    return (await tableSwaps(this.sql, table)).map(syncedRow);
  }

  /** What the API serves at `now` for the query's range. */
  #apiRows(query: SyncQuery, now: number): SyncedRow[] {
    return swapsInWindow({ from: query.from, to: query.to, filter: 'Completed', now }, this.chaos.data)
      .filter((swap) => Date.parse(swap.completedAt) < query.to)
      .map((swap) => syncedRow(comparableSwap(JSON.parse(JSON.stringify(swap)) as Record<string, unknown>)));
  }

  /** A clean folder mirror synced at each clock in turn (JSON Lines), its rows as compared. */
  async #folderRows(query: SyncQuery, clocks: readonly number[], dir: string): Promise<SyncedRow[]> {
    let port = 0;
    for (const now of clocks) {
      const sandbox = await this.chaos.restart(port, { now: () => now });
      port = sandbox.port;
      try {
        const run = await spawnSwapx(this.chaos.syncArgs(query, dir, ['-q']), this.chaos.env(sandbox)).done;
        if (run.code !== 0) throw new Error(`the clean folder sync failed (exit ${run.code}): ${failureLine(run.stderr)}`);
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
    }
    return syncedRows(dir).map(([, line]) => syncedRow(comparableSwap(JSON.parse(line) as Record<string, unknown>)));
  }

  #case(name: string, body: (row: CaseRow, table: string, dir: string) => Promise<void>): Promise<CaseRow> {
    return this.chaos.runCase(name, (row) => {
      const table = `chaos_${++this.#tables}`;
      return body(row, table, fs.mkdtempSync(path.join(this.chaos.root, `pg-${this.#tables}-`)));
    });
  }

  /** The table against the API at `clocks`' last and against a folder mirror synced at the same clocks. */
  async #compare(row: CaseRow, table: string, query: SyncQuery, clocks: readonly number[], dir: string): Promise<void> {
    const held = await this.#tableRows(table);
    const api = this.#apiRows(query, clocks[clocks.length - 1]!);
    const folder = await this.#folderRows(query, clocks, path.join(dir, 'folder'));
    row.rows = api.length;
    const againstFolder = rowDifferences(held, folder);
    if (againstFolder > 0) row.notes.push(`${againstFolder} difference(s) from the folder mirror of the same clocks`);
    if (rowDifferences(folder, api) > 0) row.problems.push('the clean folder mirror differs from the API');
    row.differences = rowDifferences(held, api) + againstFolder;
  }

  /** The first sync of the query, clean, at the chaos clock (the start of a catch-up); the port its API answered on. */
  async #firstSync(row: CaseRow, query: SyncQuery, table: string): Promise<number> {
    const sandbox = await this.chaos.sandbox();
    try {
      const run = await spawnSwapx(this.chaos.syncArgs(query, this.#url(table)), this.#env(sandbox)).done;
      if (run.code !== 0) row.problems.push(`the first sync failed (exit ${run.code}): ${failureLine(run.stderr)}`);
      return sandbox.port;
    } finally {
      await this.chaos.stopSandbox(sandbox);
    }
  }

  /**
   * Takes `lock` in a transaction of a connection of its own (cases run at once must not wait for each other's), and
   * keeps it until the returned function is called, which rolls it back.
   */
  async #hold(lock: (tx: postgres.TransactionSql) => Promise<unknown>): Promise<{ release: () => Promise<void>; pid: number }> {
    const { host, port, user, password } = this.server;
    const client = postgres({ host, port, user, pass: password, database: this.database, max: 1, onnotice: () => {} });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: (error?: unknown) => void = () => {};
    let pid = 0;
    const ready = new Promise<void>((resolve, reject) => {
      locked = (error) => (error === undefined ? resolve() : reject(error));
    });
    const done = client
      .begin(async (tx) => {
        await lock(tx);
        [{ pid }] = (await tx`SELECT pg_backend_pid() AS pid`) as unknown as [{ pid: number }];
        locked();
        await released;
        // Thrown to roll the transaction back.
        throw new Error('released');
      })
      .catch((error: unknown) => locked(error));
    await ready;
    return {
      pid,
      release: async () => {
        release();
        await done;
        await client.end({ timeout: 1 });
      },
    };
  }

  /**
   * Holds the merge of the next run into `table` up, so a kill falls inside it: a lock on every row the table holds
   * (the merge meets a re-scanned one), or, in an empty table, an uncommitted row of a swap the run will write.
   */
  async #holdMerge(table: string, query: SyncQuery): Promise<{ release: () => Promise<void>; pid: number }> {
    const exists = await this.sql`SELECT to_regclass(${table}) IS NOT NULL AS ok`;
    if (!exists[0]!.ok) {
      const mirror = await PostgresMirror.open(parseTarget(this.#url(table), { env: { PGPASSWORD: this.server.password } }), { version: 'chaos' });
      await mirror.close();
    }
    return this.#hold(async (tx) => {
      const held = await tx.unsafe(`SELECT _swapx_key FROM ${table} FOR UPDATE`);
      if (held.length === 0) {
        const [first] = this.#apiRows(query, this.chaos.now);
        await tx.unsafe(`INSERT INTO ${table} (_swapx_key, id) VALUES ($1, $1)`, [first![0]]);
      }
    });
  }

  /** Spawns the sync, kills it at `moment`, says where it fell. */
  async #kill(
    args: string[],
    env: NodeJS.ProcessEnv,
    moment: Moment,
    firstAnswer: Promise<number>,
    hold?: () => Promise<{ release: () => Promise<void> }>,
  ): Promise<string> {
    const release = hold ? (await hold()).release : async () => {};
    const { child, done } = spawnSwapx(args, env);
    let at: Promise<unknown>;
    if ('afterMs' in moment) at = firstAnswer.then(() => sleep(moment.afterMs));
    else {
      const where =
        moment.statement === 'COPY' ? `state = 'active' AND query LIKE 'COPY swapx_batch%'` : `wait_event_type = 'Lock' AND query LIKE '%WITH merged AS%'`;
      at = (async () => {
        for (;;) {
          const running = await this.sql.unsafe(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'swapx sync' AND ${where}`);
          if (running.length > 0) return;
          await sleep(1);
        }
      })();
    }
    const finished = await Promise.race([at.then(() => false), done.then(() => true)]);
    child.kill('SIGKILL');
    const killed = await done;
    await release();
    // The server ends the dead client's session (rolling its transaction back, releasing its lock) once it notices.
    for (let i = 0; i < 2000; i++) {
      const left = await this.sql`SELECT 1 FROM pg_stat_activity WHERE application_name = 'swapx sync'`;
      if (left.length === 0) break;
      await sleep(5);
    }
    const where = 'afterMs' in moment ? `+${moment.afterMs} ms` : `its ${moment.statement}`;
    return finished || killed.signal !== 'SIGKILL' ? `none: done before ${where}` : `SIGKILL at ${where}`;
  }

  /** A sandbox of the chaos data at `now`, and the time of its first answer. */
  async #watched(options: Omit<SandboxOptions, 'now'> & { now: number }): Promise<{ sandbox: RunningSandbox; firstAnswer: Promise<number> }> {
    let answered: (at: number) => void = () => {};
    const firstAnswer = new Promise<number>((resolve) => {
      answered = resolve;
    });
    const { now, port, ...rest } = options;
    const sandbox = await this.chaos.restart(port ?? 0, { ...rest, now: () => now, onRequest: () => answered(performance.now()) });
    return { sandbox, firstAnswer };
  }

  /** A first sync through faults at `rate` of every kind. */
  faultRate(name: string, query: SyncQuery, rate: number): Promise<CaseRow> {
    return this.#case(name, async (row, table, dir) => {
      const sandbox = await this.chaos.sandbox({ faultRate: rate, faultKinds: ALL_KINDS, slowMs: 5000 });
      try {
        await runThrough(row, this.chaos.syncArgs(query, this.#url(table), ['--timeout', '1s', '--retries', '15']), this.#env(sandbox));
        row.faults = `${faultsText(sandbox.stats().faults)} of ${sandbox.stats().requests} requests`;
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, table, query, [this.chaos.now], dir);
    });
  }

  /** A first sync killed at `moment`, then run again. */
  kill(name: string, query: SyncQuery, moment: Moment): Promise<CaseRow> {
    return this.#case(name, async (row, table, dir) => {
      const { sandbox, firstAnswer } = await this.#watched({ now: this.chaos.now, latencyMs: 25 });
      try {
        // One commit at the end when the kill is to fall in its COPY or merge: a batch big enough to be caught there.
        const extra = 'statement' in moment ? ['--checkpoint-every', '1h'] : [];
        const args = this.chaos.syncArgs(query, this.#url(table), extra);
        const hold = 'statement' in moment && moment.statement === 'merge' ? () => this.#holdMerge(table, query) : undefined;
        row.faults = await this.#kill(args, this.#env(sandbox), moment, firstAnswer, hold);
        await runThrough(row, args, this.#env(sandbox));
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, table, query, [this.chaos.now], dir);
    });
  }

  /**
   * The database ends the sync's session (a failover, a DBA's pg_terminate_backend) during a commit: of a first run,
   * once a commit of it is durable (the run must keep it, and the cron line, without --since, go on from it); or of
   * a catch-up `laterDays` on, during its merge. The run must end within seconds, exit 1, with one line of JSON and no
   * stack; run again, the table is the API's.
   */
  databaseDies(name: string, query: SyncQuery, options: { laterDays?: number }): Promise<CaseRow> {
    return this.#case(name, async (row, table, dir) => {
      const later = options.laterDays === undefined ? this.chaos.now : this.chaos.now + options.laterDays * DAY;
      const port = options.laterDays === undefined ? 0 : await this.#firstSync(row, query, table);
      const { sandbox } = await this.#watched({ now: later, port, latencyMs: 50 });
      try {
        // A first run commits after each window, so that one commit is durable before the next is cut.
        const extra = options.laterDays === undefined ? ['--checkpoint-every', '0'] : ['--checkpoint-every', '1h'];
        const args = this.chaos.syncArgs(query, this.#url(table), extra);
        // The commit to cut is held on a lock of ours, so that the session is ended inside it: a catch-up's merge (on the
        // rows it re-scans); a first run's next commit, once one is durable (on the row of its cursors).
        let held = options.laterDays === undefined ? undefined : await this.#holdMerge(table, query);
        const started = performance.now();
        const { done } = spawnSwapx(args, this.#env(sandbox));
        let finished = false;
        const cut = (async () => {
          if (options.laterDays === undefined) {
            for (;;) {
              const [state] = await this.sql.unsafe(`SELECT to_regclass('swapx_sync_state') IS NOT NULL AS ok`);
              const [done] = state!.ok
                ? await this.sql.unsafe(`SELECT count(*)::int AS n FROM swapx_sync_state WHERE mirror = $1 AND completed_cursor > since`, [table])
                : [{ n: 0 }];
              if (done!.n > 0 || finished) break;
              await sleep(1);
            }
            held = await this.#hold((tx) => tx.unsafe(`SELECT 1 FROM swapx_sync_state WHERE mirror = $1 FOR UPDATE`, [table]));
          }
          // This case's run, waiting on this case's lock (other cases' runs may be at their own commits).
          for (;;) {
            const waiting = await this.sql.unsafe(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`, [held!.pid]);
            if (waiting.length > 0) {
              await this.sql.unsafe(`SELECT pg_terminate_backend($1)`, [waiting[0]!.pid]);
              return;
            }
            if (finished) return;
            await sleep(1);
          }
        })();
        const ended = await done;
        finished = true;
        await cut;
        await held?.release();
        const seconds = (performance.now() - started) / 1000;
        row.faults = `session ended during ${options.laterDays === undefined ? 'a later commit of a first run' : `the merge of a catch-up +${options.laterDays} d`}`;
        const lines = ended.stderr.trim().split('\n');
        if (ended.code !== 1) row.problems.push(`the cut run exited ${ended.code ?? ended.signal}, not 1: ${failureLine(ended.stderr)}`);
        if (/\n\s+at |TypeError/.test(ended.stderr)) row.problems.push('a stack on stderr');
        const failures = lines.filter((line) => line.startsWith('{"event":"sync-failed"'));
        if (failures.length !== 1 || !failures[0]!.includes('"error":"PostgresConnectionError"')) {
          row.problems.push(`not one sync-failed line of PostgresConnectionError: ${lines.join(' / ')}`);
        }
        if (seconds > 30) row.problems.push(`the cut run took ${seconds.toFixed(0)} s to end`);
        // The cron line: no --since once the mirror's start is recorded.
        const since = args.indexOf('--since');
        const cron = [...args.slice(0, since), ...args.slice(since + 2)];
        await runThrough(row, options.laterDays === undefined ? cron : args, this.#env(sandbox));
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, table, query, options.laterDays === undefined ? [later] : [this.chaos.now, later], dir);
    });
  }

  /** A mirror caught up `laterDays` on (every version since), killed at `moment` or through faults at `rate`, then run again. */
  catchUp(name: string, query: SyncQuery, laterDays: number, options: { moment?: Moment; rate?: number }): Promise<CaseRow> {
    return this.#case(name, async (row, table, dir) => {
      const port = await this.#firstSync(row, query, table);
      const later = this.chaos.now + laterDays * DAY;
      const faults = options.rate === undefined ? {} : { faultRate: options.rate, faultKinds: ALL_KINDS, slowMs: 5000 };
      const { sandbox, firstAnswer } = await this.#watched({ now: later, port, latencyMs: 10, ...faults });
      try {
        const args = this.chaos.syncArgs(query, this.#url(table), [
          '--retries',
          '15',
          '--timeout',
          '2s',
          ...(options.moment && 'statement' in options.moment ? ['--checkpoint-every', '1h'] : []),
        ]);
        row.faults = `+${laterDays} d`;
        const moment = options.moment;
        if (moment) {
          const hold = 'statement' in moment && moment.statement === 'merge' ? () => this.#holdMerge(table, query) : undefined;
          row.faults += `, ${await this.#kill(args, this.#env(sandbox), moment, firstAnswer, hold)} of the catch-up`;
        }
        const run = await runThrough(row, args, this.#env(sandbox));
        if (options.rate !== undefined) row.faults += `, ${faultsText(sandbox.stats().faults)} of ${sandbox.stats().requests} requests`;
        const updated = [...run.stderr.matchAll(/"updatedSwaps":(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
        if (!options.moment && updated === 0) row.problems.push('the catch-up updated no swap');
      } finally {
        await this.chaos.stopSandbox(sandbox);
      }
      await this.#compare(row, table, query, [this.chaos.now, later], dir);
    });
  }
}
