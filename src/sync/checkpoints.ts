/**
 * When a sync makes its progress durable. A run killed without warning (a container's deadline of a few seconds,
 * SIGKILL) keeps only what it committed, so a run commits early: after its first window, then at intervals that
 * double from FIRST_INTERVAL_MS up to the --checkpoint-every interval, so that a long run commits no more often than
 * that. One schedule serves a whole run: the steps of --follow after the first commit at the full interval.
 */

/** The interval after the first commit; each later one doubles, up to the run's checkpoint interval. */
export const FIRST_INTERVAL_MS = 1000;

/** What a step asks of its schedule. */
export interface Checkpoints {
  /** whether a commit is due now, after a window consumed */
  due(): boolean;
  /** a commit was made, whatever made it due */
  committed(): void;
}

export class CheckpointSchedule implements Checkpoints {
  /** undefined until the first commit: the first window consumed is due at once */
  private interval: number | undefined;
  private last: number;

  constructor(
    /** the run's checkpoint interval (--checkpoint-every; 0: after every window) */
    private readonly maxMs: number,
    /** a monotonic clock, ms (a wall-clock change moves no checkpoint) */
    private readonly clock: () => number = () => performance.now(),
    /** false: the interval from the start, no early commit (the bench measures what they cost) */
    early = true,
  ) {
    this.last = clock();
    if (!early) this.interval = maxMs;
  }

  due(): boolean {
    return this.interval === undefined || this.clock() - this.last >= this.interval;
  }

  /** The next commit is due one interval later, an interval twice the last. */
  committed(): void {
    this.interval = this.interval === undefined ? Math.min(FIRST_INTERVAL_MS, this.maxMs) : Math.min(this.interval * 2, this.maxMs);
    this.last = this.clock();
  }
}
