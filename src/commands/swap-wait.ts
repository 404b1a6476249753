/**
 * `swapx swap <identifier> --wait [--timeout <duration>]`: the API shows a swap only once it has completed, so "I sent
 * it ten minutes ago" is a wait, not a miss. Looks until the swap appears or the deadline passes, backing off from
 * 2 s to 30 s between looks and never looking sooner than a 429's Retry-After asks (the client retries a 429 on its
 * own first). A terminal shows the wait (a spinner with the time waited), elsewhere one line says it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError, RateLimitError, UsageError } from '../api/errors.js';
import type { Context } from '../cli/context.js';
import { Spinner, spinnerAllowed } from '../cli/spinner.js';
import { formatDuration, formatElapsed, parseDuration } from '../util/time.js';

const DEFAULT_WAIT_MS = 600_000;
const MAX_WAIT_MS = 86_400_000;
const FIRST_PAUSE_MS = 2_000;
const MAX_PAUSE_MS = 30_000;
/** The last look comes at the deadline; a look still unanswered this long after it is given up. */
const LAST_LOOK_GRACE_MS = 5_000;

/** The wait's deadline, ms: --timeout's value with --wait (CLI.md), else 10 minutes. */
export function waitDeadline(text: string | undefined): number {
  if (text === undefined) return DEFAULT_WAIT_MS;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0 || ms > MAX_WAIT_MS)
    throw new UsageError(`--timeout, with --wait the wait's deadline, must be a positive duration up to 24h, such as 10m or 1h, not '${text}'`);
  return ms;
}

/** The pause after the nth look that found nothing (n from 0): 2 s, 4 s, 8 s, 16 s, then 30 s. */
export function pollPause(n: number): number {
  return Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** n);
}

/** 0s, 45s, 1m05s: the time waited, to the second (a tenth would flicker on the spinner). */
function waited(ms: number): string {
  return ms < 60_000 ? `${Math.floor(ms / 1000)}s` : formatElapsed(ms);
}

/**
 * Looks with `look` until it finds something; [] at the deadline, after a last look there (none if a 429 asked to wait
 * past it). Ctrl-C is AbortedError (exit 130); a failure other than a 429 ends the wait as it ends a lookup.
 */
export async function waitFor<T>(ctx: Context, timeoutMs: number, toFile: boolean, look: (signal: AbortSignal) => Promise<T[]>): Promise<T[]> {
  const started = performance.now();
  const interrupt = ctx.io.signal;
  // A look hung past the deadline (and its grace) is given up, with the swap still not seen.
  const cutOff = AbortSignal.timeout(timeoutMs + LAST_LOOK_GRACE_MS);
  const signal = AbortSignal.any([interrupt, cutOff]);
  const pauseFor = (ms: number) =>
    sleep(ms, undefined, { signal: interrupt }).catch((error: unknown) => {
      throw new AbortedError('interrupted', { cause: error });
    });
  let spinner: Spinner | undefined;
  try {
    for (let n = 0; ; n++) {
      let pause = pollPause(n);
      let asked = false;
      try {
        const found = await look(signal);
        if (found.length > 0) return found;
      } catch (error) {
        if (cutOff.aborted && !interrupt.aborted) return [];
        if (!(error instanceof RateLimitError)) throw error;
        asked = (error.retryAfterMs ?? 0) > pause;
        pause = Math.max(pause, error.retryAfterMs ?? 0);
      }
      const left = timeoutMs - (performance.now() - started);
      if (left <= 0) return [];
      if (n === 0) spinner = showWait(ctx, timeoutMs, toFile, started);
      // The server's Retry-After reaches past the deadline: no look may come before it, so none comes.
      if (asked && pause > left) {
        await pauseFor(left);
        return [];
      }
      await pauseFor(Math.min(pause, left));
    }
  } finally {
    spinner?.stop();
  }
}

/** After a first look that found nothing: a spinner where a person watches (gh's rule, cli/spinner.ts), else one line. */
function showWait(ctx: Context, timeoutMs: number, toFile: boolean, started: number): Spinner | undefined {
  if (ctx.quiet) return undefined;
  const { stderr, stdout, env } = ctx.io;
  const of = formatDuration(timeoutMs);
  if (!spinnerAllowed(stderr, toFile ? undefined : stdout, env)) {
    ctx.info(`Waiting up to ${of} for the swap to appear (the API shows a swap once it has completed)`);
    return undefined;
  }
  const spinner = new Spinner(stderr, () => `Waiting for the swap to appear · ${waited(performance.now() - started)} of ${of}`, ctx.err.level > 0);
  spinner.start().catch(() => {});
  return spinner;
}
