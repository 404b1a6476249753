/** The open flags of the files swapx makes beside the user's: a symbolic link planted at that name is not followed. */
import fsSync, { constants } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPEN_EXISTING, OPEN_NEW } from '../../src/fs/open-flags.js';
import { tempDir } from '../helpers/cli.js';

describe('open flags', () => {
  it('are these bits', () => {
    const noFollow = constants.O_NOFOLLOW ?? 0;
    expect(OPEN_NEW).toBe(constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | noFollow);
    expect(OPEN_EXISTING).toBe(constants.O_RDWR | noFollow);
  });

  it('OPEN_NEW creates or empties a file, for writing', () => {
    const file = path.join(tempDir('swapx-flags-'), 'f');
    fsSync.writeFileSync(file, 'old content');
    const fd = fsSync.openSync(file, OPEN_NEW, 0o644);
    fsSync.writeSync(fd, 'new');
    expect(() => fsSync.readSync(fd, Buffer.alloc(1))).toThrow();
    fsSync.closeSync(fd);
    expect(fsSync.readFileSync(file, 'utf8')).toBe('new');
    const created = path.join(path.dirname(file), 'g');
    fsSync.closeSync(fsSync.openSync(created, OPEN_NEW, 0o644));
    expect(fsSync.readFileSync(created, 'utf8')).toBe('');
  });

  it('OPEN_EXISTING reads and writes a file as it is, and does not create one', () => {
    const file = path.join(tempDir('swapx-flags-'), 'f');
    fsSync.writeFileSync(file, 'abc');
    const fd = fsSync.openSync(file, OPEN_EXISTING);
    const buffer = Buffer.alloc(3);
    fsSync.readSync(fd, buffer, 0, 3, 0);
    fsSync.writeSync(fd, 'Z', 1);
    fsSync.closeSync(fd);
    expect(buffer.toString()).toBe('abc');
    expect(fsSync.readFileSync(file, 'utf8')).toBe('aZc');
    expect(() => fsSync.openSync(path.join(path.dirname(file), 'none'), OPEN_EXISTING)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.runIf(process.platform !== 'win32')('neither follows a symbolic link', () => {
    const dir = tempDir('swapx-flags-');
    const target = path.join(dir, 'target');
    fsSync.writeFileSync(target, 'keep');
    fsSync.symlinkSync(target, path.join(dir, 'link'));
    expect(() => fsSync.openSync(path.join(dir, 'link'), OPEN_NEW, 0o644)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(() => fsSync.openSync(path.join(dir, 'link'), OPEN_EXISTING)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(fsSync.readFileSync(target, 'utf8')).toBe('keep');
  });
});
