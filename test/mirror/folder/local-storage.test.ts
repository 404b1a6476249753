/**
 * A folder mirror's storage in a local directory: a file is written whole (temporary name, every byte, fsync,
 * rename, the folder synced), read back or missing, listed, removed, and stamped so that any write shows.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalStorage, TEMP_FILE_RE } from '../../../src/mirror/folder/local-storage.js';
import { tempDir } from '../../helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('LocalStorage.write', () => {
  it('writes in a folder it makes, mode 0644 whatever the umask, no temporary file left', async () => {
    const dir = tempDir('swapx-storage-');
    const storage = new LocalStorage(dir);
    const umask = process.umask(0);
    try {
      await storage.write('date=2026-11-20/part.jsonl', Buffer.from('a\n'));
    } finally {
      process.umask(umask);
    }
    const file = path.join(dir, 'date=2026-11-20', 'part.jsonl');
    expect(fs.readFileSync(file, 'utf8')).toBe('a\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['part.jsonl']);
  });

  it('a write that fails leaves the old file and no temporary one, and throws', async () => {
    const dir = tempDir('swapx-storage-');
    fs.writeFileSync(path.join(dir, 'part.jsonl'), 'old\n');
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
    await expect(new LocalStorage(dir).write('part.jsonl', Buffer.from('new\n'))).rejects.toMatchObject({ code: 'EIO' });
    expect(fs.readdirSync(dir)).toEqual(['part.jsonl']);
    expect(fs.readFileSync(path.join(dir, 'part.jsonl'), 'utf8')).toBe('old\n');
  });

  it('a rename that fails leaves no temporary file, and throws', async () => {
    const dir = tempDir('swapx-storage-');
    fs.mkdirSync(path.join(dir, 'part.jsonl', 'inside'), { recursive: true });
    await expect(new LocalStorage(dir).write('part.jsonl', Buffer.from('a\n'))).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/),
    });
    expect(fs.readdirSync(dir)).toEqual(['part.jsonl']);
  });

  it('syncs the folder after the rename', async () => {
    const dir = tempDir('swapx-storage-');
    const opened: string[] = [];
    const open = fsp.open;
    vi.spyOn(fsp, 'open').mockImplementation(((...args: Parameters<typeof fsp.open>) => {
      opened.push(`${path.basename(String(args[0]))}:${String(args[1])}`);
      return open(...args);
    }) as typeof fsp.open);
    await new LocalStorage(dir).write('part.jsonl', Buffer.from('a\n'));
    expect(opened.map((entry) => entry.replace(/\.\d+-[0-9a-f]+\.tmp/, '.TEMP'))).toEqual(['.part.jsonl.TEMP:wx', `${path.basename(dir)}:r`]);
  });
});

describe('LocalStorage: read, list, remove, stamp, tidy', () => {
  it('a file missing reads as undefined, lists as nothing, removes without a word, has no stamp', async () => {
    const storage = new LocalStorage(path.join(tempDir('swapx-storage-'), 'none'));
    expect(await storage.read('date=2026-11-20/part.jsonl')).toBeUndefined();
    expect(await storage.list('')).toEqual([]);
    await storage.remove('date=2026-11-20/part.jsonl');
    expect(await storage.stamp('part.jsonl')).toBeUndefined();
  });

  it('names files by their path; lists a folder sorted; a stamp changes at every write, even of the same bytes', async () => {
    const dir = tempDir('swapx-storage-');
    const storage = new LocalStorage(dir);
    expect(storage.describe('date=2026-11-20/part.csv')).toBe(path.join(dir, 'date=2026-11-20', 'part.csv'));
    await storage.write('b', Buffer.from('x'));
    await storage.write('a', Buffer.from('x'));
    expect(await storage.list('')).toEqual(['a', 'b']);
    const first = await storage.stamp('a');
    await storage.write('a', Buffer.from('x'));
    expect(await storage.stamp('a')).not.toBe(first);
    expect(await storage.read('a')).toEqual(Buffer.from('x'));
    await storage.remove('a');
    expect(await storage.list('')).toEqual(['b']);
  });

  it("tidy removes a folder's temporary files of dead writes, and nothing else", async () => {
    const dir = tempDir('swapx-storage-');
    for (const name of ['.part.jsonl.12-ab.tmp', '.part-1.csv.1-a.tmp', '.2026-11-20.ids.3-f0.tmp', 'part.jsonl', 'part.jsonl.1-a.tmp', '.partx.tmp'])
      fs.writeFileSync(path.join(dir, name), '');
    expect(await new LocalStorage(dir).tidy('')).toBe(3);
    expect(fs.readdirSync(dir).sort()).toEqual(['.partx.tmp', 'part.jsonl', 'part.jsonl.1-a.tmp']);
    expect(TEMP_FILE_RE.test('.part.jsonl.tmp.x')).toBe(false);
  });
});
