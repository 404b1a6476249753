/** Whole files or none: writeFileAtomic and its sync twin, the temporary name, and a directory sync that may be refused. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { syncDirectory, tempPathFor, writeFileAtomic, writeFileAtomicSync } from '../../src/fs/atomic-file.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const coded = (code: string) => Object.assign(new Error(code), { code });
const mode = (file: string) => fsSync.statSync(file).mode & 0o777;

describe('tempPathFor', () => {
  it('names a hidden file beside the target, with the pid and a random part', () => {
    const temp = tempPathFor('/some/dir/out.csv');
    expect(path.dirname(temp)).toBe('/some/dir');
    expect(path.basename(temp)).toMatch(new RegExp(`^\\.out\\.csv\\.${process.pid}-[0-9a-f]{1,8}\\.tmp$`));
    expect(tempPathFor('/some/dir/out.csv')).not.toBe(temp);
  });
});

describe.each([
  ['writeFileAtomic', (file: string, data: string | Buffer, m?: number) => writeFileAtomic(file, data, m === undefined ? {} : { mode: m })],
  ['writeFileAtomicSync', async (file: string, data: string | Buffer, m?: number) => writeFileAtomicSync(file, data, m ?? 0o644)],
])('%s', (_name, write) => {
  it('writes the text or bytes whole, with the mode asked (0644 by default), and leaves no temporary file', async () => {
    const dir = tempDir('swapx-atomic-');
    await write(path.join(dir, 'a.json'), '{"a":1}\n');
    await write(path.join(dir, 'b.bin'), Buffer.from([0, 1, 2]), 0o600);
    expect(fsSync.readFileSync(path.join(dir, 'a.json'), 'utf8')).toBe('{"a":1}\n');
    expect([...fsSync.readFileSync(path.join(dir, 'b.bin'))]).toEqual([0, 1, 2]);
    expect(mode(path.join(dir, 'a.json'))).toBe(0o644);
    expect(mode(path.join(dir, 'b.bin'))).toBe(0o600);
    expect(fsSync.readdirSync(dir).sort()).toEqual(['a.json', 'b.bin']);
  });

  it('replaces a file by another (a rename, not a write into it)', async () => {
    const dir = tempDir('swapx-atomic-');
    const file = path.join(dir, 'state.json');
    fsSync.writeFileSync(file, 'old old old');
    const before = fsSync.statSync(file).ino;
    await write(file, 'new');
    expect(fsSync.readFileSync(file, 'utf8')).toBe('new');
    expect(fsSync.statSync(file).ino).not.toBe(before);
  });

  it('a rename that fails leaves the target as it was, no temporary file, and throws', async () => {
    const dir = tempDir('swapx-atomic-');
    const target = path.join(dir, 'taken');
    fsSync.mkdirSync(path.join(target, 'inside'), { recursive: true });
    await expect(write(target, 'x')).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
    expect(fsSync.readdirSync(dir)).toEqual(['taken']);
  });

  it('a folder that does not exist fails the write', async () => {
    await expect(write(path.join(tempDir('swapx-atomic-'), 'no', 'file'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the mode', () => {
  it('is 0644 by default, and the mode asked, whatever the umask', async () => {
    const dir = tempDir('swapx-atomic-');
    const umask = process.umask(0);
    try {
      await writeFileAtomic(path.join(dir, 'a'), 'x');
      await writeFileAtomic(path.join(dir, 'b'), 'x', { mode: 0o600 });
      writeFileAtomicSync(path.join(dir, 'c'), 'x', 0o640);
    } finally {
      process.umask(umask);
    }
    expect([mode(path.join(dir, 'a')), mode(path.join(dir, 'b')), mode(path.join(dir, 'c'))]).toEqual([0o644, 0o600, 0o640]);
  });

  it('text is written as UTF-8', async () => {
    const file = path.join(tempDir('swapx-atomic-'), 'a');
    await writeFileAtomic(file, 'é→\n');
    expect([...fsSync.readFileSync(file)]).toEqual([...Buffer.from('é→\n', 'utf8')]);
  });
});

describe('writeFileAtomic', () => {
  it('gzips when asked', async () => {
    const file = path.join(tempDir('swapx-atomic-'), 'a.gz');
    await writeFileAtomic(file, 'hello\n', { gzip: true });
    expect(gunzipSync(fsSync.readFileSync(file)).toString()).toBe('hello\n');
  });

  it.each(['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP'])('a directory that cannot be synced (%s) is left as it is', async (code) => {
    const file = path.join(tempDir('swapx-atomic-'), 'a.json');
    const open = fs.open;
    vi.spyOn(fs, 'open').mockImplementation(((target: string, flags: string, m?: number) =>
      flags === 'r' ? Promise.reject(coded(code)) : open(target, flags, m)) as typeof fs.open);
    await writeFileAtomic(file, 'x');
    expect(fsSync.readFileSync(file, 'utf8')).toBe('x');
  });

  it('any other failure to sync the directory is an error', async () => {
    const open = fs.open;
    vi.spyOn(fs, 'open').mockImplementation(((target: string, flags: string, m?: number) =>
      flags === 'r' ? Promise.reject(coded('EIO')) : open(target, flags, m)) as typeof fs.open);
    await expect(writeFileAtomic(path.join(tempDir('swapx-atomic-'), 'a.json'), 'x')).rejects.toMatchObject({ code: 'EIO' });
  });
});

describe('syncDirectory', () => {
  it('syncs a directory, and fails on one that does not exist', async () => {
    const dir = tempDir('swapx-atomic-');
    await expect(syncDirectory(dir)).resolves.toBeUndefined();
    await expect(syncDirectory(path.join(dir, 'gone'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('closes the directory after a refused sync', async () => {
    const close = vi.fn(async () => {});
    vi.spyOn(fs, 'open').mockResolvedValue({ sync: () => Promise.reject(coded('EINVAL')), close } as unknown as fs.FileHandle);
    await syncDirectory('/anywhere');
    expect(close).toHaveBeenCalledTimes(1);
  });
});

describe('writeFileAtomicSync and the directory sync', () => {
  it.each(['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP'])('a directory that cannot be opened (%s) is left as it is', (code) => {
    const file = path.join(tempDir('swapx-atomic-'), 'a.json');
    const openSync = fsSync.openSync;
    vi.spyOn(fsSync, 'openSync').mockImplementation(((target: string, flags: string, m?: number) => {
      if (flags === 'r') throw coded(code);
      return openSync(target, flags, m);
    }) as typeof fsSync.openSync);
    writeFileAtomicSync(file, 'x', 0o600);
    expect(fsSync.readFileSync(file, 'utf8')).toBe('x');
  });

  it('any other failure is an error; a directory opened is closed', () => {
    const file = path.join(tempDir('swapx-atomic-'), 'a.json');
    const openSync = fsSync.openSync;
    vi.spyOn(fsSync, 'openSync').mockImplementation(((target: string, flags: string, m?: number) => {
      if (flags === 'r') throw coded('EIO');
      return openSync(target, flags, m);
    }) as typeof fsSync.openSync);
    expect(() => writeFileAtomicSync(file, 'x', 0o600)).toThrow('EIO');
    vi.restoreAllMocks();
    const closeSync = vi.spyOn(fsSync, 'closeSync');
    writeFileAtomicSync(file, 'y', 0o600);
    expect(closeSync).toHaveBeenCalledTimes(2);
  });
});
