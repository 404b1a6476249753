/**
 * The installed bin: it answers `--version` before it loads the program (src/bin/start.ts), and the program,
 * undici with it, comes through V8's code cache (src/bin/program-cached.ts). Neither may change what swapx answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runCli, sandboxEnv, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';

const root = path.resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

describe('swapx --version', () => {
  it('prints the package version and exits 0, in the program as through the bin', async () => {
    expect(await runSwapx(['--version'])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    for (const flag of ['--version', '-V']) {
      expect(await runCli([flag])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('leaves any other argument list to the program', async () => {
    // Not the bin's shortcut (two arguments): the program parses them and gives the same answer.
    expect(await runCli(['-q', '--version'])).toEqual({ code: 0, signal: null, stdout: `${version}\n`, stderr: '' });
    expect(await runCli(['--nope'])).toEqual({ code: 2, signal: null, stdout: '', stderr: "swapx: unknown option '--nope'\n" });
  });
});

describe('the program’s code cache', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 7 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('answers a lookup as the program does, without a code cache and with the one the first run made', async () => {
    // The user's cache directory (env-paths: $XDG_CACHE_HOME/swapx on Linux), here one of this test's own.
    const cacheHome = tempDir('swapx-cache-');
    const env = sandboxEnv(sandbox.url, path.join(tempDir(), 'config'), { XDG_CACHE_HOME: cacheHome });
    const listed = await runSwapx(['swaps', '--from', '2026-10-01T00:00:00Z', '--to', '2026-10-01T00:30:00Z', '--jsonl', '-q'], { env });
    const hash = (JSON.parse(listed.stdout.split('\n')[0]!) as { sourceTransaction: string }).sourceTransaction;
    const expected = await runSwapx(['swap', hash, '--json'], { env });
    expect(expected.code).toBe(0);

    const dir = path.join(cacheHome, 'swapx');
    const caches = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.v8cache')) : []);
    // Another build's cache, two weeks old, goes when this one is written; the program's own directory gets none.
    fs.mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, 'program-0000000000000000-v20.0.0-x64.v8cache');
    fs.writeFileSync(stale, 'old');
    const twoWeeksAgo = new Date(Date.now() - 14 * 24 * 3600 * 1000);
    fs.utimesSync(stale, twoWeeksAgo, twoWeeksAgo);
    const bundled = () => fs.readdirSync(path.join(root, 'dist/cli-bundle/chunks')).filter((name) => name.endsWith('.v8cache'));
    const bundledBefore = bundled();
    // A run that sends no request leaves no cache: one that holds no undici would slow every lookup after it.
    expect((await runCli(['--help'], { env })).code).toBe(0);
    expect(caches()).toEqual([path.basename(stale)]);
    expect(await runCli(['swap', hash, '--json'], { env })).toEqual(expected);
    expect(caches()).toHaveLength(1);
    expect(caches()[0]).toMatch(new RegExp(`^program-[0-9a-f]{16}-${process.version}-${process.arch}\\.v8cache$`));
    expect(bundled()).toEqual(bundledBefore);
    expect(await runCli(['swap', hash, '--json'], { env })).toEqual(expected);

    // A cache damaged on disk (its header intact) is rejected, not run, and written again.
    const cache = path.join(dir, caches()[0]!);
    const bytes = fs.readFileSync(cache);
    for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 400; i += 1) bytes[i]! ^= 0x5a;
    fs.writeFileSync(cache, bytes);
    expect(await runCli(['swap', hash, '--json'], { env })).toEqual(expected);
    expect(fs.readFileSync(cache).equals(bytes)).toBe(false);
    expect(await runCli(['swap', hash, '--json'], { env })).toEqual(expected);

    // Started with other flags (V8 rejects a cache made under other flags), a run has a cache of its own: the two
    // kinds of run do not rewrite each other's at every start.
    const flagged = { ...env, NODE_OPTIONS: '--max-old-space-size=4096' };
    expect(await runCli(['swap', hash, '--json'], { env: flagged })).toEqual(expected);
    const plain = path.basename(cache);
    const other = caches().filter((name) => name !== plain);
    expect(other).toHaveLength(1);
    expect(other[0]).toMatch(new RegExp(`^program-[0-9a-f]{16}-${process.version}-${process.arch}-[0-9a-f]{8}\\.v8cache$`));
    const written = () => [plain, other[0]!].map((name) => fs.statSync(path.join(dir, name)).mtimeMs);
    const before = written();
    expect(await runCli(['swap', hash, '--json'], { env })).toEqual(expected);
    expect(await runCli(['swap', hash, '--json'], { env: flagged })).toEqual(expected);
    expect(written()).toEqual(before);
  });
});
