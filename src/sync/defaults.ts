/** The sync engine's defaults and bounds, in one place: the shell's flags and help read them from here. */

export const DEFAULT_LAG_MS = 48 * 3_600_000;
export const DEFAULT_INTERVAL_MS = 60_000;
/** Time between checkpoints: a run killed without warning (SIGKILL) loses at most this much work. */
export const DEFAULT_CHECKPOINT_MS = 30_000;
/** --follow re-scans the trailing lag at most this often by default (a 48 h re-scan is 96 requests) */
export const DEFAULT_FOLLOW_RESCAN_MS = 15 * 60_000;
/** swaps completing right now may not be visible yet: the default --until stays this far behind */
export const SETTLE_MS = 2 * 60_000;

/** The default --until: now minus the settle margin, down to a whole second. */
export function defaultUntil(now: number): number {
  return Math.floor((now - SETTLE_MS) / 1000) * 1000;
}
