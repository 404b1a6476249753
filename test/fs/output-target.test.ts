/**
 * outputTarget in-process: what each kind of path resolves to or is refused with (the exact one-line message, the
 * option as the caller names it), a symbolic link written through, and each file-system error naming the path as
 * the user gave it. The CLI's side (every command, exit 2, nothing sent) is in test/e2e/output-target.test.ts.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { kindOf, outputTarget } from '../../src/fs/output-target.js';
import { tempDir } from '../helpers/cli.js';
import { refusal } from '../helpers/refusal.js';

const advice = 'swapx writes a file beside its target and renames it into place; to write into it, use -o - (standard output) and redirect';

let dir: string;
let server: net.Server;
let socketPath: string;

beforeAll(async () => {
  dir = fs.realpathSync(tempDir('swapx-target-'));
  fs.writeFileSync(path.join(dir, 'file.jsonl'), 'x\n');
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.symlinkSync('file.jsonl', path.join(dir, 'to-file'));
  fs.symlinkSync('sub', path.join(dir, 'to-sub'));
  fs.symlinkSync('gone.jsonl', path.join(dir, 'dangling'));
  fs.symlinkSync('loop-b', path.join(dir, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(dir, 'loop-b'));
  fs.symlinkSync('file.jsonl/inside', path.join(dir, 'through-file'));
  fs.symlinkSync('/dev/null', path.join(dir, 'to-null'));
  socketPath = path.join(dir, 'sock');
  server = net.createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  vi.restoreAllMocks();
});

function fsError(fn: () => unknown): NodeJS.ErrnoException {
  try {
    fn();
  } catch (error) {
    expect(error).not.toBeInstanceOf(UsageError);
    return error as NodeJS.ErrnoException;
  }
  throw new Error('no error');
}

describe('kindOf', () => {
  const stat = (kind: string) =>
    ({
      isFile: () => kind === 'file',
      isDirectory: () => kind === 'dir',
      isFIFO: () => kind === 'fifo',
      isSocket: () => kind === 'socket',
    }) as fs.Stats;
  it.each([
    ['file', 'a file'],
    ['dir', 'a directory'],
    ['fifo', 'a FIFO'],
    ['socket', 'a socket'],
    ['block', 'a device'],
  ])('names %s as %s', (kind, name) => {
    expect(kindOf(stat(kind))).toBe(name);
  });
  it('names real things', () => {
    expect(kindOf(fs.statSync(dir))).toBe('a directory');
    expect(kindOf(fs.statSync('/dev/null'))).toBe('a device');
    expect(kindOf(fs.statSync(socketPath))).toBe('a socket');
  });
});

describe('outputTarget', () => {
  it('gives a new file in a folder, and an existing file, as they are', () => {
    expect(outputTarget(path.join(dir, 'new.csv'), '-o')).toBe(path.join(dir, 'new.csv'));
    expect(outputTarget(path.join(dir, 'file.jsonl'), '-o')).toBe(path.join(dir, 'file.jsonl'));
  });

  it('gives a file in a linked folder by the path given: only a link itself is followed', () => {
    fs.writeFileSync(path.join(dir, 'sub', 'in.csv'), '');
    expect(outputTarget(path.join(dir, 'to-sub', 'in.csv'), '-o')).toBe(path.join(dir, 'to-sub', 'in.csv'));
  });

  it('writes through a symbolic link to a file: the file it names', () => {
    expect(outputTarget(path.join(dir, 'to-file'), '-o')).toBe(path.join(dir, 'file.jsonl'));
  });

  it('refuses a directory, and a link to one, naming a file in it', () => {
    const sub = path.join(dir, 'sub');
    expect(refusal(() => outputTarget(sub, '-o'))).toBe(`-o ${sub} is a directory, not a file: name a file in it (-o ${sub}/NAME)`);
    const link = path.join(dir, 'to-sub');
    expect(refusal(() => outputTarget(link, '--store'))).toBe(
      `--store ${link} is a symbolic link to ${sub}, a directory, not a file: name a file in it (--store ${link}/NAME)`,
    );
  });

  it('refuses a device and a socket, with the stream advice only for an option', () => {
    expect(refusal(() => outputTarget('/dev/null', '-o'))).toBe(`-o /dev/null is a device, not a file: ${advice}`);
    expect(refusal(() => outputTarget(socketPath, '-o'))).toBe(`-o ${socketPath} is a socket, not a file: ${advice}`);
    const link = path.join(dir, 'to-null');
    expect(refusal(() => outputTarget(link, '-o'))).toBe(`-o ${link} is a symbolic link to /dev/null, a device, not a file: ${advice}`);
    expect(refusal(() => outputTarget('/dev/null', 'the store'))).toBe(
      'the store /dev/null is a device, not a file: swapx writes a file beside its target and renames it into place',
    );
  });

  it('refuses a link to nothing and a loop of links', () => {
    const dangling = path.join(dir, 'dangling');
    expect(refusal(() => outputTarget(dangling, '-o'))).toBe(
      `-o ${dangling} is a symbolic link to gone.jsonl, which does not exist: give the path of the file to write`,
    );
    const loop = path.join(dir, 'loop-a');
    expect(refusal(() => outputTarget(loop, '--out'))).toBe(`--out ${loop} is a loop of symbolic links`);
  });

  it('throws the file-system error of a link through a file, naming the link', () => {
    const link = path.join(dir, 'through-file');
    const error = fsError(() => outputTarget(link, '-o'));
    expect([error.code, error.path]).toEqual(['ENOTDIR', link]);
  });

  it('throws the error of a path through a file, naming it as given', () => {
    const file = path.join(dir, 'file.jsonl', 'x.csv');
    const error = fsError(() => outputTarget(file, '-o'));
    expect([error.code, error.path]).toEqual(['ENOTDIR', file]);
  });

  it('throws ENOENT for a new file in a missing folder, naming the file', () => {
    const file = path.join(dir, 'missing', 'x.csv');
    const error = fsError(() => outputTarget(file, '-o'));
    expect([error.code, error.path]).toEqual(['ENOENT', file]);
  });

  it('throws ENOTDIR when the folder of a new file is no folder', () => {
    const file = path.join(dir, 'sub', 'x.csv');
    const real = fs.statSync;
    vi.spyOn(fs, 'statSync').mockImplementation(((p: fs.PathLike) =>
      p === path.join(dir, 'sub') ? real(path.join(dir, 'file.jsonl')) : real(p)) as typeof fs.statSync);
    const error = fsError(() => outputTarget(file, '-o'));
    expect([error.code, error.path, error.message]).toEqual(['ENOTDIR', file, 'not a directory']);
  });

  it('throws what a read-only folder says, before any work, naming the file as given', () => {
    vi.spyOn(fs, 'accessSync').mockImplementation(() => {
      throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
    });
    for (const [file, checked] of [
      [path.join(dir, 'new.csv'), dir],
      [path.join(dir, 'to-file'), dir],
    ] as const) {
      const error = fsError(() => outputTarget(file, '-o'));
      expect([error.code, error.path]).toEqual(['EROFS', file]);
      expect(fs.accessSync).toHaveBeenLastCalledWith(checked, fs.constants.W_OK);
    }
  });

  it('throws another realpath error as it is, naming the link', () => {
    vi.spyOn(fs, 'realpathSync').mockImplementation((() => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    }) as unknown as typeof fs.realpathSync);
    const link = path.join(dir, 'to-file');
    const error = fsError(() => outputTarget(link, '-o'));
    expect([error.code, error.path]).toEqual(['EACCES', link]);
  });

  it('throws another lstat error as it is, naming the file', () => {
    vi.spyOn(fs, 'lstatSync').mockImplementation((() => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    }) as unknown as typeof fs.lstatSync);
    const file = path.join(dir, 'x.csv');
    const error = fsError(() => outputTarget(file, '-o'));
    expect([error.code, error.path]).toEqual(['EACCES', file]);
  });
});
