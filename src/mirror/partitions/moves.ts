/**
 * A swap whose completedAt moved to another UTC day moves to that day's partition: written there first, and only
 * then removed from the partition it was in, so that it is never absent, at worst held twice for a moment. A commit
 * records what it moves (`.swapx-moving.json` in a folder) before it writes any partition; a run killed before the moves are
 * finished leaves that file, and the next one, under the lock, finishes them before anything else: each key its
 * new partition holds is removed from the old one (a key the new partition does not hold yet stays where it was,
 * for the run that fetches it again to move).
 */
import { MirrorRefusedError } from '../../sync/errors.js';
import { hashOf, type IdIndex } from './id-index.js';
import { heldIndex, partitionFile, readPartition, writePartition } from './partitions.js';
import type { MirrorStorage } from './storage.js';
import { compareUpdated, type PartitionCodec } from '../../formats/stored-row.js';

/** What a commit moves, among swapx's own files (storage.ts: `.swapx-moving.json` in a folder). */
export const MOVES_NAME = 'moving.json';

/** A swap (by key) leaving the partition of one date for another's. */
export interface Move {
  key: string;
  from: string;
  to: string;
}

/** Records the moves a commit is about to make, before it writes a partition. */
export async function recordMoves(storage: MirrorStorage, moves: readonly Move[]): Promise<void> {
  await storage.write(storage.meta(MOVES_NAME), Buffer.from(`${JSON.stringify({ version: 1, moves })}\n`));
}

/** The moves a killed run left to finish, or undefined. Unreadable: MirrorRefusedError, the file left as it is. */
export async function readMoves(storage: MirrorStorage): Promise<Move[] | undefined> {
  const bytes = await storage.read(storage.meta(MOVES_NAME));
  if (bytes === undefined) return undefined;
  try {
    const { moves } = JSON.parse(bytes.toString('utf8')) as { moves: unknown };
    if (Array.isArray(moves) && moves.every((m: Move) => typeof m?.key === 'string' && typeof m.from === 'string' && typeof m.to === 'string')) {
      return moves as Move[];
    }
  } catch {
    // said below
  }
  throw new MirrorRefusedError(storage.name, { reason: 'moves-edited', file: storage.describe(storage.meta(MOVES_NAME)) });
}

/**
 * Removes each moved key from its old partition where its new one holds it, updates their indexes, and forgets
 * the moves. Returns the partition files rewritten, in the order written.
 */
export async function finishMoves(storage: MirrorStorage, codec: PartitionCodec, index: IdIndex, moves: readonly Move[]): Promise<string[]> {
  const written: string[] = [];
  const holds = new Map<string, Set<string>>();
  const heldBy = async (date: string) => {
    let keys = holds.get(date);
    if (!keys) holds.set(date, (keys = new Set((await heldIndex(storage, partitionFile(date, codec), codec)).updated.keys())));
    return keys;
  };
  const leaving = new Map<string, Set<string>>();
  for (const move of moves) {
    if (move.from === move.to || !(await heldBy(move.to)).has(move.key)) continue;
    let keys = leaving.get(move.from);
    if (!keys) leaving.set(move.from, (keys = new Set()));
    keys.add(move.key);
  }
  for (const [date, keys] of [...leaving].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const file = partitionFile(date, codec);
    const rows = await readPartition(storage, file, codec);
    const kept = rows.filter((row) => !keys.has(row.key));
    if (kept.length === rows.length) continue;
    // A day left with no swap has no file: a reader's glob finds none, as for any day without swaps.
    if (kept.length === 0) await storage.remove(file);
    else await writePartition(storage, file, kept, codec);
    await index.update(
      date,
      kept.map((row) => row.key),
    );
    written.push(file);
  }
  await storage.remove(storage.meta(MOVES_NAME));
  return written;
}

/**
 * Swaps held in more than one partition (by a mirror written before swapx moved swaps whose completedAt changed
 * day): each is kept in its latest version only, where that version's completedAt puts it (of equal versions, the
 * later day's). Run once the indexes of such a mirror are made. Returns how many swaps were held twice or more.
 */
export async function repairRepeated(storage: MirrorStorage, codec: PartitionCodec, index: IdIndex): Promise<number> {
  const repeated = await index.repeated();
  if (repeated.length === 0) return 0;
  const wanted = new Set(repeated.map(({ hash }) => `${hash[0]}:${hash[1]}`));
  const dates = [...new Set(repeated.flatMap((r) => r.dates))].sort();
  // Each repeated key, by the versions the partitions hold of it.
  const versions = new Map<string, { date: string; updatedMs: number; updatedSubMs: number }[]>();
  for (const date of dates) {
    const held = await heldIndex(storage, partitionFile(date, codec), codec);
    for (const [key, updatedMs] of held.updated) {
      const [high, low] = hashOf(key);
      if (!wanted.has(`${high}:${low}`)) continue;
      const list = versions.get(key);
      const version = { date, updatedMs, updatedSubMs: held.subMs.get(key) ?? 0 };
      if (list) list.push(version);
      else versions.set(key, [version]);
    }
  }
  const moves: Move[] = [];
  for (const [key, list] of versions) {
    if (list.length < 2) continue;
    // Dates ascending: of equal versions the last one read, the later day's, is kept.
    const kept = list.reduce((best, v) => (compareUpdated(v, best) >= 0 ? v : best));
    for (const v of list) if (v !== kept) moves.push({ key, from: v.date, to: kept.date });
  }
  if (moves.length === 0) return 0;
  await recordMoves(storage, moves);
  await finishMoves(storage, codec, index, moves);
  return new Set(moves.map((move) => move.key)).size;
}
