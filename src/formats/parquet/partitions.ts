/**
 * Sync partitions as Parquet (`part.parquet`): a row's payload is the swap
 * projected to the query's fields in a canonical form — the form the file
 * reads back as — so a row read from a partition and the same version
 * fetched again compare equal, and a partition re-encodes to the same bytes.
 *
 * Canonical form: times as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the microseconds
 * the file holds: an API time with a 7th fractional digit loses it, as in
 * every Parquet export), amounts as numbers, lists as arrays of strings,
 * tags as `{ type, value }` in that order, absent values as null.
 * completedAt and updatedAt, which order the partition and choose the
 * latest version, are read from that form (milliseconds, as for the text
 * formats).
 */
import { type FileMetaData, parquetMetadata, parquetReadObjects } from 'hyparquet';
import type { Swap } from '../../api/types.js';
import { apiTimeMicros, encodeParquet, parquetDecompressors as decompressors, parquetKind } from '../../output/parquet/writer.js';
import { parseApiTime } from '../../util/time.js';
import { type HeldIndex, type PartitionCodec, type StoredRow, updatedOf } from '../stored-row.js';

type Row = Record<string, unknown>;

/** Microseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.ffffffZ`: read back by apiTimeMicros to the same number. */
export function microsToText(micros: bigint): string {
  const ms = micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n);
  const rest = Number(micros - ms * 1000n);
  return `${new Date(Number(ms)).toISOString().slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
}

function canonicalValue(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (parquetKind(field)) {
    case 'timestamp':
      return microsToText(apiTimeMicros(value as string));
    case 'double':
      return Number(value);
    case 'strings':
      return (value as unknown[]).map((item) => (item === null || item === undefined ? null : String(item)));
    case 'tags':
      return (value as (Row | null)[]).map((tag) => ({ type: tag?.type ?? null, value: tag?.value ?? null }));
    case 'string':
      return String(value);
  }
}

function storedRow(record: Row): StoredRow {
  const id = record.id;
  const completedAt = record.completedAt;
  const updatedAt = record.updatedAt;
  return {
    key: typeof id === 'string' && id !== '' ? id : `\u0000${JSON.stringify(record)}`,
    completedMs: typeof completedAt === 'string' ? parseApiTime(completedAt) : Number.NaN,
    // The file holds microseconds: digits past the millisecond count up to there.
    ...updatedOf(updatedAt),
    payload: record,
  };
}

function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The metadata of a partition whose pages this runtime can decompress (a ZSTD one read by Node 20 cannot be). */
function readableMetadata(file: ArrayBuffer): FileMetaData {
  const metadata = parquetMetadata(file);
  for (const group of metadata.row_groups) {
    for (const column of group.columns) {
      const codec = column.meta_data?.codec;
      if (codec && codec !== 'UNCOMPRESSED' && codec !== 'SNAPPY' && !(codec in decompressors)) {
        throw new Error(`it is compressed with ${codec}, which Node.js ${process.version} cannot read: sync with Node.js 22.15 or later`);
      }
    }
  }
  return metadata;
}

export function parquetCodec(fields: readonly string[]): PartitionCodec {
  return {
    extension: '.parquet',
    row(swap: Swap) {
      const source = swap as unknown as Row;
      const record: Row = {};
      for (const field of fields) record[field] = canonicalValue(field, source[field]);
      return storedRow(record);
    },
    async read(bytes: Buffer) {
      const file = arrayBufferOf(bytes);
      const metadata = readableMetadata(file);
      const names = metadataColumns(metadata.schema);
      if (names.join(',') !== fields.join(',')) throw new Error(`its columns are ${names.join(', ')}, not the mirror's fields`);
      const rows = await parquetReadObjects({
        file,
        metadata,
        compressors: decompressors,
        parsers: { timestampFromMicroseconds: microsToText },
      });
      return rows.map((raw) => {
        const record: Row = {};
        // hyparquet reads the canonical form back (list items and tag fields null where null): a missing column is null.
        for (const field of fields) record[field] = raw[field] ?? null;
        return storedRow(record);
      });
    },
    // Two columns of a day's file instead of all 27: a re-scan's index costs a fraction of the memory and CPU.
    async readIndex(bytes: Buffer) {
      const file = arrayBufferOf(bytes);
      const rows = await parquetReadObjects({
        file,
        metadata: readableMetadata(file),
        columns: ['id', 'updatedAt'],
        compressors: decompressors,
        parsers: { timestampFromMicroseconds: microsToText },
      });
      const index: HeldIndex = { updated: new Map(), subMs: new Map() };
      for (const row of rows) {
        if (typeof row.id !== 'string' || row.id === '') continue;
        const { updatedMs, updatedSubMs } = updatedOf(row.updatedAt);
        index.updated.set(row.id, updatedMs);
        index.subMs.set(row.id, updatedSubMs);
      }
      return index;
    },
    encode(rows: readonly StoredRow[]) {
      return encodeParquet(
        rows.map((row) => row.payload as Row),
        fields,
      );
    },
  };
}

/** The top-level column names of a schema (its root's children). */
function metadataColumns(schema: readonly { name: string; num_children?: number }[]): string[] {
  const names: string[] = [];
  let index = 1;
  const skip = (): void => {
    const element = schema[index]!;
    index += 1;
    for (let i = 0; i < (element.num_children ?? 0); i += 1) skip();
  };
  for (let i = 0; i < (schema[0]!.num_children ?? 0); i += 1) {
    names.push(schema[index]!.name);
    skip();
  }
  return names;
}
