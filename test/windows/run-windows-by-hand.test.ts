/**
 * runWindows at its edges, driven by hand (fetches settle when the test says, no sleeps): no windows, the
 * default look-ahead and the least parallelism exactly, the byte budget's exact fit, a failing consumer, and
 * a fetch failing or an interrupt while nothing is being consumed.
 */
import { describe, expect, it, vi } from 'vitest';
import { AbortedError } from '../../src/api/errors.js';
import { planWindows, type Window } from '../../src/windows/plan.js';
import { runWindows, WindowFailedError } from '../../src/windows/run-windows.js';

const windows = planWindows(0, 20 * 60_000, 60_000);

/** Lets every promise callback and I/O turn that is due run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Fetches that finish at once but for the windows held: how many windows were started while they were held. */
function harness(held: readonly number[], size = 0) {
  const gates = new Map(held.map((index) => [index, gate<number>()]));
  const signals = new Map<number, AbortSignal>();
  const started: number[] = [];
  const consumed: number[] = [];
  return {
    started,
    consumed,
    signals,
    release: (index: number) => gates.get(index)!.open(size),
    fetch: (window: Window, signal: AbortSignal) => {
      started.push(window.index);
      signals.set(window.index, signal);
      return gates.get(window.index)?.promise ?? Promise.resolve(size);
    },
    consume: async (window: Window) => {
      consumed.push(window.index);
    },
  };
}

describe('runWindows: how far ahead', () => {
  it('an empty list of windows is done at once, fetching and consuming nothing', async () => {
    const fetch = vi.fn();
    const consume = vi.fn();
    await expect(runWindows({ windows: [], concurrency: 2, fetch, consume })).resolves.toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();
    expect(consume).not.toHaveBeenCalled();
  });

  it('runs twice the concurrency ahead of the writer by default, exactly', async () => {
    const h = harness([0]);
    const run = runWindows({ windows, concurrency: 3, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(h.consumed).toEqual([]);
    h.release(0);
    await run;
    expect(h.consumed).toEqual(windows.map((w) => w.index));
  });

  it('runs as many windows at once as the concurrency, even with a smaller maxAhead', async () => {
    const h = harness([0, 1, 2, 3]);
    const run = runWindows({ windows, concurrency: 4, maxAhead: 1, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.started).toEqual([0, 1, 2, 3]);
    for (const index of [3, 2, 1, 0]) h.release(index);
    await run;
    expect(h.consumed).toEqual(windows.map((w) => w.index));
  });

  it('runs maxAhead windows ahead when it is above the concurrency, however fast the others finish', async () => {
    const h = harness([0]);
    const run = runWindows({ windows, concurrency: 2, maxAhead: 7, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    h.release(0);
    await run;
  });

  it('fills the byte budget exactly: windows of 5 bytes and a budget of 10 run two ahead, not one nor three', async () => {
    const h = harness([1], 5);
    const run = runWindows({ windows, concurrency: 8, maxBytesAhead: 10, sizeOf: (size) => size, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.consumed).toEqual([0]);
    expect(h.started).toEqual([0, 1, 2]);
    h.release(1);
    await run;
    expect(h.consumed).toEqual(windows.map((w) => w.index));
  });

  it('runs one window alone until a first size is known', async () => {
    const h = harness([0], 1);
    const run = runWindows({ windows, concurrency: 8, maxBytesAhead: 1000, sizeOf: (size) => size, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.started).toEqual([0]);
    h.release(0);
    await run;
    expect(h.consumed).toHaveLength(windows.length);
  });

  it('a byte budget without sizeOf counts every result as empty: the look-ahead alone bounds the run', async () => {
    const h = harness([1]);
    const run = runWindows({ windows, concurrency: 2, maxBytesAhead: 10, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.started).toEqual([0, 1, 2, 3, 4]);
    h.release(1);
    await run;
  });

  it('expects each window running to hold the mean size of those done (total over count)', async () => {
    // Windows of 5 bytes, a budget of 20: once two are done the mean is still 5, and a sixth window fits.
    const h = harness([2], 5);
    const run = runWindows({ windows, concurrency: 8, maxBytesAhead: 20, sizeOf: (size) => size, fetch: h.fetch, consume: h.consume });
    await settle();
    expect(h.consumed).toEqual([0, 1]);
    expect(h.started).toEqual([0, 1, 2, 3, 4, 5]);
    h.release(2);
    await run;
  });

  it('counts the bytes of results fetched but not consumed against the budget', async () => {
    // Window 0 is held; 1 and 2 are fetched (10 bytes each, 20 of 25 used), and the mean says a third would not fit.
    const gates = [gate<number>()];
    const started: number[] = [];
    const run = runWindows({
      windows,
      concurrency: 8,
      maxBytesAhead: 25,
      sizeOf: (size: number) => size,
      fetch: (w) => {
        started.push(w.index);
        return w.index === 0 ? Promise.resolve(10) : w.index === 1 ? gates[0]!.promise : Promise.resolve(10);
      },
      consume: async () => {},
    });
    await settle();
    // 0 done and consumed (mean 10): 1 held, 2 fetched: ahead 10 ready + 10 expected = 20, and 20 + 10 > 25.
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.open(10);
    await run;
  });
});

describe('runWindows: failures', () => {
  it('a consumer that fails stops the run with its own error, and nothing more is consumed or fetched', async () => {
    const h = harness([]);
    const boom = new Error('disk full');
    const consumed: number[] = [];
    const error = await runWindows({
      windows,
      concurrency: 2,
      fetch: h.fetch,
      consume: async (w) => {
        consumed.push(w.index);
        if (w.index === 2) throw boom;
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(consumed).toEqual([0, 1, 2]);
    const fetched = h.started.length;
    await settle();
    expect(h.started.length).toBe(fetched);
    expect(fetched).toBeLessThanOrEqual(2 + 2 * 2);
    expect([...h.signals.values()].every((signal) => signal.aborted)).toBe(true);
  });

  it('a fetch failing while nothing is consumed fails the run at once, naming its window, and aborts the others', async () => {
    const h = harness([0]);
    let failure: unknown;
    const run = runWindows({
      windows,
      concurrency: 2,
      fetch: (w, signal) => (w.index === 1 ? Promise.reject(new Error('503 from the server')) : h.fetch(w, signal)),
      consume: h.consume,
    }).catch((e: unknown) => {
      failure = e;
    });
    await settle();
    expect(failure).toBeInstanceOf(WindowFailedError);
    expect((failure as WindowFailedError).window).toEqual(windows[1]);
    expect((failure as Error).message).toBe('503 from the server');
    expect(((failure as Error).cause as Error).message).toBe('503 from the server');
    expect(h.signals.get(0)!.aborted).toBe(true);
    h.release(0);
    await run;
    expect(h.consumed).toEqual([]);
  });

  it('a failure that is not an Error is named as text; an AbortedError from a fetch is passed on as it is', async () => {
    const text = await runWindows({ windows, concurrency: 1, fetch: () => Promise.reject('refused'), consume: async () => {} }).catch((e: unknown) => e);
    expect(text).toBeInstanceOf(WindowFailedError);
    expect((text as Error).message).toBe('refused');
    const aborted = new AbortedError('stopped');
    expect(await runWindows({ windows, concurrency: 1, fetch: () => Promise.reject(aborted), consume: async () => {} }).catch((e: unknown) => e)).toBe(aborted);
  });

  it('a fetch failing while a window is being consumed fails the run only once that consume has finished', async () => {
    const consuming = gate();
    let failure: unknown;
    let consumeDone = false;
    const run = runWindows({
      windows,
      concurrency: 2,
      fetch: (w) => (w.index === 2 ? Promise.reject(new Error('boom')) : Promise.resolve(0)),
      consume: async (w) => {
        if (w.index === 0) await consuming.promise;
        consumeDone = w.index === 0;
      },
    }).catch((e: unknown) => {
      failure = e;
    });
    await settle();
    expect(failure).toBeUndefined();
    consuming.open();
    await run;
    expect(consumeDone).toBe(true);
    expect((failure as WindowFailedError).window.index).toBe(2);
  });

  it('the first failure is the one reported, not one that follows it while a consume runs', async () => {
    const consuming = gate();
    let failure: unknown;
    const run = runWindows({
      windows,
      concurrency: 2,
      fetch: (w) => (w.index === 1 ? Promise.reject(new Error('first')) : w.index === 2 ? Promise.reject(new Error('second')) : Promise.resolve(0)),
      consume: () => consuming.promise,
    }).catch((e: unknown) => {
      failure = e;
    });
    await settle();
    consuming.open();
    await run;
    expect(failure).toBeInstanceOf(WindowFailedError);
    expect((failure as WindowFailedError).window.index).toBe(1);
  });

  it('an interrupt while only fetches run fails the run at once; a signal already aborted fetches nothing', async () => {
    const controller = new AbortController();
    const h = harness([0]);
    let failure: unknown;
    const run = runWindows({ windows, concurrency: 2, signal: controller.signal, fetch: h.fetch, consume: h.consume }).catch((e: unknown) => {
      failure = e;
    });
    await settle();
    controller.abort();
    await settle();
    expect(failure).toBeInstanceOf(AbortedError);
    expect((failure as Error).message).toBe('interrupted');
    expect(h.signals.get(0)!.aborted).toBe(true);
    h.release(0);
    await run;

    const fetch = vi.fn();
    const error = await runWindows({ windows, concurrency: 2, signal: controller.signal, fetch, consume: async () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('stops listening to the signal once done, whether it succeeded or failed', async () => {
    for (const fails of [false, true]) {
      const controller = new AbortController();
      const add = vi.spyOn(controller.signal, 'addEventListener');
      const remove = vi.spyOn(controller.signal, 'removeEventListener');
      await runWindows({
        windows,
        concurrency: 2,
        signal: controller.signal,
        fetch: () => (fails ? Promise.reject(new Error('x')) : Promise.resolve(0)),
        consume: async () => {},
      }).catch(() => {});
      expect(add).toHaveBeenCalledTimes(1);
      expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0]![1]);
    }
  });
});
