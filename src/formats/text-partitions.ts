/**
 * A sync partition in a text format (JSON Lines, CSV), for the partition writer (mirror/partitions), which merges
 * versions and rewrites files atomically: each row keeps its encoded text as its payload, so a row read back is
 * written again byte for byte, and the file, gzipped as one member when `gzip`, is the header and the rows. Each
 * format reads its own text back (jsonl.ts, csv.ts).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Swap } from '../api/types.js';
import type { Encoder } from '../output/encode.js';
import { parseApiTime } from '../util/time.js';
import { type PartitionCodec, type StoredRow, updatedOf } from './stored-row.js';

function timeOf(value: unknown): number {
  return typeof value === 'string' ? parseApiTime(value) : Number.NaN;
}

/** A row of a text partition: keyed by its id, or by its payload when it has none (so a repeat is still one row). */
export function textRow(id: unknown, completedAt: unknown, updatedAt: unknown, payload: string): StoredRow {
  const key = typeof id === 'string' && id !== '' ? id : `\u0000${payload}`;
  return { key, completedMs: timeOf(completedAt), ...updatedOf(updatedAt), payload };
}

/** `extension`: the format's (`.jsonl`); `read`: every row of a partition's text. */
export function textPartitions(extension: string, gzip: boolean, encoder: Encoder, read: (text: string) => StoredRow[]): PartitionCodec {
  const decode = (bytes: Buffer) => (gzip ? gunzipSync(bytes) : bytes).toString('utf8');
  return {
    extension: `${extension}${gzip ? '.gz' : ''}`,
    row(swap: Swap) {
      const payload = encoder.batch([swap as unknown as Record<string, unknown>], true);
      return textRow(swap.id, swap.completedAt, swap.updatedAt, payload);
    },
    read: (bytes) => read(decode(bytes)),
    encode(rows) {
      // JSON Lines and CSV have no footer.
      const text = encoder.header() + rows.map((row) => row.payload as string).join('');
      return gzip ? gzipSync(text) : Buffer.from(text);
    },
  };
}
