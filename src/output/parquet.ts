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
import { ByteWriter, ParquetWriter, type ColumnSource, type SchemaElement } from 'hyparquet-writer';
import { LIST_SWAP_FIELDS } from '../api/types.js';
import { VERSION } from '../version.js';

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

function parquetSchema(fields: readonly string[]): SchemaElement[] {
  for (const field of fields) if (!PARQUET_FIELDS.includes(field)) throw new RangeError(`no Parquet column for field '${field}'`);
  return [{ name: 'root', num_children: fields.length }, ...fields.flatMap(columnSchema)];
}

const FRACTION_RE = /T\d\d:\d\d:\d\d\.(\d+)/;
const ZONE_RE = /(Z|[+-]\d\d:?\d\d)$/i;
let cachedDay = '';
let cachedDayMs = 0;

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
 * YYYY-MM-DDTHH:MM:SS[.f…]Z, the form the API sends, read digit by digit: Date.parse and a regex
 * per time were most of the cost of a row. Undefined for any other form.
 */
function fastUtcMicros(value: string): bigint | undefined {
  const n = value.length;
  if (n < 20 || value.charCodeAt(n - 1) !== 90 /* Z */ || value.charCodeAt(10) !== 84 /* T */) return undefined;
  if (value[13] !== ':' || value[16] !== ':') return undefined;
  const hour = digits(value, 11, 13);
  const minute = digits(value, 14, 16);
  const second = digits(value, 17, 19);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let micros = 0;
  if (n > 20) {
    if (value[19] !== '.' || n > 30) return undefined;
    const fraction = digits(value, 20, Math.min(n - 1, 26));
    if (fraction < 0 || (n - 1 > 26 && digits(value, 26, n - 1) < 0)) return undefined;
    micros = fraction * 10 ** (6 - (Math.min(n - 1, 26) - 20));
  } else if (value[19] !== 'Z') return undefined;
  const day = value.slice(0, 10);
  if (day !== cachedDay) {
    const ms = /^\d{4}-\d\d-\d\d$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(ms)) return undefined;
    cachedDay = day;
    cachedDayMs = ms;
  }
  return BigInt((cachedDayMs / 1000 + hour * 3600 + minute * 60 + second) * 1_000_000 + micros);
}

/**
 * An API date-time as microseconds since the epoch, UTC. Digits past the microsecond (ASP.NET may
 * send 7) are cut. A time without a zone is UTC, as everywhere in swapx.
 */
export function apiTimeMicros(value: string): bigint {
  const fast = fastUtcMicros(value);
  if (fast !== undefined) return fast;
  const ms = Date.parse(value.includes('T') && !ZONE_RE.test(value) ? `${value}Z` : value);
  if (Number.isNaN(ms)) throw new RangeError(`not a date-time: '${value}'`);
  const fraction = FRACTION_RE.exec(value)?.[1] ?? '';
  const micros = fraction.length > 3 ? Number(fraction.slice(3, 6).padEnd(3, '0')) : 0;
  return BigInt(ms) * 1000n + BigInt(micros);
}

function columnValues(field: string, rows: readonly Row[]): unknown[] {
  const kind = KINDS[field] ?? 'string';
  const values = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const value = rows[i]![field];
    if (value === null || value === undefined) values[i] = null;
    else if (kind === 'timestamp') values[i] = apiTimeMicros(value as string);
    // Only the two fields the struct has, in the schema's order.
    else if (kind === 'tags') values[i] = (value as Row[]).map((tag) => ({ type: tag?.type ?? null, value: tag?.value ?? null }));
    else values[i] = value;
  }
  return values;
}

/** Page indexes and bloom filters are off: they would live outside the row groups, in state a resume cannot rebuild. */
/**
 * Rows as the writer's column values, one array per field: what a window is kept as while it waits
 * for its row group, so its parsed objects are garbage at once.
 */
export interface ColumnBatch {
  rows: number;
  columns: unknown[][];
}

export function toColumns(fields: readonly string[], rows: readonly Row[]): ColumnBatch {
  return {
    rows: rows.length,
    columns: fields.map((name) => (HASHES.has(name) ? utf8Views(columnValues(name, rows) as (string | null)[]) : columnValues(name, rows))),
  };
}

function columnSources(fields: readonly string[], batches: readonly ColumnBatch[]): ColumnSource[] {
  return fields.map((name, i) => {
    const data = batches.length === 1 ? batches[0]!.columns[i]! : batches.flatMap((batch) => batch.columns[i]!);
    const source: ColumnSource = { name, data, offsetIndex: false, columnIndex: false };
    // Times are near unique: PLAIN, never a dictionary. DELTA_BINARY_PACKED was 5 % smaller as a file
    // but cost a quarter of the writer's CPU (its arithmetic is on bigints).
    if (KINDS[name] === 'timestamp') source.encoding = 'PLAIN';
    // Min and max of addresses and lists prune nothing a query asks; only times, amounts and the
    // categorical strings (bridge, chains, tokens, status) keep statistics.
    if (NO_STATISTICS.test(name) || KINDS[name] === 'strings' || KINDS[name] === 'tags') source.statistics = false;
    if (HASHES.has(name)) {
      // Near unique: a dictionary never pays. Min and max of random hashes prune no row group.
      source.encoding = 'PLAIN';
      source.statistics = false;
    }
    return source;
  });
}

/**
 * Strings as UTF-8 views into one buffer per column: the writer would otherwise encode each value into
 * a buffer of its own, which is most of its garbage for these columns (same bytes either way).
 */
function utf8Views(values: readonly (string | null)[]): (Uint8Array | null)[] {
  let total = 0;
  for (const value of values) if (value !== null) total += Buffer.byteLength(value);
  const buffer = Buffer.allocUnsafe(total);
  let offset = 0;
  return values.map((value) => {
    if (value === null) return null;
    const length = buffer.write(value, offset);
    const view = buffer.subarray(offset, offset + length);
    offset += length;
    return view;
  });
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

  /** `codec`: other than the default only to measure the choice (scripts/bench). */
  constructor(fields: readonly string[], options: { resume?: ParquetResumeState; codec?: ParquetCodec } = {}) {
    const { resume } = options;
    this.fields = fields;
    this.parquet = new ParquetWriter({
      writer: this.writer,
      schema: parquetSchema(fields),
      codec: options.codec ?? PARQUET_CODEC,
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
    void this.parquet.write({ columnData: columnSources(this.fields, batches), rowGroupSize: rows });
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
