/** One sync per directory (contention, stale-lock take-over), and --follow ended by SIGTERM. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { type CliResult, collect, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { deadPid, expectTidy, expectedIds, readState, sorted, stepLines, syncEnv, writtenIds } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';

const data = { seed: 41, swapsPerHour: 120 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const range = ['--since', '2026-11-11T10:00:00Z', '--until', '2026-11-11T12:00:00Z'];

let slow: RunningSandbox;
let live: RunningSandbox;
beforeAll(async () => {
  slow = await startSandbox({ port: 0, ...data, latencyMs: 300, now: () => NOW });
  // The real clock: --follow syncs up to now − 2 min.
  live = await startSandbox({ port: 0, ...data, latencyMs: 150 });
});
afterAll(async () => {
  await Promise.all([slow.close(), live.close()]);
});

const lockFile = (dir: string) => path.join(dir, '.swapx-sync.lock');

// Each case has its own dir and mostly waits on a slow sandbox or a timer: they run side by side.
describe.concurrent('the lock', () => {
  it('a second sync on the same dir exits 1 at once while the first runs', async () => {
    const env = syncEnv(slow);
    const dir = path.join(tempDir('swapx-lock-'), 'out');
    const first = spawnCli(['sync', '--out', dir, ...range, '--concurrency', '1', '-q'], { env });
    const firstDone = collect(first);
    await until(() => fs.existsSync(lockFile(dir)));
    const second = await runSwapx(['sync', '--out', dir, ...range], { env });
    // At once: the first is still running when the second has given up, so it did not wait for the lock.
    expect(first.exitCode).toBeNull();
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(`^swapx: error: another swapx sync \\(pid ${first.pid}, since \\S+\\) is running on ${dir}; if it is not, delete ${lockFile(dir)}\\n$`),
    );
    const r = await firstDone;
    expect(r.code).toBe(0);
    expect(sorted(writtenIds(dir))).toEqual(expectedIds(data, '2026-11-11T10:00:00Z', '2026-11-11T12:00:00Z', NOW));
    expectTidy(dir);
  });

  it('a lock left by a dead process is taken over, with a warning', async () => {
    const dir = path.join(tempDir('swapx-lock-'), 'out');
    fs.mkdirSync(dir);
    const pid = deadPid();
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid, host: os.hostname(), startedAt: '2026-11-21T03:00:00.000Z' }));
    const r = await runSwapx(['sync', '--out', dir, ...range, '--concurrency', '4', '-q'], { env: syncEnv(slow) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`warning: took over a lock left by pid ${pid} (since 2026-11-21T03:00:00.000Z), which is no longer running on ${dir}\n`);
    expect(fs.existsSync(lockFile(dir))).toBe(false);
    expect(writtenIds(dir).length).toBeGreaterThan(0);
  });
});

/** A `sync --follow` at this interval, SIGTERM once it has reported `steps` steps; when the signal went, and the result. */
async function followUntil(interval: string, steps: number): Promise<{ dir: string; stopAt: number; r: CliResult }> {
  const dir = path.join(tempDir('swapx-follow-'), 'out');
  const child = spawnCli(['sync', '--out', dir, '--since', '40m', '--follow', '--interval', interval, '--summary-json'], { env: syncEnv(live) });
  const done = collect(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer | string) => (stderr += chunk.toString()));
  await until(() => (stderr.match(/"event":"sync-step"/g) ?? []).length >= steps, 15_000);
  const stopAt = Date.now();
  child.kill('SIGTERM');
  return { dir, stopAt, r: await done };
}

describe.concurrent('--follow', () => {
  it('steps every --interval until SIGTERM, then saves the state and exits 0', async () => {
    const { dir, r } = await followUntil('1s', 2);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const steps = stepLines(r);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps.every((s) => s.complete)).toBe(true);
    // --summary-json: every line is JSON, the notices too.
    expect(r.stderr).toMatch(/"event":"sync-info","time":"[^"]+","message":"Stopped; synced up to \S+Z"\}\n$/);
    const state = readState(dir);
    expect(state.cursor).toBe(steps.at(-1)!.cursor);
    expect(Math.abs(Date.parse(state.cursor) - (Date.now() - 2 * 60_000))).toBeLessThan(30_000);
    expect(steps.reduce((n, s) => n + s.newSwaps + s.lateSwaps, 0)).toBe(writtenIds(dir).length);
    expectTidy(dir);
  });

  it('asleep for an hour between steps, SIGTERM wakes it at once', async () => {
    const { dir, stopAt, r } = await followUntil('1h', 1);
    // A sync that slept on would exit an hour later; 10 s is for a loaded machine, not for the sleep.
    expect(Date.now() - stopAt).toBeLessThan(10_000);
    expect(r.code).toBe(0);
    expect(stepLines(r)).toHaveLength(1);
    expect(r.stderr).toMatch(/"message":"Stopped; synced up to \S+Z"\}\n$/);
    expectTidy(dir);
  });

  it('a signal during a step lets the step finish', async () => {
    const dir = path.join(tempDir('swapx-follow-'), 'out');
    // Four windows one at a time at ~150 ms each, a checkpoint after each: the signal lands mid-step, after the first.
    const child = spawnCli(['sync', '--out', dir, '--since', '2h', '--follow', '--concurrency', '1', '--checkpoint-every', '0', '--summary-json'], {
      env: syncEnv(live),
    });
    const done = collect(child);
    await until(() => fs.existsSync(lockFile(dir)) && fs.readdirSync(dir).some((name) => name.startsWith('date=')));
    child.kill('SIGTERM');
    const r = await done;
    expect(r.code).toBe(0);
    const steps = stepLines(r);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.complete).toBe(true);
    expect(steps[0]!.windows).toBe(4);
    expect(readState(dir).cursor).toBe(steps[0]!.cursor);
    expectTidy(dir);
  });
});
