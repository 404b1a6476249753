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
import type { ColumnChunk, SchemaTree } from 'hyparquet';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
// Imported by path inside the package, and the chunks are written to its bytes: package.json pins its exact
// version, so that a new one is taken on purpose, with the byte-identity test (test/output/parquet-chunk.test.ts).
import { schemaPathResolver } from 'hyparquet-writer/src/schema.js';
import { VERSION } from '../../version.js';
import { type FlatValues, writeChunk } from './chunk.js';
import { canCompress, codecOfRowGroups, DEFAULT_PARQUET_CODEC, type ParquetCodec, parquetCompressors } from './compression.js';
import { type ColumnBatch, concatColumn, toColumns } from './columns.js';
import type { ListValues } from './lists.js';
import { KINDS, keepsStatistics, parquetSchema, plainOnly } from './schema.js';

export { type ColumnBatch, ColumnCollector, columnTables, toColumns } from './columns.js';
export { type Kind, PARQUET_FIELDS, parquetKind, parquetSchema } from './schema.js';
export { apiTimeMicros } from './time.js';
export { DEFAULT_PARQUET_CODEC, type ParquetCodec, parquetDecompressors } from './compression.js';

type Row = Record<string, unknown>;
type RowGroup = ParquetWriter['row_groups'][number];

/**
 * Rows per row group, plus at most one window: measured, 2,000 keeps an export's peak memory within a few
 * MB of JSON Lines (5,000 cost 8 MB more) for 3 % more bytes; a day at 2,000 swaps/h has 24 groups.
 */
export const ROW_GROUP_ROWS = 2_000;

const MAGIC = Buffer.from('PAR1');
/** Every leaf under a schema path (a list's element, a struct's fields), as paths from the root. */
function leafPaths(path: SchemaTree[]): SchemaTree[][] {
  const node = path[path.length - 1]!;
  return node.children.length === 0 ? [path] : node.children.flatMap((child) => leafPaths([...path, child]));
}

// --- Row-group metadata as JSON: bigint, -0 and bytes survive the round trip, so a rebuilt footer is identical.

export function toPlain(value: unknown): unknown {
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

export function fromPlain(value: unknown): unknown {
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

  /**
   * `codec`: other than the runtime's default only to measure the choice (scripts/bench) or in tests. A resumed
   * file keeps the codec its saved row groups name (files from before ZSTD name GZIP).
   */
  constructor(fields: readonly string[], options: { resume?: ParquetResumeState; codec?: ParquetCodec } = {}) {
    const { resume } = options;
    this.fields = fields;
    this.schema = parquetSchema(fields);
    this.codec = (resume ? codecOfRowGroups(resume.rowGroups) : options.codec) ?? DEFAULT_PARQUET_CODEC;
    // The export refuses such a resume before it starts (formats/parquet/row-groups.ts); this is the writer's own guard.
    if (!canCompress(this.codec)) throw new Error(`this Node.js ${process.version} cannot write ${this.codec} Parquet pages`);
    const resolve = schemaPathResolver(this.schema);
    this.paths = fields.map((name) => resolve([name]));
    this.parquet = new ParquetWriter({
      writer: this.writer,
      schema: this.schema,
      codec: this.codec,
      compressors: parquetCompressors,
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
      const values = concatColumn(batches, i);
      const column = { codec, compressors: parquet.compressors, statistics: keepsStatistics(name), encoding: plainOnly(name) ? ('PLAIN' as const) : undefined };
      const kind = KINDS[name];
      if (kind !== 'strings' && kind !== 'tags') {
        const path = this.paths[i]!;
        columns.push(writeChunk(writer, [name], values as FlatValues, { ...column, element: path[path.length - 1]!.element }));
        return;
      }
      // Page indexes and bloom filters are off: they would live outside the row groups, in state a resume cannot rebuild.
      const list = values as ListValues;
      for (const leaf of list.leaves) {
        const path = leafPaths(this.paths[i]!).find((p) => p[p.length - 1]!.element.name === leaf.name)!;
        const names = path.slice(1).map((node) => node.element.name);
        const levels = { definition: leaf.definition, repetition: list.repetition, maxDefinition: list.maxDefinition };
        columns.push(writeChunk(writer, names, leaf.values, { ...column, element: path[path.length - 1]!.element }, levels));
      }
    });
    let totalByteSize = 0n;
    for (const { meta_data } of columns) totalByteSize += meta_data!.total_uncompressed_size;
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
