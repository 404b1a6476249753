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
import { syncEnv, until } from './helpers.js';

function canUnshare(): boolean {
  try {
    return execFileSync('unshare', ['--pid', '--fork', 'true'], { stdio: 'pipe' }) !== undefined;
  } catch {
    return false;
  }
}

const NOW = Date.parse('2026-11-12T00:00:00Z');
const range = ['--since', '2026-11-11T04:00:00Z', '--until', '2026-11-11T12:00:00Z', '--concurrency', '1', '-q'];
let slow: RunningSandbox;
beforeAll(async () => {
  slow = await startSandbox({ port: 0, seed: 47, swapsPerHour: 120, latencyMs: 300, now: () => NOW });
});
afterAll(async () => {
  await slow.close();
});

describe.skipIf(!canUnshare())('a sync in another pid namespace of the same host', () => {
  it('is refused while the first holds the lock', async () => {
    const env = syncEnv(slow);
    const dir = path.join(tempDir('swapx-pidns-'), 'out');
    const first = spawnCli(['sync', '--out', dir, ...range], { env });
    const firstDone = collect(first);
    await until(() => fs.existsSync(path.join(dir, '.swapx-sync.lock')));
    const second = collect(
      spawn('unshare', ['--pid', '--fork', process.execPath, BIN, 'sync', '--out', dir, ...range], { env, stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    // The first is mid-run (8 h of 30-min windows, one at a time, 300 ms each: about 5 s) when the second starts.
    expect(first.exitCode).toBeNull();
    const r = await second;
    // Now: exit 0 and "warning: took over a lock left by pid N (since …), which is no longer running on DIR",
    // while pid N is still running and writing the same partitions.
    expect(r.stderr).toMatch(new RegExp(`^swapx: error: another swapx sync \\(pid ${first.pid}, since \\S+\\) is running on ${dir}`));
    expect(r.code).toBe(1);
    expect((await firstDone).code).toBe(0);
  });
});
