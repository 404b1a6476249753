/**
 * A row of a sync partition and the codec that writes a partition file: the types the formats (codec.ts,
 * parquet-codec.ts) and the partition writer share.
 */
import type { Swap } from '../api/types.js';

export interface StoredRow {
  /** the swap id; rows without one are keyed by their payload, so a repeat is still one row */
  key: string;
  /** epoch ms; NaN when unreadable */
  completedMs: number;
  /** epoch ms; NaN when unreadable */
  updatedMs: number;
  /** updatedAt's digits past the millisecond, in ns (0 to 999,999): the API's times have seven fractional digits */
  updatedSubMs?: number;
  /** what the codec writes for this row (encoded text for text formats) */
  payload: string | Record<string, unknown>;
}

export interface PartitionCodec {
  /** the file name's extension, with its dot: `.jsonl.gz` */
  readonly extension: string;
  row(swap: Swap): StoredRow;
  /** every row of a file this codec wrote; throws on bytes it cannot read */
  read(bytes: Buffer): StoredRow[] | Promise<StoredRow[]>;
  /**
   * Optional, cheaper than `read` where a format can read two columns alone: id → updatedMs of the rows
   * with an id. Only an optimization: a row missing from it is merged at the flush, by `read`.
   */
  readIndex?(bytes: Buffer): Promise<Map<string, number>>;
  /** the whole file holding `rows`, in the given order */
  encode(rows: readonly StoredRow[]): Buffer;
}
