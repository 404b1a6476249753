/**
 * How an export writes a format: the contract between the one export loop (export/exporter.ts), which fetches
 * windows and keeps the tally, and a format's writer, which turns each window into bytes and says where a resume
 * may start again (its checkpoint, opaque to the loop: the manifest keeps it as the format's state).
 */
import type { ChalkInstance } from 'chalk';
import type { DateRangeFilter, Swap } from '../api/types.js';

/** Where an export starts: nothing written yet, or the last checkpoint of the export it resumes. */
export interface ExportStart {
  windowsDone: number;
  swaps: number;
  /** the partial file's length at the checkpoint */
  bytes: number;
  /** what the writer's flush returned with the checkpointed bytes */
  formatState?: string;
}

export interface ExportWriterOptions {
  /** the columns, in order */
  fields: readonly string[];
  /** every field a swap of the list has: JSON passes records through as sent when `fields` are all of them */
  allFields: readonly string[];
  excelSafe: boolean;
  /** the range's filter: which time the table shows first */
  filter: DateRangeFilter | undefined;
  /** the table on a terminal: its colours and width; elsewhere it is plain */
  look?: { chalk: ChalkInstance; width: number | undefined };
  /** FILE.partial, beside which a writer may keep files of its own until FILE is complete; undefined: stdout */
  partial?: string;
}

/** A window as it is fetched: each kept swap becomes an item as it arrives, and the kept items, in order, its batch. */
export interface WindowCollector<Item = unknown, Batch = unknown> {
  readonly item: (swap: Swap, raw: Buffer | undefined) => Item;
  batch(items: Item[]): Batch;
}

/** Bytes to append, and the format's checkpoint at their end (undefined: the last one stands). */
export interface Flushed {
  bytes: string | Buffer;
  formatState?: string;
}

export interface ExportWriter<Item = unknown, Batch = unknown> {
  /** a window about to be fetched */
  collector(): WindowCollector<Item, Batch>;
  /** the bytes a waiting batch holds, which bound how far fetching runs ahead; absent: only the count of windows does */
  sizeOf?(batch: Batch): number;
  /** the next window's batch, in window order, and its rows */
  add(batch: Batch, rows: number): void;
  /**
   * What to append now, ending at a checkpoint; undefined: no checkpoint here (Parquet between row groups: the
   * windows wait). `last`: no window follows.
   */
  flush(last: boolean): Promise<Flushed | undefined>;
  /** the closing bytes, after the last flush */
  footer(): string | Buffer;
  /** the export is complete, or stopped: the writer's own files are closed, and removed when no resume needs them */
  close(complete: boolean): Promise<void>;
}
