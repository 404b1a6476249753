/** makeDir: `mkdir -p` that returns the first folder it made, and names the real cause where ENOENT would hide it. */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeDir, makeDirSync } from '../../src/fs/make-dir.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const coded = (code: string) => Object.assign(new Error(code), { code });

describe.each([
  ['makeDir', makeDir],
  ['makeDirSync', async (dir: string, mode?: number) => makeDirSync(dir, mode)],
])('%s', (_name, make) => {
  it('makes every missing folder and returns the first one it made; nothing made: undefined', async () => {
    const parent = tempDir('swapx-mkdir-');
    expect(await make(path.join(parent, 'a', 'b'))).toBe(path.join(parent, 'a'));
    expect(fsSync.statSync(path.join(parent, 'a', 'b')).isDirectory()).toBe(true);
    expect(await make(path.join(parent, 'a', 'b'))).toBeUndefined();
  });

  it('with the mode asked', async () => {
    const parent = tempDir('swapx-mkdir-');
    await make(path.join(parent, 'private'), 0o700);
    expect(fsSync.statSync(path.join(parent, 'private')).mode & 0o777).toBe(0o700);
  });

  it('a file in the way: its own error', async () => {
    const parent = tempDir('swapx-mkdir-');
    fsSync.writeFileSync(path.join(parent, 'file'), 'x');
    await expect(make(path.join(parent, 'file', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('an ENOENT from mkdir', () => {
  it('is the nearest existing folder refusing writes: that refusal, naming the folder asked for', async () => {
    const parent = tempDir('swapx-mkdir-');
    const dir = path.join(parent, 'a', 'b');
    vi.spyOn(fs, 'mkdir').mockRejectedValue(coded('ENOENT'));
    const access = vi.spyOn(fsSync, 'accessSync').mockImplementation(() => {
      throw coded('EROFS');
    });
    await expect(makeDir(dir)).rejects.toMatchObject({ code: 'EROFS', path: dir });
    // The nearest folder that exists is the one asked.
    expect(access).toHaveBeenCalledWith(parent, fsSync.constants.W_OK);
  });

  it('the sync one alike', () => {
    const parent = tempDir('swapx-mkdir-');
    const dir = path.join(parent, 'x');
    vi.spyOn(fsSync, 'mkdirSync').mockImplementation(() => {
      throw coded('ENOENT');
    });
    vi.spyOn(fsSync, 'accessSync').mockImplementation(() => {
      throw coded('EACCES');
    });
    expect(() => makeDirSync(dir)).toThrow(expect.objectContaining({ code: 'EACCES', path: dir }));
  });

  it('a folder that may be written: the ENOENT itself', async () => {
    const parent = tempDir('swapx-mkdir-');
    const enoent = coded('ENOENT');
    vi.spyOn(fs, 'mkdir').mockRejectedValue(enoent);
    await expect(makeDir(path.join(parent, 'a'))).rejects.toBe(enoent);
  });

  it('a relative path, nothing of it existing: asked up to the root', async () => {
    const enoent = coded('ENOENT');
    vi.spyOn(fs, 'mkdir').mockRejectedValue(enoent);
    const asked: string[] = [];
    vi.spyOn(fsSync, 'existsSync').mockImplementation((p) => {
      asked.push(String(p));
      return false;
    });
    const access = vi.spyOn(fsSync, 'accessSync').mockImplementation(() => {});
    await expect(makeDir('no/such')).rejects.toBe(enoent);
    expect(access).toHaveBeenCalledWith(path.parse(process.cwd()).root, fsSync.constants.W_OK);
    expect(asked[0]).toBe(path.resolve('no/such'));
  });

  it('another error is left as it is, nothing asked', async () => {
    const eio = coded('EIO');
    vi.spyOn(fs, 'mkdir').mockRejectedValue(eio);
    const access = vi.spyOn(fsSync, 'accessSync');
    await expect(makeDir(path.join(tempDir('swapx-mkdir-'), 'a'))).rejects.toBe(eio);
    expect(access).not.toHaveBeenCalled();
  });
});
