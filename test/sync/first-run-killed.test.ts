/**
 * A first run killed before its first checkpoint (a kill, a crash, a reboot) must not leave a directory that
 * the cron line (no --since) refuses forever: the start of a new mirror is recorded before any window, so the
 * next run, whatever its flags, continues the backfill.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { expectTidy, expectedRows, mirrorRows, readState, syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

const data = { seed: 71, swapsPerHour: 60 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-10T18:00:00Z';
const UNTIL = '2026-11-11T04:00:00Z';

let slow: RunningSandbox;
beforeAll(async () => {
  // Windows answered after 300 ms: the run's first checkpoint, after its first window, is that far off.
  slow = await startSandbox({ port: 0, ...data, latencyMs: 300, now: () => NOW });
});
afterAll(() => slow.close());

describe('a first run killed before its first checkpoint', () => {
  it('leaves the start recorded: the cron line (no --since) continues the backfill and completes it', async () => {
    const env = syncEnv(slow);
    const dir = path.join(tempDir('swapx-first-killed-'), 'out');
    const child = spawnCli(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '-q'], { env });
    const done = collect(child);
    // Killed as soon as its start is recorded: its first window is still on its way.
    await until(() => fs.existsSync(path.join(dir, '.swapx-sync.json')));
    child.kill('SIGKILL');
    await done;
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('date='))).toEqual([]);
    expect(readState(dir).cursor).toBe(SINCE);

    const cron = await runSwapx(['sync', '--out', dir, '--until', UNTIL, '-q'], { env });
    // The killed run's lock is taken over, with a word.
    expect(cron.stderr).toMatch(/^warning: took over a lock left by pid \d+ \(since \S+\), which is no longer running on \S+\n$/);
    expect(cron.code).toBe(0);
    expect(readState(dir).cursor).toBe(UNTIL);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, UNTIL, NOW));
    expectTidy(dir);
  });
});
