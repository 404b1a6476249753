/**
 * A sync killed at any moment (SIGKILL included) and run again holds exactly
 * the rows of an uninterrupted run: no duplicate, no gap, each swap's latest
 * version. Ctrl-C saves what is complete and exits 130. And the catch-up of a
 * mirror days behind (thousands of updates) converges through kills too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, spawnCli, tempDir } from '../helpers/cli.js';
import { runSwapx } from '../helpers/run.js';
import { expectTidy, expectedRows, mirrorRows, readState, snapshotData, stepLines, syncEnv } from '../helpers/sync.js';
import { until } from '../helpers/wait.js';
import { expectEqual } from '../helpers/equal.js';

const data = { seed: 31, swapsPerHour: 120 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-10T18:00:00Z';
const UNTIL = '2026-11-11T04:00:00Z';
// 20 windows over two dates, one request at a time, ~40 ms each: a run takes a second or so. A checkpoint every
// few windows: a kill can fall before, between and after the partition rewrites.
const args = (dir: string) => ['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '--checkpoint-every', '150ms', '-q'];

let slow: RunningSandbox;
let env: NodeJS.ProcessEnv;
let expected: Record<string, unknown>[];
/** An uninterrupted run, made first: every killed run must end with exactly its data files. */
let cleanDir: string;
let cleanFiles: Record<string, string>;

beforeAll(async () => {
  slow = await startSandbox({ port: 0, ...data, latencyMs: 40, now: () => NOW });
  env = syncEnv(slow);
  expected = expectedRows(data, SINCE, UNTIL, NOW);
  cleanDir = path.join(tempDir('swapx-kill-'), 'out');
  const r = await runSwapx(args(cleanDir), { env });
  if (r.code !== 0) throw new Error(`the clean run failed: ${r.stderr}`);
  cleanFiles = snapshotData(cleanDir);
});
afterAll(() => slow.close());

const partCount = (dir: string) => {
  try {
    return fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => /\/part\.jsonl$/.test(name)).length;
  } catch {
    return 0;
  }
};

/** Starts a sync, kills it with SIGKILL when `moment` resolves, and returns once it is gone. */
async function killAt(dir: string, moment: () => Promise<unknown>): Promise<void> {
  const child = spawnCli(args(dir), { env });
  const done = collect(child);
  await Promise.race([moment(), done]);
  child.kill('SIGKILL');
  await done;
}

/** What every finished sync dir must hold: the expected swaps, the clean run's bytes, the final cursor, nothing else. */
function expectFinished(dir: string): void {
  expectEqual(mirrorRows(dir), expected);
  expectEqual(snapshotData(dir), cleanFiles);
  expect(readState(dir).cursor).toBe('2026-11-11T04:00:00Z');
  expectTidy(dir);
}

/** Runs to completion and checks the directory against the clean run. */
async function finishAndCheck(dir: string): Promise<void> {
  const r = await runSwapx(args(dir), { env });
  expect(r.code, r.stderr).toBe(0);
  expectFinished(dir);
}

// Independent cases, each in its own dir and mostly waiting on the slow sandbox: they run side by side.
// Spawned runs killed on timers: on a loaded machine they take longer than the default 30 s, which is no failure.
const SPAWNED = { timeout: 120_000 };

describe.concurrent('SIGKILL at any moment, then a rerun', SPAWNED, () => {
  it('a clean run holds the expected swaps', () => {
    expect(Object.keys(cleanFiles)).toEqual(['date=2026-11-10/part.jsonl', 'date=2026-11-11/part.jsonl']);
    expectFinished(cleanDir);
  });

  it('gives the swaps of a clean run, wherever the kill fell', async () => {
    const base = tempDir('swapx-kill-');
    const scenarios: Record<string, (dir: string) => Promise<void>> = {
      // Before the lock or the first state, while fetching the first date, right as parts appear or the state is rewritten.
      'at 150ms': (dir) => killAt(dir, () => sleep(150)),
      'at 600ms': (dir) => killAt(dir, () => sleep(600)),
      'when the first part appears': (dir) => killAt(dir, () => until(() => partCount(dir) >= 1)),
      'when the second part appears': (dir) => killAt(dir, () => until(() => partCount(dir) >= 2)),
      'four kills in a row': async (dir) => {
        for (const ms of [350, 500, 700, 900]) await killAt(dir, () => sleep(ms));
      },
    };
    await Promise.all(
      Object.entries(scenarios).map(async ([name, scenario]) => {
        const dir = path.join(base, name.replace(/\W+/g, '-'));
        await scenario(dir);
        await finishAndCheck(dir);
      }),
    );
  });
});

describe.concurrent('Ctrl-C', SPAWNED, () => {
  // In process, aborted as the bin's SIGINT handler aborts it (the real signal is test/e2e/swaps-signals' and
  // sync-lock-follow's): what matters here is what the sync keeps.
  it('stops fetching, keeps what is complete, exits 130; a rerun completes the set', async () => {
    const dir = path.join(tempDir('swapx-int-'), 'out');
    const controller = new AbortController();
    const running = runSwapx(
      ['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '--checkpoint-every', '150ms', '--summary-json'],
      {
        env,
        signal: controller.signal,
      },
    );
    await until(() => partCount(dir) >= 1);
    controller.abort();
    const r = await running;
    expect(r.code).toBe(130);
    // With --summary-json the interruption is the log's last JSON line.
    const last = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
    expect(Object.keys(last)).toEqual(['event', 'time', 'exitCode', 'error', 'message']);
    expect(last).toMatchObject({ event: 'sync-failed', exitCode: 130, error: 'AbortedError' });
    expect(last.message).toMatch(/^interrupted; synced up to \S+Z; run the same command again to continue$/);
    const [step] = stepLines(r);
    expect(step).toMatchObject({ complete: false });
    expect(step!.windows).toBeLessThan(20);
    expect(readState(dir).cursor).toBe(step!.cursor);
    expect(fs.existsSync(path.join(dir, '.swapx-sync.lock'))).toBe(false);
    await finishAndCheck(dir);
  });
});

describe.concurrent('an API failure after the retries', () => {
  it('exits 1 naming the window, keeps what is complete; a rerun completes the set', async () => {
    const faulty = await startSandbox({ port: 0, ...data, faultRate: 0.3, retryAfterSeconds: 0, now: () => NOW });
    try {
      const faultyEnv = syncEnv(faulty);
      const dir = path.join(tempDir('swapx-fail-'), 'out');
      const failed = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '--retries', '0', '-q'], {
        env: faultyEnv,
      });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/^swapx: error: window \S+Z → \S+Z failed: .*; synced up to (\S+Z); run again to continue\n$/);
      const cursor = /synced up to (\S+Z)/.exec(failed.stderr)![1];
      // A first run that consumed no window leaves nothing behind; otherwise the state holds the cursor reported.
      if (cursor === SINCE) expect(fs.existsSync(dir)).toBe(false);
      else expect(readState(dir).cursor).toBe(cursor);
      const rerun = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--retries', '10', '-q'], { env: faultyEnv });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(mirrorRows(dir)).toEqual(expected);
      expectTidy(dir);
    } finally {
      await faulty.close();
    }
  });
});

describe.concurrent('two clocks days apart', SPAWNED, () => {
  // The mirror of a range synced at clock 1, caught up at clock 2 six days later: every update in between
  // (first updates, corrections after 2 and 5 days) is fetched through Filter=Updated, through kills.
  const updates = { seed: 32, swapsPerHour: 60 };
  const CLOCK1 = Date.parse('2026-11-11T04:10:00Z');
  const CLOCK2 = CLOCK1 + 6 * 24 * 3_600_000 + 7 * 60_000;
  let clock = CLOCK1;
  let sandbox: RunningSandbox;
  let updatesEnv: NodeJS.ProcessEnv;
  const syncArgs = (dir: string) => ['sync', '--out', dir, '--until', UNTIL, '-q'];
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...updates, latencyMs: 3, now: () => clock });
    updatesEnv = syncEnv(sandbox);
  });
  afterAll(() => sandbox.close());

  it('after the second run the mirror equals what the API serves at the later clock, through SIGKILLs during the catch-up', async () => {
    const base = tempDir('swapx-clocks-');
    const first = async (dir: string) => {
      clock = CLOCK1;
      const r = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '-q'], { env: updatesEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(mirrorRows(dir)).toEqual(expectedRows(updates, SINCE, UNTIL, CLOCK1));
    };
    const clean = path.join(base, 'clean');
    const killed = path.join(base, 'killed');
    await first(clean);
    // The mirror to be killed starts as a copy: the same state and bytes a second first run would leave.
    fs.cpSync(clean, killed, { recursive: true });
    clock = CLOCK2;
    const atLater = expectedRows(updates, SINCE, UNTIL, CLOCK2);
    // The range really changed between the clocks, by all kinds of updates.
    const before = new Map(expectedRows(updates, SINCE, UNTIL, CLOCK1).map((row) => [row.id, row.updatedAt]));
    const delays = atLater
      .filter((row) => before.get(row.id) !== row.updatedAt)
      .map((row) => Date.parse(String(row.updatedAt)) - Date.parse(String(row.completedAt)));
    expect(delays.some((d) => d > 48 * 3_600_000 && d < 52 * 3_600_000)).toBe(true);
    expect(delays.some((d) => d > 5 * 24 * 3_600_000)).toBe(true);

    // Counted from the spawn (a process start is a few hundred ms): early in the catch-up, then past its first commits.
    for (const ms of [400, 1100]) {
      // One request at a time: a kill falls inside the catch-up, not after it.
      const child = spawnCli([...syncArgs(killed), '--concurrency', '1', '--checkpoint-every', '300ms'], { env: updatesEnv });
      const done = collect(child);
      await Promise.race([sleep(ms), done]);
      child.kill('SIGKILL');
      await done;
    }
    const [cleanRun, killedRun] = await Promise.all([
      runSwapx([...syncArgs(clean), '--summary-json'], { env: updatesEnv }),
      runSwapx(syncArgs(killed), { env: updatesEnv }),
    ]);
    expect(cleanRun.code, cleanRun.stderr).toBe(0);
    expect(killedRun.code, killedRun.stderr).toBe(0);
    const [step] = stepLines(cleanRun);
    expect(step).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: delays.length, complete: true });
    expect(mirrorRows(clean)).toEqual(atLater);
    expect(snapshotData(killed)).toEqual(snapshotData(clean));
    expectTidy(clean);
    expectTidy(killed);
  });
});
