/**
 * Rows fetched but not yet in their partitions: one per swap, its latest version, with the date of the partition
 * its completedAt puts it in. A flush merges each touched partition with its file (one row per swap, its latest
 * version) and rewrites only the partitions that changed; a swap held in another partition (its completedAt moved
 * to another day) is moved (moves.ts), and one held elsewhere in a newer version is dropped, so that the mirror
 * holds each swap once. The caller writes the state after, so the state never describes data that is not durable.
 */
import type { IdIndex } from './id-index.js';
import { finishMoves, type Move, recordMoves } from './moves.js';
import { heldIndex, indexOf, mergeRow, partitionFile, readPartition, replaces, writePartition } from './partitions.js';
import type { MirrorStorage } from './storage.js';
import { compareUpdated, type HeldIndex, type PartitionCodec, type StoredRow } from '../../formats/stored-row.js';

export interface FlushResult {
  /** swaps not held before, completed at or after the completions cursor */
  newSwaps: number;
  /** swaps not held before, completed before it (late arrivals) */
  lateSwaps: number;
  /** swaps held in an older version (in their partition or another), now replaced */
  updatedSwaps: number;
  /** partition files rewritten, relative to the dir, in the order written */
  files: string[];
  /** largest updatedAt among the rows flushed (NaN: none) */
  maxUpdatedMs: number;
}

/** Whether the index holds this swap in this version or a later one: nothing to keep. */
function heldAsNew(index: HeldIndex, row: StoredRow): boolean {
  const updatedMs = index.updated.get(row.key);
  if (updatedMs === undefined) return false;
  return compareUpdated(row, { updatedMs, updatedSubMs: index.subMs.get(row.key) ?? 0 }) <= 0;
}

/** Partitions whose index (id → updatedAt) is kept between adds: a few days' worth, about 5 MB each. */
const INDEXES_KEPT = 8;

interface PendingRow {
  date: string;
  row: StoredRow;
}

export class PendingPartitions {
  private readonly pending = new Map<string, PendingRow>();
  /** what each partition holds, id → updatedAt, read on its first row */
  private readonly held = new Map<string, HeldIndex>();

  constructor(
    private readonly storage: MirrorStorage,
    private readonly codec: PartitionCodec,
    private readonly ids: IdIndex,
  ) {}

  /** rows held in memory */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Adds a row, unless its partition holds the swap already at the same or a later updatedAt (the time the
   * service last changed it: the same version). A re-scan then costs no memory and no rewrite. Two versions of a
   * swap in one run (a re-scan and the Updated pass) are one row, the later one, whatever their dates.
   */
  async add(date: string, row: StoredRow): Promise<void> {
    if (heldAsNew(await this.index(date), row)) return;
    const before = this.pending.get(row.key);
    if (before && !replaces(row, before.row)) return;
    this.pending.set(row.key, { date, row });
  }

  private async index(date: string): Promise<HeldIndex> {
    let index = this.held.get(date);
    if (!index) {
      index = await heldIndex(this.storage, partitionFile(date, this.codec), this.codec);
      if (this.held.size >= INDEXES_KEPT) this.held.delete(this.held.keys().next().value!);
      this.held.set(date, index);
    }
    return index;
  }

  /**
   * The moves the pending rows make: each swap its partition does not hold, but another does, in an older
   * version. One held elsewhere in the same or a newer version is dropped: the mirror keeps that one.
   */
  private async moves(): Promise<Move[]> {
    const candidates: string[] = [];
    for (const [key, { date }] of this.pending) if (!(await this.index(date)).updated.has(key)) candidates.push(key);
    const located = await this.ids.locate(candidates, (key) => this.pending.get(key)!.date);
    const moves: Move[] = [];
    for (const [key, dates] of located) {
      const { date: to, row } = this.pending.get(key)!;
      const from: string[] = [];
      let newerElsewhere = false;
      for (const date of dates) {
        const index = await this.index(date);
        if (!index.updated.has(key)) continue;
        from.push(date);
        const held = { updatedMs: index.updated.get(key)!, updatedSubMs: index.subMs.get(key) ?? 0 };
        // The same updatedAt on another day is other content (its completedAt): the server's later word, as in a partition.
        if (compareUpdated(row, held) < 0) newerElsewhere = true;
      }
      if (newerElsewhere) this.pending.delete(key);
      else for (const date of from) moves.push({ key, from: date, to });
    }
    return moves;
  }

  /** Merges every pending row into its partition, in date order; `cursor` tells new swaps from late ones. */
  async flush(cursor: number): Promise<FlushResult> {
    const result: FlushResult = { newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, files: [], maxUpdatedMs: Number.NaN };
    if (this.pending.size === 0) return result;
    const moves = await this.moves();
    // Recorded before any partition is written: a run killed mid-way leaves them for the next one to finish.
    if (moves.length > 0) await recordMoves(this.storage, moves);
    const moved = new Set(moves.map((move) => move.key));
    const byDate = new Map<string, StoredRow[]>();
    for (const { date, row } of this.pending.values()) {
      const rows = byDate.get(date);
      if (rows) rows.push(row);
      else byDate.set(date, [row]);
    }
    for (const date of [...byDate.keys()].sort()) {
      const file = partitionFile(date, this.codec);
      const rows = new Map((await readPartition(this.storage, file, this.codec)).map((row) => [row.key, row]));
      let changed = false;
      for (const row of byDate.get(date)!) {
        if (!Number.isNaN(row.updatedMs) && !(row.updatedMs <= result.maxUpdatedMs)) result.maxUpdatedMs = row.updatedMs;
        const change = mergeRow(rows, row);
        if (change === 'unchanged') continue;
        changed = true;
        if (change === 'updated' || moved.has(row.key)) result.updatedSwaps += 1;
        else if (row.completedMs < cursor) result.lateSwaps += 1;
        else result.newSwaps += 1;
      }
      // A partition nothing changed in is not rewritten: a run that finds nothing new changes no data file.
      if (!changed) continue;
      await writePartition(this.storage, file, [...rows.values()], this.codec);
      await this.ids.update(date, [...rows.keys()]);
      result.files.push(file);
      if (this.held.has(date)) this.held.set(date, indexOf(rows.values()));
    }
    this.pending.clear();
    if (moves.length > 0) {
      for (const file of await finishMoves(this.storage, this.codec, this.ids, moves)) if (!result.files.includes(file)) result.files.push(file);
      for (const move of moves) this.held.delete(move.from);
    }
    return result;
  }
}
