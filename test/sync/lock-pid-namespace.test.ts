/**
 * Two syncs on one directory from two pid namespaces that share a hostname (containers on the host's network,
 * or given the same `hostname:`, over one volume). The lock is judged by `host` and then by whether its pid is
 * alive *here*: from the other namespace the live holder's pid does not exist, so its lock is taken over as
 * "no longer running" and both syncs write the directory at once. The second must be refused (exit 1), as two
 * syncs on one host are. Needs root for `unshare --pid` (skipped elsewhere).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, collect, spawnCli, tempDir } from '../helpers/cli.js';
import { syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

function canUnshare(): boolean {
  try {
    return execFileSync('unshare', ['--pid', '--fork', 'true'], { stdio: 'pipe' }) !== undefined;
  } catch {
    return false;
  }
}

// A --follow sync holds the lock until it is signalled: the second starts while the first surely runs, however
// slow the machine, and nobody waits for a long first run to end. The real clock: --follow syncs up to now − 2 min.
const follow = ['--since', '40m', '--follow', '--interval', '1h', '-q'];
let live: RunningSandbox;
beforeAll(async () => {
  live = await startSandbox({ port: 0, seed: 47, swapsPerHour: 120 });
});
afterAll(async () => {
  await live.close();
});

describe.skipIf(!canUnshare())('a sync in another pid namespace of the same host', () => {
  it('is refused while the first holds the lock', async () => {
    const env = syncEnv(live);
    const dir = path.join(tempDir('swapx-pidns-'), 'out');
    const first = spawnCli(['sync', '--out', dir, ...follow], { env });
    const firstDone = collect(first);
    await until(() => fs.existsSync(path.join(dir, '.swapx-sync.lock')));
    // The same job started in another container: the same command.
    const second = collect(
      spawn('unshare', ['--pid', '--fork', process.execPath, BIN, 'sync', '--out', dir, ...follow], { env, stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    const r = await second;
    // It was: exit 0 and "warning: took over a lock left by pid N (since …), which is no longer running on DIR",
    // while pid N was still running and writing the same partitions.
    expect(r.stderr).toMatch(new RegExp(`^swapx: error: another swapx sync \\(pid ${first.pid}, since \\S+\\) is running on ${dir}`));
    expect(r.code).toBe(1);
    // The first ran on, undisturbed, until it was told to stop.
    expect(first.exitCode).toBeNull();
    first.kill('SIGTERM');
    expect(await firstDone).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(dir, '.swapx-sync.lock'))).toBe(false);
  });
});
