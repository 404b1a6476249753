/**
 * `sync --format parquet`: hive-partitioned Parquet read back with DuckDB equals, value by value, a JSON
 * Lines sync of the same range at the same clocks; a rerun with nothing new changes no file; --gzip is refused.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { parquetCodec } from '../../src/formats/parquet/partitions.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { CAUGHT_UP, useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { asRead, query } from '../../scripts/support/duckdb.js';
import { expectedIds, mirrorRows, snapshotData, sorted } from '../helpers/sync.js';
import { readMirror } from '../helpers/parquet-mirror.js';
import { runSwapx } from '../helpers/run.js';

const data = { seed: 62, swapsPerHour: 50 };
const { since: SINCE, until: UNTIL, clock1: CLOCK1, clock2: CLOCK2 } = CAUGHT_UP;
const mirror = useClockedSandbox({ ...data, clock: CLOCK1 });
// The same data answered slowly, so a kill falls inside the catch-up.
const slow = useClockedSandbox({ ...data, latencyMs: 3, clock: CLOCK1 });

async function syncBoth(args: readonly string[], fields: readonly string[]) {
  const env = mirror.env();
  const root = tempDir('swapx-sync-pq-');
  const pq = path.join(root, 'pq');
  const jsonl = path.join(root, 'jsonl');
  mirror.clock = CLOCK1;
  for (const [dir, format] of [
    [pq, 'parquet'],
    [jsonl, 'jsonl'],
  ] as const) {
    const r = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--format', format, ...args, '-q'], { env: env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }
  const first = new Map(mirrorRows(jsonl).map((r) => [r.id, r.updatedAt]));
  mirror.clock = CLOCK2;
  for (const dir of [pq, jsonl]) expect((await runSwapx(['sync', '--out', dir, '--until', UNTIL, '-q'], { env: env })).code).toBe(0);
  // The second clock brings new versions of swaps already held: the Parquet partitions were merged, not just appended.
  expect(mirrorRows(jsonl).filter((r) => first.has(r.id) && first.get(r.id) !== r.updatedAt).length).toBeGreaterThan(0);
  return { pq, jsonl, env, fields };
}

describe('sync --format parquet', () => {
  it('at two clocks days apart: DuckDB reads the hive-partitioned mirror as the JSON Lines mirror, value by value; a rerun changes nothing', async () => {
    const { pq, jsonl, env } = await syncBoth([], LIST_SWAP_FIELDS);
    const files = fs
      .readdirSync(pq, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.parquet'))
      .sort();
    expect(files).toEqual(['date=2026-11-10/part.parquet', 'date=2026-11-11/part.parquet']);
    const rows = await readMirror(pq, LIST_SWAP_FIELDS);
    const expected = mirrorRows(jsonl);
    expect(sorted(rows.map((r) => String(r.id)))).toEqual(expectedIds(data, SINCE, UNTIL, CLOCK2));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const record of expected) {
      const { date, ...row } = byId.get(record.id)!;
      expect(row).toEqual(asRead(record, LIST_SWAP_FIELDS));
      expect(date).toBe(String(record.completedAt).slice(0, 10));
    }
    // The partitions' order: completedAt, then id.
    const order = rows.map((r) => `${r.date} ${String(r.completedAt).padStart(20, '0')} ${String(r.id)}`);
    expect(order).toEqual([...order].sort());
    // Nothing new: no file rewritten (bytes and mtimes).
    const before = snapshotData(pq);
    const mtimes = files.map((f) => fs.statSync(path.join(pq, f)).mtimeMs);
    expect((await runSwapx(['sync', '--out', pq, '--until', UNTIL, '-q'], { env: env })).code).toBe(0);
    expect(snapshotData(pq)).toEqual(before);
    expect(files.map((f) => fs.statSync(path.join(pq, f)).mtimeMs)).toEqual(mtimes);
    // What the codec reads back re-encodes to the same bytes.
    const codec = parquetCodec(LIST_SWAP_FIELDS);
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(pq, file));
      expect(codec.encode(await codec.read(bytes)).equals(bytes)).toBe(true);
    }
    // The README's query.
    const [counts] = await query(
      `select count(*)::int as n, count(distinct id)::int as ids, count(distinct "date")::int as dates from read_parquet('${pq}/**/*.parquet', hive_partitioning = true)`,
    );
    expect(counts).toEqual({ n: expected.length, ids: expected.length, dates: 2 });
  });

  it('--fields picks and orders the columns', async () => {
    const fields = ['updatedAt', 'id', 'completedAt', 'depositUsdAmount', 'tags'];
    const { pq, jsonl } = await syncBoth(['--fields', fields.join(',')], fields);
    const rows = await readMirror(pq, fields);
    expect(Object.keys(rows[0]!)).toEqual([...fields, 'date']);
    const byId = new Map(rows.map(({ date: _date, ...r }) => [r.id, r]));
    const expected = mirrorRows(jsonl);
    expect(rows.length).toBe(expected.length);
    for (const record of expected) expect(byId.get(record.id)).toEqual(asRead(record, fields));
  });

  it('SIGKILLs during the catch-up at the later clock: a rerun ends byte-identical to an uninterrupted run', async () => {
    const env = slow.env();
    const base = tempDir('swapx-sync-pq-kill-');
    const clean = path.join(base, 'clean');
    const killed = path.join(base, 'killed');
    const more = (dir: string) => ['sync', '--out', dir, '--until', UNTIL, '--concurrency', '1', '-q'];
    slow.clock = CLOCK1;
    const r = await runSwapx(['sync', '--out', clean, '--since', SINCE, '--until', UNTIL, '--format', 'parquet', '-q'], { env: env });
    expect(r.code, r.stderr).toBe(0);
    // The mirror to be killed starts as a copy: the same state and bytes a second first run would leave.
    fs.cpSync(clean, killed, { recursive: true });
    slow.clock = CLOCK2;
    // Counted from the spawn: while the process starts or early in the catch-up, then past its first commits.
    for (const ms of [250, 700]) {
      const child = spawnCli([...more(killed), '--checkpoint-every', '0'], { env });
      const done = collect(child);
      await Promise.race([sleep(ms), done]);
      child.kill('SIGKILL');
      await done;
    }
    const [a, b] = await Promise.all([runSwapx(more(clean), { env: env }), runSwapx(more(killed), { env: env })]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(Object.keys(snapshotData(clean))).toEqual(['date=2026-11-10/part.parquet', 'date=2026-11-11/part.parquet']);
    expect(snapshotData(killed)).toEqual(snapshotData(clean));
    const ids = (await readMirror(killed, ['id'])).map((r) => String(r.id));
    expect(sorted(ids)).toEqual(expectedIds(data, SINCE, UNTIL, CLOCK2));
    // No temporary file or lock left behind.
    expect(fs.readdirSync(killed, { recursive: true }).map(String).sort()).toEqual([
      '.swapx-ids',
      '.swapx-ids/2026-11-10.ids',
      '.swapx-ids/2026-11-11.ids',
      '.swapx-last-run.json',
      '.swapx-sync.json',
      'date=2026-11-10',
      'date=2026-11-10/part.parquet',
      'date=2026-11-11',
      'date=2026-11-11/part.parquet',
    ]);
  });

  it.each([
    [['--format', 'parquet', '--gzip'], '--gzip does not apply to --format parquet: a Parquet file is compressed inside (drop --gzip)'],
    [['--format', 'parquet.gz'], '--format: parquet is compressed inside the file; give parquet without .gz'],
    [['--format', 'parquet', '--fields', 'id,completedAt,updatedAt,balanceChanges'], '--fields: balanceChanges is only in swapx swap'],
  ])('%j is exit 2, one line, nothing created', async (args, message) => {
    const dir = path.join(tempDir('swapx-sync-pq-bad-'), 'out');
    const r = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, ...args], { env: mirror.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(message);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
