/** The Parquet encoder, read back with DuckDB: types, nulls, field choice, row groups, and a resumed file's bytes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { LIST_SWAP_FIELDS, type Swap } from '../../src/api/types.js';
import { apiTimeMicros, encodeParquet, ParquetFile, PARQUET_FIELDS } from '../../src/output/parquet/writer.js';
import { swapsInWindow } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { asRead as expected, parquetColumns, parquetRowGroups, parquetRows, query, sqlString } from '../../scripts/support/duckdb.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('swapx-parquet-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

const base = swapsInWindow({ from: '2026-11-02T00:00:00Z', to: '2026-11-02T00:20:00Z' }, { seed: 5 })[0]!;

describe('API times as microseconds', () => {
  it.each([
    ['2026-11-02T00:00:00Z', 1793577600000000n],
    ['2026-11-02T10:11:12.345Z', 1793614272345000n],
    ['2026-11-02T10:11:12.3Z', 1793614272300000n],
    ['2026-11-02T10:11:12.123456Z', 1793614272123456n],
    // ASP.NET's 7 digits: the 100 ns digit does not fit.
    ['2026-11-02T10:11:12.1234567Z', 1793614272123456n],
    // No zone is UTC; an offset is honoured.
    ['2026-11-02T10:11:12.1234567', 1793614272123456n],
    ['2026-11-02T12:11:12.5+02:00', 1793614272500000n],
    ['2024-02-29T23:59:59.999999Z', 1709251199999999n],
    ['1970-01-01T00:00:00Z', 0n],
  ])('%s', (text, micros) => {
    expect(apiTimeMicros(text)).toBe(micros);
    // Whole milliseconds agree with Date.parse.
    expect(apiTimeMicros(text) / 1000n).toBe(BigInt(Date.parse(/Z$|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`)));
  });

  it.each(['2026-11-02T25:00:00Z', '2026-13-02T10:00:00Z', 'yesterday', ''])('refuses %j', (text) => {
    expect(() => apiTimeMicros(text)).toThrow(`not a date-time: '${text}'`);
  });
});

describe('Parquet encoding', () => {
  it('types every column natively, in the CSV order, without balanceChanges', async () => {
    const file = write('types.parquet', encodeParquet([base as unknown as Record<string, unknown>], PARQUET_FIELDS));
    const columns = await parquetColumns(file);
    expect(columns.map((c) => c.split(' ')[0])).toEqual([...LIST_SWAP_FIELDS]);
    const types = Object.fromEntries(columns.map((c) => [c.split(' ')[0], c.split(' ').slice(1).join(' ')]));
    expect(types).toMatchObject({
      id: 'VARCHAR',
      timestamp: 'TIMESTAMP WITH TIME ZONE',
      withdrawnAt: 'TIMESTAMP WITH TIME ZONE',
      updatedAt: 'TIMESTAMP WITH TIME ZONE',
      bridge: 'VARCHAR',
      sourceOtherProtocolAddresses: 'VARCHAR[]',
      destinationOtherProtocolAddresses: 'VARCHAR[]',
      depositAmount: 'DOUBLE',
      withdrawnUsdAmount: 'DOUBLE',
      usdMismatchStatus: 'VARCHAR',
      tags: 'STRUCT("type" VARCHAR, "value" VARCHAR)[]',
    });
    expect(new Set(Object.values(types))).toEqual(
      new Set(['VARCHAR', 'TIMESTAMP WITH TIME ZONE', 'VARCHAR[]', 'DOUBLE', 'STRUCT("type" VARCHAR, "value" VARCHAR)[]']),
    );
  });

  it('keeps nulls null, empty lists empty, microseconds, and text of any script', async () => {
    const nulls = Object.fromEntries(LIST_SWAP_FIELDS.map((f) => [f, null]));
    const rows = [
      { ...nulls, id: 'all-null' },
      {
        ...base,
        id: 'edges',
        withdrawnAt: '2026-11-02T10:11:12.1234567Z',
        depositedAt: '2026-11-02T10:11:12.1234567',
        detectedAt: '2026-11-02T12:11:12.5+02:00',
        bridge: 'Mayan 🚀 «swift» \u00e9',
        sourceOtherProtocolAddresses: [],
        destinationOtherProtocolAddresses: ['0xa', '0xb'],
        tags: [],
        depositAmount: -0,
        withdrawnAmount: 1e300,
        depositUsdAmount: 0.1 + 0.2,
      },
      {
        ...base,
        id: 'tags',
        tags: [
          { type: 'nft', value: null },
          { type: null, value: 'x' },
        ],
        sourceOtherProtocolAddresses: null,
      },
    ];
    const file = write('edges.parquet', encodeParquet(rows as unknown as Record<string, unknown>[], PARQUET_FIELDS));
    const [allNull, edges, tags] = await parquetRows(file);
    expect(allNull).toEqual({ ...nulls, id: 'all-null' });
    expect(edges).toMatchObject({
      withdrawnAt: '1793614272123456',
      depositedAt: '1793614272123456',
      detectedAt: '1793614272500000',
      bridge: 'Mayan 🚀 «swift» é',
      sourceOtherProtocolAddresses: [],
      destinationOtherProtocolAddresses: ['0xa', '0xb'],
      tags: [],
      withdrawnAmount: 1e300,
      depositUsdAmount: 0.1 + 0.2,
    });
    const [sign] = await query(`SELECT signbit(depositAmount) AS negative FROM read_parquet(${sqlString(file)}) WHERE id = 'edges'`);
    expect(sign).toEqual({ negative: true });
    expect(tags).toMatchObject({
      tags: [
        { type: 'nft', value: null },
        { type: null, value: 'x' },
      ],
      sourceOtherProtocolAddresses: null,
    });
  });

  it('writes the chosen fields only, in their order', async () => {
    const fields = ['tags', 'id', 'withdrawnAt', 'depositUsdAmount'];
    const file = write('fields.parquet', encodeParquet([base as unknown as Record<string, unknown>], fields));
    expect(await parquetColumns(file)).toEqual([
      'tags STRUCT("type" VARCHAR, "value" VARCHAR)[]',
      'id VARCHAR',
      'withdrawnAt TIMESTAMP WITH TIME ZONE',
      'depositUsdAmount DOUBLE',
    ]);
    expect(await parquetRows(file)).toEqual([expected(base as unknown as Record<string, unknown>, fields)]);
  });

  it('refuses a field it has no column for', () => {
    expect(() => encodeParquet([], ['id', 'balanceChanges'])).toThrow("no Parquet column for field 'balanceChanges'");
  });

  it('writes an empty file that still has every column', async () => {
    const file = write('empty.parquet', encodeParquet([], PARQUET_FIELDS));
    expect(await parquetColumns(file)).toHaveLength(LIST_SWAP_FIELDS.length);
    expect(await query(`SELECT count(*)::INT AS n FROM read_parquet(${sqlString(file)})`)).toEqual([{ n: 0 }]);
    expect(await parquetRowGroups(file)).toBe(0);
  });

  it('reads back every value of a few hours of swaps, in row groups', async () => {
    const swaps = swapsInWindow({ from: '2026-11-02T00:00:00Z', to: '2026-11-02T03:00:00Z' }, { seed: 5 }) as unknown as Record<string, unknown>[];
    const file = write('hours.parquet', encodeParquet(swaps, PARQUET_FIELDS, { rowGroupRows: 1000 }));
    expect(await parquetRowGroups(file)).toBe(Math.ceil(swaps.length / 1000));
    const rows = await parquetRows(file);
    expect(rows).toEqual(swaps.map((swap) => expected(swap, PARQUET_FIELDS)));
    // The data has what the test means to cover.
    expect(swaps.some((s) => s.sourceOtherProtocolAddresses === null)).toBe(true);
    expect(swaps.some((s) => (s.sourceOtherProtocolAddresses as unknown[] | null)?.length === 0)).toBe(true);
    expect(swaps.some((s) => s.depositUsdAmount === null)).toBe(true);
  });

  it('is the same bytes every time, with no clock or random metadata', async () => {
    const swaps = swapsInWindow({ from: '2026-11-02T00:00:00Z', to: '2026-11-02T01:00:00Z' }, { seed: 5 }) as unknown as Record<string, unknown>[];
    const a = encodeParquet(swaps, PARQUET_FIELDS);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(encodeParquet(swaps, PARQUET_FIELDS).equals(a)).toBe(true);
    const file = write('meta.parquet', a);
    const [meta] = await query(`SELECT created_by FROM parquet_file_metadata(${sqlString(file)})`);
    expect(meta!.created_by).toMatch(/^swapx version \d+\.\d+\.\d+/);
    expect(await query(`SELECT * FROM parquet_kv_metadata(${sqlString(file)})`)).toEqual([]);
  });

  it('continues from a saved state to the same bytes as one uninterrupted file', () => {
    const swaps = swapsInWindow({ from: '2026-11-02T00:00:00Z', to: '2026-11-02T02:00:00Z' }, { seed: 5 }) as unknown as Swap[] as unknown as Record<
      string,
      unknown
    >[];
    // -0 and extremes in the statistics must survive the saved state.
    swaps[3] = { ...swaps[3], depositAmount: -0, withdrawnAmount: 1e308 };
    const whole = encodeParquet(swaps, PARQUET_FIELDS, { rowGroupRows: 700 });

    const first = new ParquetFile(PARQUET_FIELDS);
    const parts = [first.header(), first.rowGroup(swaps.slice(0, 700)), first.rowGroup(swaps.slice(700, 1400))];
    const saved = { bytes: Buffer.concat(parts).length, rowGroups: [first.groupState(0), first.groupState(1)] };
    const second = new ParquetFile(PARQUET_FIELDS, { resume: saved });
    for (let start = 1400; start < swaps.length; start += 700) parts.push(second.rowGroup(swaps.slice(start, start + 700)));
    parts.push(second.footer());
    expect(swaps.length).toBeGreaterThan(2100);
    expect(Buffer.concat(parts).equals(whole)).toBe(true);
  });
});
