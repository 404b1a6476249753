/**
 * A read-only file system, or a folder the user may not write, is said as such, naming the path the user gave (not
 * "no such file or directory", not an internal temporary file): the profile store, -o FILE, sync --out. On a real
 * read-only tmpfs where this machine can mount one (root, as CI runs), and by injection everywhere.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountSupport, mountTmpfs, remount, unmount } from '../../scripts/chaos/faults.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

// Nothing listens here: whatever is refused is refused before any request.
const offline = { SWAPX_BASE_URL: 'http://127.0.0.1:9', SWAPX_CLIENT_ID: 'demo', SWAPX_API_KEY: 'demo' };

/** The cases, run against `ro` (a read-only folder with `ro/cfg` in it): each names the path given, and its cause. */
function cases(ro: () => string, reason: string) {
  it('config set, the config folder to be made', async () => {
    const r = await runSwapx(['config', 'set', 'concurrency', '3'], { env: { SWAPX_CONFIG_DIR: path.join(ro(), 'new-cfg') } });
    expect([r.code, r.stderr]).toEqual([1, `swapx: error: ${reason}: ${path.join(ro(), 'new-cfg')}\n`]);
  });
  it('config set, the config folder there', async () => {
    const r = await runSwapx(['config', 'set', 'concurrency', '3'], { env: { SWAPX_CONFIG_DIR: path.join(ro(), 'cfg') } });
    expect([r.code, r.stderr]).toEqual([1, `swapx: error: ${reason}: ${path.join(ro(), 'cfg', 'config.json')}\n`]);
  });
  it('chains -o FILE, before any request', async () => {
    const file = path.join(ro(), 'cfg', 'chains.json');
    const r = await runSwapx(['chains', '-o', file], { env: { ...offline, SWAPX_CONFIG_DIR: tempDir() } });
    expect([r.code, r.stderr]).toEqual([1, `swapx: error: ${reason}: ${file}\n`]);
  });
  it('swaps -o FILE, before any request', async () => {
    const file = path.join(ro(), 'cfg', 'day.jsonl');
    const r = await runSwapx(['swaps', '--last', '1h', '-o', file], { env: { ...offline, SWAPX_CONFIG_DIR: tempDir() } });
    expect([r.code, r.stderr]).toEqual([1, `swapx: error: ${reason}: ${file}\n`]);
  });
  it('sync --out DIR to be made', async () => {
    const out = path.join(ro(), 'mirror');
    const r = await runSwapx(['sync', '--out', out, '--since', '2026-11-01', '--retries', '0'], { env: { ...offline, SWAPX_CONFIG_DIR: tempDir() } });
    expect([r.code, r.stderr]).toEqual([1, `swapx: error: cannot take the lock in ${out}: ${reason}\n`]);
  });
}

const noMount = mountSupport();
describe.skipIf(noMount !== undefined)(`a read-only tmpfs${noMount ? ` (skipped: ${noMount})` : ''}`, () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    mountTmpfs(dir, 'size=64k');
    fs.mkdirSync(path.join(dir, 'cfg'));
    remount(dir, 'ro');
  });
  afterAll(() => unmount(dir));
  cases(() => dir, 'read-only file system');
});

describe('a folder the user may not write (EACCES, injected: root ignores modes)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
    fs.mkdirSync(path.join(dir, 'cfg'));
  });
  const { accessSync, mkdirSync, openSync } = fs;
  const { mkdir } = fsp;
  const denied = (file: fs.PathLike) => String(file).startsWith(dir);
  const eacces = (file: fs.PathLike) => Object.assign(new Error(`EACCES: permission denied, '${file}'`), { code: 'EACCES', path: String(file) });
  const enoent = (file: fs.PathLike) => Object.assign(new Error(`ENOENT: no such file or directory, '${file}'`), { code: 'ENOENT', path: String(file) });
  // As the kernel answers a user without write permission; a recursive mkdir then says ENOENT, as Node's does.
  beforeEach(() => {
    vi.spyOn(fs, 'accessSync').mockImplementation((file, mode) => {
      if (denied(file) && mode === fs.constants.W_OK) throw eacces(file);
      return accessSync(file, mode);
    });
    vi.spyOn(fs, 'mkdirSync').mockImplementation(((file: fs.PathLike, options: fs.MakeDirectoryOptions) => {
      if (denied(file) && !fs.existsSync(file)) throw enoent(file);
      return mkdirSync(file, options);
    }) as typeof fs.mkdirSync);
    vi.spyOn(fs, 'openSync').mockImplementation(((file: fs.PathLike, flags: fs.OpenMode, mode?: fs.Mode) => {
      if (denied(file) && flags !== 'r') throw eacces(file);
      return openSync(file, flags, mode);
    }) as typeof fs.openSync);
    vi.spyOn(fsp, 'mkdir').mockImplementation((async (file: fs.PathLike, options: fs.MakeDirectoryOptions) => {
      if (denied(file) && !fs.existsSync(file)) throw enoent(file);
      return mkdir(file, options);
    }) as typeof fsp.mkdir);
  });
  afterEach(() => vi.restoreAllMocks());
  cases(() => dir, 'permission denied');
});
