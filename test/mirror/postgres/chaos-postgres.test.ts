/**
 * The Postgres chaos cases (scripts/chaos/postgres.ts), reduced, inside `npm test` (the full set runs in `npm run
 * chaos`): a sync through faults at rate 0.3, the database ending the session of a first run after a commit and of a
 * catch-up during its merge, and a catch-up four days on killed during its merge; each ends with the
 * table identical, row for row, to the API and to a folder mirror of the same clocks. A first sync killed during its
 * COPY is test/mirror/postgres/sync-kill's (which also checks the table and cursors right after the kill) and the full run's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresChaos } from '../../../scripts/chaos/postgres.js';
import { type CaseRow, formatNotes, formatTable } from '../../../scripts/chaos/report.js';
import { Chaos, type SyncQuery } from '../../../scripts/chaos/chaos.js';
import { runServer } from '../../helpers/postgres.js';

const chaos = new Chaos({ seed: 7, swapsPerHour: 100 });
// Across midnight, about 460 swaps (the kill falls in the merge because the harness holds a row it writes, not
// because the merge is long: fewer swaps test the same and spawn runs that cost less).
const SYNC: SyncQuery = { kind: 'sync', ...chaos.range(21, 6), concurrency: 2 };
const CASE_MS = 120_000;
const rows: CaseRow[] = [];
let pg: PostgresChaos;

beforeAll(async () => {
  pg = await PostgresChaos.start(chaos, await runServer());
});
afterAll(async () => {
  if (rows.length > 0) console.log(`${formatTable(rows)}\n${formatNotes(rows)}`);
  await pg?.close();
  await chaos.close();
});

function expectClean(row: CaseRow): void {
  rows.push(row);
  expect(row.problems, `${row.case}: ${row.faults}`).toEqual([]);
  expect(row.differences, `${row.case}: ${row.faults}`).toBe(0);
  expect(row.rows).toBeGreaterThan(400);
}

describe.concurrent('Postgres chaos, reduced: the table ends identical to the API and to a folder mirror', () => {
  it(
    'a sync through fault rate 0.3 of every kind',
    async () => {
      const row = await pg.faultRate('postgres sync, fault rate 0.3', SYNC, 0.3);
      expectClean(row);
      expect(row.retries).toBeGreaterThan(0);
    },
    CASE_MS,
  );

  it(
    "the database ends a first run's session after one of its commits: exit 1 in one line; the cron line goes on from what was committed",
    async () => expectClean(await pg.databaseDies('postgres sync, the database ends its session after a first commit', SYNC, {})),
    CASE_MS,
  );

  it(
    "the database ends a catch-up's session during its merge: exit 1 in one line; run again, the table is right",
    async () => expectClean(await pg.databaseDies('postgres updates, +4 d, the database ends its session in the merge', SYNC, { laterDays: 4 })),
    CASE_MS,
  );

  it(
    'a catch-up four days on killed during its merge, then run again',
    async () => {
      const row = await pg.catchUp('postgres updates, +4 d, SIGKILL during its merge', SYNC, 4, { moment: { statement: 'merge' } });
      expectClean(row);
    },
    CASE_MS,
  );
});
