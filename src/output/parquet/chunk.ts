/**
 * The column chunk of a flat column (a string, a time, an amount) written straight from its values:
 * the same bytes and metadata as hyparquet-writer's writeColumn (one OPTIONAL leaf, DATA_PAGE_V2,
 * PLAIN or a dictionary by the writer's own rule), without its generic path. Measured (docs/parquet.md):
 * that path was most of a Parquet export's extra CPU — bigints for every time, a copy of each column
 * per step (slice, unconvert, filter), a UTF-8 buffer per string, a dictionary tried and thrown away.
 * The list columns (address lists, tags) still go through hyparquet-writer. Its page and encoding
 * functions are imported by path inside the package, so package.json pins its exact version: a new one is
 * taken on purpose, with the byte-identity test (test/output/parquet-chunk.test.ts).
 */
import type { ColumnChunk, SchemaElement } from 'hyparquet';
import { ByteWriter, type ParquetWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeDictionaryPage } from 'hyparquet-writer/src/dictionary.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { byteLength, dictionaryOf, type FlatValues, isCoded, isNull, statistics } from './chunk-values.js';
import { bytesStart, type CodedValues, copyBytes, textStart } from './text.js';
import type { ParquetCodec } from './codec.js';

export type { FlatValues } from './chunk-values.js';

export interface FlatColumn {
  element: SchemaElement;
  /** 'PLAIN' forces plain; undefined lets the writer's dictionary rule decide */
  encoding?: 'PLAIN';
  statistics: boolean;
  codec: ParquetCodec;
  compressors: ParquetWriter['compressors'];
}

/** hyparquet-writer's default page size: a page is cut once its values reach it. */
const PAGE_SIZE = 1_048_576;
const TWO_32 = 4_294_967_296;

/** A scratch buffer for page values: compressed (copied) or appended (copied) before it is reused. */
let scratch = Buffer.allocUnsafe(1 << 16);
function room(bytes: number): Buffer {
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, scratch.length * 2));
  return scratch;
}

/** The plain bytes of numbers or coded strings [start, end) (nulls skipped) into `out` from 0; returns the length. */
function plainValues(values: Float64Array | CodedValues, element: SchemaElement, start: number, end: number, out: Buffer): number {
  let at = 0;
  if (values instanceof Float64Array) {
    // Through a DataView of the page (little-endian, whatever this machine is), not a Buffer method call per value.
    const view = new DataView(out.buffer, out.byteOffset, out.length);
    const int64 = element.type === 'INT64';
    for (let i = start; i < end; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) continue;
      if (int64) {
        const high = Math.floor(v / TWO_32);
        view.setUint32(at, v - high * TWO_32, true);
        // A negative high word (before 1970) is stored as its two's complement.
        view.setInt32(at + 4, high, true);
      } else view.setFloat64(at, v, true);
      at += 8;
    }
    return at;
  }
  const { ids, table } = values;
  for (let i = start; i < end; i++) {
    const id = ids[i]!;
    if (id < 0) continue;
    const bytes = table.utf8[id]!;
    out.writeUInt32LE(bytes.length, at);
    at = copyBytes(bytes, 0, bytes.length, out, at + 4);
  }
  return at;
}

/** The plain page of values [start, end): text is held as one already (text.ts). */
function plainPage(values: FlatValues, element: SchemaElement, start: number, end: number): Buffer {
  if (!(values instanceof Float64Array) && !isCoded(values)) return values.bytes.subarray(textStart(values, start), values.ends[end - 1]!);
  const out = room(plainSize(values, start, end));
  return out.subarray(0, plainValues(values, element, start, end, out));
}

/** The plain bytes of values [start, end): 8 per number, a 4-byte length and the bytes per string (a null none). */
function plainSize(values: FlatValues, start: number, end: number): number {
  if (values instanceof Float64Array) return (end - start) * 8;
  let bytes = 0;
  for (let i = start; i < end; i++) if (!isNull(values, i)) bytes += 4 + byteLength(values, i);
  return bytes;
}

/** Pages cut as the writer cuts them: once the values' bytes (prefixes not counted) reach PAGE_SIZE, at a row's start. */
function pageBoundaries(values: FlatValues, dictionary: boolean, repetition?: Uint8Array): [number, number][] {
  const size = (i: number) => (isNull(values, i) ? 0 : dictionary ? 4 : values instanceof Float64Array ? 8 : byteLength(values, i));
  // Most chunks are far below a page.
  if (dictionary || values instanceof Float64Array ? 8 * values.length < PAGE_SIZE : !isCoded(values) && values.bytes.length < PAGE_SIZE) {
    return [[0, values.length]];
  }
  const pages: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < values.length; i++) {
    bytes += size(i);
    if (bytes >= PAGE_SIZE && i > start && (!repetition || repetition[i] === 0)) {
      pages.push([start, i]);
      start = i;
      bytes = size(i);
    }
  }
  if (start < values.length) pages.push([start, values.length]);
  return pages;
}

/**
 * A leaf of a list column as Dremel levels: a definition and a repetition level per slot, and the
 * slot's value (null below the maximum definition level).
 */
export interface Levels {
  definition: Uint8Array;
  repetition: Uint8Array;
  maxDefinition: number;
}

/**
 * Writes the column chunk of `values` at the writer's offset; returns its metadata. `path` is the
 * leaf's path in the schema; without `levels` the column is flat (one value per row, null or not).
 */
export function writeChunk(writer: ByteWriter, path: readonly string[], values: FlatValues, column: FlatColumn, levels?: Levels): ColumnChunk {
  const name = path.join('.');
  const { element, codec, compressors } = column;
  const type = element.type!;
  const offsetStart = writer.offset;
  let uncompressed = 0;
  const dict = column.encoding === 'PLAIN' ? undefined : dictionaryOf(values);
  // With a dictionary, min and max are those of its (few) distinct values.
  const stats = column.statistics ? (dict ? statistics(values, element, dict.dictionary, dict.nulls) : statistics(values, element)) : undefined;
  const encodings: string[] = [];
  let dictionaryPageOffset: bigint | undefined;
  if (dict) {
    dictionaryPageOffset = BigInt(writer.offset);
    const physical =
      values instanceof Float64Array
        ? dict.dictionary.map((i) => values[i]!)
        : isCoded(values)
          ? dict.dictionary.map((i) => values.table.utf8[values.ids[i]!]!)
          : dict.dictionary.map((i) => values.bytes.subarray(bytesStart(values, i), values.ends[i]!));
    uncompressed += writeDictionaryPage(writer, { columnName: name, element, codec, compressors } as never, physical);
    encodings.push('PLAIN');
  }
  const encoding = dict ? 'RLE_DICTIONARY' : 'PLAIN';
  encodings.push(encoding);
  const dataPageOffset = BigInt(writer.offset);
  const pages = pageBoundaries(values, dict !== undefined, levels?.repetition);
  const definitionWidth = levels ? Math.ceil(Math.log2(levels.maxDefinition + 1)) : 1;
  const compress = compressors[codec];
  for (const [start, end] of pages) {
    const levelBytes = new ByteWriter(256);
    let nulls = 0;
    let rows = end - start;
    let repetitionBytes = 0;
    let definition: Uint8Array;
    if (levels) {
      const repetition = levels.repetition.subarray(start, end);
      definition = levels.definition.subarray(start, end);
      rows = 0;
      // Indexed loops: for-of over a typed array allocates a result per value until the loop is optimised.
      for (let k = 0; k < repetition.length; k++) if (repetition[k] === 0) rows++;
      for (let k = 0; k < definition.length; k++) if (definition[k]! < levels.maxDefinition) nulls++;
      repetitionBytes = writeRleBitPackedHybrid(levelBytes, repetition, 1);
    } else {
      definition = new Uint8Array(end - start);
      for (let i = start; i < end; i++) {
        if (isNull(values, i)) nulls++;
        else definition[i - start] = 1;
      }
    }
    const definitionBytes = writeRleBitPackedHybrid(levelBytes, definition, definitionWidth);
    let page: Uint8Array;
    if (dict) {
      const all = new Int32Array(end - start);
      let count = 0;
      let max = 0;
      for (let i = start; i < end; i++) {
        const at = dict.indexes[i]!;
        if (at < 0) continue;
        all[count++] = at;
        if (at > max) max = at;
      }
      const indexes = all.subarray(0, count);
      const bitWidth = Math.ceil(Math.log2(max + 1));
      const data = new ByteWriter(256);
      data.appendUint8(bitWidth);
      writeRleBitPackedHybrid(data, indexes, bitWidth);
      page = data.getBytes();
    } else {
      page = plainPage(values, element, start, end);
    }
    const compressed = compress ? compress(page) : page;
    const headerStart = writer.offset;
    writePageHeader(writer, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: levelBytes.offset + page.length,
      compressed_page_size: levelBytes.offset + compressed.length,
      data_page_header_v2: {
        num_values: end - start,
        num_nulls: nulls,
        num_rows: rows,
        encoding,
        definition_levels_byte_length: definitionBytes,
        repetition_levels_byte_length: repetitionBytes,
        is_compressed: !!codec,
      },
    } as never);
    const headerSize = writer.offset - headerStart;
    writer.appendBytes(levelBytes.getBytes());
    writer.appendBytes(compressed);
    uncompressed += headerSize + levelBytes.offset + page.length;
  }
  return {
    meta_data: {
      type,
      encodings,
      path_in_schema: [...path],
      codec,
      num_values: BigInt(values.length),
      total_compressed_size: BigInt(writer.offset - offsetStart),
      total_uncompressed_size: BigInt(uncompressed),
      data_page_offset: dataPageOffset,
      dictionary_page_offset: dictionaryPageOffset,
      statistics: stats,
      encoding_stats: stats
        ? [...(dict ? [{ page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 }] : []), { page_type: 'DATA_PAGE_V2', encoding, count: pages.length }]
        : undefined,
      geospatial_statistics: undefined,
    },
    file_offset: BigInt(offsetStart),
  } as unknown as ColumnChunk;
}
