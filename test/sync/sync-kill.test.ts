/**
 * A sync killed at any moment (SIGKILL included) and run again holds exactly
 * the swaps of an uninterrupted run: no duplicate, no gap. Ctrl-C saves what
 * is complete and exits 130.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { collect, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { expectTidy, expectedIds, readState, sorted, stepLines, syncEnv, until, writtenIds } from './helpers.js';

const data = { seed: 31, swapsPerHour: 120 };
const NOW = Date.parse('2026-11-12T00:00:00Z');
const SINCE = '2026-11-10T18:00:00Z';
const UNTIL = '2026-11-11T04:00:00Z';
// 20 windows over two dates, one request at a time, ~40 ms each: a run takes a second or so.
const args = (dir: string) => ['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '-q'];

let slow: RunningSandbox;
let env: NodeJS.ProcessEnv;
let expected: string[];

beforeAll(async () => {
  slow = await startSandbox({ port: 0, ...data, latencyMs: 40, now: () => NOW });
  env = syncEnv(slow);
  expected = expectedIds(data, SINCE, UNTIL, NOW);
});
afterAll(() => slow.close());

const partCount = (dir: string) => {
  try {
    return fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((name) => /\/part-[^/]+$/.test(name)).length;
  } catch {
    return 0;
  }
};

/** Starts a sync, kills it with SIGKILL when `moment` resolves, and returns once it is gone. */
async function killAt(dir: string, moment: () => Promise<void>): Promise<void> {
  const child = spawnCli(args(dir), { env });
  const done = collect(child);
  await Promise.race([moment(), done]);
  child.kill('SIGKILL');
  await done;
}

/** Runs to completion and checks the directory against a clean run. */
async function finishAndCheck(dir: string): Promise<void> {
  const r = await runCli(args(dir), { env });
  expect(r.code, r.stderr).toBe(0);
  const ids = writtenIds(dir);
  expect(ids.length).toBe(expected.length);
  expect(sorted(ids)).toEqual(expected);
  expect(readState(dir).cursor).toBe('2026-11-11T04:00:00Z');
  expectTidy(dir);
}

describe('SIGKILL at any moment, then a rerun', () => {
  it('a clean run holds the expected swaps', async () => {
    const dir = path.join(tempDir('swapx-kill-'), 'out');
    await finishAndCheck(dir);
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

describe('Ctrl-C', () => {
  it('stops fetching, keeps what is complete, exits 130; a rerun completes the set', async () => {
    const dir = path.join(tempDir('swapx-int-'), 'out');
    const child = spawnCli(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '--summary-json'], { env });
    const done = collect(child);
    await until(() => partCount(dir) >= 1);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/swapx: interrupted; synced up to \S+Z; run the same command again to continue\n$/);
    const [step] = stepLines(r);
    expect(step).toMatchObject({ complete: false });
    expect(step!.windows).toBeLessThan(20);
    expect(readState(dir).cursor).toBe(step!.cursor);
    expect(fs.existsSync(path.join(dir, '.swapx-sync.lock'))).toBe(false);
    await finishAndCheck(dir);
  });
});

describe('an API failure after the retries', () => {
  it('exits 1 naming the window, keeps what is complete; a rerun completes the set', async () => {
    const faulty = await startSandbox({ port: 0, ...data, faultRate: 0.3, retryAfterSeconds: 0, now: () => NOW });
    try {
      const faultyEnv = syncEnv(faulty);
      const dir = path.join(tempDir('swapx-fail-'), 'out');
      const failed = await runCli(['sync', '--out', dir, '--since', SINCE, '--until', UNTIL, '--concurrency', '1', '--retries', '0', '-q'], { env: faultyEnv });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/^swapx: error: window \S+Z → \S+Z failed: .*; synced up to (\S+Z); run again to continue\n$/);
      const cursor = /synced up to (\S+Z)/.exec(failed.stderr)![1];
      expect(readState(dir).cursor).toBe(cursor);
      const rerun = await runCli(['sync', '--out', dir, '--until', UNTIL, '--retries', '10', '-q'], { env: faultyEnv });
      expect(rerun.code, rerun.stderr).toBe(0);
      const ids = writtenIds(dir);
      expect(ids.length).toBe(expected.length);
      expect(sorted(ids)).toEqual(expected);
      expectTidy(dir);
    } finally {
      await faulty.close();
    }
  });
});
