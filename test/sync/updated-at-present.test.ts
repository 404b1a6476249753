/**
 * The state's promise (state.ts, README "What current means"): after a run, the mirror holds every swap
 * completed in [since, cursor), in the version the API served during that run. A swap completed minutes
 * before the run and updated in the last second before it (after the second the server's Date header
 * names: `present`, read in whole seconds) breaks it: the Updated pass asks [updatedCursor, present), which
 * its updatedAt is past, no Completed window covers its completedAt, and the cursor moves past it anyway.
 * The next run at a later clock fetches it: a swap missing for one run, not lost, but "held up to the
 * cursor" is not true after the run that moved the cursor.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { swapsInWindow } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/cli.js';
import { useClockedSandbox } from '../helpers/clocked-sandbox.js';
import { mirrorRows, readState } from '../helpers/sync.js';
import { runSwapx } from '../helpers/run.js';

const M = 60_000;
const data = { seed: 81, swapsPerHour: 120 };
const T1 = Date.parse('2026-11-11T10:00:00Z');

describe('a swap updated within the second before the server clock read', () => {
  const api = useClockedSandbox({ ...data, clock: T1 });

  it('is held after the run whose cursor passes its completedAt', async () => {
    // A swap completing just after the first run's cursor (T1 − 2 min), updated more than 3 minutes later,
    // in the second half of a second: at a clock 100 ms after its update, the Date header still names the second before it.
    const candidates = swapsInWindow(
      { from: new Date(T1 - 2 * M + 1000).toISOString(), to: new Date(T1 + 30 * M).toISOString(), filter: 'Completed', now: T1 + 86_400_000 },
      data,
    );
    const swap = candidates.find((s) => {
      const c = Date.parse(s.completedAt);
      const u = Date.parse(s.updatedAt);
      return u - c > 3 * M && u - c < 10 * M && u % 1000 >= 500;
    })!;
    expect(swap).toBeDefined();
    const T2 = Date.parse(swap.updatedAt) + 100;

    const dir = path.join(tempDir('swapx-present-'), 'out');
    api.clock = T1;
    expect((await runSwapx(['sync', '--out', dir, '--since', new Date(T1 - 60 * M).toISOString()], { env: api.env() })).code).toBe(0);
    expect(Date.parse(readState(dir).cursor)).toBeLessThanOrEqual(Date.parse(swap.completedAt));

    api.clock = T2;
    expect((await runSwapx(['sync', '--out', dir], { env: api.env() })).code).toBe(0);
    const cursor = Date.parse(readState(dir).cursor);
    expect(cursor).toBeGreaterThan(Date.parse(swap.completedAt));
    // The API serves it at T2, in the version updated at T2 − 100 ms; the cursor is past its completedAt.
    const served = swapsInWindow({ from: swap.completedAt, to: swap.completedAt, filter: 'Completed', now: T2 }, data).find((s) => s.id === swap.id);
    expect(served?.updatedAt).toBe(swap.updatedAt);
    // Now: not in the mirror at all until a run at a later clock.
    expect(mirrorRows(dir).find((row) => row.id === swap.id)).toEqual(JSON.parse(JSON.stringify(served)));
  });
});
