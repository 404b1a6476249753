/**
 * Daily partitions: their names, their order, the newer-version rule of a merge, and a partition file read
 * (missing, unreadable, not swapx's) and rewritten whole (sorted, atomically, no temporary file left).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SWAP_FIELDS } from '../../src/api/types.js';
import { createEncoder } from '../../src/output/encode.js';
import { textCodec } from '../../src/sync/codec.js';
import {
  compareRows,
  mergeRow,
  OLD_PART_RE,
  PARTITION_FILE_RE,
  PARTITION_RE,
  partitionFile,
  partitionName,
  readPartitionFile,
  readPartitionIndex,
  syncDirectory,
  TEMP_PART_RE,
  utcDate,
  writePartitionFile,
} from '../../src/sync/partitions.js';
import type { StoredRow } from '../../src/sync/stored-row.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const fields = ['id', 'completedAt', 'updatedAt'];
const jsonl = textCodec('jsonl', false, createEncoder('jsonl', { fields, allFields: SWAP_FIELDS }));
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
    [TEMP_PART_RE, ['.part.jsonl.1-a.tmp', '.part-1.csv.1-a.tmp'], ['part.jsonl.1-a.tmp', '.partx.tmp', '.part.jsonl.tmp.x', 'x.part.jsonl.1-a.tmp']],
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
    const dir = tempDir('swapx-partitions-');
    expect(await readPartitionFile(path.join(dir, 'none.jsonl'), jsonl)).toEqual([]);
    const index = await readPartitionIndex(path.join(dir, 'none.parquet'), async () => {
      throw new Error('not called');
    });
    expect(index).toEqual({ updated: new Map(), subMs: new Map() });
  });

  it('one that cannot be opened fails as the file system says', async () => {
    const dir = tempDir('swapx-partitions-');
    await expect(readPartitionFile(dir, jsonl)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('one swapx cannot have written fails naming itself, and is left as it is', async () => {
    const file = path.join(tempDir('swapx-partitions-'), 'part.jsonl');
    fs.writeFileSync(file, '{"id":');
    const error = (await readPartitionFile(file, jsonl).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      new RegExp(
        `^the partition ${file.replace(/[.]/g, '\\.')} cannot be read \\(.+\\); it was left as it is: restore it, or remove it and sync its date again$`,
      ),
    );
    expect(error.cause).toBeInstanceOf(SyntaxError);
    const odd = (await readPartitionIndex(file, () => Promise.reject('a string')).catch((e: unknown) => e)) as Error;
    expect(odd.cause).toBe('a string');
    expect(odd.message).toBe(`the partition ${file} cannot be read (a string); it was left as it is: restore it, or remove it and sync its date again`);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"id":');
  });

  it('the rows and the index a file holds', async () => {
    const file = path.join(tempDir('swapx-partitions-'), 'part.jsonl');
    fs.writeFileSync(file, '{"id":"a","completedAt":"2026-11-20T00:00:00Z","updatedAt":"2026-11-20T01:00:00Z"}\n');
    expect(await readPartitionFile(file, jsonl)).toEqual([
      {
        key: 'a',
        completedMs: Date.parse('2026-11-20T00:00:00Z'),
        updatedMs: Date.parse('2026-11-20T01:00:00Z'),
        updatedSubMs: 0,
        payload: '{"id":"a","completedAt":"2026-11-20T00:00:00Z","updatedAt":"2026-11-20T01:00:00Z"}\n',
      },
    ]);
    const index = { updated: new Map([['a', 1]]), subMs: new Map([['a', 2]]) };
    expect(await readPartitionIndex(file, async (bytes) => (bytes.length > 0 ? index : { updated: new Map(), subMs: new Map() }))).toBe(index);
  });
});

describe('writePartitionFile', () => {
  it('writes the rows sorted, in a folder it makes, mode 0644 whatever the umask, no temporary file left', async () => {
    const dir = tempDir('swapx-partitions-');
    const file = path.join(dir, 'date=2026-11-20', 'part.jsonl');
    const umask = process.umask(0);
    try {
      await writePartitionFile(file, [row('b', 2), row('a', 2), row('c', 1)], jsonl);
    } finally {
      process.umask(umask);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('c\na\nb\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['part.jsonl']);
    // Rewritten whole: a new file renamed over the old.
    const before = fs.statSync(file).ino;
    await writePartitionFile(file, [row('d', 1)], jsonl);
    expect(fs.readFileSync(file, 'utf8')).toBe('d\n');
    expect(fs.statSync(file).ino).not.toBe(before);
  });

  it('a write that fails leaves the old file and no temporary one, and throws', async () => {
    const dir = tempDir('swapx-partitions-');
    const file = path.join(dir, 'part.jsonl');
    fs.writeFileSync(file, 'old\n');
    const open = fsp.open;
    vi.spyOn(fsp, 'open').mockImplementation((async (...args: Parameters<typeof fsp.open>) => {
      const handle = await open(...args);
      if (args[1] === 'wx') {
        handle.sync = () => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' }));
        // A close that fails as well: the write's error is the one thrown.
        const close = handle.close.bind(handle);
        handle.close = async () => {
          await close();
          throw Object.assign(new Error('EBADF'), { code: 'EBADF' });
        };
      }
      return handle;
    }) as typeof fsp.open);
    await expect(writePartitionFile(file, [row('a', 1)], jsonl)).rejects.toMatchObject({ code: 'EIO' });
    expect(fs.readdirSync(dir)).toEqual(['part.jsonl']);
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
  });

  it('a rename that fails leaves no temporary file, and throws', async () => {
    const dir = tempDir('swapx-partitions-');
    const file = path.join(dir, 'part.jsonl');
    fs.mkdirSync(path.join(file, 'inside'), { recursive: true });
    await expect(writePartitionFile(file, [row('a', 1)], jsonl)).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
    expect(fs.readdirSync(dir)).toEqual(['part.jsonl']);
  });

  it('syncs the folder after the rename', async () => {
    const dir = tempDir('swapx-partitions-');
    const file = path.join(dir, 'part.jsonl');
    const opened: string[] = [];
    const open = fsp.open;
    vi.spyOn(fsp, 'open').mockImplementation(((...args: Parameters<typeof fsp.open>) => {
      opened.push(`${path.basename(String(args[0]))}:${String(args[1])}`);
      return open(...args);
    }) as typeof fsp.open);
    await writePartitionFile(file, [row('a', 1)], jsonl);
    expect(opened.map((entry) => entry.replace(/\.\d+-[0-9a-f]+\.tmp/, '.TEMP'))).toEqual(['.part.jsonl.TEMP:wx', `${path.basename(dir)}:r`]);
  });
});

describe('syncDirectory', () => {
  it('is best effort: a folder that cannot be opened or synced is no error, and one opened is closed', async () => {
    await expect(syncDirectory(path.join(tempDir('swapx-partitions-'), 'none'))).resolves.toBeUndefined();
    const close = vi.fn(async () => {});
    vi.spyOn(fsp, 'open').mockResolvedValue({ sync: () => Promise.reject(new Error('EINVAL')), close } as unknown as fsp.FileHandle);
    await syncDirectory('/anywhere');
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('a close that fails is no error either', async () => {
    const sync = vi.fn(async () => {});
    vi.spyOn(fsp, 'open').mockResolvedValue({ sync, close: () => Promise.reject(new Error('EIO')) } as unknown as fsp.FileHandle);
    await expect(syncDirectory('/anywhere')).resolves.toBeUndefined();
    expect(sync).toHaveBeenCalledTimes(1);
  });
});
