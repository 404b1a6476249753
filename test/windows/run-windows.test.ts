import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError } from '../../src/api/errors.js';
import { planWindows } from '../../src/windows/plan.js';
import { type RunWindowsOptions, WindowFailedError, runWindows } from '../../src/windows/run-windows.js';

const windows = planWindows(0, 40 * 60_000, 60_000);

/**
 * Runs every window, window `slow` taking `slowMs` and the others 1 ms, and returns how many windows at most
 * were started and not yet consumed.
 */
async function mostAhead(limits: Omit<RunWindowsOptions<void>, 'windows' | 'fetch' | 'consume'>, slow: number, slowMs: number): Promise<number> {
  let started = 0;
  let consumed = 0;
  let worst = 0;
  await runWindows({
    ...limits,
    windows,
    fetch: async (w) => {
      started += 1;
      worst = Math.max(worst, started - consumed);
      await sleep(w.index === slow ? slowMs : 1);
    },
    consume: async () => {
      consumed += 1;
    },
  });
  expect(consumed).toBe(windows.length);
  return worst;
}

describe('runWindows', () => {
  it('consumes in window order whatever order fetches finish in', async () => {
    const order: number[] = [];
    await runWindows({
      windows,
      concurrency: 8,
      fetch: async (w) => {
        await sleep((w.index * 7919) % 13);
        return w.index;
      },
      consume: async (w, result) => {
        expect(result).toBe(w.index);
        order.push(w.index);
      },
    });
    expect(order).toEqual(windows.map((w) => w.index));
  });

  it('never runs more than maxAhead windows past the writer', async () => {
    // The first window is slow: everything else piles up behind it.
    expect(await mostAhead({ concurrency: 4, maxAhead: 6 }, 0, 30)).toBeLessThanOrEqual(6);
  });

  // Windows of 3 units with room for 10: at most three past the writer (the fourth would make 12), even
  // when concurrency and maxAhead allow eight and a slow window holds the others back; a window larger
  // than the whole budget still runs, alone.
  it.each([
    [3, 10, 3],
    [25, 10, 1],
  ])('with windows of %i bytes and maxBytesAhead %i, runs at most %i past the writer', async (size, budget, most) => {
    expect(await mostAhead({ concurrency: 8, maxBytesAhead: budget, sizeOf: () => size }, 1, 20)).toBe(most);
  });

  it('stops at the first failure and names the window', async () => {
    const consumed: number[] = [];
    const error = await runWindows({
      windows,
      concurrency: 2,
      fetch: async (w) => {
        if (w.index === 5) throw new Error('boom');
      },
      consume: async (w) => {
        consumed.push(w.index);
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WindowFailedError);
    expect((error as WindowFailedError).window.index).toBe(5);
    expect(consumed).toEqual([0, 1, 2, 3, 4]);
  });

  it('rejects with AbortedError when the signal fires, after the running consume finished', async () => {
    const controller = new AbortController();
    let inConsume = false;
    const error = await runWindows({
      windows,
      concurrency: 2,
      signal: controller.signal,
      fetch: async () => {},
      consume: async (w) => {
        inConsume = true;
        if (w.index === 3) controller.abort();
        await sleep(5);
        inConsume = false;
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(inConsume).toBe(false);
  });
});
