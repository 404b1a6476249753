/**
 * The column chunk of a flat column (a string, a time, an amount) written straight from its values:
 * the same bytes and metadata as hyparquet-writer's writeColumn (one OPTIONAL leaf, DATA_PAGE_V2,
 * PLAIN or a dictionary by the writer's own rule), without its generic path. Measured (docs/parquet.md):
 * that path was most of a Parquet export's extra CPU — bigints for every time, a copy of each column
 * per step (slice, unconvert, filter), a UTF-8 buffer per string, a dictionary tried and thrown away.
 * A list column's leaves (address lists, tags) come with their Dremel levels. Page headers, levels and
 * dictionary indexes are written here too (pages.ts), the values' plain bytes by plain.ts. A dictionary is
 * written for DOUBLE and BYTE_ARRAY columns only: an export's INT64 columns, its times, are PLAIN.
 */
import type { ColumnChunk, SchemaElement } from 'hyparquet';
import type { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { byteLength, dictionaryOf, type FlatValues, isCoded, isNull, statistics } from './chunk-values.js';
import { Bytes, dataPageV2Header, dictionaryPageHeader, HEADER_BOUND, PLAIN, RLE_DICTIONARY, rleBound, writeRle } from './pages.js';
import type { ParquetCodec } from './compression.js';
import { dictionaryValues, plainPage } from './plain.js';

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

/** Scratch for a page's levels, its dictionary indexes and its header: each is appended to the file before it is reused. */
const levelBytes = new Bytes();
const indexBytes = new Bytes();
const headerBytes = new Bytes();
let flatLevels = new Uint8Array(4096);
let pageIndexes = new Int32Array(4096);

/** A flat column's definition levels for values [start, end) into flatLevels from 0 (1 a value, 0 a null); returns the nulls. */
function flatDefinitions(values: FlatValues, start: number, end: number): number {
  if (flatLevels.length < end - start) flatLevels = new Uint8Array(Math.max(end - start, 2 * flatLevels.length));
  const levels = flatLevels;
  let nulls = 0;
  // A loop per form: each stays monomorphic.
  if (values instanceof Float64Array) {
    for (let i = start; i < end; i++) {
      const defined = Number.isNaN(values[i]!) ? 0 : 1;
      levels[i - start] = defined;
      nulls += 1 - defined;
    }
  } else if (isCoded(values)) {
    const { ids } = values;
    for (let i = start; i < end; i++) {
      const defined = ids[i]! < 0 ? 0 : 1;
      levels[i - start] = defined;
      nulls += 1 - defined;
    }
  } else {
    const { units } = values;
    for (let i = start; i < end; i++) {
      const defined = units[i]! < 0 ? 0 : 1;
      levels[i - start] = defined;
      nulls += 1 - defined;
    }
  }
  return nulls;
}

/** The data of a dictionary-encoded page: its bit width, then the non-null values' entries in the hybrid encoding. */
function indexPage(indexes: Int32Array, start: number, end: number): Uint8Array {
  if (pageIndexes.length < end - start) pageIndexes = new Int32Array(Math.max(end - start, 2 * pageIndexes.length));
  const all = pageIndexes;
  let count = 0;
  let max = 0;
  for (let i = start; i < end; i++) {
    const at = indexes[i]!;
    if (at < 0) continue;
    all[count++] = at;
    if (at > max) max = at;
  }
  const bitWidth = Math.ceil(Math.log2(max + 1));
  const data = indexBytes.reset(1 + rleBound(count, bitWidth));
  data.byte(bitWidth);
  writeRle(data, all, 0, count, bitWidth);
  return data.view();
}

/** The dictionary page of these entries (positions in the column); returns its uncompressed size with its header. */
function writeDictionary(writer: ByteWriter, values: FlatValues, entries: readonly number[], column: FlatColumn): number {
  const { codec, compressors } = column;
  const page = dictionaryValues(values, entries);
  const compress = compressors[codec];
  const compressed = compress ? compress(page) : page;
  const header = headerBytes.reset(HEADER_BOUND);
  dictionaryPageHeader(header, page.length, compressed.length, entries.length);
  writer.appendBytes(header.view());
  writer.appendBytes(compressed);
  return header.length + page.length;
}

/**
 * Writes the column chunk of `values` at the writer's offset; returns its metadata. `path` is the
 * leaf's path in the schema; without `levels` the column is flat (one value per row, null or not).
 */
export function writeChunk(writer: ByteWriter, path: readonly string[], values: FlatValues, column: FlatColumn, levels?: Levels): ColumnChunk {
  const { element, codec, compressors } = column;
  const type = element.type!;
  const offsetStart = writer.offset;
  let uncompressed = 0;
  const dict = column.encoding === 'PLAIN' ? undefined : dictionaryOf(values);
  // A dictionary's entries are written as DOUBLE or BYTE_ARRAY: an INT64 column (a time) must say PLAIN.
  if (dict && type !== (values instanceof Float64Array ? 'DOUBLE' : 'BYTE_ARRAY')) {
    throw new Error(`${path.join('.')} (${type}) is written PLAIN, not with a dictionary`);
  }
  // With a dictionary, min and max are those of its (few) distinct values.
  const stats = column.statistics ? (dict ? statistics(values, element, dict.dictionary, dict.nulls) : statistics(values, element)) : undefined;
  const encodings: string[] = [];
  let dictionaryPageOffset: bigint | undefined;
  if (dict) {
    dictionaryPageOffset = BigInt(writer.offset);
    uncompressed += writeDictionary(writer, values, dict.dictionary, column);
    encodings.push('PLAIN');
  }
  const encoding = dict ? 'RLE_DICTIONARY' : 'PLAIN';
  encodings.push(encoding);
  const dataPageOffset = BigInt(writer.offset);
  const pages = pageBoundaries(values, dict !== undefined, levels?.repetition);
  const definitionWidth = levels ? Math.ceil(Math.log2(levels.maxDefinition + 1)) : 1;
  const compress = compressors[codec];
  for (const [start, end] of pages) {
    const count = end - start;
    const levelsOut = levelBytes.reset(rleBound(count, 1) + rleBound(count, definitionWidth));
    let nulls = 0;
    let rows = count;
    let repetitionBytes = 0;
    let definitionBytes: number;
    if (levels) {
      const { repetition, definition, maxDefinition } = levels;
      rows = 0;
      for (let k = start; k < end; k++) if (repetition[k] === 0) rows++;
      for (let k = start; k < end; k++) if (definition[k]! < maxDefinition) nulls++;
      repetitionBytes = writeRle(levelsOut, repetition, start, end, 1);
      definitionBytes = writeRle(levelsOut, definition, start, end, definitionWidth);
    } else {
      nulls = flatDefinitions(values, start, end);
      definitionBytes = writeRle(levelsOut, flatLevels, 0, count, definitionWidth);
    }
    const page = dict ? indexPage(dict.indexes, start, end) : plainPage(values, element, start, end);
    const compressed = compress ? compress(page) : page;
    const header = headerBytes.reset(HEADER_BOUND);
    dataPageV2Header(header, {
      uncompressed: levelsOut.length + page.length,
      compressed: levelsOut.length + compressed.length,
      values: count,
      nulls,
      rows,
      encoding: dict ? RLE_DICTIONARY : PLAIN,
      definitionBytes,
      repetitionBytes,
      compressedPage: !!codec,
    });
    writer.appendBytes(header.view());
    writer.appendBytes(levelsOut.view());
    writer.appendBytes(compressed);
    uncompressed += header.length + levelsOut.length + page.length;
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
