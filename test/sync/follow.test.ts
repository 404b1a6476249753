/** --follow's loop: a step on a fixed cadence, the wait cut short by the signal, never a step. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followLoop, sleep } from '../../src/sync/follow.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('sleep', () => {
  it('resolves after the time asked, not before', async () => {
    vi.useFakeTimers();
    let done = false;
    const wait = sleep(1000, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(done).toBe(true);
  });

  it('resolves at once on the signal, and stops listening and waiting', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const remove = vi.spyOn(stop.signal, 'removeEventListener');
    let done = false;
    const wait = sleep(60_000, stop.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    stop.abort();
    await wait;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(remove).toHaveBeenCalledTimes(1);
    expect(remove.mock.calls[0]?.[0]).toBe('abort');
  });

  it('an aborted signal: resolves at once, setting no timer', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    stop.abort();
    await sleep(60_000, stop.signal);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('after the time: no listener is left on the signal', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const remove = vi.spyOn(stop.signal, 'removeEventListener');
    const wait = sleep(10, stop.signal);
    await vi.advanceTimersByTimeAsync(10);
    await wait;
    expect(remove).toHaveBeenCalledTimes(1);
    expect(remove.mock.calls[0]?.[0]).toBe('abort');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('followLoop', () => {
  it('steps every interval from the start of one step to the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const stop = new AbortController();
    const starts: number[] = [];
    const loop = followLoop({
      intervalMs: 1000,
      signal: stop.signal,
      step: async () => {
        starts.push(performance.now());
        // Each step takes 300 ms: the next starts 700 ms after it ends.
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (starts.length === 3) stop.abort();
      },
    });
    await vi.advanceTimersByTimeAsync(5000);
    await loop;
    const t0 = starts[0]!;
    expect(starts.map((t) => t - t0)).toEqual([0, 1000, 2000]);
  });

  it('a step longer than the interval: the next starts at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const stop = new AbortController();
    const starts: number[] = [];
    const loop = followLoop({
      intervalMs: 1000,
      signal: stop.signal,
      step: async () => {
        starts.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 1500));
        if (starts.length === 2) stop.abort();
      },
    });
    await vi.advanceTimersByTimeAsync(5000);
    await loop;
    // (a timer of 0 ms fires after 1)
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(1500);
    expect(starts[1]! - starts[0]!).toBeLessThanOrEqual(1501);
  });

  it('a signal during a step: that step finishes, no other starts, no wait', async () => {
    const stop = new AbortController();
    let steps = 0;
    const started = performance.now();
    await followLoop({
      intervalMs: 60_000,
      signal: stop.signal,
      step: async () => {
        steps += 1;
        stop.abort();
      },
    });
    expect(steps).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('an aborted signal: no step', async () => {
    const stop = new AbortController();
    stop.abort();
    let steps = 0;
    await followLoop({ intervalMs: 1, signal: stop.signal, step: async () => void (steps += 1) });
    expect(steps).toBe(0);
  });

  it('a step that throws ends the loop with its error', async () => {
    await expect(
      followLoop({
        intervalMs: 1,
        signal: new AbortController().signal,
        step: async () => {
          throw new Error('broken');
        },
      }),
    ).rejects.toThrow('broken');
  });
});
