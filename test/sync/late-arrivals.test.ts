/**
 * Late arrivals: swaps that become visible after the mirror passed their completion are picked up by the
 * re-scan of the trailing --lag, timed by --rescan-every, turned off by --lag 0.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { expectTidy, expectedIds, expectedRows, mirrorRows, readState, snapshotData, sorted, stepLines, writtenIds } from '../helpers/sync.js';
import { runSwapx } from '../helpers/run.js';

const H = 3_600_000;

describe('late arrivals', () => {
  const data = { seed: 22, swapsPerHour: 120, lateShare: 0.25, lateByMs: 3 * H };
  const T = Date.parse('2026-11-10T01:00:00Z');
  const SINCE = '2026-11-09T20:00:00Z';
  const api = useClockedSandbox({ ...data, clock: T });

  /** A mirror synced up to T at clock T, the late swaps of it not visible yet; then the clock moves four hours on. */
  async function syncedBeforeTheLate(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
    const env = api.env();
    const dir = path.join(tempDir('swapx-sync-'), 'out');
    api.clock = T;
    const first = await runSwapx(['sync', '--out', dir, '--since', SINCE, '--until', '2026-11-10T01:00:00Z', '-q'], { env: env });
    expect(first.code, first.stderr).toBe(0);
    api.clock = T + 4 * H;
    return { dir, env };
  }

  it('are picked up by the re-scan, once, into the partition of their date, which is rewritten', async () => {
    const { dir, env } = await syncedBeforeTheLate();
    const firstIds = expectedIds(data, SINCE, '2026-11-10T01:00:00Z', T);
    expect(sorted(writtenIds(dir))).toEqual(firstIds);
    const second = await runSwapx(['sync', '--out', dir, '--until', '2026-11-10T05:00:00Z', '--summary-json'], { env: env });
    expect(second.code).toBe(0);
    const late = expectedIds(data, SINCE, '2026-11-10T01:00:00Z', api.clock).filter((id) => !firstIds.includes(id));
    const fresh = expectedIds(data, '2026-11-10T01:00:00Z', '2026-11-10T05:00:00Z', api.clock);
    expect(late.length).toBeGreaterThan(20);
    const [step] = stepLines(second);
    expect(step).toMatchObject({ lateSwaps: late.length, newSwaps: fresh.length, cursor: '2026-11-10T05:00:00Z' });
    expect(step!.updatedSwaps).toBeGreaterThan(0);
    expect(step!.parts).toEqual(['date=2026-11-09/part.jsonl', 'date=2026-11-10/part.jsonl']);

    // A third run finds nothing; the whole equals what the API serves at the later clock, and a clean run made then.
    const third = await runSwapx(['sync', '--out', dir, '--until', '2026-11-10T05:00:00Z', '--summary-json'], { env: env });
    expect(stepLines(third)[0]).toMatchObject({ newSwaps: 0, lateSwaps: 0, updatedSwaps: 0, parts: [] });
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, '2026-11-10T05:00:00Z', api.clock));
    const cleanDir = path.join(tempDir('swapx-sync-'), 'clean');
    const clean = await runSwapx(['sync', '--out', cleanDir, '--since', SINCE, '--until', '2026-11-10T05:00:00Z', '-q'], { env: env });
    expect(clean.code).toBe(0);
    expect(snapshotData(dir)).toEqual(snapshotData(cleanDir));
    expectTidy(dir);
  });

  it('--rescan-every skips the re-scan while recent (by the API clock); the next one starts where the last one ended', async () => {
    const { dir, env } = await syncedBeforeTheLate();
    // The API's clock moved four hours since the last re-scan: under --rescan-every 5h, none.
    const skipped = await runSwapx(['sync', '--out', dir, '--rescan-every', '5h', '--until', '2026-11-10T03:00:00Z', '--summary-json'], { env: env });
    // No re-scan: only late swaps whose updatedAt is past the updates cursor come (through the Updated pass).
    const lateSeen = stepLines(skipped)[0]!.lateSwaps;
    expect(readState(dir).rescanBase).toBe('2026-11-10T01:00:00Z');
    const rescanned = await runSwapx(['sync', '--out', dir, '--until', '2026-11-10T05:00:00Z', '--summary-json'], { env: env });
    expect(stepLines(rescanned)[0]!.lateSwaps).toBeGreaterThan(lateSeen + 20);
    expect(mirrorRows(dir)).toEqual(expectedRows(data, SINCE, '2026-11-10T05:00:00Z', api.clock));
    expectTidy(dir);
  });

  it('--lag 0 turns the re-scan off: the completions from the cursor to --until, and the Updated pass from the updates cursor to the server clock', async () => {
    const { dir, env } = await syncedBeforeTheLate();
    const from = Date.parse(readState(dir).updatedCursor);
    const cursor = Date.parse(readState(dir).cursor);
    const r = await runSwapx(['sync', '--out', dir, '--lag', '0', '--until', '2026-11-10T02:00:00Z', '--summary-json'], { env: env });
    const [step] = stepLines(r);
    const windows = (from: number, to: number) => Math.ceil((to - from) / (30 * 60_000));
    expect(step).toMatchObject({ windows: windows(cursor, Date.parse('2026-11-10T02:00:00Z')) + windows(from, api.clock) });
    // The updates cursor stays 2 minutes behind the server clock: what changed since is fetched again next time.
    expect(Date.parse(step!.updatedCursor)).toBeLessThanOrEqual(api.clock - 2 * 60_000);
  });
});
