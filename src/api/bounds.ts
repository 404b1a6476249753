/**
 * Every default and bound of swapx: the flags (src/cli/option-values.ts reads
 * them), the config validation, the help text and the library client read
 * them here, so a bound changes in one line. The settings' check is here too:
 * a one-line UsageError (exit 2) naming what its caller calls the setting.
 */
import { UsageError } from './errors.js';
import { MAX_WINDOW_MS } from './types.js';

export interface Bound {
  min: number;
  max: number;
  default: number;
}

export const DEFAULT_BASE_URL = 'https://api.pulsy.app';
/** windows (export) or partitions (sync) fetched at once; the HTTP pool is sized to it */
export const CONCURRENCY: Bound = { min: 1, max: 32, default: 4 };
/** per-request timeout, ms */
export const TIMEOUT_MS: Bound = { min: 1, max: 3_600_000, default: 30_000 };
/** retries per request on 429, 5xx, timeouts, resets */
export const RETRIES: Bound = { min: 0, max: 100, default: 5 };
/** the API serves at most 30 minutes per request; below a minute windows only add requests */
export const WINDOW_MS: Bound = { min: 60_000, max: MAX_WINDOW_MS, default: MAX_WINDOW_MS };
/** requests per second across all workers (--rps): above this the limit is no limit */
export const RPS_MAX = 10_000;

/** A setting's whole number within its bound: the one wording of the profile, the environment and the flag. */
export function parseWholeNumber(text: string, name: string, bound: Pick<Bound, 'min' | 'max'>): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < bound.min || n > bound.max) {
    throw new UsageError(`${name} must be a whole number from ${bound.min} to ${bound.max}, not '${text}'`);
  }
  return n;
}
