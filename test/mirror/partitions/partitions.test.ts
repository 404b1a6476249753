/**
 * Daily partitions: their names, their order, the newer-version rule of a merge, and a partition file read
 * (missing, unreadable, not swapx's) and rewritten whole and sorted (the atomic write itself: local-storage.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SWAP_FIELDS } from '../../../src/api/types.js';
import { createEncoder } from '../../../src/output/encode.js';
import { jsonlCodec } from '../../../src/formats/jsonl.js';
import {
  compareRows,
  mergeRow,
  OLD_PART_RE,
  PARTITION_FILE_RE,
  PARTITION_RE,
  partitionFile,
  partitionName,
  readPartition,
  readPartitionIndex,
  utcDate,
  writePartition,
} from '../../../src/mirror/partitions/partitions.js';
import { LocalStorage } from '../../../src/mirror/folder/local-storage.js';
import type { StoredRow } from '../../../src/formats/stored-row.js';
import { tempDir } from '../../helpers/cli.js';

const fields = ['id', 'completedAt', 'updatedAt'];
const jsonl = jsonlCodec(false, createEncoder('jsonl', { fields, allFields: SWAP_FIELDS }));
const row = (key: string, completedMs: number, updatedMs = 0, payload: StoredRow['payload'] = `${key}\n`, updatedSubMs?: number): StoredRow => ({
  key,
  completedMs,
  updatedMs,
  payload,
  ...(updatedSubMs === undefined ? {} : { updatedSubMs }),
});

describe('names', () => {
  it('the partition of a time, its folder and its file', () => {
    expect(utcDate(Date.parse('2026-11-20T23:59:59.999Z'))).toBe('2026-11-20');
    expect(partitionName('2026-11-20')).toBe('date=2026-11-20');
    expect(partitionFile('2026-11-20', { extension: '.csv.gz' })).toBe('date=2026-11-20/part.csv.gz');
  });

  it.each([
    [PARTITION_FILE_RE, ['part.jsonl', 'part.csv.gz', 'part.parquet'], ['part.jsonl.tmp', 'xpart.csv', 'part.', 'part.csv.gzip', 'part-1.jsonl', 'part.JSONL']],
    [
      OLD_PART_RE,
      ['part-20261120T100000Z-aaaaaa.jsonl', 'part-1.csv.gz'],
      ['part-.jsonl', 'part-1.parquet', 'xpart-1.jsonl', 'part-1.jsonl.tmp', 'part-1_2.csv'],
    ],
    [PARTITION_RE, ['date=2026-11-20'], ['date=2026-11-2', 'xdate=2026-11-20', 'date=2026-11-20x', 'date=2026-1a-20']],
  ])('%s matches its names and no other', (re, yes, no) => {
    expect(yes.filter((name) => !re.test(name))).toEqual([]);
    expect(no.filter((name) => re.test(name))).toEqual([]);
  });

  it('the date a partition name holds', () => {
    expect(PARTITION_RE.exec('date=2026-11-20')?.[1]).toBe('2026-11-20');
  });
});

describe('compareRows', () => {
  it('by completedAt, then by id; rows without a readable completedAt last', () => {
    const rows = [row('b', 2), row('c', Number.NaN), row('a', 2), row('z', 1), row('a', Number.NaN), row('b', 2)];
    expect(rows.sort(compareRows).map((r) => `${r.key}${r.completedMs}`)).toEqual(['z1', 'a2', 'b2', 'b2', 'aNaN', 'cNaN']);
    expect(compareRows(row('a', 5), row('a', 5))).toBe(0);
    expect(compareRows(row('a', 5), row('b', 5))).toBe(-1);
    expect(compareRows(row('b', 5), row('a', 5))).toBe(1);
    expect(compareRows(row('a', 3), row('a', 5))).toBe(-2);
  });
});

describe('mergeRow', () => {
  it('adds a row not held, replaces an older version, ignores an older or the same one', () => {
    const rows = new Map<string, StoredRow>();
    expect(mergeRow(rows, row('a', 1, 10, 'v10\n'))).toBe('added');
    expect(mergeRow(rows, row('a', 1, 9, 'v9\n'))).toBe('unchanged');
    expect(mergeRow(rows, row('a', 1, 10, 'v10\n'))).toBe('unchanged');
    expect(rows.get('a')?.payload).toBe('v10\n');
    // The same updatedAt with other content: the server's latest word.
    expect(mergeRow(rows, row('a', 1, 10, 'v10 again\n'))).toBe('updated');
    expect(rows.get('a')?.payload).toBe('v10 again\n');
    expect(mergeRow(rows, row('a', 1, 10, 'v10 tick\n', 5))).toBe('updated');
    expect(mergeRow(rows, row('a', 1, 11, 'v11\n'))).toBe('updated');
    expect(rows.get('a')?.payload).toBe('v11\n');
    expect(mergeRow(rows, row('a', 1, 10, 'v10\n'))).toBe('unchanged');
    expect(rows.get('a')?.payload).toBe('v11\n');
    // A later version with the same content (a field it changed is not among the mirror's): its time is kept.
    const later = row('a', 1, 12, 'v11\n');
    expect(mergeRow(rows, later)).toBe('updated');
    expect(rows.get('a')).toBe(later);
  });

  it('compares record payloads by content, and a record never equals text', () => {
    const rows = new Map<string, StoredRow>();
    mergeRow(rows, row('a', 1, 10, { id: 'a', n: 1 }));
    expect(mergeRow(rows, row('a', 1, 10, { id: 'a', n: 1 }))).toBe('unchanged');
    expect(mergeRow(rows, row('a', 1, 10, { id: 'a', n: 2 }))).toBe('updated');
    expect(mergeRow(rows, row('a', 1, 10, '{"id":"a","n":2}'))).toBe('updated');
    expect(mergeRow(rows, row('a', 1, 10, { id: 'a', n: 2 }))).toBe('updated');
  });
});

describe('reading a partition file', () => {
  it('one that does not exist holds nothing', async () => {
    const storage = new LocalStorage(tempDir('swapx-partitions-'));
    expect(await readPartition(storage, 'none.jsonl', jsonl)).toEqual([]);
    const index = await readPartitionIndex(storage, 'none.parquet', async () => {
      throw new Error('not called');
    });
    expect(index).toEqual({ updated: new Map(), subMs: new Map() });
  });

  it('one that cannot be opened fails as the file system says', async () => {
    const dir = tempDir('swapx-partitions-');
    fs.mkdirSync(path.join(dir, 'date=2026-11-20'));
    await expect(readPartition(new LocalStorage(dir), 'date=2026-11-20', jsonl)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('one swapx cannot have written fails naming itself, and is left as it is', async () => {
    const dir = tempDir('swapx-partitions-');
    const storage = new LocalStorage(dir);
    const file = path.join(dir, 'part.jsonl');
    fs.writeFileSync(file, '{"id":');
    const error = (await readPartition(storage, 'part.jsonl', jsonl).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      new RegExp(
        `^the partition ${file.replace(/[.]/g, '\\.')} cannot be read \\(.+\\); it was left as it is: restore it, or remove it and sync its date again$`,
      ),
    );
    expect(error.cause).toBeInstanceOf(SyntaxError);
    const odd = (await readPartitionIndex(storage, 'part.jsonl', () => Promise.reject('a string')).catch((e: unknown) => e)) as Error;
    expect(odd.cause).toBe('a string');
    expect(odd.message).toBe(`the partition ${file} cannot be read (a string); it was left as it is: restore it, or remove it and sync its date again`);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":');
  });

  it('the rows and the index a file holds', async () => {
    const dir = tempDir('swapx-partitions-');
    const storage = new LocalStorage(dir);
    fs.writeFileSync(path.join(dir, 'part.jsonl'), '{"id":"a","completedAt":"2026-11-20T00:00:00Z","updatedAt":"2026-11-20T01:00:00Z"}\n');
    expect(await readPartition(storage, 'part.jsonl', jsonl)).toEqual([
      {
        key: 'a',
        completedMs: Date.parse('2026-11-20T00:00:00Z'),
        updatedMs: Date.parse('2026-11-20T01:00:00Z'),
        updatedSubMs: 0,
        payload: '{"id":"a","completedAt":"2026-11-20T00:00:00Z","updatedAt":"2026-11-20T01:00:00Z"}\n',
      },
    ]);
    const index = { updated: new Map([['a', 1]]), subMs: new Map([['a', 2]]) };
    expect(await readPartitionIndex(storage, 'part.jsonl', async (bytes) => (bytes.length > 0 ? index : { updated: new Map(), subMs: new Map() }))).toBe(index);
  });
});

describe('writePartition', () => {
  it('writes the rows sorted, in a folder it makes; rewritten whole, a new file in place of the old', async () => {
    const dir = tempDir('swapx-partitions-');
    const storage = new LocalStorage(dir);
    const file = path.join(dir, 'date=2026-11-20', 'part.jsonl');
    await writePartition(storage, 'date=2026-11-20/part.jsonl', [row('b', 2), row('a', 2), row('c', 1)], jsonl);
    expect(fs.readFileSync(file, 'utf8')).toBe('c\na\nb\n');
    const before = fs.statSync(file).ino;
    await writePartition(storage, 'date=2026-11-20/part.jsonl', [row('d', 1)], jsonl);
    expect(fs.readFileSync(file, 'utf8')).toBe('d\n');
    expect(fs.statSync(file).ino).not.toBe(before);
  });
});
