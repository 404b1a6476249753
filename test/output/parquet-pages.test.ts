/**
 * The small encodings swapx writes itself (src/output/parquet/pages.ts) against hyparquet-writer's own, byte for byte,
 * and the table of distinct strings (text.ts) that codes a column's repetitive values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { Bytes, dataPageV2Header, dictionaryPageHeader, rleBound, writeRle } from '../../src/output/parquet/pages.js';
import { StringTable } from '../../src/output/parquet/coded.js';

function theirs(write: (writer: ByteWriter) => void): Buffer {
  const writer = new ByteWriter();
  write(writer);
  return Buffer.from(writer.getBytes());
}

describe('the RLE/bit-packed hybrid', () => {
  it('is the bytes of writeRleBitPackedHybrid, for levels and dictionary indexes, from any offset', () => {
    // Runs (some of 8 or more), single values and a tail, so both kinds of block and the zero padding occur.
    const values = fc.array(fc.tuple(fc.nat(40), fc.integer({ min: 1, max: 20 })), { maxLength: 60 });
    fc.assert(
      fc.property(values, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5 }), (runs, bitWidth, skip) => {
        const flat = runs.flatMap(([value, count]) => Array<number>(count).fill(value & ((1 << bitWidth) - 1)));
        const ints = Int32Array.from(flat);
        const start = Math.min(skip, ints.length);
        const out = new Bytes().reset(rleBound(ints.length, bitWidth));
        const written = writeRle(out, ints, start, ints.length, bitWidth);
        const expected = theirs((writer) => writeRleBitPackedHybrid(writer, ints.subarray(start), bitWidth));
        expect(written).toBe(expected.length);
        expect(Buffer.from(out.view()).equals(expected)).toBe(true);
        expect(out.length).toBeLessThanOrEqual(rleBound(ints.length, bitWidth));
        if (bitWidth <= 8) {
          const bytes = Uint8Array.from(flat);
          const again = new Bytes().reset(rleBound(bytes.length, bitWidth));
          writeRle(again, bytes, start, bytes.length, bitWidth);
          expect(Buffer.from(again.view()).equals(expected)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays within its bound at the worst case: alternating values, and runs of exactly 8 between them', () => {
    for (const bitWidth of [0, 1, 3, 8, 13, 32]) {
      const top = bitWidth === 32 ? -1 : (1 << bitWidth) - 1;
      const alternating = Int32Array.from({ length: 1001 }, (_, i) => (i % 2 ? top : 0));
      const eights = Int32Array.from({ length: 1000 }, (_, i) => (Math.floor(i / 8) % 2 ? top : 0));
      for (const values of [alternating, eights]) {
        const out = new Bytes().reset(rleBound(values.length, bitWidth));
        writeRle(out, values, 0, values.length, bitWidth);
        expect(out.length).toBeLessThanOrEqual(rleBound(values.length, bitWidth));
        expect(Buffer.from(out.view()).equals(theirs((writer) => writeRleBitPackedHybrid(writer, values, bitWidth)))).toBe(true);
      }
    }
  });
});

describe('page headers', () => {
  const size = fc.oneof(fc.nat(300), fc.nat(), fc.constantFrom(0, 63, 64, 8191, 8192, 2 ** 30 - 1, 2 ** 30, 2 ** 31 - 1));

  it('a DATA_PAGE_V2 header is the bytes of writePageHeader', () => {
    fc.assert(
      fc.property(
        fc.record({
          uncompressed: size,
          compressed: size,
          values: size,
          nulls: size,
          rows: size,
          definitionBytes: size,
          repetitionBytes: size,
          dictionary: fc.boolean(),
          compressedPage: fc.boolean(),
        }),
        (page) => {
          const out = new Bytes().reset(64);
          dataPageV2Header(out, { ...page, encoding: page.dictionary ? 8 : 0 });
          const expected = theirs((writer) =>
            writePageHeader(writer, {
              type: 'DATA_PAGE_V2',
              uncompressed_page_size: page.uncompressed,
              compressed_page_size: page.compressed,
              data_page_header_v2: {
                num_values: page.values,
                num_nulls: page.nulls,
                num_rows: page.rows,
                encoding: page.dictionary ? 'RLE_DICTIONARY' : 'PLAIN',
                definition_levels_byte_length: page.definitionBytes,
                repetition_levels_byte_length: page.repetitionBytes,
                is_compressed: page.compressedPage,
              },
            } as never),
          );
          expect(Buffer.from(out.view()).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a DICTIONARY_PAGE header is the bytes of writePageHeader', () => {
    fc.assert(
      fc.property(size, size, size, (uncompressed, compressed, values) => {
        const out = new Bytes().reset(64);
        dictionaryPageHeader(out, uncompressed, compressed, values);
        const expected = theirs((writer) =>
          writePageHeader(writer, {
            type: 'DICTIONARY_PAGE',
            uncompressed_page_size: uncompressed,
            compressed_page_size: compressed,
            dictionary_page_header: { num_values: values, encoding: 'PLAIN' },
          } as never),
        );
        expect(Buffer.from(out.view()).equals(expected)).toBe(true);
      }),
    );
  });
});

describe('a table of distinct strings', () => {
  it('numbers each distinct string once, in order of first appearance, whatever object holds it', () => {
    const table = new StringTable();
    const words = ['OK', 'Unprocessed', '', 'é', '0xabc', 'OK'];
    // Strings made at run time are other objects than the literals: the table compares contents.
    expect(words.map((word) => table.code(JSON.parse(JSON.stringify(word)) as string))).toEqual([0, 1, 2, 3, 4, 0]);
    expect(table.size).toBe(5);
    expect(table.strings).toEqual(['OK', 'Unprocessed', '', 'é', '0xabc']);
    expect(table.units).toEqual([2, 11, 0, 1, 5]);
    expect(table.utf8.map((bytes) => bytes.toString('hex'))).toEqual(['4f4b', '556e70726f636573736564', '', 'c3a9', '3078616263']);
  });

  it('tells apart thousands of strings that agree in the characters it hashes, through its growth', () => {
    const table = new StringTable();
    // Same length, same ends: they differ only between the characters sampled for the slot.
    const strings = Array.from({ length: 5000 }, (_, i) => `0x${'a'.repeat(10)}${i.toString(36).padStart(4, '0')}${'b'.repeat(26)}`);
    expect(new Set(strings.map((s) => s.length)).size).toBe(1);
    expect(strings.map((s) => table.code(s))).toEqual(strings.map((_, i) => i));
    expect([...strings].reverse().map((s) => table.code(`${s}`))).toEqual(strings.map((_, i) => strings.length - 1 - i));
    expect(table.size).toBe(5000);
  });
});
