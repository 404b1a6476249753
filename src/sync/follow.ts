/**
 * `--follow`: a step every interval until SIGINT/SIGTERM. The signal never
 * cuts a step short: the step in progress finishes and saves its state, then
 * the loop ends. The wait between steps ends at once on the signal.
 */

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    // (done removes it, whichever ends the wait)
    signal.addEventListener('abort', done);
  });
}

export interface FollowOptions {
  intervalMs: number;
  /** the user's stop request */
  signal: AbortSignal;
  /** one step; throws to end the loop */
  step: () => Promise<void>;
}

/** Steps on a fixed cadence (interval from the start of one step to the next, or at once if a step ran longer). */
export async function followLoop(options: FollowOptions): Promise<void> {
  while (!options.signal.aborted) {
    // A cadence, not a date: the monotonic clock, which a wall-clock change does not move.
    const started = performance.now();
    await options.step();
    // A signal during the step: this sleep returns at once, and the loop ends.
    await sleep(Math.max(0, started + options.intervalMs - performance.now()), options.signal);
  }
}
