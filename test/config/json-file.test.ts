import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFile } from '../../src/config/json-file.js';
import { tempDir as scratch } from '../helpers/cli.js';

const tempDir = () => scratch('swapx-json-file-');

describe('JsonFile', () => {
  it('reads a missing file as the defaults and writes nothing until set', () => {
    const dir = tempDir();
    const file = new JsonFile(path.join(dir, 'config.json'), { profiles: {} as Record<string, unknown> }, 0o600);
    expect(file.get('profiles')).toEqual({});
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('writes the whole document with its mode and leaves no temporary file', () => {
    const dir = tempDir();
    const target = path.join(dir, 'config.json');
    new JsonFile(target, { profiles: {} as Record<string, unknown> }, 0o600).set('profiles', { work: { clientId: 'acme' } });
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(target, 'utf8')).toBe('{\n\t"profiles": {\n\t\t"work": {\n\t\t\t"clientId": "acme"\n\t\t}\n\t}\n}\n');
    expect(new JsonFile(target, { profiles: {} }, 0o600).get('profiles')).toEqual({ work: { clientId: 'acme' } });
  });

  it('refuses a folder where the file should be, leaving no temporary file behind', () => {
    const dir = tempDir();
    // A rename onto it would fail only after the temporary file is written: refused before (fs/output-target.ts).
    const target = path.join(dir, 'config.json');
    const file = new JsonFile(target, { profiles: {} as Record<string, unknown> }, 0o600);
    fs.mkdirSync(path.join(target, 'inside'), { recursive: true });
    expect(() => file.set('profiles', {})).toThrow(`the profile store ${target} is a directory, not a file: name a file in it`);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(file.get('profiles')).toEqual({});
  });

  it('throws SyntaxError for a file that is not JSON', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), '{"profiles":');
    expect(() => new JsonFile(path.join(dir, 'config.json'), { profiles: {} }, 0o600)).toThrow(SyntaxError);
  });

  it('passes on an error reading the file other than its absence', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'config.json'));
    expect(() => new JsonFile(path.join(dir, 'config.json'), { profiles: {} }, 0o600)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  it('merges the file over the defaults', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), '{"b":2,"c":"\u00e9"}');
    const file = new JsonFile<{ a: number; b: number; c?: string }>(path.join(dir, 'config.json'), { a: 1, b: 1 }, 0o600);
    expect([file.get('a'), file.get('b'), file.get('c')]).toEqual([1, 2, 'é']);
  });

  it('a failed write names the file, not its temporary neighbour, and changes nothing', () => {
    const dir = tempDir();
    const target = path.join(dir, 'gone', 'config.json');
    const file = new JsonFile(target, { profiles: {} as Record<string, unknown> }, 0o600);
    const error = (() => {
      try {
        file.set('profiles', { p: {} });
      } catch (e) {
        return e as NodeJS.ErrnoException;
      }
    })();
    expect(error?.code).toBe('ENOENT');
    expect(error?.path).toBe(target);
    expect(file.get('profiles')).toEqual({});
  });
});
