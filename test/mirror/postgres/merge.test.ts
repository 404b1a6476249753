/**
 * A commit's batch and its merge (src/mirror/postgres/merge.ts) against the real server: the version rule, the COPY of a
 * batch and its chunks, a COPY the server refuses, and the one statement that merges the batch, replacing every
 * column of a row, and counts new, late and updated rows.
 */
import { describe, expect, it } from 'vitest';
import { COLUMNS, type Column, keyOf, quoteIdent, versionOf } from '../../../src/mirror/postgres/columns.js';
import type { Db } from '../../../src/mirror/postgres/driver.js';
import { chunks, copyRows, mergeSql, type Pending, replaces } from '../../../src/mirror/postgres/merge.js';
import { encodeRow } from '../../../src/mirror/postgres/row.js';
import { ensureTables } from '../../../src/mirror/postgres/schema.js';
import { useDriver, usePostgres } from '../../helpers/postgres.js';

const db = usePostgres();
let sql: Db;
useDriver(db, (opened) => {
  sql = opened;
});

describe('replaces', () => {
  it('a larger or equal version replaces a held one; any version, or none, replaces none held; none never replaces one', () => {
    expect(replaces(5n, 4n)).toBe(true);
    expect(replaces(5n, 5n)).toBe(true);
    expect(replaces(4n, 5n)).toBe(false);
    expect(replaces(undefined, 5n)).toBe(false);
    expect(replaces(5n, undefined)).toBe(true);
    expect(replaces(undefined, undefined)).toBe(true);
  });
});

describe('chunks', () => {
  const rows = (...lines: string[]) => lines.map((line) => ({ line }));
  const text = (list: Iterable<Buffer>) => [...list].map((b) => b.toString());

  it('joins lines until a chunk reaches the size, then starts another; the rest is the last chunk', () => {
    expect(text(chunks(rows('aaaa\n', 'bbbb\n', 'cc\n', 'dddddd\n', 'e\n'), 10))).toEqual(['aaaa\nbbbb\n', 'cc\ndddddd\n', 'e\n']);
    expect(text(chunks(rows('aaaa\n', 'bbbbb\n'), 10))).toEqual(['aaaa\nbbbbb\n']);
    expect(text(chunks(rows('aaaa\n', 'bbb\n'), 10))).toEqual(['aaaa\nbbb\n']);
    expect(text(chunks(rows(), 10))).toEqual([]);
    expect(text(chunks(rows('a\n', 'b\n')))).toEqual(['a\nb\n']);
    expect(text(chunks(rows('x'.repeat(262_143), 'y', 'z')))).toEqual([`${'x'.repeat(262_143)}y`, 'z']);
  });
});

const ISO = (ms: number) => new Date(ms).toISOString();
const T = Date.parse('2026-11-10T00:00:00Z');

/** A swap of the columns the test reads back. */
const swap = (id: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  completedAt: ISO(T),
  updatedAt: ISO(T),
  bridge: 'b',
  ...fields,
});

function pending(list: Record<string, unknown>[]): Map<string, Pending> {
  const map = new Map<string, Pending>();
  for (const s of list) {
    const key = keyOf(s);
    const version = versionOf(s.updatedAt);
    map.set(key, { ...encodeRow(s, key, version), version, placedMs: 0 });
  }
  return map;
}

let tables = 0;
async function table(): Promise<{ schema: string; table: string }> {
  const name = { schema: 'public', table: `merge_${++tables}` };
  await ensureTables(sql, name);
  return name;
}

/** One merge as a commit makes it: the batch COPYed into the temporary table, then merged. Returns the merge's row. */
async function merge(name: { schema: string; table: string }, rows: Map<string, Pending>, cursor = T, columns: readonly Column[] = COLUMNS) {
  return sql.begin(async (tx) => {
    await tx.unsafe(`CREATE TEMP TABLE swapx_batch (${columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ')}) ON COMMIT DROP`);
    await copyRows(tx, rows);
    const aside = [...rows].filter(([, row]) => row.unfit).map(([key]) => key);
    const [row] = await tx.unsafe(mergeSql(name, columns), [ISO(cursor), JSON.stringify(aside)]);
    return { ...row };
  });
}

/** The rows held: key, bridge, version, and the tuple's version (a rewritten row has a new one). */
const held = (name: { table: string }) =>
  db.sql.unsafe(
    `SELECT _swapx_key AS key, bridge, _swapx_updated_ns::text AS ns, xmin::text AS xmin, _swapx_loaded_at::text AS loaded FROM ${name.table} ORDER BY 1`,
  );
const bridges = async (name: { table: string }) => Object.fromEntries((await held(name)).map((r) => [r.key, r.bridge]));

describe('the merge', () => {
  it('inserts new rows: at or after the cursor new, before it late, without a completedAt undated (their keys returned)', async () => {
    const name = await table();
    const rows = pending([
      swap('a', { completedAt: ISO(T) }),
      swap('b', { completedAt: ISO(T + 1) }),
      swap('c', { completedAt: ISO(T - 1) }),
      swap('d', { completedAt: null }),
      swap('e', { completedAt: 'unreadable' }),
    ]);
    expect(await merge(name, rows)).toEqual({ new_swaps: '2', late_swaps: '1', updated_swaps: '0', undated: ['d', 'e'], unfit: ['e'] });
    expect(await bridges(name)).toEqual({ a: 'b', b: 'b', c: 'b', d: 'b', e: 'b' });
    // Nothing undated: an empty list, not NULL.
    expect(await merge(name, pending([swap('f')]))).toEqual({ new_swaps: '1', late_swaps: '0', updated_swaps: '0', undated: [], unfit: [] });
  });

  it('replaces a held row by a later version only; the same version, or an older one, rewrites nothing', async () => {
    const name = await table();
    await merge(name, pending([swap('a', { updatedAt: '2026-11-10T00:00:00.0000005Z' }), swap('b')]));
    const before = await held(name);
    expect(await merge(name, pending([swap('a', { updatedAt: '2026-11-10T00:00:00.0000005Z', bridge: 'same' })]))).toMatchObject({ updated_swaps: '0' });
    expect(await merge(name, pending([swap('a', { updatedAt: '2026-11-10T00:00:00.0000004Z', bridge: 'older' })]))).toMatchObject({ updated_swaps: '0' });
    expect(await merge(name, pending([swap('b', { updatedAt: null, bridge: 'none' })]))).toMatchObject({ updated_swaps: '0' });
    expect(await held(name)).toEqual(before);
    const counts = await merge(name, pending([swap('a', { updatedAt: '2026-11-10T00:00:00.0000006Z', bridge: 'newer' }), swap('c')]));
    expect(counts).toEqual({ new_swaps: '1', late_swaps: '0', updated_swaps: '1', undated: [], unfit: [] });
    const after = await held(name);
    expect(after.map((r) => [r.key, r.bridge, r.ns])).toEqual([
      ['a', 'newer', `${T}000600`],
      ['b', 'b', `${T}000000`],
      ['c', 'b', `${T}000000`],
    ]);
    // The row replaced was written again, and marked loaded now; the others were left as they were. (The times are
    // compared as the server's text, to the microsecond: two transactions can fall in one millisecond.)
    expect(after[0]!.xmin).not.toBe(before[0]!.xmin);
    expect(after[0]!.loaded > before[0]!.loaded, `${after[0]!.loaded} after ${before[0]!.loaded}`).toBe(true);
    expect(after[1]).toEqual(before[1]);
  });

  it('a held row without a version: replaced by any with one, and by another without one only when the row differs', async () => {
    const name = await table();
    await merge(name, pending([swap('a', { updatedAt: null }), swap('b', { updatedAt: null }), swap('c', { updatedAt: null })]));
    const before = await held(name);
    const counts = await merge(
      name,
      pending([swap('a', { updatedAt: null }), swap('b', { updatedAt: null, bridge: 'changed' }), swap('c', { updatedAt: ISO(T), bridge: 'dated' })]),
    );
    expect(counts).toEqual({ new_swaps: '0', late_swaps: '0', updated_swaps: '2', undated: [], unfit: [] });
    const after = await held(name);
    expect(after.map((r) => [r.key, r.bridge, r.ns])).toEqual([
      ['a', 'b', null],
      ['b', 'changed', null],
      ['c', 'dated', `${T}000000`],
    ]);
    expect(after[0]).toEqual(before[0]);
  });

  it('copies a batch of several chunks; the fields the spec does not name go in _swapx_extra, whatever their names', async () => {
    const name = await table();
    const rows = pending([swap('a'), swap('b', { riskScore: 3, 'risk-score': { x: 1 } })]);
    // Lines of some 10 KB, over several chunks of 256 Ki characters.
    for (let i = 0; i < 60; i++) rows.set(`big${i}`, pending([swap(`big${i}`, { bridge: `${i}:${'x'.repeat(10_000)}` })]).get(`big${i}`)!);
    expect(await merge(name, rows)).toEqual({ new_swaps: '62', late_swaps: '0', updated_swaps: '0', undated: [], unfit: [] });
    const read = await db.sql.unsafe(
      `SELECT _swapx_key AS key, _swapx_extra AS extra, length(bridge) AS n, left(bridge, 3) AS head FROM ${name.table} ORDER BY 1`,
    );
    expect(read.filter((r) => !r.key.startsWith('big'))).toEqual([
      { key: 'a', extra: null, n: 1, head: 'b' },
      { key: 'b', extra: { riskScore: 3, 'risk-score': { x: 1 } }, n: 1, head: 'b' },
    ]);
    const big = read.filter((r) => r.key.startsWith('big'));
    expect(big.length).toBe(60);
    expect(big.every((r) => r.n === 10_000 + `${r.key.slice(3)}:`.length && r.head.startsWith(r.key.slice(3, 5)))).toBe(true);
  });

  it('a newer version sets every column: a field the older one had and it lacks leaves no trace', async () => {
    const name = await table();
    await merge(name, pending([swap('a', { updatedAt: ISO(T), riskScore: 'older', bridge: 'older', depositAmount: 1 })]));
    await merge(name, pending([swap('a', { updatedAt: ISO(T + 1), bridge: 'newer' })]));
    const [row] = await db.sql.unsafe(`SELECT to_jsonb(t) - '_swapx_loaded_at' AS row FROM ${name.table} t`);
    expect(JSON.stringify(row!.row)).not.toContain('older');
    expect(row!.row).toMatchObject({ bridge: 'newer', deposit_amount: null, _swapx_extra: null });
  });

  it('names which rows with values kept aside it wrote: not one whose version is not newer than the one held', async () => {
    const name = await table();
    const hostile = { detectedAt: '0000-06-01T00:00:00Z' };
    expect(await merge(name, pending([swap('a', hostile), swap('b', hostile), swap('c')]))).toMatchObject({ new_swaps: '3', unfit: ['a', 'b'] });
    const again = await merge(name, pending([swap('a', hostile), swap('b', { ...hostile, updatedAt: ISO(T + 1) })]));
    expect(again).toEqual({ new_swaps: '0', late_swaps: '0', updated_swaps: '1', undated: [], unfit: ['b'] });
  });

  it('a row the server refuses after the COPY sent it fails the COPY (it does not hang), and nothing is merged', async () => {
    const name = await table();
    const rows = pending([swap('a'), swap('b')]);
    // A line the encoder would not write (it keeps a year 0000 aside): a COPY refused whatever the cause.
    const values = rows.get('b')!.line.slice(0, -1).split('\t');
    values[COLUMNS.findIndex((c) => c.name === 'detected_at')] = '0000-06-01T00:00:00Z';
    rows.get('b')!.line = `${values.join('\t')}\n`;
    await expect(merge(name, rows)).rejects.toThrow('date/time field value out of range: "0000-06-01T00:00:00Z"');
    expect(await held(name)).toEqual([]);
  });

  it('names the table and its columns quoted', () => {
    const text = mergeSql({ schema: 'My Schema', table: 'T"1' }, COLUMNS.slice(0, 3));
    expect(text).toContain('INSERT INTO "My Schema"."T""1" AS held ("_swapx_key", "id", "timestamp")');
    expect(text).toContain('SELECT "_swapx_key", "id", "timestamp" FROM swapx_batch');
    expect(text).toContain('ON CONFLICT ("_swapx_key") DO UPDATE SET "id" = EXCLUDED."id", "timestamp" = EXCLUDED."timestamp", "_swapx_loaded_at" = now()');
    expect(text).toContain('(held."_swapx_key", held."id", held."timestamp") IS DISTINCT FROM (EXCLUDED."_swapx_key", EXCLUDED."id", EXCLUDED."timestamp")');
  });
});
