/**
 * A gate every request of one client passes: it spaces requests to a
 * requests-per-second cap and holds all of them while the server has asked
 * to back off (a 429 slows the whole export, not one worker).
 */
import { setTimeout as timersSleep } from 'node:timers/promises';

/** Waits `ms`, or rejects with an AbortError once `signal` aborts. */
export type Sleep = (ms: number, value: undefined, options: { signal?: AbortSignal }) => Promise<unknown>;

export class Throttle {
  private pausedUntil = 0;
  private nextSlot = 0;
  private readonly intervalMs: number;

  constructor(
    requestsPerSecond?: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: Sleep = timersSleep,
  ) {
    const rate = requestsPerSecond ?? 0;
    this.intervalMs = rate > 0 ? 1000 / rate : 0;
  }

  /** Holds every later request until `ms` from now. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  /** Resolves when a request may be sent. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.pausedUntil - this.now();
      if (wait <= 0) break;
      await this.sleep(wait, undefined, { signal });
    }
    // No rate: no slots either, even when the wall clock steps back past the last request.
    if (this.intervalMs === 0) return;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.sleep(slot - now, undefined, { signal });
  }
}
