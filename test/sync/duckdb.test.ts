/**
 * Reading a mirror as an analyst would, with DuckDB and the globs the README gives: every swap once,
 * its latest version; and the state file in the dir, which a glob over every JSON file picks up.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { CAUGHT_UP, useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { query } from '../../scripts/support/duckdb.js';
import { expectedRows } from '../helpers/sync.js';
import { runSwapx } from '../helpers/run.js';

const data = { seed: 61, swapsPerHour: 100 };
const { since: SINCE, until: UNTIL, clock1: CLOCK1, clock2: CLOCK2 } = CAUGHT_UP;
const mirror = useClockedSandbox({ ...data, clock: CLOCK1 });

describe('a mirror read with DuckDB', () => {
  it.each([
    ['jsonl', (dir: string) => `read_json_auto('${dir}/date=*/part.jsonl', hive_partitioning = true)`],
    ['csv.gz', (dir: string) => `read_csv_auto('${dir}/date=*/part.csv.gz', hive_partitioning = true)`],
  ])('%s: the README glob reads each swap once, in its latest version', async (format, source) => {
    const dir = path.join(tempDir('swapx-duck-'), 'out');
    const env = mirror.env();
    mirror.clock = CLOCK1;
    expect((await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--format', format, '-q'], { env: env })).code).toBe(0);
    mirror.clock = CLOCK2;
    expect((await runSwapx(['sync', '--out', dir, '--until', UNTIL, '-q'], { env: env })).code).toBe(0);
    const expected = expectedRows(data, SINCE, UNTIL, CLOCK2);
    const [counts] = await query(`select count(*)::int as n, count(distinct id)::int as ids, count(distinct "date")::int as dates from ${source(dir)}`);
    expect(counts).toEqual({ n: expected.length, ids: expected.length, dates: 2 });
    const [sums] = await query(
      `select round(sum(depositUsdAmount), 2)::double as usd, count(*) filter (where usdMismatchStatus = 'Unprocessed')::int as unprocessed from ${source(dir)}`,
    );
    const usd = expected.reduce((total, row) => total + (typeof row.depositUsdAmount === 'number' ? row.depositUsdAmount : 0), 0);
    expect(sums!.usd).toBeCloseTo(usd, 2);
    expect(sums!.unprocessed).toBe(expected.filter((row) => row.usdMismatchStatus === 'Unprocessed').length);
  });

  it("a glob over every JSON file of the dir reads swapx's own files (the state, the last run) as rows (why the README names the partition files)", async () => {
    const dir = path.join(tempDir('swapx-duck-'), 'out');
    mirror.clock = CLOCK1;
    expect((await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '-q'], { env: mirror.env() })).code).toBe(0);
    const [row] = await query(`select count(*)::int as n, count(distinct id)::int as ids from read_json_auto('${dir}/**/*.json*')`);
    const n = expectedRows(data, SINCE, UNTIL, CLOCK1).length;
    expect(row).toEqual({ n: n + 2, ids: n });
  });
});
