/**
 * The values of options as the shell reads them: a whole number in a range, a `<time>`, a `<duration>`, a rate.
 * Each failed check is a one-line UsageError (exit 2) that names the option as the caller gives it (`--from`); the
 * bounds themselves are src/api/bounds.ts's.
 */
import { RPS_MAX } from '../api/bounds.js';
import { UsageError } from '../api/errors.js';
import { DURATION_FORMS, TIME_FORMS, parseDuration, parseTime } from '../util/time.js';

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
