/**
 * The reduced chaos run inside `npm test` (the full one is `npm run chaos`), with the same harness
 * (scripts/chaos/, against dist/): every case is compared with a clean run of the same query
 * against a sandbox with the same data and no fault — exports byte for byte, syncs row for row (the catch-ups
 * of updates against a clean sync made at the later clock).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mountSupport, randomMoments } from '../../scripts/chaos/faults.js';
import { type CaseRow, formatNotes, formatTable } from '../../scripts/chaos/report.js';
import { Chaos, type ExportQuery, type SyncQuery } from '../../scripts/chaos/chaos.js';

const noMount = mountSupport();
const chaos = new Chaos({ seed: 7, swapsPerHour: 100 });
const rows: CaseRow[] = [];

// 24 windows of 5 min, two at a time: with 25 ms of latency a run takes one to two seconds.
const EXPORT: ExportQuery = { kind: 'export', ...chaos.range(1, 2), window: '5m', concurrency: 2 };
// Across midnight, so the sync writes two parts and commits its state between them.
const SYNC: SyncQuery = { kind: 'sync', ...chaos.range(21, 6), concurrency: 1 };
// Parquet: 4 h of 5-min windows, about 340 swaps: killed before its one row group is written (the resume from
// recorded row groups is test/e2e/parquet-export's, in process, and the full chaos run's).
const PARQUET: ExportQuery = { kind: 'export', ...chaos.range(1, 4), window: '5m', concurrency: 2, ext: 'parquet' };
const KILL_SEED = 20261121;
// Counted from the sandbox's first answer (a process start slowed by the other tests would skew them). Alone, each
// run ends about half a second after it: one moment within that for each kind of run, the harness's check; kills at
// chosen moments are test/e2e/swaps-signals' and test/sync/sync-kill's, more random ones the full run's.
const exportMoments = randomMoments(KILL_SEED, 1, 0, 500);
const syncMoments = randomMoments(KILL_SEED + 1, 1, 0, 500);
const parquetMoments = randomMoments(KILL_SEED + 2, 1, 0, 500);
const CASE_MS = 60_000;

function expectClean(row: CaseRow): void {
  rows.push(row);
  expect(row.problems, `${row.case}: ${row.faults}`).toEqual([]);
  expect(row.differences, `${row.case}: ${row.faults}`).toBe(0);
}

afterAll(async () => {
  if (rows.length > 0) console.log(`${formatTable(rows)}\n${formatNotes(rows)}`);
  await chaos.close();
});

describe.concurrent('chaos, reduced: every case ends identical to a clean run', () => {
  it(
    'an export through fault rate 0.3 of every kind, slow answers past --timeout 0.5s included',
    async () => {
      const row = await chaos.faultRate({
        name: 'export, fault rate 0.3',
        query: EXPORT,
        rate: 0.3,
        kinds: ['429', '500', '503', 'reset', 'truncated', 'slow'],
        slowMs: 3000,
        timeout: '500ms',
        retries: 10,
      });
      expectClean(row);
      expect(row.faults).toMatch(/slow×\d/);
      expect(row.retries).toBeGreaterThan(0);
    },
    CASE_MS,
  );

  it.each(exportMoments)(
    'an export killed with SIGKILL %i ms into its requests, then resumed',
    async (moment) => expectClean(await chaos.kill({ name: `export, SIGKILL at +${moment} ms`, query: EXPORT, moment })),
    CASE_MS,
  );

  it.each(parquetMoments)(
    'a Parquet export killed with SIGKILL %i ms into its requests, then resumed to the same bytes',
    async (moment) => expectClean(await chaos.kill({ name: `Parquet export, SIGKILL at +${moment} ms`, query: PARQUET, moment })),
    CASE_MS,
  );

  it.each(syncMoments)(
    'a sync killed with SIGKILL %i ms into its requests, then run again',
    async (moment) => expectClean(await chaos.kill({ name: `sync, SIGKILL at +${moment} ms`, query: SYNC, moment })),
    CASE_MS,
  );

  it(
    "a sync caught up four days later, when its swaps have changed: the mirror holds each swap's latest version",
    async () => {
      // Nothing is killed here: no latency, and four requests at a time through its 200 windows. (SIGKILLs during
      // a catch-up are test/sync/sync-kill's, and the full run's.)
      const row = await chaos.syncUpdates({ name: 'sync updates, +4 d', query: { ...SYNC, concurrency: 4 }, laterDays: 4, latencyMs: 0 });
      expectClean(row);
    },
    CASE_MS,
  );

  it(
    'a sync stopped by two signals back to back: exit 130, the lock released, the resume line; a rerun completes the set',
    async () => expectClean(await chaos.doubleSignal({ name: 'sync, SIGINT + SIGTERM', query: SYNC, first: 'SIGINT', second: 'SIGTERM' })),
    CASE_MS,
  );

  it(
    'a sandbox stopped mid-export and started again on the same port: the export rides through on retries',
    async () => {
      const row = await chaos.sandboxRestart({ name: 'export, sandbox restart', query: EXPORT, retries: 10, outageMs: 800 });
      expectClean(row);
      expect(row.retries).toBeGreaterThan(0);
    },
    CASE_MS,
  );

  it.skipIf(noMount !== undefined)(
    `a full disk: exit 1 with a clear message, nothing under the final name; --resume completes it once there is room${noMount ? ` (skipped: ${noMount})` : ''}`,
    async () => {
      const row = await chaos.fullDisk({ name: 'export, full disk', query: EXPORT, sizeShare: 0.4 });
      expectClean(row);
      // Nothing is saved when the disk fills before the first checkpoint (250 ms; a fast run): the case then checks nothing is left.
      expect(row.notes.join('\n')).toMatch(/^exit 1: swapx: error: writing \S+x\.jsonl: no space left on device(; \d+\/\d+ windows saved in |$)/m);
    },
    CASE_MS,
  );

  it.skipIf(noMount !== undefined)(
    `a read-only output dir: exit 1 with a clear message; --resume completes it once writable${noMount ? ` (skipped: ${noMount})` : ''}`,
    async () => {
      const row = await chaos.readOnly({ name: 'export, read-only dir', query: EXPORT });
      expectClean(row);
      expect(row.notes.join('\n')).toMatch(/^exit 1: swapx: error: read-only file system: \S+x\.jsonl$/m);
    },
    CASE_MS,
  );
});
