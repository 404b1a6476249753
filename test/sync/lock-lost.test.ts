/**
 * A sync whose lock was taken over while it ran (it stalled past STALE_MS on a directory shared between
 * hosts, and a sync on another host judged its lock stale) no longer owns the directory: it must not write
 * a partition or the state after that, or two syncs rewrite the same partitions from different reads (one's
 * versions lost, while the state says they are held). It must fail loudly instead (exit 1).
 * Here the take-over is played by the test: the lock is replaced by another host's while the run fetches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

const NOW = Date.parse('2026-11-12T00:00:00Z');
let slow: RunningSandbox;
beforeAll(async () => {
  slow = await startSandbox({ port: 0, seed: 43, swapsPerHour: 120, latencyMs: 200, now: () => NOW });
});
afterAll(async () => {
  await slow.close();
});

describe('a lock taken over while the sync runs', () => {
  it('the sync that lost it writes nothing more and exits 1', async () => {
    const dir = path.join(tempDir('swapx-lock-lost-'), 'out');
    const lock = path.join(dir, '.swapx-sync.lock');
    const running = runSwapx(['sync', '--out', dir, '--since', '2026-11-11T08:00:00Z', '--until', '2026-11-11T12:00:00Z', '--concurrency', '1', '-q'], {
      env: syncEnv(slow),
    });
    await until(() => fs.existsSync(lock));
    // Another host's sync took the directory over (as acquireLock does: the stale lock moved aside, its own linked in).
    const theirs = `${JSON.stringify({ pid: 4242, host: 'other-host', startedAt: new Date().toISOString() })}\n`;
    fs.rmSync(lock);
    fs.writeFileSync(lock, theirs);
    const r = await running;
    // Now: exit 0, with every partition and the state written under the other host's lock.
    expect(r.code).toBe(1);
    // The state, if the start was recorded before the take-over, still says nothing is synced.
    const state = path.join(dir, '.swapx-sync.json');
    if (fs.existsSync(state)) expect(JSON.parse(fs.readFileSync(state, 'utf8')).cursor).toBe('2026-11-11T08:00:00Z');
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('date='))).toEqual([]);
    expect(fs.readFileSync(lock, 'utf8')).toBe(theirs);
  });
});
