/**
 * PendingPartitions, in-process: which rows a run keeps (a version one tick later in the same millisecond is
 * newer), how a flush counts them (completed exactly at the cursor is new, not late), the updates cursor it
 * reports (the largest updatedAt), and the partitions it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Swap } from '../../../src/api/types.js';
import { createEncoder } from '../../../src/output/encode.js';
import { jsonlCodec } from '../../../src/formats/jsonl.js';
import type { PartitionCodec } from '../../../src/formats/stored-row.js';
import { IdIndex } from '../../../src/mirror/partitions/id-index.js';
import { LocalStorage } from '../../../src/mirror/folder/local-storage.js';
import { PendingPartitions } from '../../../src/mirror/partitions/pending.js';
import { tempDir } from '../../helpers/cli.js';

/** The pending rows of a mirror in `dir`, with the index of its partitions. */
function pendingIn(dir: string, codec: PartitionCodec): PendingPartitions {
  const storage = new LocalStorage(dir);
  return new PendingPartitions(storage, codec, new IdIndex(storage, codec));
}

const fields = ['id', 'completedAt', 'updatedAt', 'amount'];
const jsonl = () => jsonlCodec(false, createEncoder('jsonl', { fields, allFields: fields }));

/** The jsonl codec with a `readIndex` (as Parquet has): an index read apart from the rows, as Parquet's. */
function indexedCodec(): PartitionCodec & { indexReads: number } {
  const base = jsonl();
  const codec = {
    ...base,
    indexReads: 0,
    async readIndex(bytes: Buffer) {
      codec.indexReads += 1;
      const rows = await base.read(bytes);
      return { updated: new Map(rows.map((row) => [row.key, row.updatedMs])), subMs: new Map(rows.map((row) => [row.key, row.updatedSubMs ?? 0])) };
    },
  };
  return codec;
}

const swap = (id: string, completedAt: string, updatedAt: string, amount = 1) => ({ id, completedAt, updatedAt, amount }) as unknown as Swap;
const DAY = '2026-11-10';

function lines(dir: string, date = DAY, codec: PartitionCodec = jsonl()): Record<string, unknown>[] {
  const text = fs.readFileSync(path.join(dir, `date=${date}`, `part${codec.extension}`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A directory whose partition of DAY holds `swaps`, written through a flush. */
async function holding(codec: PartitionCodec, ...swaps: Swap[]): Promise<string> {
  const dir = tempDir('swapx-pending-');
  const pending = pendingIn(dir, codec);
  for (const s of swaps) await pending.add(DAY, codec.row(s));
  await pending.flush(0);
  return dir;
}

describe('PendingPartitions.add: which versions are kept', () => {
  const held = swap('a', '2026-11-10T10:00:00Z', '2026-11-10T12:00:00.1230001Z', 1);

  it.each([
    ['one tick later in the same millisecond', '2026-11-10T12:00:00.1230002Z', 1],
    ['a millisecond later', '2026-11-10T12:00:00.124Z', 1],
    ['the very same updatedAt', '2026-11-10T12:00:00.1230001Z', 0],
    ['one tick earlier in the same millisecond', '2026-11-10T12:00:00.123Z', 0],
    ['a millisecond earlier', '2026-11-10T12:00:00.1220009Z', 0],
  ])('text index: a version %s is kept: %i row', async (_name, updatedAt, kept) => {
    const codec = jsonl();
    const dir = await holding(codec, held);
    const pending = pendingIn(dir, codec);
    await pending.add(DAY, codec.row(swap('a', '2026-11-10T10:00:00Z', updatedAt, 2)));
    expect(pending.size).toBe(kept);
    const result = await pending.flush(0);
    expect(result).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: kept });
    expect(lines(dir).map((row) => [row.updatedAt, row.amount])).toEqual([kept ? [updatedAt, 2] : [held.updatedAt, 1]]);
  });

  it('a swap the partition does not hold is kept', async () => {
    const codec = jsonl();
    const dir = await holding(codec, held);
    const pending = pendingIn(dir, codec);
    await pending.add(DAY, codec.row(swap('b', '2026-11-10T09:00:00Z', '2026-11-10T09:00:00Z')));
    expect(pending.size).toBe(1);
    expect(await pending.flush(0)).toEqual({
      newSwaps: 1,
      lateSwaps: 0,
      updatedSwaps: 0,
      files: [`date=${DAY}/part.jsonl`],
      maxUpdatedMs: Date.parse('2026-11-10T09:00:00Z'),
    });
    expect(lines(dir).map((row) => row.id)).toEqual(['b', 'a']);
  });

  it.each([
    ['one tick later in the same millisecond', '2026-11-10T12:00:00.1230002Z', 1],
    ['one tick earlier in the same millisecond', '2026-11-10T12:00:00.123Z', 0],
    ['a millisecond later', '2026-11-10T12:00:00.124Z', 1],
  ])('an index read apart (readIndex): a version %s is kept: %i row', async (_name, updatedAt, kept) => {
    const codec = indexedCodec();
    const dir = await holding(codec, held);
    codec.indexReads = 0;
    const pending = pendingIn(dir, codec);
    await pending.add(DAY, codec.row(swap('a', '2026-11-10T10:00:00Z', updatedAt, 2)));
    expect(codec.indexReads).toBe(1);
    expect(pending.size).toBe(kept);
  });

  it('two versions in one run are one row, the later one', async () => {
    const codec = jsonl();
    const dir = tempDir('swapx-pending-');
    const pending = pendingIn(dir, codec);
    await pending.add(DAY, codec.row(swap('a', '2026-11-10T10:00:00Z', '2026-11-10T12:00:00.1230002Z', 2)));
    await pending.add(DAY, codec.row(swap('a', '2026-11-10T10:00:00Z', '2026-11-10T12:00:00.1230001Z', 1)));
    await pending.add(DAY, codec.row(swap('b', '2026-11-10T11:00:00Z', '2026-11-10T11:00:00Z')));
    expect(pending.size).toBe(2);
    await pending.flush(0);
    expect(pending.size).toBe(0);
    expect(lines(dir).map((row) => [row.id, row.amount])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });

  it('after a flush, the index knows what was written: the same version again is not kept, a later one is', async () => {
    for (const codec of [jsonl(), indexedCodec()]) {
      const dir = tempDir('swapx-pending-');
      const pending = pendingIn(dir, codec);
      await pending.add(DAY, codec.row(held));
      await pending.flush(0);
      await pending.add(DAY, codec.row(held));
      expect(pending.size).toBe(0);
      await pending.add(DAY, codec.row(swap('a', '2026-11-10T10:00:00Z', '2026-11-10T12:00:01Z', 3)));
      expect(pending.size).toBe(1);
    }
  });

  it('the index of a partition is read once while kept, and the oldest of eight is dropped for a ninth', async () => {
    const codec = indexedCodec();
    const dates = Array.from({ length: 9 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
    const dir = tempDir('swapx-pending-');
    const pending = pendingIn(dir, codec);
    for (const date of dates.slice(0, 8)) await pending.add(date, codec.row(swap(`x${date}`, `${date}T01:00:00Z`, `${date}T01:00:00Z`)));
    expect(codec.indexReads).toBe(0); // no file yet: nothing read
    // Another writer puts a newer version of swap `a` into the first date's partition: the kept index does not know it.
    const other = pendingIn(dir, codec);
    await other.add(dates[0]!, codec.row(swap('a', `${dates[0]}T02:00:00Z`, `${dates[0]}T05:00:00Z`, 9)));
    await other.flush(0);
    const older = codec.row(swap('a', `${dates[0]}T02:00:00Z`, `${dates[0]}T04:00:00Z`, 1));
    await pending.add(dates[0]!, older);
    expect(pending.size).toBe(9); // kept index: the older version looks new
    // A ninth date drops the first date's index; it is read again, and the older version is no longer kept.
    await pending.add(dates[8]!, codec.row(swap('y', `${dates[8]}T01:00:00Z`, `${dates[8]}T01:00:00Z`)));
    const fresh = pendingIn(dir, codec);
    await fresh.add(dates[0]!, older);
    expect(fresh.size).toBe(0);
    const reads = codec.indexReads;
    await pending.add(dates[0]!, codec.row(swap('b', `${dates[0]}T03:00:00Z`, `${dates[0]}T03:00:00Z`)));
    expect(codec.indexReads).toBe(reads + 1);
    await pending.add(dates[8]!, codec.row(swap('z', `${dates[8]}T03:00:00Z`, `${dates[8]}T03:00:00Z`)));
    expect(codec.indexReads).toBe(reads + 1);
  });
  it('a flush does not bring back the index of a partition dropped from the kept eight', async () => {
    const codec = indexedCodec();
    const dates = Array.from({ length: 9 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
    const dir = tempDir('swapx-pending-');
    const pending = pendingIn(dir, codec);
    for (const date of dates) await pending.add(date, codec.row(swap(`x${date}`, `${date}T01:00:00Z`, `${date}T01:00:00Z`)));
    await pending.flush(0);
    const reads = codec.indexReads;
    await pending.add(dates[0]!, codec.row(swap('b', `${dates[0]}T03:00:00Z`, `${dates[0]}T03:00:00Z`)));
    expect(codec.indexReads).toBe(reads + 1);
    await pending.add(dates[8]!, codec.row(swap('c', `${dates[8]}T03:00:00Z`, `${dates[8]}T03:00:00Z`)));
    expect(codec.indexReads).toBe(reads + 1);
  });
});

describe('PendingPartitions.flush', () => {
  it('a swap completed exactly at the cursor is new, one a millisecond before it late; an update is neither', async () => {
    const codec = jsonl();
    const dir = await holding(codec, swap('u', '2026-11-10T01:00:00Z', '2026-11-10T01:00:00Z'));
    const pending = pendingIn(dir, codec);
    const cursor = Date.parse('2026-11-10T10:00:00Z');
    await pending.add(DAY, codec.row(swap('at', '2026-11-10T10:00:00Z', '2026-11-10T10:00:00Z')));
    await pending.add(DAY, codec.row(swap('before', '2026-11-10T09:59:59.999Z', '2026-11-10T10:00:00Z')));
    await pending.add(DAY, codec.row(swap('u', '2026-11-10T01:00:00Z', '2026-11-10T10:00:01Z', 2)));
    expect(await pending.flush(cursor)).toMatchObject({ newSwaps: 1, lateSwaps: 1, updatedSwaps: 1 });
  });

  it('reports the largest updatedAt flushed, whatever the order of rows and dates, and ignores unreadable ones', async () => {
    const codec = jsonl();
    const pending = pendingIn(tempDir('swapx-pending-'), codec);
    await pending.add('2026-11-12', codec.row(swap('c', '2026-11-12T01:00:00Z', '2026-11-12T03:00:00Z')));
    await pending.add('2026-11-11', codec.row(swap('a', '2026-11-11T01:00:00Z', '2026-11-13T05:00:00Z')));
    await pending.add('2026-11-11', codec.row(swap('b', '2026-11-11T02:00:00Z', 'not a time')));
    await pending.add('2026-11-11', codec.row(swap('d', '2026-11-11T03:00:00Z', '2026-11-11T03:00:00Z')));
    const result = await pending.flush(0);
    expect(result.maxUpdatedMs).toBe(Date.parse('2026-11-13T05:00:00Z'));
    expect(result.files).toEqual(['date=2026-11-11/part.jsonl', 'date=2026-11-12/part.jsonl']);
  });

  it('reports NaN as the largest updatedAt when no row has a readable one, and nothing at all for no rows', async () => {
    const codec = jsonl();
    const pending = pendingIn(tempDir('swapx-pending-'), codec);
    expect(await pending.flush(0)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, files: [], maxUpdatedMs: Number.NaN });
    await pending.add(DAY, codec.row(swap('a', '2026-11-10T01:00:00Z', '')));
    const result = await pending.flush(0);
    expect(result.maxUpdatedMs).toBeNaN();
    expect(result.newSwaps).toBe(1);
  });

  it('leaves a partition nothing changed in as it is (not rewritten), and empties the pending rows', async () => {
    const codec = jsonl();
    const dir = tempDir('swapx-pending-');
    const row = codec.row(swap('a', '2026-11-10T01:00:00Z', '2026-11-10T01:00:00Z'));
    const first = pendingIn(dir, codec);
    await first.add(DAY, row); // the index read is empty: the row is kept
    const second = pendingIn(dir, codec);
    await second.add(DAY, row);
    await second.flush(0);
    const file = path.join(dir, `date=${DAY}`, 'part.jsonl');
    const before = fs.statSync(file);
    fs.chmodSync(file, 0o444); // a rewrite would replace the file, and with it this mode
    expect(await first.flush(0)).toEqual({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, files: [], maxUpdatedMs: row.updatedMs });
    expect(fs.statSync(file).ino).toBe(before.ino);
    expect(fs.statSync(file).mode & 0o777).toBe(0o444);
    expect(first.size).toBe(0);
    expect(await first.flush(0)).toMatchObject({ files: [] });
  });
});
