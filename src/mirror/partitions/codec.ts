/**
 * How a partition file is encoded, as a whole: the seam between the
 * partition writer (which merges versions and rewrites files atomically) and
 * the formats. A codec turns a swap into a row, reads a file it wrote back
 * into rows, and encodes a partition's rows into the bytes of the whole
 * file. Text formats keep each row's encoded text as its payload, so a row
 * read back is written again byte for byte; a columnar format (Parquet, whose
 * encoder is whole-file by nature) has a payload of the projected record in
 * the form it reads back as: see parquet-codec.ts.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { createEncoder, type Encoder } from '../../output/encode.js';
import { parseApiTime } from '../../util/time.js';
import { readCsvRecords } from './csv-records.js';
import { parquetCodec } from './parquet-codec.js';
import { type PartitionCodec, type StoredRow, updatedOf } from './stored-row.js';
import type { FormatName } from '../../formats/registry.js';

function timeOf(value: unknown): number {
  return typeof value === 'string' ? parseApiTime(value) : Number.NaN;
}

function keyOf(id: unknown, payload: string): string {
  return typeof id === 'string' && id !== '' ? id : `\u0000${payload}`;
}

/** JSON Lines or CSV, gzipped as one member when `gzip`. */
export function textCodec(format: 'jsonl' | 'csv', gzip: boolean, encoder: Encoder): PartitionCodec {
  const decode = (bytes: Buffer) => (gzip ? gunzipSync(bytes) : bytes).toString('utf8');
  const read =
    format === 'jsonl'
      ? (text: string): StoredRow[] =>
          text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => {
              const record = JSON.parse(line) as Record<string, unknown>;
              const payload = `${line}\n`;
              return { key: keyOf(record.id, payload), completedMs: timeOf(record.completedAt), ...updatedOf(record.updatedAt), payload };
            })
      : (text: string): StoredRow[] => {
          const rows: StoredRow[] = [];
          let columns: { id: number; completedAt: number; updatedAt: number; count: number } | undefined;
          // swapx ends every record with a newline: a file that does not was cut short inside one, which would
          // otherwise read as a row of its own (its id cut) and be written back, the rows after it lost.
          if (text !== '' && !text.endsWith('\n')) throw new Error('it ends inside a record (cut short?)');
          readCsvRecords(text, (record, raw) => {
            if (!columns) {
              if (!record.includes('id')) throw new Error('no id column');
              columns = { id: record.indexOf('id'), completedAt: record.indexOf('completedAt'), updatedAt: record.indexOf('updatedAt'), count: record.length };
              return;
            }
            const { id, completedAt, updatedAt, count } = columns;
            if (record.length !== count) throw new Error(`row ${rows.length + 1} has ${record.length} fields, the header ${count}`);
            rows.push({ key: keyOf(record[id], raw), completedMs: timeOf(record[completedAt]), ...updatedOf(record[updatedAt]), payload: raw });
          });
          return rows;
        };
  return {
    extension: `.${format}${gzip ? '.gz' : ''}`,
    row(swap) {
      const payload = encoder.batch([swap as unknown as Record<string, unknown>], true);
      return { key: keyOf(swap.id, payload), completedMs: timeOf(swap.completedAt), ...updatedOf(swap.updatedAt), payload };
    },
    read: (bytes) => read(decode(bytes)),
    encode(rows) {
      // JSON Lines and CSV have no footer.
      const text = encoder.header() + rows.map((row) => row.payload as string).join('');
      return gzip ? gzipSync(text) : Buffer.from(text);
    },
  };
}

/** Which codec a sync's query writes with. */
export interface CodecQuery {
  format: FormatName;
  gzip: boolean;
  fields: readonly string[];
  allFields: readonly string[];
}

/** The codec of a sync directory's format: text (src/mirror/partitions/codec.ts) or Parquet (src/mirror/partitions/parquet-codec.ts). */
export function partitionCodec(query: CodecQuery): PartitionCodec {
  if (query.format === 'parquet') return parquetCodec(query.fields);
  const format = query.format as 'jsonl' | 'csv';
  return textCodec(format, query.gzip, createEncoder(format, { fields: query.fields, allFields: query.allFields }));
}
