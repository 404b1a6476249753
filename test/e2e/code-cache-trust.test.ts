/**
 * The program's code cache (src/bin/program-cached.ts) is code: V8 checks a cache's length against the source,
 * not its content, so a cache made from another program of the same length runs that program's compiled code.
 * A cache may therefore come only from a directory no one else can write. Here a planted cache is the bundle's
 * own with one constant changed (the version, "0.1.0" as "6.6.6", same length): a swapx that trusts it prints that.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, collect, sandboxEnv, tempDir } from '../helpers/cli.js';

const root = path.resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
/** The version with every digit changed: the same length, so V8 takes the forged program's cache for this one's. */
const FORGED = version.replace(/\d/g, (digit) => (digit === '6' ? '7' : '6'));

let sandbox: RunningSandbox;
/** A copy of the bin and the bundle whose program says it is FORGED: its code cache carries the genuine one's name. */
let forgedBin: string;

function run(bin: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string) {
  return collect(spawn(process.execPath, [bin, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] }));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 7 });
  const copy = tempDir('swapx-forged-');
  fs.cpSync(path.join(root, 'bin'), path.join(copy, 'bin'), { recursive: true });
  fs.cpSync(path.join(root, 'dist/cli-bundle'), path.join(copy, 'dist/cli-bundle'), { recursive: true });
  const program = path.join(copy, 'dist/cli-bundle/chunks/program.cjs');
  const text = fs.readFileSync(program, 'utf8');
  expect(text.split(`"${version}"`)).toHaveLength(2);
  fs.writeFileSync(program, text.replace(`"${version}"`, `"${FORGED}"`));
  forgedBin = path.join(copy, 'bin/swapx.js');
});
afterAll(async () => {
  await sandbox.close();
});

/**
 * Makes the forged program's cache in `cacheHome`/swapx (relative to `cwd` when relative), as a run of it that sent a
 * request writes it: in a directory of its own, since swapx writes none elsewhere, then moved there.
 */
async function plant(cacheHome: string, cwd?: string): Promise<void> {
  const own = tempDir('swapx-cache-');
  const env = sandboxEnv(sandbox.url, path.join(tempDir(), 'config'), { XDG_CACHE_HOME: own });
  expect((await run(forgedBin, ['chains', '--json'], env)).code).toBe(0);
  const dir = path.resolve(cwd ?? '.', cacheHome, 'swapx');
  if (dir !== path.join(own, 'swapx')) fs.cpSync(path.join(own, 'swapx'), dir, { recursive: true });
  expect(fs.readdirSync(dir).filter((name) => name.endsWith('.v8cache'))).toHaveLength(1);
}

describe('the code cache is read only from a directory of the user’s own', () => {
  it('the forged cache does run as the program when it is where the genuine swapx looks (the premise)', async () => {
    const cacheHome = tempDir('swapx-cache-');
    await plant(cacheHome);
    const r = await run(BIN, ['-q', '--version'], sandboxEnv(sandbox.url, path.join(tempDir(), 'config'), { XDG_CACHE_HOME: cacheHome }));
    expect(r.stdout).toBe(`${FORGED}\n`);
  });

  it('ignores a relative XDG_CACHE_HOME (the XDG spec: relative paths are invalid), which would read caches from the working directory', async () => {
    // Run in a directory someone else controls (a cloned repository, a shared folder) with XDG_CACHE_HOME=cache.
    const cwd = tempDir('swapx-cwd-');
    await plant('cache', cwd);
    const r = await run(BIN, ['-q', '--version'], sandboxEnv(sandbox.url, path.join(tempDir(), 'config'), { XDG_CACHE_HOME: 'cache' }), cwd);
    expect(r).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
  });

  it('does not trust a cache directory that others can write (XDG_CACHE_HOME=/tmp, where anyone may make /tmp/swapx first)', async () => {
    const cacheHome = tempDir('swapx-cache-');
    await plant(cacheHome);
    fs.chmodSync(path.join(cacheHome, 'swapx'), 0o777);
    const r = await run(BIN, ['-q', '--version'], sandboxEnv(sandbox.url, path.join(tempDir(), 'config'), { XDG_CACHE_HOME: cacheHome }));
    expect(r).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
  });

  // Only root can give a directory away: `sudo -E swapx …` (HOME and XDG_CACHE_HOME kept) reads the user's cache as root.
  it.runIf(process.getuid?.() === 0)('does not trust a cache directory and file another user owns (root running with a user’s HOME)', async () => {
    const cacheHome = tempDir('swapx-cache-');
    await plant(cacheHome);
    const dir = path.join(cacheHome, 'swapx');
    const nobody = 65_534;
    fs.chownSync(dir, nobody, nobody);
    for (const name of fs.readdirSync(dir)) fs.chownSync(path.join(dir, name), nobody, nobody);
    const r = await run(BIN, ['-q', '--version'], sandboxEnv(sandbox.url, path.join(tempDir(), 'config'), { XDG_CACHE_HOME: cacheHome }));
    expect(r).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
  });
});
