/**
 * Swaps as Parquet (hyparquet-writer, pure JS: chosen by measurement, see
 * docs/parquet.md). Native types: times as UTC TIMESTAMP(MICROS), amounts
 * as DOUBLE, text as UTF-8 strings, the two address lists as list<string>,
 * tags as list<struct<type, value>>; a null stays null. Columns are the
 * chosen fields in their order, the same as the CSV export's.
 *
 * A file is written a row group at a time (ParquetFile): the header, then
 * each row group at its offset, then the footer built from the row groups'
 * metadata. That metadata is plain data (`state()`), so an export can
 * checkpoint it beside the partial file and a resume can rebuild the same
 * footer: the bytes depend only on the rows, never on the clock.
 */
import { constants, gzipSync } from 'node:zlib';
import type { ColumnChunk, SchemaTree } from 'hyparquet';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { schemaPathResolver } from 'hyparquet-writer/src/schema.js';
import { LIST_SWAP_FIELDS } from '../api/types.js';
import { VERSION } from '../version.js';
import { type FlatValues, type Levels, writeChunk } from './parquet-chunk.js';

type Row = Record<string, unknown>;
type RowGroup = ParquetWriter['row_groups'][number];
export type Kind = 'string' | 'timestamp' | 'double' | 'strings' | 'tags';

/** How each list-export field is typed in Parquet (the spec's types, section 2.1). */
const KINDS: Record<string, Kind> = {
  timestamp: 'timestamp',
  depositedAt: 'timestamp',
  withdrawnAt: 'timestamp',
  detectedAt: 'timestamp',
  completedAt: 'timestamp',
  updatedAt: 'timestamp',
  sourceOtherProtocolAddresses: 'strings',
  destinationOtherProtocolAddresses: 'strings',
  depositAmount: 'double',
  withdrawnAmount: 'double',
  depositUsdAmount: 'double',
  withdrawnUsdAmount: 'double',
  tags: 'tags',
};

/** How `field` is typed in a Parquet file (a field not listed is a string). */
export function parquetKind(field: string): Kind {
  return KINDS[field] ?? 'string';
}

/** The fields a Parquet file can hold: those of a list export. */
export const PARQUET_FIELDS: readonly string[] = LIST_SWAP_FIELDS;

/**
 * Rows per row group, plus at most one window: measured, 2,000 keeps an export's peak memory within a few
 * MB of JSON Lines (5,000 cost 8 MB more) for 3 % more bytes; a day at 2,000 swaps/h has 24 groups.
 */
export const ROW_GROUP_ROWS = 2_000;

/**
 * GZIP (node's zlib), Huffman coding only: measured (docs/parquet.md) a quarter smaller than the same
 * data as .jsonl.gz, where Snappy is larger than it; full deflate saves another 9 % for a third more
 * CPU. Most bytes are hex hashes, which Huffman alone halves. zstd is not in Node 20's zlib. DuckDB,
 * pyarrow, Spark and BigQuery all read GZIP.
 */
const PARQUET_CODEC: ParquetCodec = 'GZIP';
export type ParquetCodec = 'GZIP' | 'SNAPPY' | 'UNCOMPRESSED';
const compressors = { GZIP: (input: Uint8Array) => gzipSync(input, { level: 1, strategy: constants.Z_HUFFMAN_ONLY }) };

const MAGIC = Buffer.from('PAR1');

function text(name: string): SchemaElement {
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' };
}

function listOf(name: string, element: SchemaElement[]): SchemaElement[] {
  return [
    { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    ...element,
  ];
}

function columnSchema(field: string): SchemaElement[] {
  switch (KINDS[field] ?? 'string') {
    case 'string':
      return [text(field)];
    case 'timestamp':
      return [
        {
          name: field,
          type: 'INT64',
          repetition_type: 'OPTIONAL',
          converted_type: 'TIMESTAMP_MICROS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
        },
      ];
    case 'double':
      return [{ name: field, type: 'DOUBLE', repetition_type: 'OPTIONAL' }];
    case 'strings':
      return listOf(field, [text('element')]);
    case 'tags':
      return listOf(field, [{ name: 'element', repetition_type: 'OPTIONAL', num_children: 2 }, text('type'), text('value')]);
  }
}

export function parquetSchema(fields: readonly string[]): SchemaElement[] {
  for (const field of fields) if (!PARQUET_FIELDS.includes(field)) throw new RangeError(`no Parquet column for field '${field}'`);
  return [{ name: 'root', num_children: fields.length }, ...fields.flatMap(columnSchema)];
}

const FRACTION_RE = /T\d\d:\d\d:\d\d\.(\d+)/;
const ZONE_RE = /(Z|[+-]\d\d:?\d\d)$/i;
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/** The digits of value[from, to) as a number, or -1 if any is not a digit. */
function digits(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i += 1) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Days from 1970-01-01 to year-month-1, plus day - 1 (a day past the month's end runs on into the
 * next, as Date.parse does): the proleptic Gregorian calendar, H. Hinnant's days_from_civil.
 */
function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/**
 * YYYY-MM-DDTHH:MM:SS[.f…]Z, the form the API sends, read digit by digit: Date.parse and a regex
 * per time were most of the cost of a row. Undefined for any other form.
 */
function fastUtcMicros(value: string): number | undefined {
  const n = value.length;
  if (n < 20 || value.charCodeAt(n - 1) !== 90 /* Z */ || value.charCodeAt(10) !== 84 /* T */) return undefined;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return undefined;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const hour = digits(value, 11, 13);
  const minute = digits(value, 14, 16);
  const second = digits(value, 17, 19);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let micros = 0;
  if (n > 20) {
    if (value.charCodeAt(19) !== 46 /* . */ || n > 30) return undefined;
    const end = Math.min(n - 1, 26);
    const fraction = digits(value, 20, end);
    if (fraction < 0 || (n - 1 > 26 && digits(value, 26, n - 1) < 0)) return undefined;
    micros = fraction * POWERS[6 - (end - 20)]!;
  }
  return (epochDay(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000 + micros;
}

/**
 * An API date-time as microseconds since the epoch, UTC. Digits past the microsecond (ASP.NET may
 * send 7) are cut. A time without a zone is UTC, as everywhere in swapx.
 */
export function apiTimeMicros(value: string): bigint {
  return BigInt(timeMicros(value));
}

/** apiTimeMicros as a number (exact to the year 2255: 2^53 µs). */
function timeMicros(value: string): number {
  const fast = fastUtcMicros(value);
  if (fast !== undefined) return fast;
  const ms = Date.parse(value.includes('T') && !ZONE_RE.test(value) ? `${value}Z` : value);
  if (Number.isNaN(ms)) throw new RangeError(`not a date-time: '${value}'`);
  const fraction = FRACTION_RE.exec(value)?.[1] ?? '';
  const micros = fraction.length > 3 ? Number(fraction.slice(3, 6).padEnd(3, '0')) : 0;
  return ms * 1000 + micros;
}

/** A list column's values as the writer takes them: arrays, tags as { type, value } only (the struct's two fields). */
function listValues(field: string, rows: readonly Row[]): unknown[] {
  const tags = KINDS[field] === 'tags';
  const values = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![field];
    if (value === null || value === undefined) values[i] = null;
    else if (tags) values[i] = (value as Row[]).map((tag) => ({ type: tag?.type ?? null, value: tag?.value ?? null }));
    else values[i] = value;
  }
  return values;
}

/** A time column as microseconds, NaN for a null. */
function timeValues(field: string, rows: readonly Row[]): Float64Array {
  const values = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![field];
    values[i] = value === null || value === undefined ? Number.NaN : timeMicros(value as string);
  }
  return values;
}

/** An amount column, NaN for a null (JSON has no NaN). */
function doubleValues(field: string, rows: readonly Row[]): Float64Array {
  const values = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![field];
    if (value === null || value === undefined) values[i] = Number.NaN;
    else if (typeof value === 'number') values[i] = value;
    else throw new RangeError(`${field}: not a number: ${JSON.stringify(value)}`);
  }
  return values;
}

function stringValues(field: string, rows: readonly Row[]): (string | null)[] {
  const values = new Array<string | null>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![field];
    values[i] = value === null || value === undefined ? null : typeof value === 'string' ? value : String(value);
  }
  return values;
}

type ColumnValues = FlatValues | unknown[];

/**
 * Rows as column values, one per field: what a window is kept as while it waits for its row group,
 * so its parsed objects are garbage at once. Times and amounts are typed arrays (no bigint, no
 * boxed number per value).
 */
export interface ColumnBatch {
  rows: number;
  columns: ColumnValues[];
}

export function toColumns(fields: readonly string[], rows: readonly Row[]): ColumnBatch {
  return {
    rows: rows.length,
    columns: fields.map((name) => {
      switch (KINDS[name] ?? 'string') {
        case 'timestamp':
          return timeValues(name, rows);
        case 'double':
          return doubleValues(name, rows);
        case 'string':
          return stringValues(name, rows);
        default:
          return listValues(name, rows);
      }
    }),
  };
}

/** Column `i` of the batches as one run of values. */
function concatColumn(batches: readonly ColumnBatch[], i: number, rows: number): ColumnValues {
  const first = batches[0]!.columns[i]!;
  if (batches.length === 1) return first;
  if (first instanceof Float64Array) {
    const out = new Float64Array(rows);
    let at = 0;
    for (const batch of batches) {
      const part = batch.columns[i] as Float64Array;
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
  const out = new Array<unknown>(rows);
  let at = 0;
  for (const batch of batches) for (const value of batch.columns[i] as unknown[]) out[at++] = value;
  return out;
}

/** Min and max of addresses and lists prune nothing a query asks; only times, amounts and the categorical strings keep statistics. */
function keepsStatistics(name: string): boolean {
  return !NO_STATISTICS.test(name) && !HASHES.has(name) && KINDS[name] !== 'strings' && KINDS[name] !== 'tags';
}

/**
 * Near unique: times (DELTA_BINARY_PACKED was 5 % smaller as a file but cost a quarter of the writer's
 * CPU) and the hashes, whose dictionary never pays.
 */
function plainOnly(name: string): boolean {
  return KINDS[name] === 'timestamp' || HASHES.has(name);
}

/**
 * The leaves of a list column as Dremel levels (as hyparquet-writer's encodeNestedValues makes them):
 * list<string> has one leaf, `element` (definition 0 a null list, 1 an empty one, 2 a null element,
 * 3 a value); list<struct<type, value>> two, `type` and `value` (0 null list, 1 empty, 3 a null
 * field, 4 a value; 2, a null tag, never occurs: a tag is its two fields). Repetition is 0 at a
 * row's first slot, 1 after.
 */
function listLeaves(kind: 'strings' | 'tags', rows: readonly unknown[]): { name: string; values: (string | null)[]; levels: Levels }[] {
  let slots = 0;
  for (const row of rows) slots += Array.isArray(row) && row.length > 0 ? row.length : 1;
  const repetition = new Uint8Array(slots);
  const names = kind === 'tags' ? ['type', 'value'] : ['element'];
  const leaves = names.map((name) => ({ name, values: new Array<string | null>(slots).fill(null), definition: new Uint8Array(slots) }));
  const maxDefinition = kind === 'tags' ? 4 : 3;
  let at = 0;
  for (const row of rows) {
    if (row === null || row === undefined) {
      at++;
      continue;
    }
    const list = row as unknown[];
    if (list.length === 0) {
      for (const leaf of leaves) leaf.definition[at] = 1;
      at++;
      continue;
    }
    for (let j = 0; j < list.length; j++, at++) {
      if (j > 0) repetition[at] = 1;
      const item = list[j];
      for (const leaf of leaves) {
        // A tag is never null here: listValues made it { type, value }.
        const value = kind === 'tags' ? (item as Row)[leaf.name] : item;
        if (value === null || value === undefined) leaf.definition[at] = maxDefinition - 1;
        else {
          leaf.definition[at] = maxDefinition;
          leaf.values[at] = typeof value === 'string' ? value : String(value);
        }
      }
    }
  }
  return leaves.map(({ name, values, definition }) => ({ name, values, levels: { definition, repetition, maxDefinition } }));
}

/** Every leaf under a schema path (a list's element, a struct's fields), as paths from the root. */
function leafPaths(path: SchemaTree[]): SchemaTree[][] {
  const node = path[path.length - 1]!;
  return node.children.length === 0 ? [path] : node.children.flatMap((child) => leafPaths([...path, child]));
}

const NO_STATISTICS = /Address|Contract|InteractedWith/;
const HASHES = new Set(['id', 'intermediateSwapId', 'sourceTransaction', 'destinationTransaction', 'sourceAccount', 'destinationAccount']);

// --- Row-group metadata as JSON: bigint, -0 and bytes survive the round trip, so a rebuilt footer is identical.

function toPlain(value: unknown): unknown {
  if (typeof value === 'bigint') return { $n: value.toString() };
  if (Object.is(value, -0)) return { $z: 1 };
  if (value instanceof Uint8Array) return { $b: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = toPlain(v);
    return out;
  }
  return value;
}

function fromPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromPlain);
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.$n === 'string') return BigInt(o.$n);
    if (o.$z === 1) return -0;
    if (typeof o.$b === 'string') return new Uint8Array(Buffer.from(o.$b, 'base64'));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(o)) out[key] = fromPlain(v);
    return out;
  }
  return value;
}

/** What a resume needs to go on writing a file: its length and the metadata of its row groups. */
export interface ParquetResumeState {
  bytes: number;
  /** groupState() of each row group in the file, in order */
  rowGroups: readonly string[];
}

/**
 * One Parquet file written in pieces: header(), rowGroup() for each group in order, footer().
 * Each call returns the bytes to append; the caller writes them (a partial file, a temp file).
 */
export class ParquetFile {
  private readonly writer = new ByteWriter();
  private readonly parquet: ParquetWriter;
  private readonly fields: readonly string[];
  private readonly schema: SchemaElement[];
  private readonly codec: ParquetCodec;
  /** each field's schema path, root first */
  private readonly paths: SchemaTree[][];

  /** `codec`: other than the default only to measure the choice (scripts/bench). */
  constructor(fields: readonly string[], options: { resume?: ParquetResumeState; codec?: ParquetCodec } = {}) {
    const { resume } = options;
    this.fields = fields;
    this.schema = parquetSchema(fields);
    this.codec = options.codec ?? PARQUET_CODEC;
    const resolve = schemaPathResolver(this.schema);
    this.paths = fields.map((name) => resolve([name]));
    this.parquet = new ParquetWriter({
      writer: this.writer,
      schema: this.schema,
      codec: this.codec,
      compressors,
      createdBy: `swapx version ${VERSION}`,
    });
    // The writer starts with the magic bytes; header() hands them out.
    this.take();
    if (resume) {
      this.writer.offset = resume.bytes;
      const groups = resume.rowGroups.map((group) => fromPlain(JSON.parse(group)) as RowGroup);
      this.parquet.row_groups = groups;
      this.parquet.num_rows = groups.reduce((sum, group) => sum + group.num_rows, 0n);
    } else this.writer.offset = 0;
  }

  private take(): Buffer {
    const bytes = Buffer.from(this.writer.buffer, 0, this.writer.index);
    const copy = Buffer.from(bytes);
    this.writer.index = 0;
    return copy;
  }

  /** The 4 magic bytes that open the file. */
  header(): Buffer {
    this.writer.offset += MAGIC.length;
    return Buffer.from(MAGIC);
  }

  /** One row group of these rows, at the current end of the file. */
  rowGroup(rows: readonly Row[]): Buffer {
    return this.rowGroupOf([toColumns(this.fields, rows)]);
  }

  /** One row group of these batches (from toColumns with this file's fields), in order. */
  rowGroupOf(batches: readonly ColumnBatch[]): Buffer {
    const rows = batches.reduce((sum, batch) => sum + batch.rows, 0);
    if (rows === 0) return Buffer.alloc(0);
    const { writer, parquet, codec } = this;
    const start = writer.offset;
    const columns: ColumnChunk[] = [];
    this.fields.forEach((name, i) => {
      const values = concatColumn(batches, i, rows);
      const column = { codec, compressors: parquet.compressors, statistics: keepsStatistics(name), encoding: plainOnly(name) ? ('PLAIN' as const) : undefined };
      const kind = KINDS[name];
      if (kind !== 'strings' && kind !== 'tags') {
        const path = this.paths[i]!;
        columns.push(writeChunk(writer, [name], values as FlatValues, { ...column, element: path[path.length - 1]!.element }));
        return;
      }
      // Page indexes and bloom filters are off: they would live outside the row groups, in state a resume cannot rebuild.
      for (const leaf of listLeaves(kind, values as unknown[])) {
        const path = leafPaths(this.paths[i]!).find((p) => p[p.length - 1]!.element.name === leaf.name)!;
        const names = path.slice(1).map((node) => node.element.name);
        columns.push(writeChunk(writer, names, leaf.values, { ...column, element: path[path.length - 1]!.element }, leaf.levels));
      }
    });
    let totalByteSize = 0n;
    for (const { meta_data } of columns) totalByteSize += meta_data?.total_uncompressed_size ?? 0n;
    parquet.num_rows += BigInt(rows);
    parquet.row_groups.push({ columns, total_byte_size: totalByteSize, num_rows: BigInt(rows), total_compressed_size: BigInt(writer.offset - start) });
    return this.take();
  }

  /**
   * The metadata of row group `index` as one line of JSON: saved as each group is written, these
   * and the file's length are what a resume needs (ParquetResumeState).
   */
  groupState(index: number): string {
    const group = this.parquet.row_groups[index];
    if (!group) throw new RangeError(`no row group ${index}`);
    return JSON.stringify(toPlain(group));
  }

  get rowGroups(): number {
    return this.parquet.row_groups.length;
  }

  /** The metadata and closing magic. */
  footer(): Buffer {
    void this.parquet.finish();
    return this.take();
  }
}

/**
 * A whole Parquet file of these rows, in row groups of at most `rowGroupRows` (for sync partitions
 * and other writers that hold a file's rows at once). Same schema and bytes as a streamed export.
 */
export function encodeParquet(rows: readonly Row[], fields: readonly string[], options: { rowGroupRows?: number; codec?: ParquetCodec } = {}): Buffer {
  const size = options.rowGroupRows ?? ROW_GROUP_ROWS;
  const file = new ParquetFile(fields, { codec: options.codec });
  const parts = [file.header()];
  for (let start = 0; start < rows.length; start += size) parts.push(file.rowGroup(rows.slice(start, start + size)));
  parts.push(file.footer());
  return Buffer.concat(parts);
}
