/**
 * The index of which partition holds each swap: made from a partition when missing or stale (its stamp not the
 * partition's), followed as partitions are written, forgotten with a partition removed; it answers the partitions
 * other than a key's own that may hold it, whether a few keys are asked (searched) or many (walked), and the keys
 * more than one partition holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEncoder } from '../../../src/output/encode.js';
import { jsonlCodec } from '../../../src/formats/jsonl.js';
import { hashOf, IdIndex } from '../../../src/mirror/partitions/id-index.js';

const INDEX_DIR = '.swapx-ids';
import { LocalStorage } from '../../../src/mirror/folder/local-storage.js';
import { writePartition } from '../../../src/mirror/partitions/partitions.js';
import { tempDir } from '../../helpers/cli.js';

const fields = ['id', 'completedAt', 'updatedAt'];
const codec = jsonlCodec(false, createEncoder('jsonl', { fields, allFields: fields }));
const rows = (date: string, ids: string[]) => ids.map((id) => codec.row({ id, completedAt: `${date}T01:00:00Z`, updatedAt: `${date}T01:00:00Z` } as never));

async function mirror(days: Record<string, string[]>): Promise<{ dir: string; storage: LocalStorage }> {
  const dir = tempDir('swapx-ids-');
  const storage = new LocalStorage(dir);
  for (const [date, ids] of Object.entries(days)) await writePartition(storage, `date=${date}/part.jsonl`, rows(date, ids), codec);
  return { dir, storage };
}

describe('IdIndex', () => {
  it('makes the missing indexes from their partitions, once; answers the other partitions that hold a key', async () => {
    const { dir, storage } = await mirror({ '2026-11-10': ['a', 'b'], '2026-11-11': ['c', 'a'] });
    const index = new IdIndex(storage, codec);
    expect(await index.load()).toEqual(['2026-11-10', '2026-11-11']);
    expect(fs.readdirSync(path.join(dir, INDEX_DIR))).toEqual(['2026-11-10.ids', '2026-11-11.ids']);
    const own = (key: string) => (key === 'a' ? '2026-11-11' : '2026-11-12');
    expect(await index.locate(['a', 'b', 'c', 'd'], own)).toEqual(
      new Map([
        ['a', ['2026-11-10']],
        ['b', ['2026-11-10']],
        ['c', ['2026-11-11']],
      ]),
    );
    // Made once: a second index of the same mirror reads them.
    expect(await new IdIndex(storage, codec).load()).toEqual([]);
  });

  it('an index whose partition changed behind it (its stamp) is made again; one of a partition gone is removed', async () => {
    const { dir, storage } = await mirror({ '2026-11-10': ['a'], '2026-11-11': ['b'] });
    await new IdIndex(storage, codec).load();
    // Edited by hand (or a crash between the partition and its index): the index no longer says what is there.
    await writePartition(storage, 'date=2026-11-10/part.jsonl', rows('2026-11-10', ['a', 'x']), codec);
    fs.rmSync(path.join(dir, 'date=2026-11-11'), { recursive: true });
    const index = new IdIndex(storage, codec);
    expect(await index.load()).toEqual(['2026-11-10']);
    expect(fs.readdirSync(path.join(dir, INDEX_DIR))).toEqual(['2026-11-10.ids']);
    expect(await index.locate(['x'], () => 'elsewhere')).toEqual(new Map([['x', ['2026-11-10']]]));
    // A cut index is made again too.
    fs.truncateSync(path.join(dir, INDEX_DIR, '2026-11-10.ids'), 20);
    expect(await new IdIndex(storage, codec).load()).toEqual(['2026-11-10']);
  });

  it('follows a partition written, and one removed', async () => {
    const { storage } = await mirror({ '2026-11-10': ['a'] });
    const index = new IdIndex(storage, codec);
    await index.load();
    await writePartition(storage, 'date=2026-11-12/part.jsonl', rows('2026-11-12', ['n']), codec);
    await index.update('2026-11-12', ['n']);
    expect(await index.locate(['n', 'a'], () => 'none')).toEqual(
      new Map([
        ['n', ['2026-11-12']],
        ['a', ['2026-11-10']],
      ]),
    );
    await storage.remove('date=2026-11-10/part.jsonl');
    await index.update('2026-11-10', []);
    expect(await index.locate(['a'], () => 'none')).toEqual(new Map());
    expect(await new IdIndex(storage, codec).load()).toEqual([]);
  });

  it('many keys against few held (a walk of both) and few against many (a search): the same answers', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `id-${i}`);
    const { storage } = await mirror({ '2026-11-10': many, '2026-11-11': ['id-7', 'id-2999', 'zz'] });
    const index = new IdIndex(storage, codec);
    const none = () => 'none';
    expect([...(await index.locate(['id-0', 'id-1500', 'id-2999', 'nope'], none))].sort()).toEqual([
      ['id-0', ['2026-11-10']],
      ['id-1500', ['2026-11-10']],
      ['id-2999', ['2026-11-10', '2026-11-11']],
    ]);
    const found = await index.locate([...many, 'zz'], none);
    expect(found.size).toBe(3001);
    expect(found.get('id-7')).toEqual(['2026-11-10', '2026-11-11']);
    expect(found.get('zz')).toEqual(['2026-11-11']);
  });

  it('repeated: the hashes more than one partition holds, with their partitions', async () => {
    const { storage } = await mirror({ '2026-11-09': ['p'], '2026-11-10': ['a', 'b', 'q'], '2026-11-11': ['b', 'c'], '2026-11-12': ['b', 'a'] });
    const repeated = await new IdIndex(storage, codec).repeated();
    const byKey = (key: string) => repeated.find((r) => r.hash[0] === hashOf(key)[0] && r.hash[1] === hashOf(key)[1])?.dates;
    expect(repeated).toHaveLength(2);
    expect(byKey('a')).toEqual(['2026-11-10', '2026-11-12']);
    expect(byKey('b')).toEqual(['2026-11-10', '2026-11-11', '2026-11-12']);
  });
});
