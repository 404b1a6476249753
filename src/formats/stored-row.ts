/**
 * A row of a sync partition and the codec that writes a partition file: the types the formats (text-partitions.ts,
 * parquet/partitions.ts) and the partition writer (mirror/partitions) share.
 */
import type { Swap } from '../api/types.js';
import { parseApiTime } from '../util/time.js';

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
   * Optional, cheaper than `read` where a format can read two columns alone: the updatedAt of each row with an
   * id. Only an optimization: a row missing from it is merged at the flush, by `read`.
   */
  readIndex?(bytes: Buffer): Promise<HeldIndex>;
  /** the whole file holding `rows`, in the given order */
  encode(rows: readonly StoredRow[]): Buffer;
}

/** What a partition holds, by id: each row's updatedAt, its millisecond and the digits past it (in ns). */
export interface HeldIndex {
  updated: Map<string, number>;
  subMs: Map<string, number>;
}

/** updatedAt as a row keeps it: its millisecond, and the digits past it (a later tick in the same millisecond is a newer version). */
export function updatedOf(value: unknown): { updatedMs: number; updatedSubMs: number } {
  const sub = typeof value === 'string' ? /\.\d{3}(\d{1,6})/.exec(value)?.[1] : undefined;
  return { updatedMs: typeof value === 'string' ? parseApiTime(value) : Number.NaN, updatedSubMs: sub === undefined ? 0 : Number(sub.padEnd(6, '0')) };
}

/** Which of two versions is later by updatedAt, digits past the millisecond included (an unreadable one is the oldest): < 0, 0 or > 0. */
export function compareUpdated(a: Pick<StoredRow, 'updatedMs' | 'updatedSubMs'>, b: Pick<StoredRow, 'updatedMs' | 'updatedSubMs'>): number {
  const x = Number.isNaN(a.updatedMs) ? Number.NEGATIVE_INFINITY : a.updatedMs;
  const y = Number.isNaN(b.updatedMs) ? Number.NEGATIVE_INFINITY : b.updatedMs;
  if (x !== y) return x < y ? -1 : 1;
  return (a.updatedSubMs ?? 0) - (b.updatedSubMs ?? 0);
}
