/**
 * `swapx sync` end to end, in process, against sandboxes with a fixed clock: two runs in a row,
 * daily partitions, a restored backup, CSV + gzip, a crash between a partition and the state, and a
 * mirror of the older append-only layout.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fingerprint } from '../../src/mirror/partitions/state-file.js';
import { LIST_SWAP_FIELDS, SWAP_FIELDS } from '../../src/api/types.js';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { expectTidy, expectedIds, expectedRows, mirrorRows, readParts, readState, snapshotData, sorted, stepLines, writtenIds } from '../helpers/sync.js';
import { runSwapx } from '../helpers/run.js';

const H = 3_600_000;

describe('two runs in a row', () => {
  const data = { seed: 21, swapsPerHour: 150 };
  const NOW = Date.parse('2026-11-10T03:00:00Z');
  const range = ['--since', '2026-11-09T21:00:00Z', '--until', '2026-11-10T03:00:00Z'];
  const api = useClockedSandbox({ ...data, clock: NOW });
  const dir = path.join(tempDir('swapx-sync-'), 'out');

  it('the first writes every swap once, its version at the clock, into daily partitions; the second changes no data file', async () => {
    const env = api.env();
    const first = await runSwapx(['sync', '--out', dir, ...range, '--summary-json'], { env: env });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    const [step] = stepLines(first);
    const expected = expectedRows(data, '2026-11-09T21:00:00Z', '2026-11-10T03:00:00Z', NOW);
    expect(expected.length).toBeGreaterThan(500);
    expect(Object.keys(step!)).toEqual([
      'event',
      'time',
      'newSwaps',
      'lateSwaps',
      'updatedSwaps',
      'outsideWindow',
      'cursor',
      'updatedCursor',
      'windows',
      'requests',
      'retries',
      'elapsedMs',
      'parts',
      'complete',
      'unfitValues',
    ]);
    // The first run holds nothing yet: the Completed pass alone, 12 windows, one request each, and the clock read.
    expect(step).toMatchObject({
      newSwaps: expected.length,
      lateSwaps: 0,
      updatedSwaps: 0,
      outsideWindow: 0,
      cursor: '2026-11-10T03:00:00Z',
      windows: 12,
      requests: 13,
      retries: 0,
      complete: true,
    });
    expect(step!.parts).toEqual(['date=2026-11-09/part.jsonl', 'date=2026-11-10/part.jsonl']);
    // The updates cursor is the largest updatedAt held, never past the end of what was fetched.
    const held = mirrorRows(dir);
    const maxUpdated = Math.max(...held.map((row) => Date.parse(String(row.updatedAt))));
    expect(Date.parse(step!.updatedCursor)).toBe(Math.min(maxUpdated, NOW));
    expect(held).toEqual(expected);
    expectTidy(dir);

    const before = snapshot(dir);
    const second = await runSwapx(['sync', '--out', dir, ...range.slice(2), '--summary-json'], { env: env });
    expect(second.code).toBe(0);
    const [again] = stepLines(second);
    expect(again).toMatchObject({
      newSwaps: 0,
      lateSwaps: 0,
      updatedSwaps: 0,
      parts: [],
      cursor: '2026-11-10T03:00:00Z',
      updatedCursor: step!.updatedCursor,
      complete: true,
    });
    expect(again!.requests).toBe(again!.windows + 1);
    expect(snapshot(dir)).toEqual(before);
  });

  it('without --until syncs up to the server clock − 2 min, in whole seconds', async () => {
    const fresh = path.join(tempDir('swapx-sync-'), 'out');
    const r = await runSwapx(['sync', '--out', fresh, '--since', '2026-11-10T02:40:00Z'], { env: api.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^Synced \d+ new, 0 late and 0 updated swaps into 1 partition; cursor 2026-11-10T02:58:00Z, updates from \S+; 1 window, 2 requests, 0 retries, \S+\n$/,
    );
    expect(readState(fresh).cursor).toBe('2026-11-10T02:58:00Z');
  });

  it('ignores a later --since that differs from the first, with a warning', async () => {
    const env = api.env();
    const until = ['--until', '2026-11-10T03:00:00Z', '--lag', '0', '-q'];
    const r = await runSwapx(['sync', '--out', dir, '--since', '2026-11-01', ...until], { env: env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: --since ignored: ${dir} syncs from 2026-11-09T21:00:00Z and continues from its cursor 2026-11-10T03:00:00Z (a new start needs a new --out dir)\n`,
    );
    const same = await runSwapx(['sync', '--out', dir, '--since', '2026-11-09T21:00:00Z', ...until], { env: env });
    expect(same.code).toBe(0);
    expect(same.stderr).toBe('');
  });
});

describe('a restored backup', () => {
  const data = { seed: 24, swapsPerHour: 50 };
  const SINCE = '2026-11-10T20:00:00Z';
  const UNTIL = '2026-11-11T02:00:00Z';
  const CLOCK1 = Date.parse('2026-11-11T02:10:00Z');
  const api = useClockedSandbox({ ...data, clock: CLOCK1 });

  it('caught up from its own data, loses no update made after the backup nor since the runs that followed it', async () => {
    const env = api.env();
    const base = tempDir('swapx-backup-');
    const dir = path.join(base, 'out');
    expect((await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '-q'], { env: env })).code).toBe(0);
    fs.cpSync(dir, path.join(base, 'backup'), { recursive: true });
    // Runs go on: two and five days later.
    for (const days of [2, 5]) {
      api.clock = CLOCK1 + days * 24 * H;
      expect((await runSwapx(['sync', '--out', dir, '--until', UNTIL, '-q'], { env: env })).code).toBe(0);
    }
    // The disk is lost; the backup of day 0 comes back, and the next run is on day 6.
    fs.rmSync(dir, { recursive: true });
    fs.cpSync(path.join(base, 'backup'), dir, { recursive: true });
    api.clock = CLOCK1 + 6 * 24 * H;
    const r = await runSwapx(['sync', '--out', dir, '--until', UNTIL, '--summary-json'], { env: env });
    expect(r.code).toBe(0);
    expect(stepLines(r)[0]!.updatedSwaps).toBeGreaterThan(0);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, UNTIL, api.clock));
    expectTidy(dir);
  });
});

describe('CSV, gzip, a crash between a partition and the state, an older mirror', () => {
  const data = { seed: 23, swapsPerHour: 200 };
  const NOW = Date.parse('2026-11-12T00:00:00Z');
  const SINCE = '2026-11-10T20:00:00Z';
  const api = useClockedSandbox({ ...data, clock: NOW });

  it('a rerun after a crash before the state write changes nothing and removes the leftovers', async () => {
    const env = api.env();
    const dir = path.join(tempDir('swapx-sync-'), 'out');
    const a = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-10T23:00:00Z', '--format', 'csv', '--gzip', '-q'], { env: env });
    expect(a.code).toBe(0);
    const stateA = fs.readFileSync(path.join(dir, '.swapx-sync.json'));
    // Later runs keep the format of the first.
    const b = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T02:00:00Z', '-q'], { env: env });
    expect(b.code).toBe(0);
    const parts = readParts(dir);
    expect(parts.map((part) => part.relative)).toEqual(['date=2026-11-10/part.csv.gz', 'date=2026-11-11/part.csv.gz']);
    // A new CSV mirror has the list export's columns: no always-empty balanceChanges.
    for (const part of parts) expect(part.firstLine).toBe(LIST_SWAP_FIELDS.join(','));
    const expected = expectedIds(data, SINCE, '2026-11-11T02:00:00Z', NOW);
    expect(sorted(writtenIds(dir))).toEqual(expected);
    const data1 = snapshotData(dir);

    // As if run b died after renaming its partitions but before writing the state; plus a temporary file it left.
    fs.writeFileSync(path.join(dir, '.swapx-sync.json'), stateA);
    const leftover = path.join(dir, 'date=2026-11-11', '.part.csv.gz.99999-abcd.tmp');
    fs.writeFileSync(leftover, 'partial');
    const c = await runSwapx(['sync', '--out', dir, '--until', '2026-11-11T02:00:00Z', '--summary-json'], { env: env });
    expect(c.code).toBe(0);
    // Its swaps are found held already: nothing new, no data file changed.
    expect(stepLines(c)[0]).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, parts: [], cursor: '2026-11-11T02:00:00Z' });
    expect(snapshotData(dir)).toEqual(data1);
    expect(fs.existsSync(leftover)).toBe(false);
    expectTidy(dir);
  });

  it('a CSV mirror made when every field was the default (balanceChanges included) keeps its columns and changes nothing on a rerun', async () => {
    const env = api.env();
    const dir = path.join(tempDir('swapx-sync-'), 'all');
    const first = ['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-10T23:00:00Z', '--format', 'csv', '--fields', SWAP_FIELDS.join(','), '-q'];
    expect((await runSwapx(first, { env: env })).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.swapx-sync.json'), 'utf8')).query.fields).toEqual(SWAP_FIELDS);
    const before = snapshotData(dir);
    const again = await runSwapx(['sync', '--out', dir, '--until', '2026-11-10T23:00:00Z', '-q'], { env: env });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(snapshotData(dir)).toEqual(before);
    for (const part of readParts(dir)) expect(part.firstLine).toBe(SWAP_FIELDS.join(','));
  });

  it('folds a mirror of the older append-only layout into one file per partition, then brings it current', async () => {
    const env = api.env();
    const dir = path.join(tempDir('swapx-sync-'), 'old');
    const early = NOW - 26 * H;
    // The older layout: two parts in a partition, the first holding versions the second repeats, and a version 1 state.
    const rows = expectedRows(data, SINCE, '2026-11-10T23:00:00Z', early).sort((x, y) => Date.parse(String(x.completedAt)) - Date.parse(String(y.completedAt)));
    fs.mkdirSync(path.join(dir, 'date=2026-11-10'), { recursive: true });
    const jsonl = (list: Record<string, unknown>[]) => list.map((row) => `${JSON.stringify(row)}\n`).join('');
    fs.writeFileSync(path.join(dir, 'date=2026-11-10', 'part-20261110T230000Z-aaaaaa.jsonl'), jsonl(rows.slice(0, 300)));
    fs.writeFileSync(path.join(dir, 'date=2026-11-10', 'part-20261111T000000Z-bbbbbb.jsonl'), jsonl(rows.slice(200)));
    const query = { baseUrl: api.sandbox.url, filter: 'Completed', format: 'jsonl', fields: [...SWAP_FIELDS], gzip: false };
    const v1 = {
      version: 1,
      fingerprint: fingerprint(query),
      query,
      since: SINCE,
      cursor: '2026-11-10T23:00:00Z',
      idsFrom: SINCE,
      rescanBase: '2026-11-10T23:00:00Z',
      rescannedAt: null,
      updatedAt: '2026-11-11T00:00:00Z',
      parts: [],
      ids: {},
    };
    fs.writeFileSync(path.join(dir, '.swapx-sync.json'), JSON.stringify(v1));

    const r = await runSwapx(['sync', '--out', dir, '--until', '2026-11-10T23:00:00Z', '--summary-json'], { env: env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`{"event":"sync-warning","time":"`);
    expect(r.stderr).toContain(
      `"message":"${dir} was written by an older swapx: its parts are folded into one file per partition, and updates since ${SINCE} are fetched once`,
    );
    expect(fs.readdirSync(path.join(dir, 'date=2026-11-10'))).toEqual(['part.jsonl']);
    expect(stepLines(r)[0]!.updatedSwaps).toBeGreaterThan(0);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, '2026-11-10T23:00:00Z', NOW));
    expect(readState(dir).version).toBe(2);
    expectTidy(dir);
  });
});

/** File names, sizes and modification times under dir (but the state and the last run, written by every run). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (name === '.swapx-sync.json' || name === '.swapx-last-run.json') continue;
    const stat = fs.statSync(path.join(dir, name));
    out[name] = stat.isDirectory() ? 'dir' : `${stat.size}:${stat.mtimeMs}`;
  }
  return out;
}
