// `npm run chaos`: the full chaos run against in-process sandboxes, with the built CLI (dist/). Every case
// is compared with a clean run of the same query (same data, no fault): exports byte for byte, syncs row
// for row. Prints the table (case, faults injected, retries, rows compared, differences) and exits 1 if
// any case differs or misbehaves. Takes several minutes; a reduced run is part of `npm test` (test/chaos).
//
//   npm run chaos -- [--seed N] [--kills N] [--concurrency N] [--keep]
//     --seed         seed of the kill moments (default: 1; the run prints it, so a failure can be replayed)
//     --kills        SIGKILL moments for exports and for syncs, each (default: 20)
//     --concurrency  cases run at once (default: 3)
//     --keep         keep the scratch directory (kept anyway when a case fails)
import { parseArgs } from 'node:util';
import type { FaultKind } from '../../src/sandbox/index.js';
import { mountSupport, randomMoments } from './faults.js';
import { PostgresChaos } from './postgres.js';
import { type CaseRow, formatNotes, formatTable, passed, runCases } from './report.js';
import { LakeChaos } from './lake.js';
import { Chaos, type ExportQuery, type SyncQuery } from './chaos.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: process.env.CHAOS_SEED ?? '1' },
    kills: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    // Only the cases whose name holds this text (the two clean runs, which the kill moments are spread over, always run).
    only: { type: 'string' },
  },
});
const seed = Number(values.seed);
const kills = Number(values.kills);
const concurrency = Number(values.concurrency);
if (![seed, kills, concurrency].every(Number.isSafeInteger) || kills < 0 || concurrency < 1) {
  console.error('chaos: --seed, --kills and --concurrency take whole numbers (--concurrency at least 1)');
  process.exit(2);
}

const started = performance.now();
const log = (line: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const chaos = new Chaos({ seed: 7, swapsPerHour: 600, log, only: values.only });

const ALL_KINDS: FaultKind[] = ['429', '500', '503', 'reset', 'truncated', 'slow'];
// 72 windows of 10 min over 12 h, four at a time (about 7,000 swaps, 10 MB).
const LONG: ExportQuery = { kind: 'export', ...chaos.range(6, 12), window: '10m', concurrency: 4 };
// 48 windows of 5 min, two at a time: with 25 ms of latency a run takes a couple of seconds to kill into.
const EXPORT: ExportQuery = { kind: 'export', ...chaos.range(1, 4), window: '5m', concurrency: 2 };
// Parquet: 8 h in windows of 5 min (about 4,800 swaps, so row groups of 2,000 are cut and recorded mid-run).
const PARQUET: ExportQuery = { kind: 'export', ...chaos.range(1, 8), window: '5m', concurrency: 2, ext: 'parquet' };
// 12 h across midnight, one window at a time: two dates, so two parts and a state commit between them.
const SYNC: SyncQuery = { kind: 'sync', ...chaos.range(18, 12), concurrency: 1 };
// The same as Parquet partitions, read back with DuckDB.
const SYNC_PARQUET: SyncQuery = { ...SYNC, format: 'parquet' };
const THROUGH_FAULTS = { kinds: ALL_KINDS, slowMs: 5000, timeout: '1s', retries: 15 };
// Three weeks ending three days before the clock, 30 swaps an hour (about 15,000): a backfill made of short runs.
const BACKFILL: SyncQuery = { kind: 'sync', from: chaos.now - 24 * 86_400_000, to: chaos.now - 3 * 86_400_000, concurrency: 4 };

const noMount = mountSupport();
console.error(`chaos: seed ${seed}, ${kills} kill moments each, ${concurrency} cases at once, scratch ${chaos.root}`);
if (noMount) console.error(`chaos: the full-disk and read-only cases are skipped: ${noMount}`);

let rows: CaseRow[] = [];
let failed = true;
let pg: PostgresChaos | undefined;
let lake: LakeChaos | undefined;
try {
  // First the clean runs with latency, one at a time: the baseline, and how long the work takes to spread the kills over.
  const exportClean = await chaos.clean({ name: 'export, latency only', query: EXPORT });
  const syncClean = await chaos.clean({ name: 'sync, latency only', query: SYNC });
  // Over what a clean run takes, counted from its first answer, stretched by what the cases running beside
  // cost it (measured: an export, two windows at a time, about 1.2×; a sync, one window at a time, about 2×).
  const span = (row: CaseRow, stretch: number) => Math.max(500, Math.round(row.runMs * stretch));
  const exportSpan = span(exportClean, 1.2);
  const syncSpan = span(syncClean, 2);
  const exportMoments = randomMoments(seed, kills, 0, exportSpan);
  const syncMoments = randomMoments(seed + 1, kills, 0, syncSpan);
  log(`kill moments after the first answer: export 0-${exportSpan} ms, sync 0-${syncSpan} ms`);

  const cases: (() => Promise<CaseRow>)[] = [
    ...[0.1, 0.3, 0.5].map((rate) => () => chaos.faultRate({ name: `export, fault rate ${rate}`, query: LONG, rate, ...THROUGH_FAULTS })),
    () => chaos.faultRate({ name: 'export, 429 storm (rate 0.5, 429 only)', query: EXPORT, rate: 0.5, kinds: ['429'], timeout: '1s', retries: 15 }),
    () => chaos.faultRate({ name: 'sync, fault rate 0.3', query: SYNC, rate: 0.3, ...THROUGH_FAULTS }),
    ...exportMoments.map((moment, i) => () => chaos.kill({ name: `export, SIGKILL #${i + 1} at +${moment} ms`, query: EXPORT, moment })),
    ...syncMoments.map((moment, i) => () => chaos.kill({ name: `sync, SIGKILL #${i + 1} at +${moment} ms`, query: SYNC, moment })),
    // Updates after completion: the catch-up of a mirror days behind, clean, killed, through faults; as JSON Lines and as Parquet.
    ...(
      [
        ['sync', SYNC],
        ['sync Parquet', SYNC_PARQUET],
      ] as const
    ).flatMap(([label, query]) => [
      () => chaos.syncUpdates({ name: `${label} updates, +2 d`, query, laterDays: 2 }),
      () => chaos.syncUpdates({ name: `${label} updates, +4 d, fault rate 0.3`, query, laterDays: 4, rate: 0.3 }),
      ...randomMoments(seed + 2, Math.max(1, Math.round(kills / 4)), 0, 4000).map(
        (moment, i) => () => chaos.syncUpdates({ name: `${label} updates, +4 d, SIGKILL #${i + 1} at +${moment} ms`, query, laterDays: 4, moment }),
      ),
    ]),
    // A first Parquet sync killed mid-run, then run again.
    ...syncMoments
      .slice(0, Math.max(1, Math.round(kills / 4)))
      .map((moment, i) => () => chaos.kill({ name: `sync Parquet, SIGKILL #${i + 1} at +${moment} ms`, query: SYNC_PARQUET, moment })),
    () => chaos.faultRate({ name: 'Parquet export, fault rate 0.3', query: PARQUET, rate: 0.3, ...THROUGH_FAULTS }),
    ...exportMoments
      .slice(0, Math.ceil(kills / 2))
      .map((moment, i) => () => chaos.kill({ name: `Parquet export, SIGKILL #${i + 1} at +${moment * 2} ms`, query: PARQUET, moment: moment * 2 })),
    // A backfill killed again and again (a container with a deadline: SIGTERM; a host lost: SIGKILL) finishes.
    ...(['SIGTERM', 'SIGKILL'] as const).map(
      (signal) => () =>
        chaos.backfillKills({
          name: `sync backfill, ${signal} 2 s into each run`,
          query: BACKFILL,
          swapsPerHour: 30,
          signal,
          everyMs: 2000,
          checkpoint: signal === 'SIGKILL' ? '500ms' : '30s',
        }),
    ),
    // A second signal: the lock released, the resume line printed, the rerun completes the set.
    () => chaos.doubleSignal({ name: 'sync, SIGINT + SIGTERM', query: SYNC, first: 'SIGINT', second: 'SIGTERM' }),
    () => chaos.doubleSignal({ name: 'sync Parquet, SIGTERM + SIGINT', query: SYNC_PARQUET, first: 'SIGTERM', second: 'SIGINT' }),
    // An export's second signal: the printed resume command completes the file byte for byte.
    () => chaos.exportDoubleSignal({ name: 'export, SIGINT + SIGINT 1 ms apart', query: EXPORT, first: 'SIGINT', second: 'SIGINT', gapMs: 1 }),
    () => chaos.exportDoubleSignal({ name: 'Parquet export, SIGTERM + SIGINT 1 ms apart', query: PARQUET, first: 'SIGTERM', second: 'SIGINT', gapMs: 1 }),
    () => chaos.sandboxRestart({ name: 'export, sandbox restart (--retries 10)', query: EXPORT, retries: 10, outageMs: 2000 }),
    () => chaos.sandboxRestart({ name: 'export, sandbox restart (--retries 0)', query: EXPORT, retries: 0, outageMs: 2000 }),
  ];
  // The mirror in Postgres, on a cluster of its own: through faults, killed in its fetch, COPY and merge, caught up.
  pg = await PostgresChaos.start(chaos);
  cases.push(...postgresCases(pg, SYNC, seed, kills, syncSpan));
  // The mirror in an object store (the lake, Parquet), on an S3 server of its own: through faults, killed, two at once.
  lake = await LakeChaos.start(chaos);
  cases.push(...lakeCases(lake, SYNC_PARQUET, seed, kills, syncSpan));
  if (!noMount) {
    cases.push(
      () => chaos.fullDisk({ name: 'export, full disk', query: LONG, sizeShare: 0.4 }),
      () => chaos.readOnly({ name: 'export, read-only dir', query: EXPORT }),
      () => chaos.fullDisk({ name: 'sync, full disk', query: SYNC, sizeShare: 0.6 }),
      () => chaos.readOnly({ name: 'sync, read-only dir', query: SYNC }),
    );
  }
  rows = [exportClean, syncClean, ...(await runCases(cases, concurrency))].filter((row) => !row.skipped);
  failed = !rows.every(passed);
} finally {
  await pg?.close();
  lake?.close();
  await chaos.close({ keep: failed || values.keep });
}

console.log(formatTable(rows));
const notes = formatNotes(rows);
if (notes) console.log(`\n${notes}`);
if (noMount) console.log(`\nskipped: full disk and read-only dir (${noMount})`);
console.log(
  `\n${rows.filter(passed).length}/${rows.length} cases identical to a clean run in ${((performance.now() - started) / 1000).toFixed(0)} s (seed ${seed})`,
);
if (failed) {
  console.log(`scratch directory kept: ${chaos.root}`);
  process.exitCode = 1;
}

/** The lake cases: through fault rate 0.3, `kills` random moments of its run, and two syncs at once. */
function lakeCases(lake: LakeChaos, query: SyncQuery, seed: number, kills: number, spanMs: number): (() => Promise<CaseRow>)[] {
  return [
    () => lake.faultRate('lake sync, fault rate 0.3', query, 0.3),
    ...randomMoments(seed + 20, kills, 0, spanMs).map((afterMs, i) => () => lake.kill(`lake sync, SIGKILL #${i + 1} at +${afterMs} ms`, query, afterMs)),
    () => lake.twoAtOnce('lake sync, two at once', query),
  ];
}

/** The Postgres cases: `kills` random moments of the fetch, and the COPY, merge, fault and catch-up cases. */
function postgresCases(pg: PostgresChaos, query: SyncQuery, seed: number, kills: number, spanMs: number): (() => Promise<CaseRow>)[] {
  const moments = randomMoments(seed + 10, kills, 0, spanMs);
  return [
    () => pg.faultRate('postgres sync, fault rate 0.3', query, 0.3),
    ...moments.map((afterMs, i) => () => pg.kill(`postgres sync, SIGKILL #${i + 1} at +${afterMs} ms`, query, { afterMs })),
    () => pg.kill('postgres sync, SIGKILL during its COPY', query, { statement: 'COPY' }),
    () => pg.kill('postgres sync, SIGKILL during its merge', query, { statement: 'merge' }),
    () => pg.catchUp('postgres updates, +4 d, fault rate 0.3', query, 4, { rate: 0.3 }),
    () => pg.catchUp('postgres updates, +4 d, SIGKILL during its merge', query, 4, { moment: { statement: 'merge' } }),
    () => pg.databaseDies('postgres sync, the database ends its session after a first commit', query, {}),
    () => pg.databaseDies('postgres updates, +4 d, the database ends its session in the merge', query, { laterDays: 4 }),
    ...randomMoments(seed + 11, Math.max(1, Math.round(kills / 4)), 0, 4000).map(
      (afterMs, i) => () => pg.catchUp(`postgres updates, +4 d, SIGKILL #${i + 1} at +${afterMs} ms`, query, 4, { moment: { afterMs } }),
    ),
  ];
}
