/**
 * swapx writes its column chunks itself (src/output/parquet/chunk.ts) for speed; they must be the bytes
 * hyparquet-writer's own generic path writes for the same values, schema and options, edge cases included:
 * nulls everywhere, empty lists, null list elements and tags, -0, times before 1970, non-ASCII text, a chunk of several pages.
 */
import { describe, expect, it } from 'vitest';
import { ByteWriter, type ColumnSource, ParquetWriter } from 'hyparquet-writer';
import type { Swap } from '../../src/api/types.js';
import { writeChunk } from '../../src/output/parquet/chunk.js';
import {
  apiTimeMicros,
  ColumnCollector,
  columnTables,
  encodeParquet,
  PARQUET_FIELDS,
  ParquetFile,
  parquetKind,
  parquetSchema,
  toColumns,
} from '../../src/output/parquet/writer.js';
import { swapsInWindow } from '../../src/sandbox/index.js';
import { VERSION } from '../../src/version.js';

type Row = Record<string, unknown>;

const HASHES = new Set(['id', 'intermediateSwapId', 'sourceTransaction', 'destinationTransaction', 'sourceAccount', 'destinationAccount']);

/** The file as hyparquet-writer writes it from plain JS values, with swapx's per-column choices. */
function reference(rows: readonly Row[], fields: readonly string[], codec: 'SNAPPY' | 'UNCOMPRESSED', groupRows: number): Buffer {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({ writer, schema: parquetSchema(fields), codec, createdBy: `swapx version ${VERSION}` });
  for (let start = 0; start < rows.length; start += groupRows) {
    const group = rows.slice(start, start + groupRows);
    const columnData = fields.map((name): ColumnSource => {
      const kind = parquetKind(name);
      const data = group.map((row) => {
        const value = row[name];
        if (value === null || value === undefined) return null;
        if (kind === 'timestamp') return apiTimeMicros(value as string);
        // A tag is its two fields (a null tag is a struct of nulls), as swapx writes it.
        if (kind === 'tags') return (value as (Row | null)[]).map((tag) => ({ type: tag?.type ?? null, value: tag?.value ?? null }));
        return value;
      });
      const plain = kind === 'timestamp' || HASHES.has(name);
      const statistics = !/Address|Contract|InteractedWith/.test(name) && !HASHES.has(name) && kind !== 'strings' && kind !== 'tags';
      return { name, data, encoding: plain ? 'PLAIN' : undefined, statistics, offsetIndex: false, columnIndex: false };
    });
    void parquet.write({ columnData, rowGroupSize: group.length });
  }
  void parquet.finish();
  return Buffer.from(writer.getBytes());
}

const base = swapsInWindow({ from: '2026-11-02T00:00:00Z', to: '2026-11-02T03:00:00Z' }, { seed: 11 }) as unknown as Row[];

/** The sandbox's swaps with the edge cases mixed in, row by row. */
function edgeRows(): Row[] {
  return base.map((swap, i) => {
    const row: Row = { ...swap };
    switch (i % 12) {
      case 0:
        for (const field of PARQUET_FIELDS) if (field !== 'id') row[field] = null;
        break;
      case 1:
        Object.assign(row, { sourceOtherProtocolAddresses: [], destinationOtherProtocolAddresses: [null, 'x'], tags: [] });
        break;
      case 2:
        Object.assign(row, { tags: [null, { type: 'a', value: null }, { type: null, value: 'v' }], depositAmount: -0, withdrawnAmount: 0 });
        break;
      case 3:
        Object.assign(row, {
          bridge: 'Ünïcødé 🌉',
          sourceChain: '\uffff',
          destinationChain: '\u{1f600}',
          usdMismatchStatus: '',
          sourceAccount: 'ä\ud800b',
          id: `${swap.id}-€`,
        });
        break;
      case 4:
        Object.assign(row, { tags: undefined, sourceOtherProtocolAddresses: undefined, completedAt: '2026-11-02T01:02:03.1234567Z' });
        break;
      case 5:
        // Before 1970: a negative microsecond count, whose high word is negative.
        Object.assign(row, { depositedAt: '1969-07-20T20:17:40Z', withdrawnAt: '1900-01-01T00:00:00.000001Z' });
        break;
    }
    return row;
  });
}

describe('column chunks written by swapx are the bytes hyparquet-writer writes', () => {
  it.each(['UNCOMPRESSED', 'SNAPPY'] as const)('every field, edge cases, several row groups (%s)', (codec) => {
    const rows = edgeRows();
    expect(rows.length).toBeGreaterThan(600);
    const bytes = reference(rows, PARQUET_FIELDS, codec, 250);
    expect(encodeParquet(rows, PARQUET_FIELDS, { codec, rowGroupRows: 250 }).equals(bytes)).toBe(true);
    // Row groups gathered from windows of 10 rows, as an export keeps them: dictionaries merged in order of first appearance.
    const file = new ParquetFile(PARQUET_FIELDS, { codec });
    const parts = [file.header()];
    for (let start = 0; start < rows.length; start += 250) {
      const windows = [];
      for (let at = start; at < Math.min(start + 250, rows.length); at += 10)
        windows.push(toColumns(PARQUET_FIELDS, rows.slice(at, Math.min(at + 10, start + 250))));
      parts.push(file.rowGroupOf(windows));
    }
    parts.push(file.footer());
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  it.each([
    ['one table per column', undefined],
    ['tables replaced every few values, so row groups mix them', 5],
  ])('row groups from windows that code into shared tables and arrive out of order, as an export takes them (%s)', (_, limit) => {
    const rows = edgeRows();
    const bytes = reference(rows, PARQUET_FIELDS, 'UNCOMPRESSED', 250);
    const file = new ParquetFile(PARQUET_FIELDS, { codec: 'UNCOMPRESSED' });
    const tables = columnTables(PARQUET_FIELDS, limit);
    const parts = [file.header()];
    for (let start = 0; start < rows.length; start += 250) {
      const windows = [];
      for (let at = start; at < Math.min(start + 250, rows.length); at += 10) {
        const window = rows.slice(at, Math.min(at + 10, start + 250));
        // Rows arrive in reverse; the window's order (each row's number from add) puts them back.
        const collector = new ColumnCollector(PARQUET_FIELDS, tables);
        const numbers = [...window].reverse().map((row) => collector.add(row));
        windows.push(collector.batch(numbers.reverse()));
      }
      parts.push(file.rowGroupOf(windows));
    }
    parts.push(file.footer());
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  it('a column all null, and fields picked and reordered', () => {
    const fields = ['tags', 'withdrawnUsdAmount', 'id', 'updatedAt', 'bridge'];
    const rows = base.slice(0, 300).map((swap) => ({ ...swap, withdrawnUsdAmount: null, bridge: null }));
    expect(encodeParquet(rows, fields, { codec: 'UNCOMPRESSED' }).equals(reference(rows, fields, 'UNCOMPRESSED', 2000))).toBe(true);
  });

  it('a chunk past the 1 MiB page size is cut into pages at the same rows, with statistics', () => {
    const fields = ['id', 'bridge', 'sourceProtocolAddress', 'tags'];
    // Distinct long values: no dictionary, so plain pages; bridge keeps min/max statistics.
    const rows = Array.from({ length: 3000 }, (_, i) => {
      const swap = base[i % base.length] as unknown as Swap;
      return {
        ...swap,
        id: `${i}${'f'.repeat(300 + (i % 5))}${i % 3 ? '' : 'ж'}`,
        // Past 1 MiB too (codes into a table, no dictionary), with nulls here and there: each page's own levels.
        bridge: i % 17 === 3 ? null : `${String(i).padStart(6, '0')}-${'e'.repeat(400)}é`,
        sourceProtocolAddress: `${i}${'a'.repeat(400)}`,
      };
    });
    const bytes = encodeParquet(rows, fields, { codec: 'UNCOMPRESSED', rowGroupRows: 3000 });
    expect(bytes.length).toBeGreaterThan(2_500_000);
    expect(bytes.equals(reference(rows, fields, 'UNCOMPRESSED', 3000))).toBe(true);
    // The same row group from windows of 7 rows (as an export keeps them), pages cut across windows.
    const file = new ParquetFile(fields, { codec: 'UNCOMPRESSED' });
    const windows = [];
    for (let start = 0; start < rows.length; start += 7) windows.push(toColumns(fields, rows.slice(start, start + 7)));
    expect(Buffer.concat([file.header(), file.rowGroupOf(windows), file.footer()]).equals(bytes)).toBe(true);
  });

  /** The rows as swapx writes them, against the reference, in one row group. */
  const sameAsReference = (rows: Row[], fields: string[]) =>
    expect(encodeParquet(rows, fields, { codec: 'UNCOMPRESSED', rowGroupRows: rows.length }).equals(reference(rows, fields, 'UNCOMPRESSED', rows.length))).toBe(
      true,
    );

  it('pages of numbers and of dictionary indexes: past 1 MiB of doubles, past 4,096 values a page, nulls across the cuts', () => {
    // 200,000 distinct amounts (no dictionary: two pages of 8-byte values), every fifth null; and 7 repeated ones (a dictionary).
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ depositAmount: i % 5 === 2 ? null : i + 0.5, withdrawnAmount: i % 11 === 3 ? null : i % 7 }));
    sameAsReference(rows, ['depositAmount', 'withdrawnAmount']);
    // Exactly 1 MiB of doubles: the last value reaches the page size, and is cut into a page of its own.
    sameAsReference(
      rows.slice(0, 131_072).map((_, i) => ({ depositAmount: i + 0.25 })),
      ['depositAmount'],
    );
  });

  it('a dictionary column of long strings past 1 MiB of text: one page of indexes', () => {
    const rows = Array.from({ length: 8000 }, (_, i) => ({ bridge: i % 9 === 4 ? null : `${i % 5}${'é'.repeat(150)}` }));
    sameAsReference(rows, ['bridge']);
  });

  it('pages of text cut exactly where the values reach 1 MiB; a first value larger than a page', () => {
    // 1,024-byte ids: the 1,024th value brings the page to exactly 1 MiB, where it is cut; nulls between.
    const exact = Array.from({ length: 2500 }, (_, i) => ({ id: i % 13 === 6 ? null : `${String(i).padStart(6, '0')}${'a'.repeat(1018)}` }));
    sameAsReference(exact, ['id']);
    const huge = [{ id: 'h'.repeat(1_100_000) }, ...Array.from({ length: 50 }, (_, i) => ({ id: `0x${i}` }))];
    sameAsReference(huge, ['id']);
    // A value of a page by itself, then a null: the next page starts at the null (as bytes and as codes).
    sameAsReference([{ id: 'h'.repeat(1 << 20) }, { id: null }, { id: '0x1' }], ['id']);
    sameAsReference([{ bridge: 'b'.repeat(1 << 20) }, { bridge: null }, { bridge: 'x' }], ['bridge']);
  });

  it('a list column past 1 MiB: pages cut only at a row’s first slot, rows and nulls counted per page', () => {
    // 100 addresses a row, 1 kB each: 1 MiB is reached inside a row, and the page ends where the next row starts,
    // whose first address is null; a null list and an empty one between.
    const rows = Array.from({ length: 30 }, (_, i) => ({
      sourceOtherProtocolAddresses: i === 4 ? null : i === 5 ? [] : Array.from({ length: 100 }, (_, j) => (j === 0 ? null : `${i}.${j}${'c'.repeat(1000)}`)),
    }));
    sameAsReference(rows, ['sourceOtherProtocolAddresses']);
  });

  it('an INT64 column must be written PLAIN: a dictionary for it is refused by name', () => {
    const column = { element: { name: 'completedAt', type: 'INT64' as const }, statistics: false, codec: 'UNCOMPRESSED' as const, compressors: {} as never };
    const times = Float64Array.of(1, 1, 1, 1);
    expect(() => writeChunk(new ByteWriter(), ['times', 'completedAt'], times, column)).toThrow(
      new Error('times.completedAt (INT64) is written PLAIN, not with a dictionary'),
    );
    expect(writeChunk(new ByteWriter(), ['completedAt'], times, { ...column, encoding: 'PLAIN' }).meta_data?.encodings).toEqual(['PLAIN']);
    // Distinct times take no dictionary: written PLAIN without being told.
    expect(writeChunk(new ByteWriter(), ['completedAt'], Float64Array.of(1, 2, 3, 4), column).meta_data?.encodings).toEqual(['PLAIN']);
  });
});
