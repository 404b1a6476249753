/**
 * recover: under the lock, before a run fetches anything. What it removes (temporary files of dead runs, and
 * only those), what it folds (a partition in more than its one file: the one file first, then the parts in the
 * order written, the latest version of each swap kept) and what it reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import fsp from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SWAP_FIELDS, type Swap } from '../../../src/api/types.js';
import { createEncoder } from '../../../src/output/encode.js';
import { csvCodec } from '../../../src/formats/csv.js';
import { jsonlCodec } from '../../../src/formats/jsonl.js';
import { LocalStorage } from '../../../src/mirror/folder/local-storage.js';
import { recover } from '../../../src/mirror/folder/recovery.js';
import { tempDir } from '../../helpers/cli.js';
import { deadPid } from '../../helpers/sync.js';

const fields = ['id', 'completedAt', 'updatedAt', 'usdMismatchStatus'];
const jsonl = jsonlCodec(false, createEncoder('jsonl', { fields, allFields: SWAP_FIELDS }));
const csv = csvCodec(false, createEncoder('csv', { fields, allFields: SWAP_FIELDS }));
const swap = (id: string, completedAt: string, updatedAt: string, status = 'OK') =>
  ({ id, completedAt, updatedAt, usdMismatchStatus: status }) as unknown as Swap;
const line = (s: Swap) => `${JSON.stringify(s)}\n`;
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const rowsOf = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, string>)
    .map((r) => [r.id, r.updatedAt, r.usdMismatchStatus]);

describe('recover', () => {
  it('a dir that does not exist: nothing to do', async () => {
    expect(await recover(new LocalStorage(path.join(tempDir('swapx-recover-'), 'none')), jsonl)).toEqual({ removed: 0, folded: [] });
  });

  it('a dir that cannot be listed fails', async () => {
    const file = path.join(tempDir('swapx-recover-'), 'file');
    fs.writeFileSync(file, 'x');
    await expect(recover(new LocalStorage(file), jsonl)).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it("removes the state's temporary files (named as tempPathFor names them) and those of lock attempts whose process is gone; nothing else", async () => {
    const dir = tempDir('swapx-recover-');
    const dead = deadPid();
    const leftovers = ['..swapx-sync.json.123-abc0.tmp', `.swapx-sync.lock.${dead}-ab12.tmp`, `.swapx-sync.lock.${dead}-ab12.stale`];
    const kept = [
      '.swapx-sync.json',
      '.swapx-sync.json.123-abc0.tmp',
      '..swapx-sync.json.123-abc0.tmpx',
      'x.swapx-sync.json.123-abc0.tmp',
      '..swapx-syncXjson.123-abc0.tmp',
      '..swapx-sync.json.-abc0.tmp',
      '..swapx-sync.json.123-ABC.tmp',
      '..swapx-sync.json.123abc.tmp',
      `.swapx-sync.lock.${process.pid}-ab12.tmp`,
      `.swapx-sync.lock.${process.ppid}-ab12.stale`,
      `.swapx-sync.lock.${dead}-ab12.old`,
      `.swapx-sync.lock.${dead}-AB12.tmp`,
      `.swapx-sync.lock.${dead}ab12.tmp`,
      `x.swapx-sync.lock.${dead}-ab12.tmp`,
      `.swapx-syncXlock.${dead}-ab12.tmp`,
      `.swapx-sync.lock.${dead}-ab12.tmp.x`,
      `.swapx-sync.lock.99999999999999999999-ab12.tmp`,
      'notes.txt',
    ];
    for (const name of [...leftovers, ...kept]) write(path.join(dir, name), 'x');
    expect(await recover(new LocalStorage(dir), jsonl)).toEqual({ removed: 3, folded: [] });
    expect(fs.readdirSync(dir).sort()).toEqual([...kept].sort());
  });

  it('folds every partition in more than one file, in date order, and keeps folders that are no partition as they are', async () => {
    const dir = tempDir('swapx-recover-');
    write(path.join(dir, 'date=2026-11-21', 'part-0001.jsonl'), line(swap('b', '2026-11-21T01:00:00Z', '2026-11-21T02:00:00Z')));
    write(path.join(dir, 'date=2026-11-20', 'part-0001.jsonl'), line(swap('a', '2026-11-20T01:00:00Z', '2026-11-20T03:00:00Z')));
    write(path.join(dir, 'date=2026-11-22', 'part.jsonl'), line(swap('c', '2026-11-22T01:00:00Z', '2026-11-23T00:00:00Z')));
    for (const other of ['date=2026-11-2', 'xdate=2026-11-20', 'date=2026-11-20x']) write(path.join(dir, other, 'part-0001.jsonl'), 'not read');
    const result = await recover(new LocalStorage(dir), jsonl);
    expect(result).toEqual({ removed: 0, folded: ['date=2026-11-20/part.jsonl', 'date=2026-11-21/part.jsonl'] });
    expect(fs.readdirSync(path.join(dir, 'date=2026-11-20'))).toEqual(['part.jsonl']);
    expect(rowsOf(path.join(dir, 'date=2026-11-21', 'part.jsonl'))).toEqual([['b', '2026-11-21T02:00:00Z', 'OK']]);
    for (const other of ['date=2026-11-2', 'xdate=2026-11-20', 'date=2026-11-20x']) expect(fs.readdirSync(path.join(dir, other))).toEqual(['part-0001.jsonl']);
  });

  it('the one file first, then the parts in the order written: of equal updatedAt, the last read is kept', async () => {
    const dir = tempDir('swapx-recover-');
    const p = path.join(dir, 'date=2026-11-20');
    const at = '2026-11-20T05:00:00Z';
    write(
      path.join(p, 'part.jsonl'),
      line(swap('a', '2026-11-20T01:00:00Z', at, 'one-file')) +
        line(swap('b', '2026-11-20T02:00:00Z', at, 'one-file')) +
        line(swap('c', '2026-11-20T03:00:00Z', at)),
    );
    write(path.join(p, 'part-0002.jsonl'), line(swap('a', '2026-11-20T01:00:00Z', at, 'second')));
    write(path.join(p, 'part-0001.jsonl'), line(swap('a', '2026-11-20T01:00:00Z', at, 'first')) + line(swap('b', '2026-11-20T02:00:00Z', at, 'first')));
    write(path.join(p, 'README'), 'kept');
    write(path.join(p, '.part.jsonl.1-a.tmp'), 'half');
    write(path.join(p, '.part-0003.jsonl.1-a.tmp'), 'half');
    write(path.join(p, 'x.part.jsonl.1-a.tmp'), 'kept');
    const result = await recover(new LocalStorage(dir), jsonl);
    expect(result).toEqual({ removed: 2, folded: ['date=2026-11-20/part.jsonl'] });
    expect(fs.readdirSync(p).sort()).toEqual(['README', 'part.jsonl', 'x.part.jsonl.1-a.tmp']);
    expect(rowsOf(path.join(p, 'part.jsonl'))).toEqual([
      ['a', at, 'second'],
      ['b', at, 'first'],
      ['c', at, 'OK'],
    ]);
  });

  it("a csv mirror's one file is part.csv; an older jsonl part beside it is folded into it", async () => {
    const dir = tempDir('swapx-recover-');
    const p = path.join(dir, 'date=2026-11-20');
    write(path.join(p, 'part-0001.csv'), 'id,completedAt,updatedAt,usdMismatchStatus\na,2026-11-20T01:00:00Z,2026-11-20T01:00:00Z,OK\n');
    expect(await recover(new LocalStorage(dir), csv)).toMatchObject({ folded: ['date=2026-11-20/part.csv'] });
    expect(fs.readFileSync(path.join(p, 'part.csv'), 'utf8')).toBe(
      'id,completedAt,updatedAt,usdMismatchStatus\na,2026-11-20T01:00:00Z,2026-11-20T01:00:00Z,OK\n',
    );
  });

  it('a part that cannot be read stops the fold, naming it and what to do; nothing is removed', async () => {
    const dir = tempDir('swapx-recover-');
    const p = path.join(dir, 'date=2026-11-20');
    write(path.join(p, 'part-0001.jsonl'), '{"id": "a", cut');
    const full = path.join(p, 'part-0001.jsonl');
    const error = (await recover(new LocalStorage(dir), jsonl).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      new RegExp(
        `^cannot read ${full.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to fold it into date=2026-11-20/part\\.jsonl \\(the partition .* cannot be read \\(.+\\); it was left as it is: restore it, or remove it and sync its date again\\); move it out of ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} and run again$`,
      ),
    );
    expect(error.cause).toBeInstanceOf(Error);
    expect(fs.readdirSync(p)).toEqual(['part-0001.jsonl']);
  });
});

describe('recover, whatever order the folders are listed in', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('partitions in date order, parts in the order written', async () => {
    const readdir = fsp.readdir as (dir: string) => Promise<string[]>;
    vi.spyOn(fsp, 'readdir').mockImplementation((async (dir: string) => (await readdir(dir)).sort().reverse()) as unknown as typeof fsp.readdir);
    const dir = tempDir('swapx-recover-');
    const at = '2026-11-20T05:00:00Z';
    for (const date of ['2026-11-20', '2026-11-21']) {
      const p = path.join(dir, `date=${date}`);
      write(path.join(p, 'part-0001.jsonl'), line(swap('a', `${date}T01:00:00Z`, at, 'first')));
      write(path.join(p, 'part-0002.jsonl'), line(swap('a', `${date}T01:00:00Z`, at, 'second')));
    }
    expect(await recover(new LocalStorage(dir), jsonl)).toEqual({ removed: 0, folded: ['date=2026-11-20/part.jsonl', 'date=2026-11-21/part.jsonl'] });
    expect(rowsOf(path.join(dir, 'date=2026-11-21', 'part.jsonl'))).toEqual([['a', at, 'second']]);
  });
});
