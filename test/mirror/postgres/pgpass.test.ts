/**
 * The password file as libpq reads it: fields, escapes, comments, wildcards, the first matching line, a Unix
 * socket as localhost, and the files ignored (others may read it, not a plain file, missing).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { lookUpPassword, type PassKey, unsafeModeWarning } from '../../../src/mirror/postgres/pgpass.js';
import { tempDir } from '../../helpers/cli.js';

const KEY: PassKey = { host: 'db.example', port: 5432, database: 'prod', user: 'bob' };

/** A password file holding `lines` (mode 0600 unless told), and its path. */
function passFile(lines: string | string[], mode = 0o600): string {
  const file = path.join(tempDir(), 'pgpass');
  fs.writeFileSync(file, Array.isArray(lines) ? lines.join('\n') : lines);
  fs.chmodSync(file, mode);
  return file;
}

describe('lookUpPassword', () => {
  it('each of the four fields must match, or be *; the first matching line wins', () => {
    const file = passFile([
      'other:5432:prod:bob:host',
      'db.example:5433:prod:bob:port',
      'db.example:5432:dev:bob:database',
      'db.example:5432:prod:alice:user',
      'db.example:5432:prod:bob:exact',
      '*:*:*:*:later',
    ]);
    expect(lookUpPassword(file, KEY)).toBe('exact');
    expect(lookUpPassword(file, { ...KEY, user: 'carol' })).toBe('later');
    expect(lookUpPassword(passFile(['*:5432:*:bob:wild', '*:*:*:*:later']), KEY)).toBe('wild');
    expect(lookUpPassword(passFile('db.example:5432:prod:bob:x'), { ...KEY, port: 5433 })).toBeUndefined();
  });

  it('a backslash escapes : and \\; a colon past the fourth field belongs to the password', () => {
    expect(lookUpPassword(passFile('db\\:x:5432:prod:bob:p\\:w\\\\d'), { ...KEY, host: 'db:x' })).toBe('p:w\\d');
    expect(lookUpPassword(passFile('*:*:*:*:a:b:c'), KEY)).toBe('a:b:c');
    // A backslash ending the line is kept as it is.
    expect(lookUpPassword(passFile('*:*:*:*:pw\\'), KEY)).toBe('pw\\');
    expect(lookUpPassword(passFile('*:*:*:*:a\\b'), KEY)).toBe('ab');
  });

  it('skips comments, blank lines and lines of fewer than five fields, and reads CRLF lines', () => {
    expect(lookUpPassword(passFile(['#*:*:*:*:comment', '', '   ', '*:*:*:*', '*:*:*:*:found']), KEY)).toBe('found');
    expect(lookUpPassword(passFile('*:*:*:bob:crlf\r\n*:*:*:*:next\r\n'), KEY)).toBe('crlf');
    expect(lookUpPassword(passFile('*:*:*:carol:one\n*:*:*:bob:two\n'), KEY)).toBe('two');
    expect(lookUpPassword(passFile('*:*:*:*:'), KEY)).toBe('');
    expect(lookUpPassword(passFile(['# only a comment', '*:*:*:carol:x']), KEY)).toBeUndefined();
    // A comment is a comment even where its text would be a matching line.
    expect(lookUpPassword(passFile(['#weird:*:*:*:comment', '*:*:*:*:next']), { ...KEY, host: '#weird' })).toBe('next');
  });

  it('a Unix socket directory matches localhost, not its path', () => {
    const file = passFile(['/run/postgresql:5432:prod:bob:path', 'localhost:5432:prod:bob:local']);
    expect(lookUpPassword(file, { ...KEY, host: '/run/postgresql' })).toBe('local');
    expect(lookUpPassword(file, { ...KEY, host: 'localhost' })).toBe('local');
    expect(lookUpPassword(passFile('db.example/:5432:prod:bob:x'), { ...KEY, host: 'db.example/' })).toBe('x');
  });

  it('ignores a file group or others may read or write, as libpq does', () => {
    const line = '*:*:*:*:secret';
    expect(lookUpPassword(passFile(line, 0o600), KEY)).toBe('secret');
    expect(lookUpPassword(passFile(line, 0o400), KEY)).toBe('secret');
    expect(lookUpPassword(passFile(line, 0o640), KEY)).toBeUndefined();
    expect(lookUpPassword(passFile(line, 0o602), KEY)).toBeUndefined();
    expect(lookUpPassword(passFile(line, 0o610), KEY)).toBeUndefined();
  });

  it('a file skipped for its mode is told, with the mode; one that is read, missing or not a plain file is not', () => {
    const told = (file: string) => {
      const modes: number[] = [];
      const found = lookUpPassword(file, KEY, (mode) => modes.push(mode));
      return { found, modes };
    };
    expect(told(passFile('*:*:*:*:secret', 0o644))).toEqual({ found: undefined, modes: [0o644] });
    expect(told(passFile('*:*:*:*:secret', 0o604))).toEqual({ found: undefined, modes: [0o604] });
    expect(told(passFile('*:*:*:*:secret', 0o620))).toEqual({ found: undefined, modes: [0o620] });
    expect(told(passFile('*:*:*:*:secret', 0o600))).toEqual({ found: 'secret', modes: [] });
    expect(told(passFile('*:*:*:bob:secret', 0o600))).toEqual({ found: 'secret', modes: [] });
    expect(told(path.join(tempDir(), 'missing'))).toEqual({ found: undefined, modes: [] });
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    expect(told(dir)).toEqual({ found: undefined, modes: [] });
    // Without a listener, the same answer.
    expect(lookUpPassword(passFile('*:*:*:*:secret', 0o644), KEY)).toBeUndefined();
  });

  it("the warning is libpq's, word for word", () => {
    expect(unsafeModeWarning('/home/ann/.pgpass')).toBe(
      'WARNING: password file "/home/ann/.pgpass" has group or world access; permissions should be u=rw (0600) or less',
    );
  });

  it('on Windows, where the mode bits say nothing, the file is read whatever they are', () => {
    const file = passFile('*:*:*:*:secret', 0o644);
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
    try {
      expect(lookUpPassword(file, KEY)).toBe('secret');
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
    expect(lookUpPassword(file, KEY)).toBeUndefined();
  });

  it('no file, or a folder: no password', () => {
    const dir = tempDir();
    expect(lookUpPassword(path.join(dir, 'missing'), KEY)).toBeUndefined();
    fs.chmodSync(dir, 0o700);
    expect(lookUpPassword(dir, KEY)).toBeUndefined();
  });

  it('ignores what is not a plain file, such as a FIFO, even one a writer would fill', async () => {
    const fifo = path.join(tempDir(), 'pgpass');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    // The writer waits for a reader: read, the FIFO would give this line.
    const writer = spawn('sh', ['-c', `printf '*:*:*:*:from-fifo\\n' > '${fifo}'`], { stdio: 'ignore' });
    try {
      expect(lookUpPassword(fifo, KEY)).toBeUndefined();
    } finally {
      writer.kill('SIGKILL');
    }
  });
});
