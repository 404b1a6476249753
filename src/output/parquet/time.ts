/** API date-times as the microseconds a Parquet TIMESTAMP(MICROS) holds. */
import { daysIn, digits, parseApiTime } from '../../util/time.js';

const FRACTION_RE = /T\d\d:\d\d:\d\d\.(\d+)/;
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/** Days from 1970-01-01 to year-month-day: the proleptic Gregorian calendar, H. Hinnant's days_from_civil. */
function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/**
 * YYYY-MM-DDTHH:MM:SS[.f…]Z, the form the API sends, read digit by digit into out[at]: Date.parse and a regex
 * per time were most of the cost of a row. The result goes straight into the column (a number returned would
 * be boxed until the caller is optimised: 300,000 times a day). False for any other form or a day the month
 * does not have (as parseApiTime refuses it), out[at] untouched.
 */
export function fastUtcMicrosInto(value: string, out: Float64Array, at: number): boolean {
  const n = value.length;
  if (n < 20 || value.charCodeAt(n - 1) !== 90 /* Z */ || value.charCodeAt(10) !== 84 /* T */) return false;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let micros = 0;
  if (n > 20) {
    // A point and 1 to 9 digits (as parseApiTime takes them): up to the microsecond read, the rest only checked
    // (digits of none are 0).
    if (value.charCodeAt(19) !== 46 /* . */ || n < 22 || n > 30) return false;
    const end = Math.min(n - 1, 26);
    const fraction = digits(value, 20, end - 20);
    if (fraction < 0 || digits(value, 26, n - 27) < 0) return false;
    micros = fraction * POWERS[6 - (end - 20)]!;
  }
  out[at] = (epochDay(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000 + micros;
  return true;
}

/**
 * An API date-time as microseconds since the epoch, UTC. Digits past the microsecond (ASP.NET may
 * send 7) are cut. A time without a zone is UTC, as everywhere in swapx.
 */
export function apiTimeMicros(value: string): bigint {
  return BigInt(timeMicros(value));
}

/** timeMicros(value) into out[at]. */
export function timeMicrosInto(value: string, out: Float64Array, at: number): void {
  if (!fastUtcMicrosInto(value, out, at)) out[at] = otherTimeMicros(value);
}

const one = new Float64Array(1);

/** apiTimeMicros as a number (exact to the year 2255: 2^53 µs). */
export function timeMicros(value: string): number {
  timeMicrosInto(value, one, 0);
  return one[0]!;
}

/** Any other form reads as everywhere in swapx; only the digits past the millisecond are read here. */
function otherTimeMicros(value: string): number {
  const ms = parseApiTime(value);
  if (Number.isNaN(ms)) throw new RangeError(`not a date-time: '${value}'`);
  const fraction = FRACTION_RE.exec(value)?.[1] ?? '';
  // Digits 4 to 6 (none: 0).
  const micros = Number(fraction.slice(3, 6).padEnd(3, '0'));
  return ms * 1000 + micros;
}
