/**
 * Values a typed column cannot hold, against the real server: a time Postgres refuses, text too long for an index,
 * an id too long to be the key, a version past a bigint. Each once failed the commit, every run, naming neither the
 * swap nor the field; now the row is written with what fits, the value kept as sent in _swapx_extra, and each is
 * named: by the mirror's commit, and by `swapx sync`, which exits 0 and counts them in --summary-json.
 */
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { PostgresMirror } from '../../../src/mirror/postgres/mirror.js';
import type { MirrorState } from '../../../src/sync/store.js';
import { sandboxEnv, tempDir } from '../../helpers/cli.js';
import { ONE_SWAP } from '../../helpers/one-swap.js';
import { pgTarget, usePostgres } from '../../helpers/postgres.js';
import { useRouteServer } from '../../helpers/route-server.js';
import { runSwapx } from '../../helpers/run.js';

const db = usePostgres();
const T = Date.parse('2026-11-01T00:00:00Z');
const STATE: MirrorState = {
  query: { baseUrl: 'https://api.example', filter: 'Completed', fields: ['id'] },
  since: T,
  cursor: T + 600_000,
  updatedCursor: T + 600_000,
  rescanBase: T,
  rescannedAt: undefined,
};

let tables = 0;
const opened: PostgresMirror[] = [];
async function open(table = `unfit_${++tables}`): Promise<PostgresMirror> {
  const mirror = await PostgresMirror.open(pgTarget(db, { table }), { version: '0.0.0-test' });
  opened.push(mirror);
  return mirror;
}
afterEach(async () => {
  for (const mirror of opened.splice(0)) await mirror.close();
});

const swap = (id: string | null, extra: Record<string, unknown> = {}) => ({ ...ONE_SWAP, id, ...extra }) as Record<string, unknown>;
const digestOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
/** 3 MB of a transaction hash. */
const HUGE = `0x${'ab'.repeat(1_500_000)}`;
const LONG_ID = 'i'.repeat(3000);
/** _swapx_extra read back with HUGE ($1) as the text 'HUGE': an assertion that fails does not diff 3 MB. */
const EXTRA = `replace(_swapx_extra::text, $1, 'HUGE')::jsonb AS extra`;

describe("Postgres's own rule", () => {
  it('of what swapx reads as a time, the server refuses a year written 0000 and a UTC offset past ±15:59, and takes the rest', async () => {
    const cast = async (text: string) =>
      db.sql.unsafe('SELECT $1::text::timestamptz AS t', [text]).then(
        () => 'taken',
        (error: Error) => error.message,
      );
    expect(await cast('0000-06-01T00:00:00Z')).toBe('date/time field value out of range: "0000-06-01T00:00:00Z"');
    expect(await cast('0000-12-31T23:00:00-02:00')).toBe('date/time field value out of range: "0000-12-31T23:00:00-02:00"');
    expect(await cast('2026-11-01T00:00:00+16:00')).toBe('time zone displacement out of range: "2026-11-01T00:00:00+16:00"');
    expect(await cast('2026-11-01T00:00:00-1600')).toBe('time zone displacement out of range: "2026-11-01T00:00:00-1600"');
    for (const taken of [
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:30:00+01:00',
      '2026-11-01T00:00:00+15:59',
      '2026-11-01T00:00:00-15:59',
      '9999-12-31T23:59:59.9999999-15:00',
    ]) {
      expect(await cast(taken)).toBe('taken');
    }
  });

  it('an index refuses an entry past 2,704 bytes; 2,000 bytes of text that does not compress fit every index swapx makes', async () => {
    const mirror = await open();
    const random = (bytes: number) => randomBytes(bytes / 2).toString('hex');
    const fits = random(2000);
    mirror.add(swap(fits, { sourceTransaction: fits, destinationTransaction: fits }), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
    expect(await db.sql.unsafe(`SELECT _swapx_key = id AND id = source_transaction AS same, _swapx_extra FROM ${mirror.target.table}`)).toEqual([
      { same: true, _swapx_extra: null },
    ]);
    await expect(db.sql.unsafe(`INSERT INTO ${mirror.target.table} (_swapx_key) VALUES ($1)`, [random(2706)])).rejects.toThrow(
      /^index row size \d+ exceeds btree version 4 maximum 2704 for index/,
    );
  });
});

describe('the mirror', () => {
  it('writes the row with what fits, keeps each value as sent in _swapx_extra, and names it; a replay names none', async () => {
    const mirror = await open();
    const t = mirror.target.table;
    mirror.add(swap('a1', { detectedAt: '0000-06-01T00:00:00Z', riskScore: 1 }), T);
    mirror.add(swap('b2', { withdrawnAt: '2026-11-01T00:01:00+16:00', sourceTransaction: HUGE }), T);
    mirror.add(swap(LONG_ID, { destinationTransaction: '0xd' }), T);
    mirror.add(swap('d4'), T);
    const kept = ', kept as sent in _swapx_extra';
    const unfit = [
      { id: 'a1', field: 'detectedAt', reason: `'0000-06-01T00:00:00Z' is out of timestamptz's range${kept}` },
      { id: 'b2', field: 'withdrawnAt', reason: `'2026-11-01T00:01:00+16:00' has a UTC offset timestamptz does not take (at most ±15:59)${kept}` },
      {
        id: 'b2',
        field: 'sourceTransaction',
        reason: `'0x${'ab'.repeat(19)}…' is 3,000,002 bytes, more than an index takes (at most 2,000)${kept}`,
      },
      { id: digestOf(JSON.stringify(LONG_ID)), field: 'id', reason: `'${'i'.repeat(40)}…' is 3,000 bytes, more than an index takes (at most 2,000)${kept}` },
    ];
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 4, lateSwaps: 0, updatedSwaps: 0, unfit });
    const rows = await db.sql.unsafe(
      `SELECT _swapx_key AS key, id, detected_at, withdrawn_at, source_transaction, destination_transaction, ${EXTRA}, xmin::text AS xmin
       FROM ${t} ORDER BY _swapx_key`,
      [HUGE],
    );
    const at = (iso: string) => new Date(iso);
    expect(rows.map(({ xmin: _x, ...row }) => row)).toEqual([
      {
        key: 'a1',
        id: 'a1',
        detected_at: null,
        withdrawn_at: at(ONE_SWAP.withdrawnAt),
        source_transaction: '0xa',
        destination_transaction: '0xb',
        extra: { detectedAt: '0000-06-01T00:00:00Z', riskScore: 1 },
      },
      {
        key: 'b2',
        id: 'b2',
        detected_at: at(ONE_SWAP.detectedAt),
        withdrawn_at: null,
        source_transaction: null,
        destination_transaction: '0xb',
        extra: { withdrawnAt: '2026-11-01T00:01:00+16:00', sourceTransaction: 'HUGE' },
      },
      {
        key: 'd4',
        id: 'd4',
        detected_at: at(ONE_SWAP.detectedAt),
        withdrawn_at: at(ONE_SWAP.withdrawnAt),
        source_transaction: '0xa',
        destination_transaction: '0xb',
        extra: null,
      },
      {
        key: digestOf(JSON.stringify(LONG_ID)),
        id: null,
        detected_at: at(ONE_SWAP.detectedAt),
        withdrawn_at: at(ONE_SWAP.withdrawnAt),
        source_transaction: '0xa',
        destination_transaction: '0xd',
        extra: { id: LONG_ID },
      },
    ]);
    // The same versions again: not a row rewritten, not a value named.
    for (const s of [swap('a1', { detectedAt: '0000-06-01T00:00:00Z', riskScore: 1 }), swap('b2', { sourceTransaction: HUGE }), swap(LONG_ID)])
      mirror.add(s, T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0 });
    expect((await db.sql.unsafe(`SELECT xmin::text AS xmin FROM ${t} ORDER BY _swapx_key`)).map((r) => r.xmin)).toEqual(rows.map((r) => r.xmin));
    // A newer version of the swap with the long id replaces its row (the key is the id's digest, every time), whole.
    mirror.add(swap(LONG_ID, { updatedAt: '2026-11-01T00:05:00Z' }), T);
    expect(await mirror.commit(STATE, T)).toMatchObject({ newSwaps: 0, updatedSwaps: 1, unfit: [unfit[3]] });
    expect(await db.sql.unsafe(`SELECT count(*)::int AS n, max(destination_transaction) AS tx FROM ${t} WHERE id IS NULL`)).toEqual([{ n: 1, tx: '0xb' }]);
  });

  it('a digest key never equals an id: a swap whose id is the digest of another without one is a row of its own', async () => {
    const mirror = await open();
    const noId = swap(null, { bridge: 'no id' });
    const digest = digestOf(JSON.stringify(noId));
    mirror.add(noId, T);
    mirror.add(swap(digest, { bridge: 'posing' }), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 2, lateSwaps: 0, updatedSwaps: 0 });
    expect(await db.sql.unsafe(`SELECT _swapx_key AS key, id, bridge FROM ${mirror.target.table} ORDER BY bridge`)).toEqual([
      { key: digest, id: null, bridge: 'no id' },
      { key: digestOf(JSON.stringify(digest)), id: digest, bridge: 'posing' },
    ]);
  });

  it('ids Postgres stores alike (a NUL, a lone surrogate: U+FFFD) are one row, its latest version, not a failed merge', async () => {
    const mirror = await open();
    mirror.add(swap('x\u0000', { updatedAt: '2026-11-01T00:03:00Z', bridge: 'later' }), T);
    mirror.add(swap('x\uD800', { updatedAt: '2026-11-01T00:02:00Z', bridge: 'earlier' }), T);
    mirror.add(swap('x\uFFFD', { updatedAt: '2026-11-01T00:02:00Z', bridge: 'earlier' }), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
    expect(await db.sql.unsafe(`SELECT _swapx_key AS key, bridge FROM ${mirror.target.table}`)).toEqual([{ key: 'x\uFFFD', bridge: 'later' }]);
  });

  it("an updatedAt past a bigint's nanoseconds (after 2262) is held, its version at the bigint's end", async () => {
    const mirror = await open();
    mirror.add(swap('far', { updatedAt: '3000-01-01T00:00:00Z' }), T);
    expect(await mirror.commit(STATE, T)).toEqual({ newSwaps: 1, lateSwaps: 0, updatedSwaps: 0 });
    expect(await db.sql.unsafe(`SELECT updated_at, _swapx_updated_ns::text AS ns FROM ${mirror.target.table}`)).toEqual([
      { updated_at: new Date('3000-01-01T00:00:00Z'), ns: String(2n ** 63n - 1n) },
    ]);
  });
});

describe('swapx sync', () => {
  const HOSTILE = [
    { ...ONE_SWAP, id: 'a1', completedAt: '2026-11-01T00:02:00Z', detectedAt: '0000-06-01T00:00:00Z' },
    { ...ONE_SWAP, id: 'b2', completedAt: '2026-11-01T00:03:00Z', sourceTransaction: HUGE },
    { ...ONE_SWAP, id: 'c3', completedAt: '2026-11-01T00:04:00Z' },
  ];
  // The swaps of the window asked for, by the time its filter names, as the API serves them (3 MB for each window
  // would be a slow test), at a clock an hour on: a later run's Updated pass asks for two windows, not a month's.
  const served = useRouteServer({
    '/hostile': (req, res) => {
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      const [from, to] = [Date.parse(query.get('From')!), Date.parse(query.get('To')!)];
      const time = query.get('Filter') === 'Updated' ? 'updatedAt' : 'completedAt';
      const inWindow = HOSTILE.filter((s) => Date.parse(s[time]) >= from && Date.parse(s[time]) < to);
      res.writeHead(200, { 'content-type': 'application/json', date: new Date('2026-11-01T01:00:00Z').toUTCString() }).end(JSON.stringify(inWindow));
    },
  });
  const dir = tempDir();
  const sync = (table: string) =>
    runSwapx(
      [
        '--base-url',
        `${served.base}/hostile`,
        'sync',
        '--out',
        `${db.url}?table=${table}`,
        '--since',
        '2026-11-01',
        '--until',
        '2026-11-01T00:10:00Z',
        '--summary-json',
      ],
      { env: { ...sandboxEnv('', path.join(dir, 'cfg'), { SWAPX_BASE_URL: undefined }), ...db.env } },
    );
  const events = (stderr: string) =>
    stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('a run with values Postgres cannot hold exits 0, warns naming each swap and field, and counts them; the next run exits 0 too', async () => {
    const first = await sync('hostile');
    expect(first.code, first.stderr).toBe(0);
    const [warning, step, ...rest] = events(first.stderr);
    expect(rest).toEqual([]);
    expect(warning).toEqual({
      event: 'sync-warning',
      time: expect.any(String),
      message:
        `swapx_test@127.0.0.1:${db.server.port}/${db.database} public.hostile could not hold 2 value(s) as they are; each row was written with what fits and the value kept as sent ` +
        `(swap a1: detectedAt '0000-06-01T00:00:00Z' is out of timestamptz's range, kept as sent in _swapx_extra; ` +
        `swap b2: sourceTransaction '0x${'ab'.repeat(19)}…' is 3,000,002 bytes, more than an index takes (at most 2,000), kept as sent in _swapx_extra)`,
    });
    expect(step).toMatchObject({ event: 'sync-step', newSwaps: 3, lateSwaps: 0, updatedSwaps: 0, complete: true, unfitValues: 2 });
    expect(await db.sql.unsafe(`SELECT id, detected_at, source_transaction, ${EXTRA} FROM hostile ORDER BY id`, [HUGE])).toEqual([
      { id: 'a1', detected_at: null, source_transaction: '0xa', extra: { detectedAt: '0000-06-01T00:00:00Z' } },
      { id: 'b2', detected_at: new Date(ONE_SWAP.detectedAt), source_transaction: null, extra: { sourceTransaction: 'HUGE' } },
      { id: 'c3', detected_at: new Date(ONE_SWAP.detectedAt), source_transaction: '0xa', extra: null },
    ]);

    // The next run fetches the same versions: nothing rewritten, nothing to warn about.
    const second = await sync('hostile');
    expect(second.code, second.stderr).toBe(0);
    const [again, ...none] = events(second.stderr);
    expect(none).toEqual([]);
    expect(again).toMatchObject({ event: 'sync-step', newSwaps: 0, updatedSwaps: 0, complete: true, unfitValues: 0 });
  });
});
