/**
 * Daily partitions of a sync directory: `<dir>/date=YYYY-MM-DD/part.<ext>`,
 * by the UTC date of completedAt, one file per partition holding one row per
 * swap (its latest version), sorted by completedAt then id. A partition is
 * rewritten whole and atomically: written under a temporary name beside it,
 * fsynced, renamed over the old file, and the folder fsynced. Readers see the
 * old file or the new one, never a mix.
 *
 * Mirrors written before swapx tracked updates hold append-only parts
 * (`part-<stamp>.<ext>`, several per partition); recovery folds them into
 * the one file (see recovery.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { WrappedError } from '../api/errors.js';
import { tempPathFor } from '../fs/atomic-file.js';
import { writeAll } from '../fs/write-all.js';
import { compareUpdated, type HeldIndex, type PartitionCodec, type StoredRow } from './stored-row.js';

/** The partition file's name: `part.jsonl`, `part.csv.gz`, … */
export const PARTITION_FILE_RE = /^part\.[a-z]+(\.gz)?$/;
/** A part of the older append-only layout. */
export const OLD_PART_RE = /^part-[0-9A-Za-z-]+\.(jsonl|csv)(\.gz)?$/;
/** A temporary file of a partition being written (ours, or of the older layout). */
export const TEMP_PART_RE = /^\.part[.-].*\.tmp$/;
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

/** Makes a rename (or a file created in the directory) durable. Best effort where directories cannot be opened. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows and some file systems refuse to sync a directory.
  } finally {
    await handle?.close().catch(() => {});
  }
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
  const order = compareUpdated(row, held);
  if (order < 0) return 'unchanged';
  if (order === 0 && samePayload(held.payload, row.payload)) return 'unchanged';
  rows.set(row.key, row);
  return 'updated';
}

/** A text row's payload is its encoded line, a Parquet row's its record: compared as JSON, either is compared whole. */
function samePayload(a: StoredRow['payload'], b: StoredRow['payload']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The rows of a partition file, or none when it does not exist. */
export function readPartitionFile(file: string, codec: PartitionCodec): Promise<StoredRow[]> {
  return readPartition(
    file,
    () => [],
    (bytes) => codec.read(bytes),
  );
}

/** A partition's index through a codec's `readIndex`, or an empty one when the file does not exist. */
export function readPartitionIndex(file: string, readIndex: (bytes: Buffer) => Promise<HeldIndex>): Promise<HeldIndex> {
  return readPartition(file, () => ({ updated: new Map(), subMs: new Map() }), readIndex);
}

/**
 * What a partition file's bytes read as, or `none()` when it does not exist. A file that cannot be what swapx wrote
 * (cut short, edited by hand) fails naming itself, and is left as it is: the run merges nothing into it.
 */
async function readPartition<T>(file: string, none: () => T, read: (bytes: Buffer) => T | Promise<T>): Promise<T> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return none();
    throw error;
  }
  try {
    return await read(bytes);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new WrappedError(`the partition ${file} cannot be read (${why}); it was left as it is: restore it, or remove it and sync its date again`, {
      cause: error,
    });
  }
}

/** Replaces `file` with `rows` (sorted here), atomically and durably. */
export async function writePartitionFile(file: string, rows: StoredRow[], codec: PartitionCodec): Promise<void> {
  rows.sort(compareRows);
  const bytes = codec.encode(rows);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = tempPathFor(file);
  const handle = await fs.open(temp, 'wx', 0o644);
  try {
    await writeAll(handle, bytes);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(temp);
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp);
    throw error;
  }
  await syncDirectory(path.dirname(file));
}
