/**
 * One row per swap across partitions: a swap whose completedAt changes so that it falls on another UTC day is
 * moved to that day's partition, in every format; an older version of it on its old day is not brought back; a
 * day left with no swap has no file; a run killed between the two writes of a move leaves it for the next run to
 * finish; a mirror an older swapx left holding a swap twice is repaired once. It was: the old version stayed in
 * the old day's partition and the new one went into the new day's, for good (the index that decides "newer" was
 * per partition). Read back with DuckDB, the reader analysts use.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsReason } from '../../src/cli/exit-codes.js';
import { FolderStore } from '../../src/mirror/folder/store.js';
import { LocalStorage } from '../../src/mirror/folder/local-storage.js';
import { newState } from '../../src/sync/store.js';
import { tempDir } from '../helpers/cli.js';
import { query, sqlString } from '../../scripts/support/duckdb.js';
import { ONE_SWAP } from '../helpers/one-swap.js';
import { useRouteServer } from '../helpers/route-server.js';
import { runSwapx } from '../helpers/run.js';
import { syncLeftovers } from '../../scripts/chaos/compare.js';

const SINCE = '2026-11-10T20:00:00Z';
const UNTIL = '2026-11-11T04:00:00Z';
const LATER = Date.parse('2026-11-11T06:00:00Z');

type Served = Record<string, unknown>;
let swaps: Served[] = [];
/** what a Completed window answers instead of the current versions (a replica that lags) */
let stale: Served[] | undefined;
let clock = Date.parse('2026-11-11T05:00:00Z');
afterEach(() => {
  swaps = [];
  stale = undefined;
  clock = Date.parse('2026-11-11T05:00:00Z');
});

function swap(id: string, completedAt: string, updatedAt = completedAt, usd = 1): Served {
  return { ...ONE_SWAP, id, completedAt, withdrawnAt: completedAt, updatedAt, depositUsdAmount: usd };
}

function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const [from, to, filter] = [Date.parse(url.searchParams.get('From')!), Date.parse(url.searchParams.get('To')!), url.searchParams.get('Filter')];
  const field = filter === 'Updated' ? 'updatedAt' : 'completedAt';
  const source = filter === 'Completed' && stale ? stale : swaps;
  const body = source.filter((s) => {
    const t = Date.parse(String(s[field]));
    return t >= from && t <= to;
  });
  res.setHeader('date', new Date(clock).toUTCString());
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const server = useRouteServer({ '/api': serve });
const env = () => ({ SWAPX_BASE_URL: `${server.base}/api`, SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo', SWAPX_CONFIG_DIR: tempDir('swapx-cfg-') });

const FORMATS = [
  { format: 'jsonl', glob: 'part.jsonl', read: (glob: string) => `read_json_auto(${glob}, hive_partitioning = true, format = 'newline_delimited')` },
  { format: 'csv', glob: 'part.csv', read: (glob: string) => `read_csv(${glob}, hive_partitioning = true)` },
  { format: 'parquet', glob: 'part.parquet', read: (glob: string) => `read_parquet(${glob}, hive_partitioning = true)` },
] as const;

describe.each(FORMATS)('a folder mirror in $format', ({ format, glob, read }) => {
  /** Every row held: its day, id, updatedAt and amount, by id; a swap held twice shows twice. */
  async function held(dir: string): Promise<string[]> {
    const rows = await query(
      `SELECT "date"::VARCHAR AS day, id, strftime("updatedAt"::TIMESTAMPTZ AT TIME ZONE 'UTC', '%H:%M') AS updated, "depositUsdAmount" AS usd
       FROM ${read(sqlString(`${dir}/date=*/${glob}`))} ORDER BY id, day`,
    );
    return rows.map((r) => `${String(r.day)} ${String(r.id)} ${String(r.updated)} $${String(r.usd)}`);
  }
  const sync = async (dir: string, args: string[] = []) => {
    const r = await runSwapx(['sync', '--out', dir, '--format', format, '--summary-json', ...args], { env: env(), now: LATER });
    expect(r.stderr.split('\n').filter((line) => line !== '' && !line.includes('"sync-step"'))).toEqual([]);
    expect(r.code).toBe(0);
    return r.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  const first = (dir: string) => sync(dir, ['--since', SINCE, '--until', UNTIL]);

  it('a swap whose completedAt moves to the next day is held once, there, in its latest version', async () => {
    const dir = path.join(tempDir('swapx-moves-'), 'out');
    swaps = [swap('x', '2026-11-10T23:50:00Z', '2026-11-10T23:50:00Z', 1), swap('y', '2026-11-10T22:00:00Z'), swap('z', '2026-11-11T01:00:00Z')];
    await first(dir);
    expect(await held(dir)).toEqual(['2026-11-10 x 23:50 $1', '2026-11-10 y 22:00 $1', '2026-11-11 z 01:00 $1']);
    swaps[0] = swap('x', '2026-11-11T00:10:00Z', '2026-11-11T05:30:00Z', 2);
    clock = LATER;
    const [step] = await sync(dir);
    expect(step).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 1 });
    expect(await held(dir)).toEqual(['2026-11-11 x 05:30 $2', '2026-11-10 y 22:00 $1', '2026-11-11 z 01:00 $1']);
    expect(syncLeftovers(dir)).toEqual([]);
  });

  it('one that moves back a day leaves its old day, with no swap left, without a file', async () => {
    const dir = path.join(tempDir('swapx-moves-'), 'out');
    swaps = [swap('y', '2026-11-10T22:00:00Z'), swap('z', '2026-11-11T01:00:00Z')];
    await first(dir);
    swaps[1] = swap('z', '2026-11-10T23:59:59.999Z', '2026-11-11T05:30:00Z', 3);
    clock = LATER;
    await sync(dir);
    expect(await held(dir)).toEqual(['2026-11-10 y 22:00 $1', '2026-11-10 z 05:30 $3']);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('date='))).toEqual(['date=2026-11-10']);
    expect(syncLeftovers(dir)).toEqual([]);
  });

  it('an older version on its old day, from a lagging answer, does not bring it back there', async () => {
    const dir = path.join(tempDir('swapx-moves-'), 'out');
    swaps = [swap('x', '2026-11-10T23:50:00Z'), swap('y', '2026-11-10T22:00:00Z')];
    await first(dir);
    const old = swaps[0]!;
    swaps[0] = swap('x', '2026-11-11T00:10:00Z', '2026-11-11T05:30:00Z', 2);
    clock = LATER;
    await sync(dir);
    // The re-scan's Completed windows answer the old version; the Updated pass has nothing newer than what is held.
    stale = [old, swaps[1]!];
    await sync(dir);
    expect(await held(dir)).toEqual(['2026-11-11 x 05:30 $2', '2026-11-10 y 22:00 $1']);
  });
});

describe('a move cut short, and a mirror of an older swapx', () => {
  /** A folder store whose storage fails the `n`th partition write after `armed` is set, as a kill there would. */
  function failingStore(dir: string) {
    const control = { armed: false, writes: 0, failAt: 2 };
    const storage = new LocalStorage(dir);
    const write = storage.write.bind(storage);
    storage.write = async (file, bytes) => {
      if (control.armed && file.startsWith('date=') && ++control.writes === control.failAt) throw new Error('killed');
      return write(file, bytes);
    };
    return { store: new FolderStore({ dir, now: () => LATER, fsReason, storage }), control };
  }
  const rowOf = (s: Served) => ({ swap: s as never, completedMs: Date.parse(String(s.completedAt)) });

  it('killed after the new day is written and before the old day: the next run finishes the move', async () => {
    const dir = path.join(tempDir('swapx-moves-'), 'out');
    const { store, control } = failingStore(dir);
    await store.open(() => {});
    const state = newState(store.resolveQuery('http://api', undefined), Date.parse(SINCE));
    await store.commit(state, state.cursor);
    await store.add(rowOf(swap('x', '2026-11-10T23:50:00Z')));
    await store.add(rowOf(swap('y', '2026-11-10T22:00:00Z')));
    await store.commit(state, state.cursor);
    // The move: the new day written (write 1), then the old day without the swap (write 2): killed there.
    control.armed = true;
    await store.add(rowOf(swap('x', '2026-11-11T00:10:00Z', '2026-11-11T05:30:00Z', 2)));
    await expect(store.commit(state, state.cursor)).rejects.toThrow('killed');
    await store.close(false);
    const twice = () =>
      fs
        .readdirSync(dir)
        .filter((n) => n.startsWith('date='))
        .flatMap((n) => fs.readFileSync(path.join(dir, n, 'part.jsonl'), 'utf8').match(/"id":"x"/g) ?? []);
    expect(twice()).toHaveLength(2);
    expect(fs.existsSync(path.join(dir, '.swapx-moving.json'))).toBe(true);

    const next = new FolderStore({ dir, now: () => LATER, fsReason });
    await next.open(() => {});
    await next.close(false);
    expect(twice()).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, 'date=2026-11-11', 'part.jsonl'), 'utf8')).toContain('"id":"x"');
    expect(syncLeftovers(dir)).toEqual([]);
  });

  it('a mirror that holds a swap in two days (no partition index yet): repaired once, its latest version kept, said', async () => {
    const dir = path.join(tempDir('swapx-moves-'), 'out');
    swaps = [swap('x', '2026-11-10T23:50:00Z'), swap('y', '2026-11-10T22:00:00Z')];
    const r = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL], { env: env(), now: LATER });
    expect(r.code).toBe(0);
    // What an older swapx left: the new version in the new day's partition, the old one still in the old day's, no index.
    const line = (s: Served) => `${JSON.stringify(s)}\n`;
    fs.mkdirSync(path.join(dir, 'date=2026-11-11'));
    fs.writeFileSync(path.join(dir, 'date=2026-11-11', 'part.jsonl'), line(swap('x', '2026-11-11T00:10:00Z', '2026-11-11T05:30:00Z', 2)));
    fs.rmSync(path.join(dir, '.swapx-ids'), { recursive: true });
    const again = await runSwapx(['sync', '--out', dir, '--until', UNTIL, '-q'], { env: env(), now: LATER });
    expect(again.stderr).toBe(
      `warning: ${dir} held 1 swap(s) in more than one partition (their completedAt changed day): each is now held once, its latest version\n`,
    );
    expect(again.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'date=2026-11-10', 'part.jsonl'), 'utf8')).not.toContain('"id":"x"');
    expect(fs.readFileSync(path.join(dir, 'date=2026-11-11', 'part.jsonl'), 'utf8')).toContain('"depositUsdAmount":2');
    expect(syncLeftovers(dir)).toEqual([]);
    // Said once: the indexes are there now.
    expect((await runSwapx(['sync', '--out', dir, '--until', UNTIL, '-q'], { env: env(), now: LATER })).stderr).toBe('');
  });
});

describe('fields the spec does not name', () => {
  it.each([
    ['csv', ['--format', 'csv'], 'csv'],
    ['parquet', ['--format', 'parquet'], 'parquet'],
    ['jsonl of some fields', ['--fields', 'id,completedAt,updatedAt'], 'jsonl'],
    ['jsonl of every field', [], undefined],
  ])('a %s mirror says once a run which ones its rows leave out', async (_name, flags, leaves) => {
    const dir = path.join(tempDir('swapx-extra-'), 'out');
    swaps = [
      { ...swap('x', '2026-11-10T23:50:00Z'), fooBar: 1, 'foo-bar': 'a' },
      { ...swap('y', '2026-11-11T01:00:00Z'), fooBar: 2 },
    ];
    const r = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '-q', ...flags], { env: env(), now: LATER });
    expect(r.code).toBe(0);
    // It was: left out without a word.
    expect(r.stderr).toBe(
      leaves
        ? `warning: the API sent fields the spec does not name (fooBar, foo-bar), which this ${leaves} mirror's columns leave out: sync into a new jsonl mirror of every field to keep them\n`
        : '',
    );
  });
});
