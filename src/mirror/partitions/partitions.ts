/**
 * Daily partitions of a sync directory: `<dir>/date=YYYY-MM-DD/part.<ext>`,
 * by the UTC date of completedAt, one file per partition holding one row per
 * swap (its latest version), sorted by completedAt then id. A partition is
 * rewritten whole, through the mirror's storage (storage.ts): readers see the
 * old file or the new one, never a mix.
 *
 * Mirrors written before swapx tracked updates hold append-only parts
 * (`part-<stamp>.<ext>`, several per partition); recovery folds them into
 * the one file (see recovery.ts).
 */
import { WrappedError } from '../../api/errors.js';
import type { MirrorStorage } from './storage.js';
import { compareUpdated, type HeldIndex, type PartitionCodec, type StoredRow } from '../../formats/stored-row.js';

/** The partition file's name: `part.jsonl`, `part.csv.gz`, … */
export const PARTITION_FILE_RE = /^part\.[a-z]+(\.gz)?$/;
/** A part of the older append-only layout. */
export const OLD_PART_RE = /^part-[0-9A-Za-z-]+\.(jsonl|csv)(\.gz)?$/;
export const PARTITION_RE = /^date=(\d{4}-\d{2}-\d{2})$/;

/** "2026-11-20" */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function partitionName(date: string): string {
  return `date=${date}`;
}

/** The partition file of `date`, relative to the sync dir, with '/'. */
export function partitionFile(date: string, codec: Pick<PartitionCodec, 'extension'>): string {
  return `${partitionName(date)}/part${codec.extension}`;
}

/** A partition's order: completedAt, then id (rows without a readable completedAt last). */
export function compareRows(a: StoredRow, b: StoredRow): number {
  const x = Number.isNaN(a.completedMs) ? Number.MAX_SAFE_INTEGER : a.completedMs;
  const y = Number.isNaN(b.completedMs) ? Number.MAX_SAFE_INTEGER : b.completedMs;
  if (x !== y) return x - y;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** What a merge did to one row. */
export type Change = 'added' | 'updated' | 'unchanged';

/**
 * Puts `row` into `rows` (by key): a row not there is added; a newer version (later updatedAt, digits past the
 * millisecond included, or the same updatedAt with other content: the server's word is the latest) replaces the
 * held one; an older one is ignored. Two versions of a swap in one batch collapse to the later this way.
 */
export function mergeRow(rows: Map<string, StoredRow>, row: StoredRow): Change {
  const held = rows.get(row.key);
  if (!held) {
    rows.set(row.key, row);
    return 'added';
  }
  if (!replaces(row, held)) return 'unchanged';
  rows.set(row.key, row);
  return 'updated';
}

/** Whether `row` replaces `held`, a version of the same swap: a later updatedAt, or the same with other content. */
export function replaces(row: StoredRow, held: StoredRow): boolean {
  const order = compareUpdated(row, held);
  return order > 0 || (order === 0 && !samePayload(held.payload, row.payload));
}

/** A text row's payload is its encoded line, a Parquet row's its record: compared as JSON, either is compared whole. */
function samePayload(a: StoredRow['payload'], b: StoredRow['payload']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The rows of a partition file, or none when it does not exist. */
export function readPartition(storage: MirrorStorage, file: string, codec: PartitionCodec): Promise<StoredRow[]> {
  return readWith(
    storage,
    file,
    () => [],
    (bytes) => codec.read(bytes),
  );
}

/** A partition's index through a codec's `readIndex`, or an empty one when the file does not exist. */
export function readPartitionIndex(storage: MirrorStorage, file: string, readIndex: (bytes: Buffer) => Promise<HeldIndex>): Promise<HeldIndex> {
  return readWith(storage, file, () => ({ updated: new Map(), subMs: new Map() }), readIndex);
}

/** What a partition holds, by key: the codec's index where it has one (Parquet's two columns), else every row read. */
export async function heldIndex(storage: MirrorStorage, file: string, codec: PartitionCodec): Promise<HeldIndex> {
  if (codec.readIndex) return readPartitionIndex(storage, file, codec.readIndex);
  return indexOf(await readPartition(storage, file, codec));
}

/** The index of rows: each key's updatedAt, its millisecond and the digits past it. */
export function indexOf(rows: Iterable<StoredRow>): HeldIndex {
  const index: HeldIndex = { updated: new Map(), subMs: new Map() };
  for (const row of rows) {
    index.updated.set(row.key, row.updatedMs);
    index.subMs.set(row.key, row.updatedSubMs ?? 0);
  }
  return index;
}

/**
 * What a partition file's bytes read as, or `none()` when it does not exist. A file that cannot be what swapx wrote
 * (cut short, edited by hand) fails naming itself, and is left as it is: the run merges nothing into it.
 */
async function readWith<T>(storage: MirrorStorage, file: string, none: () => T, read: (bytes: Buffer) => T | Promise<T>): Promise<T> {
  const bytes = await storage.read(file);
  if (bytes === undefined) return none();
  try {
    return await read(bytes);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new WrappedError(
      `the partition ${storage.describe(file)} cannot be read (${why}); it was left as it is: restore it, or remove it and sync its date again`,
      { cause: error },
    );
  }
}

/** Replaces the partition `file` with `rows` (sorted here), whole. */
export async function writePartition(storage: MirrorStorage, file: string, rows: StoredRow[], codec: PartitionCodec): Promise<void> {
  rows.sort(compareRows);
  await storage.write(file, codec.encode(rows));
}
