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
import { bytesStart, type CodedValues, copyBytes, type FastBuffer, type TextValues, textAt, textStart } from './text.js';
import type { ParquetCodec } from './codec.js';

/**
 * A flat column's values. Times are microseconds since the epoch and amounts numbers, NaN for a null
 * (JSON has no NaN); strings are UTF-8 bytes or codes into a table of distinct strings (text.ts).
 */
export type FlatValues = Float64Array | TextValues | CodedValues;
type Strings = TextValues | CodedValues;

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

const isCoded = (values: Strings): values is CodedValues => 'table' in values;

function isNull(values: FlatValues, i: number): boolean {
  if (values instanceof Float64Array) return Number.isNaN(values[i]!);
  return isCoded(values) ? values.ids[i]! < 0 : values.units[i]! < 0;
}

/** The UTF-8 length of string i (not null). */
function byteLength(values: Strings, i: number): number {
  return isCoded(values) ? values.table.utf8[values.ids[i]!]!.length : values.ends[i]! - bytesStart(values, i);
}

/** Strings i and j (not null) in UTF-8 byte order (code point order), as the writer orders string statistics. */
function compareStrings(values: Strings, i: number, j: number): number {
  if (isCoded(values)) {
    const { ids, table } = values;
    return ids[i] === ids[j] ? 0 : Buffer.compare(table.utf8[ids[i]!]!, table.utf8[ids[j]!]!);
  }
  const { bytes, ends } = values;
  return bytes.compare(bytes, bytesStart(values, j), ends[j]!, bytesStart(values, i), ends[i]!);
}

function stringAt(values: Strings, i: number): string {
  return isCoded(values) ? values.table.strings[values.ids[i]!]! : textAt(values, i)!;
}

interface Statistics {
  min_value?: string | number | bigint;
  max_value?: string | number | bigint;
  null_count: bigint;
  nan_count?: bigint;
}

/**
 * Min, max and nulls of the values, or only of those at `positions` (a dictionary's entries, never null:
 * then `knownNulls` is the column's count).
 */
function statistics(values: FlatValues, element: SchemaElement, positions?: readonly number[], knownNulls?: number): Statistics {
  let nulls = knownNulls ?? 0;
  const count = positions ? positions.length : values.length;
  let min = -1;
  let max = -1;
  if (values instanceof Float64Array) {
    for (let k = 0; k < count; k++) {
      const i = positions ? positions[k]! : k;
      const v = values[i]!;
      if (Number.isNaN(v)) nulls += 1;
      else {
        if (min < 0 || v < values[min]!) min = i;
        if (max < 0 || v > values[max]!) max = i;
      }
    }
    const low = min < 0 ? undefined : values[min]!;
    const high = max < 0 ? undefined : values[max]!;
    if (element.type === 'INT64') {
      return { min_value: low === undefined ? undefined : BigInt(low), max_value: high === undefined ? undefined : BigInt(high), null_count: BigInt(nulls) };
    }
    // Signed zero as the spec asks: a min of 0 is -0, a max of -0 is 0.
    return { min_value: low === 0 ? -0 : low, max_value: high === 0 ? 0 : high, null_count: BigInt(nulls), nan_count: 0n };
  }
  for (let k = 0; k < count; k++) {
    const i = positions ? positions[k]! : k;
    if (isNull(values, i)) nulls += 1;
    else {
      if (min < 0 || compareStrings(values, i, min) < 0) min = i;
      if (max < 0 || compareStrings(values, i, max) > 0) max = i;
    }
  }
  return { min_value: min < 0 ? undefined : stringAt(values, min), max_value: max < 0 ? undefined : stringAt(values, max), null_count: BigInt(nulls) };
}

interface Dictionary {
  /** the position in the column of each entry's first occurrence */
  dictionary: number[];
  /** each value's entry, -1 for a null */
  indexes: Int32Array;
  nulls: number;
}

/**
 * The writer's dictionary rule (hyparquet-writer useDictionary, for strings and numbers): rejected when a
 * sample of 1,000 spread over the column is more than 90 % distinct by bytes; else built, and kept only
 * if the dictionary and its indexes at most halve the plain bytes. A string's size here is its length in
 * UTF-16 units, as the writer counts it.
 */
function dictionaryOf(values: FlatValues): Dictionary | undefined {
  const n = values.length;
  const strings = !(values instanceof Float64Array);
  const prefix = strings ? 4 : 0;
  // Values are told apart by a key: a coded string's number, a string's bytes read as Latin-1 (one JS
  // character per byte, so equal keys are equal bytes), a number itself.
  let key: (i: number) => string | number;
  let size: (i: number) => number;
  if (values instanceof Float64Array) {
    key = (i) => values[i]!;
    size = () => 8;
  } else if (isCoded(values)) {
    const { ids, table } = values;
    key = (i) => ids[i]!;
    size = (i) => table.units[ids[i]!]!;
  } else {
    const text = values;
    key = (i) => (text.bytes as FastBuffer).latin1Slice(bytesStart(text, i), text.ends[i]!);
    size = (i) => text.units[i]!;
  }
  const sampleSize = Math.min(n, 1000);
  const sampleAt = (i: number) => (sampleSize === 1 ? 0 : Math.floor((i * (n - 1)) / (sampleSize - 1)));
  let sampleDictionary = 0;
  let sampleTotal = 0;
  if (values instanceof Float64Array) {
    // Every number is 8 bytes: the share is distinct values over values, counted in a sorted copy (a Set boxes each number).
    const sample = new Float64Array(sampleSize);
    let count = 0;
    for (let i = 0; i < sampleSize; i++) if (!Number.isNaN(values[sampleAt(i)]!)) sample[count++] = values[sampleAt(i)]!;
    const sorted = sample.subarray(0, count).sort();
    for (let i = 0; i < count; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sampleDictionary += 8;
    sampleTotal = 8 * count;
  } else {
    const seen = new Set<string | number>();
    for (let i = 0; i < sampleSize; i++) {
      const at = sampleAt(i);
      if (isNull(values, at)) continue;
      const v = key(at);
      const bytes = size(at) + prefix;
      if (!seen.has(v)) {
        seen.add(v);
        sampleDictionary += bytes;
      }
      sampleTotal += bytes;
    }
  }
  if (!sampleTotal || sampleDictionary / sampleTotal > 0.9) return undefined;
  const dictionary: number[] = [];
  const indexes = new Int32Array(n).fill(-1);
  let dictionaryBytes = 0;
  let total = 0;
  let nonNull = 0;
  if (strings && isCoded(values)) {
    // Renumbering the table's numbers in order of first appearance: no key to build, no map to look up.
    const { ids, table } = values;
    const entry = new Int32Array(table.size).fill(-1);
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      if (id < 0) continue;
      nonNull++;
      const units = table.units[id]!;
      total += units;
      let at = entry[id]!;
      if (at < 0) {
        at = dictionary.length;
        entry[id] = at;
        dictionary.push(i);
        dictionaryBytes += units;
      }
      indexes[i] = at;
    }
  } else {
    const index = new Map<string | number, number>();
    for (let i = 0; i < n; i++) {
      if (isNull(values, i)) continue;
      const v = key(i);
      nonNull++;
      total += size(i);
      let at = index.get(v);
      if (at === undefined) {
        at = dictionary.length;
        dictionary.push(i);
        index.set(v, at);
        dictionaryBytes += size(i);
      }
      indexes[i] = at;
    }
  }
  const bitWidth = Math.ceil(Math.log2(dictionary.length));
  const indexBytes = Math.ceil((nonNull * bitWidth) / 8);
  if (2 * (dictionaryBytes + dictionary.length * prefix + indexBytes) > total + nonNull * prefix) return undefined;
  return { dictionary, indexes, nulls: n - nonNull };
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
