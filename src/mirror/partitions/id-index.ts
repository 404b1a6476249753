/**
 * Which partition holds each swap: a swap whose completedAt moves to another UTC day must be moved there, not held
 * twice, so a flush asks which other partitions hold the ids it adds. Each partition has an index file beside the
 * mirror's state (`.swapx-ids/YYYY-MM-DD.ids` in a folder), which readers of the partitions never meet: the stamp of the
 * partition file it was made from (storage.ts), then a 64-bit hash of each key the partition holds, sorted. An index
 * whose stamp is not its partition's (a crash between the two writes, a partition restored or edited by hand) is
 * made again from the partition, so an index can be stale only in what it costs, never in what it answers. A hash
 * found is a candidate: the caller reads that partition to be sure.
 */
import { hash } from 'node:crypto';
import pLimit from 'p-limit';
import { heldIndex, PARTITION_RE, partitionFile } from './partitions.js';
import type { MirrorStorage } from './storage.js';
import type { PartitionCodec } from '../../formats/stored-row.js';

/** The folder of the indexes among swapx's own files (storage.ts: `.swapx-ids` in a folder). */
export const INDEX_NAME = 'ids';
const INDEX_FILE_RE = /^(\d{4}-\d{2}-\d{2})\.ids$/;
/** Indexes read at once when a mirror's are loaded. */
const LOAD_CONCURRENCY = 16;

/** Sorted 64-bit hashes, as pairs of 32-bit halves (high, low). */
type Hashes = Uint32Array;

/** A key's 64-bit hash: the first 8 bytes of its MD5, as two halves. */
export function hashOf(key: string): [number, number] {
  const digest = hash('md5', key, 'buffer');
  return [digest.readUInt32BE(0), digest.readUInt32BE(4)];
}

function compare(a: Hashes, i: number, b: Hashes, j: number): number {
  return a[2 * i]! - b[2 * j]! || a[2 * i + 1]! - b[2 * j + 1]!;
}

/** The hashes of `keys`, sorted, and for each its key (at the same position). */
function hashesOf(keys: readonly string[]): { hashes: Hashes; keys: string[] } {
  const pairs = keys.map((key) => ({ key, hash: hashOf(key) }));
  pairs.sort((x, y) => x.hash[0] - y.hash[0] || x.hash[1] - y.hash[1]);
  const hashes = new Uint32Array(pairs.length * 2);
  pairs.forEach(({ hash: [high, low] }, i) => {
    hashes[2 * i] = high;
    hashes[2 * i + 1] = low;
  });
  return { hashes, keys: pairs.map((pair) => pair.key) };
}

function encode(stamp: string, hashes: Hashes): Buffer {
  const head = Buffer.from(`${JSON.stringify({ version: 1, stamp, count: hashes.length / 2 })}\n`);
  const body = Buffer.alloc(hashes.length * 4);
  for (let i = 0; i < hashes.length; i++) body.writeUInt32BE(hashes[i]!, i * 4);
  return Buffer.concat([head, body]);
}

/** The index file's hashes, when it is whole and of the partition as it is (`stamp`); else undefined. */
function decode(bytes: Buffer, stamp: string): Hashes | undefined {
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  let head: { version?: unknown; stamp?: unknown; count?: unknown };
  try {
    head = JSON.parse(bytes.subarray(0, end).toString('utf8')) as typeof head;
  } catch {
    return undefined;
  }
  const count = head.count;
  if (head.version !== 1 || head.stamp !== stamp || typeof count !== 'number' || bytes.length !== end + 1 + count * 8) return undefined;
  const hashes = new Uint32Array(count * 2);
  for (let i = 0; i < hashes.length; i++) hashes[i] = bytes.readUInt32BE(end + 1 + i * 4);
  return hashes;
}

/** Positions in `sorted` of the hashes of `wanted` (both sorted): a walk of both, or a search for each of few. */
function* matches(sorted: Hashes, wanted: Hashes): Generator<number> {
  const n = sorted.length / 2;
  const m = wanted.length / 2;
  if (m * 24 < n) {
    for (let j = 0; j < m; j++) {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compare(sorted, mid, wanted, j) < 0) lo = mid + 1;
        else hi = mid;
      }
      if (lo < n && compare(sorted, lo, wanted, j) === 0) yield j;
    }
    return;
  }
  for (let i = 0, j = 0; i < n && j < m; ) {
    const order = compare(sorted, i, wanted, j);
    if (order === 0) yield j++;
    else if (order < 0) i++;
    else j++;
  }
}

export class IdIndex {
  /** each partition's hashes, once loaded: every partition of the mirror */
  private byDate: Map<string, Hashes> | undefined;

  constructor(
    private readonly storage: MirrorStorage,
    private readonly codec: PartitionCodec,
  ) {}

  private indexFile(date: string): string {
    return `${this.storage.meta(INDEX_NAME)}/${date}.ids`;
  }

  /**
   * Loads the index of every partition, making those that are missing or stale from their partitions (once, for a
   * mirror of an older swapx). Returns the dates whose index was made.
   */
  async load(): Promise<string[]> {
    if (this.byDate) return [];
    const byDate = new Map<string, Hashes>();
    const made: string[] = [];
    const indexes = new Set(await this.storage.list(this.storage.meta(INDEX_NAME)));
    const dates = (await this.storage.list('')).map((name) => PARTITION_RE.exec(name)?.[1]).filter((date) => date !== undefined);
    // Read LOAD_CONCURRENCY at a time: in an object store each is a request, which a year's mirror makes 365 of.
    const limit = pLimit(LOAD_CONCURRENCY);
    const read = await Promise.all(
      dates.map((date) =>
        limit(async () => {
          const stamp = await this.storage.stamp(partitionFile(date, this.codec));
          if (stamp === undefined) return undefined;
          const bytes = indexes.has(`${date}.ids`) ? await this.storage.read(this.indexFile(date)) : undefined;
          return { date, stamp, hashes: bytes === undefined ? undefined : decode(bytes, stamp) };
        }),
      ),
    );
    // One partition at a time where its index must be made: each is read whole.
    for (const entry of read) {
      if (!entry) continue;
      let { hashes } = entry;
      if (!hashes) {
        const held = await heldIndex(this.storage, partitionFile(entry.date, this.codec), this.codec);
        hashes = hashesOf([...held.updated.keys()]).hashes;
        await this.storage.write(this.indexFile(entry.date), encode(entry.stamp, hashes));
        made.push(entry.date);
      }
      byDate.set(entry.date, hashes);
    }
    // Indexes of partitions that are gone (removed by hand) would only cost reads: removed.
    for (const name of indexes) {
      const date = INDEX_FILE_RE.exec(name)?.[1];
      if (date !== undefined && !byDate.has(date)) await this.storage.remove(this.indexFile(date));
    }
    this.byDate = byDate;
    return made;
  }

  /**
   * The partitions and the swaps they hold, read without writing anything (status reads a mirror a sync may be
   * writing): each partition's count from its index where it is current, else from the partition itself.
   */
  async count(): Promise<{ partitions: number; swaps: number }> {
    let partitions = 0;
    let swaps = 0;
    for (const name of await this.storage.list('')) {
      const date = PARTITION_RE.exec(name)?.[1];
      if (date === undefined) continue;
      const stamp = await this.storage.stamp(partitionFile(date, this.codec));
      if (stamp === undefined) continue;
      const bytes = await this.storage.read(this.indexFile(date)).catch(() => undefined);
      const hashes = bytes === undefined ? undefined : decode(bytes, stamp);
      partitions += 1;
      swaps += hashes ? hashes.length / 2 : (await heldIndex(this.storage, partitionFile(date, this.codec), this.codec)).updated.size;
    }
    return { partitions, swaps };
  }

  /** For each key, the partitions other than `except(key)` whose index holds its hash (candidates: read them to be sure). */
  async locate(keys: readonly string[], except: (key: string) => string): Promise<Map<string, string[]>> {
    await this.load();
    const found = new Map<string, string[]>();
    if (keys.length === 0) return found;
    const wanted = hashesOf(keys);
    for (const [date, hashes] of this.byDate!) {
      for (const j of matches(hashes, wanted.hashes)) {
        const key = wanted.keys[j]!;
        if (except(key) === date) continue;
        const dates = found.get(key);
        if (dates) dates.push(date);
        else found.set(key, [date]);
      }
    }
    return found;
  }

  /**
   * Hashes more than one partition holds (a mirror written before swapx moved swaps, or a crash it is still to
   * repair), each with those partitions: candidates, to be read to be sure. A merge of the sorted indexes, in
   * memory for what is repeated only.
   */
  async repeated(): Promise<{ hash: [number, number]; dates: string[] }[]> {
    await this.load();
    const lists = [...this.byDate!].filter(([, hashes]) => hashes.length > 0).map(([date, hashes]) => ({ date, hashes, at: 0 }));
    const below = (a: number, b: number) => compare(lists[a]!.hashes, lists[a]!.at, lists[b]!.hashes, lists[b]!.at) < 0;
    // A min-heap of the lists by their current hash: N log P for N hashes in P partitions.
    const heap = lists.map((_, i) => i);
    const down = (from: number) => {
      for (let i = from; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let low = i;
        if (l < heap.length && below(heap[l]!, heap[low]!)) low = l;
        if (r < heap.length && below(heap[r]!, heap[low]!)) low = r;
        if (low === i) return;
        [heap[i], heap[low]] = [heap[low]!, heap[i]!];
        i = low;
      }
    };
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    const repeated: { hash: [number, number]; dates: string[] }[] = [];
    let last: { hash: [number, number]; dates: string[] } | undefined;
    while (heap.length > 0) {
      const list = lists[heap[0]!]!;
      const hash: [number, number] = [list.hashes[2 * list.at]!, list.hashes[2 * list.at + 1]!];
      if (last && last.hash[0] === hash[0] && last.hash[1] === hash[1]) {
        last.dates.push(list.date);
        if (last.dates.length === 2) repeated.push(last);
      } else last = { hash, dates: [list.date] };
      list.at += 1;
      if (list.at * 2 >= list.hashes.length) {
        const tail = heap.pop()!;
        if (heap.length > 0) heap[0] = tail;
      }
      if (heap.length > 0) down(0);
    }
    for (const { dates } of repeated) dates.sort();
    return repeated;
  }

  /** The partition of `date` was written and holds `keys` (none: it was removed): its index follows it. */
  async update(date: string, keys: readonly string[]): Promise<void> {
    const stamp = await this.storage.stamp(partitionFile(date, this.codec));
    if (stamp === undefined || keys.length === 0) {
      await this.storage.remove(this.indexFile(date));
      this.byDate?.delete(date);
      return;
    }
    const { hashes } = hashesOf(keys);
    await this.storage.write(this.indexFile(date), encode(stamp, hashes));
    this.byDate?.set(date, hashes);
  }
}
