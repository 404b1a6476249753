/**
 * Rows fetched but not yet in their partitions, by date. A flush merges each
 * touched partition with its file (one row per swap, its latest version) and
 * rewrites only the partitions that changed; the caller writes the state
 * after, so the state never describes data that is not durable.
 */
import path from 'node:path';
import type { HeldIndex, PartitionCodec, StoredRow } from './stored-row.js';
import { mergeRow, partitionFile, readPartitionFile, readPartitionIndex, writePartitionFile } from './partitions.js';

export interface FlushResult {
  /** swaps not held before, completed at or after the completions cursor */
  newSwaps: number;
  /** swaps not held before, completed before it (late arrivals) */
  lateSwaps: number;
  /** swaps held in an older version, now replaced */
  updatedSwaps: number;
  /** partition files rewritten, relative to the dir */
  files: string[];
  /** largest updatedAt among the rows flushed (NaN: none) */
  maxUpdatedMs: number;
}

/** Whether `row` is later than what the index holds, within the same millisecond of updatedAt. */
function laterTick(index: HeldIndex, row: StoredRow): boolean {
  const held = index.subMs.get(row.key);
  return held !== undefined && (row.updatedSubMs ?? 0) > held;
}

/** Partitions whose index (id → updatedAt) is kept between adds: a few days' worth, about 5 MB each. */
const INDEXES_KEPT = 8;

export class PendingPartitions {
  private readonly byDate = new Map<string, Map<string, StoredRow>>();
  /** what each partition holds on disk, id → updatedAt, read on its first row */
  private readonly held = new Map<string, HeldIndex>();
  private count = 0;

  constructor(
    private readonly dir: string,
    private readonly codec: PartitionCodec,
  ) {}

  /** rows held in memory */
  get size(): number {
    return this.count;
  }

  /**
   * Adds a row, unless its partition holds the swap already at the same or a later updatedAt (the time the
   * service last changed it: the same version). A re-scan then costs no memory and no rewrite.
   */
  async add(date: string, row: StoredRow): Promise<void> {
    const index = await this.index(date);
    const heldAt = index.updated.get(row.key);
    if (heldAt !== undefined && (row.updatedMs < heldAt || (row.updatedMs === heldAt && !laterTick(index, row)))) return;
    let rows = this.byDate.get(date);
    if (!rows) this.byDate.set(date, (rows = new Map()));
    const before = rows.size;
    // Two versions of a swap in one run (a re-scan and the Updated pass): the latest is the one merged.
    mergeRow(rows, row);
    this.count += rows.size - before;
  }

  /** The index of a partition's rows (with the digits past the millisecond for the formats whose index is read from whole rows). */
  private indexOf(rows: readonly StoredRow[]): HeldIndex {
    const updated = new Map(rows.map((row) => [row.key, row.updatedMs]));
    return { updated, subMs: new Map(rows.map((row) => [row.key, row.updatedSubMs ?? 0])) };
  }

  private async index(date: string): Promise<HeldIndex> {
    let index = this.held.get(date);
    if (!index) {
      const file = path.join(this.dir, partitionFile(date, this.codec));
      index = this.codec.readIndex ? await readPartitionIndex(file, this.codec.readIndex) : this.indexOf(await readPartitionFile(file, this.codec));
      if (this.held.size >= INDEXES_KEPT) this.held.delete(this.held.keys().next().value!);
      this.held.set(date, index);
    }
    return index;
  }

  /** Merges every pending date into its partition, in date order; `cursor` tells new swaps from late ones. */
  async flush(cursor: number): Promise<FlushResult> {
    const result: FlushResult = { newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, files: [], maxUpdatedMs: Number.NaN };
    for (const date of [...this.byDate.keys()].sort()) {
      const pending = this.byDate.get(date)!;
      const relative = partitionFile(date, this.codec);
      const file = path.join(this.dir, relative);
      const rows = new Map((await readPartitionFile(file, this.codec)).map((row) => [row.key, row]));
      let changed = false;
      for (const row of pending.values()) {
        if (!Number.isNaN(row.updatedMs) && !(row.updatedMs <= result.maxUpdatedMs)) result.maxUpdatedMs = row.updatedMs;
        const change = mergeRow(rows, row);
        if (change === 'unchanged') continue;
        changed = true;
        if (change === 'updated') result.updatedSwaps += 1;
        else if (row.completedMs < cursor) result.lateSwaps += 1;
        else result.newSwaps += 1;
      }
      // A partition nothing changed in is not rewritten: a run that finds nothing new changes no data file.
      if (changed) {
        await writePartitionFile(file, [...rows.values()], this.codec);
        result.files.push(relative);
        if (this.held.has(date)) this.held.set(date, this.indexOf([...rows.values()]));
      }
      this.byDate.delete(date);
      this.count -= pending.size;
    }
    return result;
  }
}
