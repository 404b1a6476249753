// Part 7: what early checkpoints cost. A sync commits after its first window, then 1 s, 2 s, 4 s … later, up to
// --checkpoint-every (30 s), so that a run killed a few seconds in still moves the mirror (src/sync/checkpoints.ts).
// Measured on a day's backfill (about 48,000 swaps at 2,000/h, 48 windows, no latency: the commits weigh the most)
// into a folder (JSON Lines) and into a Postgres table, each run in this process through the engine, with early
// checkpoints and without (a commit at the end only, as a run shorter than 30 s made before), three rounds each,
// the lowest kept: other work on a shared machine only ever adds.
import path from 'node:path';
import { createClient } from '../../src/api/client.js';
import { fsReason } from '../../src/cli/exit-codes.js';
import { PostgresStore } from '../../src/mirror/postgres/store.js';
import { parseTarget } from '../../src/mirror/postgres/target.js';
import { runSync, type SyncRunOptions } from '../../src/sync/engine.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import { DEFAULT_CHECKPOINT_MS, DEFAULT_LAG_MS } from '../../src/sync/defaults.js';
import type { MirrorQuery, MirrorStore } from '../../src/sync/store.js';
import { adminConnection, startCluster } from '../support/postgres-cluster.js';
import { DAY, MEMORY_SWAPS_PER_HOUR, type BenchContext, type PartOutcome } from './context.js';
import { fixed, grouped, table } from './report.js';

const ROUNDS = 3;

interface Row {
  destination: string;
  earlyMs: number;
  earlyCommits: number;
  lateMs: number;
  lateCommits: number;
  ratio: number;
}

export async function checkpointsPart(ctx: BenchContext): Promise<PartOutcome<{ swapsPerHour: number; rounds: number; rows: Row[] }>> {
  const sandbox = await ctx.startSandbox({ latencyMs: 0, swapsPerHour: MEMORY_SWAPS_PER_HOUR });
  ctx.log('checkpoints: starting a PostgreSQL cluster');
  const { server, stop } = await startCluster();
  const admin = adminConnection(server);
  const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'basic', clientId: 'demo', apiKey: 'demo' } });
  try {
    await admin.unsafe(`CREATE DATABASE bench OWNER ${server.user}`);
    const url = `postgres://${server.user}@${server.host}:${server.port}/bench?sslmode=disable`;
    const pgEnv = { PGPASSWORD: server.password, HOME: ctx.tmp };
    let n = 0;
    const destinations: [string, () => MirrorStore<MirrorQuery>][] = [
      ['a folder (JSON Lines)', () => new FolderStore({ dir: path.join(ctx.tmp, `checkpoints-${++n}`), now: Date.now, fsReason })],
      ['a Postgres table', () => new PostgresStore(parseTarget(url, { env: pgEnv, table: `checkpoints_${++n}` }), 'bench')],
    ];
    /** One backfill of the day into a new mirror: its wall time and commits. */
    const backfill = async (store: MirrorStore<MirrorQuery>, early: boolean) => {
      let commits = 0;
      const commit = store.commit.bind(store);
      store.commit = (next, newFrom) => {
        commits += 1;
        return commit(next, newFrom);
      };
      const options: SyncRunOptions = {
        baseUrl: sandbox.url,
        since: Date.parse(DAY.from),
        until: Date.parse(DAY.to),
        lagMs: DEFAULT_LAG_MS,
        rescanEveryMs: 0,
        follow: false,
        intervalMs: 60_000,
        moveBaseUrl: false,
        checkpointMs: DEFAULT_CHECKPOINT_MS,
        concurrency: 4,
        earlyCheckpoints: early,
      };
      const errors = { fsReason, refusedCredentials: () => false, transient: () => false };
      const started = performance.now();
      await runSync(options, { store, client, now: Date.now, signal: new AbortController().signal, requests: () => 0, retries: () => 0, errors }, () => {});
      // The start of the mirror is a commit of its own in either run.
      return { ms: performance.now() - started, commits: commits - 1 };
    };
    const rows: Row[] = [];
    for (const [destination, make] of destinations) {
      const best = { early: { ms: Infinity, commits: 0 }, late: { ms: Infinity, commits: 0 } };
      for (let round = 0; round < ROUNDS; round++) {
        ctx.log(`checkpoints: ${destination}, round ${round + 1} of ${ROUNDS}`);
        for (const [key, early] of [
          ['early', true],
          ['late', false],
        ] as const) {
          const run = await backfill(make(), early);
          if (run.ms < best[key].ms) best[key] = run;
        }
      }
      rows.push({
        destination,
        earlyMs: best.early.ms,
        earlyCommits: best.early.commits,
        lateMs: best.late.ms,
        lateCommits: best.late.commits,
        ratio: best.early.ms / best.late.ms,
      });
    }
    const text = table(
      `7. Early checkpoints: a day's backfill (${grouped(MEMORY_SWAPS_PER_HOUR)} swaps/hour, no latency), with and without them`,
      [
        ['into', 'l'],
        ['early: ms', 'r'],
        ['commits', 'r'],
        ['at the end only: ms', 'r'],
        ['commits', 'r'],
        ['cost', 'r'],
      ],
      rows.map((r) => [r.destination, grouped(r.earlyMs), String(r.earlyCommits), grouped(r.lateMs), String(r.lateCommits), `${fixed(r.ratio)}×`]),
      [
        `Lowest of ${ROUNDS} rounds each, in this process through the engine (runSync), the sandbox in its own. Early: a commit after the`,
        'first window, then 1 s, 2 s, 4 s … later (what a run killed a few seconds in keeps); at the end only: what a run shorter than',
        'the 30 s checkpoint interval did before. A commit rewrites the partitions it touches (a folder) or is one transaction (Postgres).',
      ],
    );
    return { text, result: { swapsPerHour: MEMORY_SWAPS_PER_HOUR, rounds: ROUNDS, rows } };
  } finally {
    await client.close();
    await admin.end({ timeout: 1 });
    stop();
    await sandbox.stop();
  }
}
