/**
 * A Parquet file written in pieces (ParquetFile in src/output/parquet/writer.ts): the row groups' metadata as
 * JSON and back (what a resume rebuilds the footer from), the count of row groups, an empty batch writing
 * nothing, and the refusals: a row group it does not have, a codec this runtime cannot write.
 */
import { describe, expect, it } from 'vitest';
import { encodeParquet, fromPlain, ParquetFile, toPlain } from '../../src/output/parquet/writer.js';
import { toColumns } from '../../src/output/parquet/columns.js';

const FIELDS = ['id', 'completedAt', 'depositAmount', 'tags'];
/** Rows from..from+n of one sequence. */
const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      id: `0x${i}`,
      completedAt: `2026-11-02T00:${String(i % 60).padStart(2, '0')}:00Z`,
      depositAmount: i % 3 ? i / 4 : -0,
      tags: [{ type: 'nft', value: `${i}` }],
    };
  });

describe('row-group metadata as JSON', () => {
  it('bigints, -0 and bytes come back as they were; strings, numbers, null, arrays and objects as themselves; undefined left out', () => {
    const value = { a: 12345678901234567890n, b: -0, c: 0, d: new Uint8Array([0, 255, 7]), e: ['x', 1.5, null, [2n]], f: { g: 'text', h: undefined }, i: true };
    const json = JSON.stringify(toPlain(value));
    expect(JSON.parse(json)).toEqual({
      a: { $n: '12345678901234567890' },
      b: { $z: 1 },
      c: 0,
      d: { $b: 'AP8H' },
      e: ['x', 1.5, null, [{ $n: '2' }]],
      f: { g: 'text' },
      i: true,
    });
    const back = fromPlain(JSON.parse(json)) as Record<string, unknown>;
    expect(back).toEqual({ a: 12345678901234567890n, b: -0, c: 0, d: new Uint8Array([0, 255, 7]), e: ['x', 1.5, null, [2n]], f: { g: 'text' }, i: true });
    expect([Object.is(back.b, -0), Object.is(back.c, 0), back.d instanceof Uint8Array && !Buffer.isBuffer(back.d)]).toEqual([true, true, true]);
    expect([toPlain('abc'), fromPlain('abc'), fromPlain(7), fromPlain(null)]).toEqual(['abc', 'abc', 7, null]);
  });
});

describe('ParquetFile', () => {
  it('a file resumed from its row groups’ state ends with the footer of the file written whole', () => {
    const whole = encodeParquet(rows(0, 30), FIELDS, { codec: 'UNCOMPRESSED', rowGroupRows: 10 });
    const first = new ParquetFile(FIELDS, { codec: 'UNCOMPRESSED' });
    const head = Buffer.concat([first.header(), first.rowGroup(rows(0, 10)), first.rowGroup(rows(10, 10))]);
    expect(first.rowGroups).toBe(2);
    const resumed = new ParquetFile(FIELDS, { resume: { bytes: head.length, rowGroups: [first.groupState(0), first.groupState(1)] } });
    expect(resumed.rowGroups).toBe(2);
    const tail = Buffer.concat([resumed.rowGroup(rows(20, 10)), resumed.footer()]);
    expect(resumed.rowGroups).toBe(3);
    expect(Buffer.concat([head, tail]).equals(whole)).toBe(true);
  });

  it('an empty batch writes no row group; a row group it does not have is refused', () => {
    const file = new ParquetFile(FIELDS, { codec: 'UNCOMPRESSED' });
    file.header();
    expect(file.rowGroupOf([toColumns(FIELDS, [])]).length).toBe(0);
    expect(file.rowGroup([]).length).toBe(0);
    expect(file.rowGroups).toBe(0);
    expect(() => file.groupState(0)).toThrow(new RangeError('no row group 0'));
    file.rowGroup(rows(0, 3));
    expect(() => file.groupState(1)).toThrow(new RangeError('no row group 1'));
    expect(JSON.parse(file.groupState(0)).num_rows).toEqual({ $n: '3' });
  });

  it('a file whose saved row groups name a codec this runtime cannot write is refused', () => {
    const group = JSON.stringify({ columns: [{ meta_data: { codec: 'BROTLI' } }], num_rows: { $n: '1' } });
    expect(() => new ParquetFile(FIELDS, { resume: { bytes: 100, rowGroups: [group] } })).toThrow(
      new Error(`this Node.js ${process.version} cannot write BROTLI Parquet pages`),
    );
  });
});
