/** When a run commits as time passes: at once after its first window, then at intervals that double up to --checkpoint-every. */
import { describe, expect, it } from 'vitest';
import { CheckpointSchedule, FIRST_INTERVAL_MS } from '../../src/sync/checkpoints.js';

/** The times (ms from the start) at which a run that checks after every `step` ms up to `until` commits. */
function commitTimes(maxMs: number, step: number, until: number): number[] {
  let now = 0;
  const schedule = new CheckpointSchedule(maxMs, () => now);
  const times: number[] = [];
  for (now = step; now <= until; now += step) {
    if (schedule.due()) {
      times.push(now);
      schedule.committed();
    }
  }
  return times;
}

describe('CheckpointSchedule', () => {
  it('commits after the first window, then 1 s, 2 s, 4 s, 8 s and 16 s later, then every --checkpoint-every (30 s)', () => {
    expect(FIRST_INTERVAL_MS).toBe(1000);
    expect(commitTimes(30_000, 100, 125_000)).toEqual([100, 1100, 3100, 7100, 15_100, 31_100, 61_100, 91_100, 121_100]);
  });

  it('never waits longer than --checkpoint-every, also below the first interval', () => {
    expect(commitTimes(2000, 250, 9000)).toEqual([250, 1250, 3250, 5250, 7250]);
    expect(commitTimes(500, 250, 2000)).toEqual([250, 750, 1250, 1750]);
  });

  it('--checkpoint-every 0: after every window', () => {
    expect(commitTimes(0, 300, 1500)).toEqual([300, 600, 900, 1200, 1500]);
  });

  it('a commit made for another reason (rows, windows) counts: the next is an interval after it', () => {
    let now = 0;
    const schedule = new CheckpointSchedule(30_000, () => now);
    now = 10;
    schedule.committed();
    now = 1009;
    expect(schedule.due()).toBe(false);
    now = 1010;
    expect(schedule.due()).toBe(true);
  });
});

describe('CheckpointSchedule without early commits', () => {
  it('commits every --checkpoint-every from the start, the first window included', () => {
    let now = 0;
    const schedule = new CheckpointSchedule(30_000, () => now, false);
    const times: number[] = [];
    for (now = 100; now <= 95_000; now += 100) {
      if (schedule.due()) {
        times.push(now);
        schedule.committed();
      }
    }
    expect(times).toEqual([30_000, 60_000, 90_000]);
  });
});
