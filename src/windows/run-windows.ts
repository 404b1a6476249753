/**
 * Runs the windows with bounded concurrency (p-limit) and hands results to
 * `consume` strictly in window order. Workers never run further ahead of the
 * writer than `maxAhead` windows, so memory grows with concurrency, never
 * with the range; and with `maxBytesAhead`, never past that many bytes of
 * results waiting or expected, so a dense range runs fewer windows at once.
 */
import pLimit from 'p-limit';
import { AbortedError, WrappedError } from '../api/errors.js';
import type { Window } from './plan.js';

export class WindowFailedError extends WrappedError {
  constructor(
    readonly window: Window,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

export interface RunWindowsOptions<T> {
  windows: readonly Window[];
  concurrency: number;
  /** windows fetched or being fetched but not yet consumed, at most; default 2 × concurrency */
  maxAhead?: number;
  /**
   * Bytes of results fetched or being fetched but not yet consumed, at most (by `sizeOf`): a window being
   * fetched counts as the mean size of those done so far. One window is always allowed, and runs alone until
   * a first size is known.
   */
  maxBytesAhead?: number;
  sizeOf?: (result: T) => number;
  /** `signal` aborts when the run fails or is interrupted: in-flight windows stop at once */
  fetch: (window: Window, signal: AbortSignal) => Promise<T>;
  /** called once per window, in window order, never concurrently */
  consume: (window: Window, result: T) => Promise<void>;
  signal?: AbortSignal;
}

/** Resolves when every window is consumed; rejects with the first failure (a WindowFailedError or AbortedError). */
export function runWindows<T>(options: RunWindowsOptions<T>): Promise<void> {
  const { windows, signal } = options;
  const limit = pLimit(options.concurrency);
  const maxAhead = Math.max(options.concurrency, options.maxAhead ?? options.concurrency * 2);
  const ready = new Map<number, T>();
  const sizeOf = options.sizeOf ?? (() => 0);
  const maxBytesAhead = options.maxBytesAhead ?? Number.POSITIVE_INFINITY;
  let readyBytes = 0;
  let fetchedCount = 0;
  let fetchedBytes = 0;
  let next = 0;
  let scheduled = 0;
  let draining = false;
  let failed = false;
  let failure: unknown;
  const stopFetching = new AbortController();

  return new Promise<void>((resolve, reject) => {
    // Settles only once no consume is running, so the caller never races a half-done write.
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      failure = error;
      limit.clearQueue();
      stopFetching.abort();
      signal?.removeEventListener('abort', onAbort);
      if (!draining) reject(failure);
    };
    const onAbort = () => fail(new AbortedError('interrupted'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };

    // What the windows not yet consumed hold, or will: those fetched by their size, the others by the mean so far.
    const bytesAhead = (mean: number) => readyBytes + (scheduled - next - ready.size) * mean;
    const roomFor = () => {
      if (scheduled === next || maxBytesAhead === Number.POSITIVE_INFINITY) return true;
      // No size known yet: one window first, rather than `concurrency` windows of a range that may be dense.
      if (fetchedCount === 0) return false;
      const mean = fetchedBytes / fetchedCount;
      return bytesAhead(mean) + mean <= maxBytesAhead;
    };
    const schedule = () => {
      while (!failed && scheduled < windows.length && scheduled - next < maxAhead && roomFor()) {
        const window = windows[scheduled]!;
        scheduled += 1;
        limit(() => (failed ? Promise.resolve(undefined) : options.fetch(window, stopFetching.signal))).then(
          (result) => {
            if (failed) return;
            const size = sizeOf(result as T);
            fetchedCount += 1;
            fetchedBytes += size;
            readyBytes += size;
            ready.set(window.index, result as T);
            void drain();
            schedule();
          },
          (error) => fail(error instanceof AbortedError ? error : new WindowFailedError(window, error)),
        );
      }
    };

    const drain = async () => {
      if (draining) return;
      draining = true;
      try {
        // A result that lands while consume runs is seen here: nothing can land between this check and the end.
        while (!failed && next < windows.length && ready.has(windows[next]!.index)) {
          const window = windows[next]!;
          const result = ready.get(window.index) as T;
          ready.delete(window.index);
          readyBytes -= sizeOf(result);
          await options.consume(window, result);
          next += 1;
          schedule();
        }
      } catch (error) {
        fail(error);
      } finally {
        draining = false;
      }
      if (failed) reject(failure);
      else if (next === windows.length) done();
    };

    if (windows.length === 0) return done();
    schedule();
  });
}
