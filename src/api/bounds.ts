/**
 * Every default and bound of swapx, and the checks that enforce them: the
 * flags, the config validation, the help text and the library client read
 * them here, so a bound changes in one line. Each failed check is a
 * one-line UsageError (exit 2) that names the option.
 */
import { UsageError } from './errors.js';
import { MAX_WINDOW_MS } from './types.js';
import { DURATION_FORMS, TIME_FORMS, parseDuration, parseTime } from '../util/time.js';

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

/** --rps: requests per second above 0 and at most RPS_MAX, or undefined when the option is not given. */
export function parseRps(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const rps = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(rps > 0) || rps > RPS_MAX)
    throw new UsageError(`--rps must be a positive number of requests per second, not '${text}'`);
  return rps;
}

/** A whole number within `min..max`, or undefined when the option is not given. */
export function parseIntInRange(text: string | undefined, name: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(n)) throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not '${text}'`);
  if (n < min || n > max) throw new UsageError(`${name} must be from ${min} to ${max}, not ${trimmed}`);
  return n;
}

/** Like parseIntInRange, for the settings: the one wording of the profile, the environment and the flag. */
export function parseWholeNumber(text: string, name: string, bound: Pick<Bound, 'min' | 'max'>): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < bound.min || n > bound.max) {
    throw new UsageError(`${name} must be a whole number from ${bound.min} to ${bound.max}, not '${text}'`);
  }
  return n;
}

/** A `<time>` option (TIME_FORMS), as epoch ms. */
export function parseTimeOption(name: string, text: string, now: number): number {
  const ms = parseTime(text, now);
  if (ms === undefined) throw new UsageError(`${name}: cannot read '${text}' as a time; use ${TIME_FORMS}`);
  // '20000000w' reads, but before any date a Date holds: every later use of it would throw 'Invalid time value'.
  if (!(Math.abs(ms) <= MAX_TIME_MS)) throw new UsageError(`${name} '${text}' is beyond the dates a time can hold`);
  return ms;
}

/** The largest time a Date holds (±100,000,000 days from 1970). */
const MAX_TIME_MS = 8.64e15;

/**
 * A `<duration>` that spans data (--last, --window, --lag): a bare number is refused, not read as seconds (as a
 * wait's is: --timeout 30, as curl's), since `--last 7` meant seven days far more often than seven seconds. 0 is 0.
 */
export function parseSpanOption(name: string, text: string): number {
  refuseBareSpan(name, text);
  return parseDurationOption(name, text);
}

/** Throws the refusal of a span given as a bare number (but 0). */
export function refuseBareSpan(name: string, text: string): void {
  const bare = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(text)?.[1];
  if (bare !== undefined && Number(bare) !== 0) {
    throw new UsageError(
      `${name}: '${bare}' has no unit, and a range needs one: ${bare}d for ${bare} days, ${bare}h for ${bare} hours (units: ms, s, m, h, d, w)`,
    );
  }
}

/** A `<duration>` option, as ms. */
export function parseDurationOption(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`${name}: '${text}' is not a duration: use ${DURATION_FORMS}`);
  return ms;
}
