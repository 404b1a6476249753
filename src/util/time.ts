/**
 * The `<time>` and `<duration>` forms of CLI.md: ISO 8601 (no zone means
 * UTC), `now`, `today`, `yesterday` (UTC midnights), or a duration such as
 * `90m`, `6h`, `7d`, `2w` meaning that long before now.
 */

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/;

export const TIME_FORMS =
  'an ISO 8601 date or date-time (UTC unless a zone is given, e.g. 2026-11-01 or 2026-11-01T12:30:00Z), now, today, yesterday, or a duration before now such as 90m, 6h, 7d, 2w';

/** The one `<duration>` grammar (--timeout, --window, --last, --interval, config set timeout), said once for errors and help. */
export const DURATION_FORMS = 'a number with a unit, ms, s, m, h, d or w, such as 500ms, 30s, 90m, 6h, 7d or 1h30m';

/**
 * Parses `90m`, `30s`, `500ms`, a sequence like `1h30m`, or a bare number of seconds (`5`, as sleep(1) and
 * --timeout always read it). Returns ms, or undefined when not a duration.
 */
export function parseDuration(input: string): number | undefined {
  const text = input.trim().toLowerCase();
  if (text === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const parts = text.match(/\d+(?:\.\d+)?(?:ms|s|m|h|d|w)/g);
  if (!parts || parts.join('') !== text) return undefined;
  let total = 0;
  for (const part of parts) {
    const m = DURATION_RE.exec(part);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

/** A duration as a user would write it, in its largest exact unit: 600000 → 10m, 90000 → 90s, 5400000 → 90m. */
export function formatDuration(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit]!;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

const DATE_ONLY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function utcMidnight(ms: number): number {
  return ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
}

function validParts(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** Parses a `<time>`. Returns epoch ms, or undefined when the text is none of the accepted forms. */
/** Date.UTC for any year: Date.UTC itself reads years 0 to 99 as 1900 to 1999. */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  return date.getTime();
}

export function parseTime(input: string, now: number = Date.now()): number | undefined {
  const text = input.trim();
  const lower = text.toLowerCase();
  if (lower === 'now') return now;
  if (lower === 'today') return utcMidnight(now);
  if (lower === 'yesterday') return utcMidnight(now) - 86_400_000;
  // A bare number is no time (a year? seconds since 1970?): a duration before now needs its unit here.
  const duration = /^[\d.]+$/.test(lower) ? undefined : parseDuration(lower);
  if (duration !== undefined) return now - duration;

  const dateOnly = DATE_ONLY_RE.exec(text);
  if (dateOnly) {
    const [y, mo, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    return validParts(y, mo, d) ? utc(y, mo, d, 0, 0, 0) : undefined;
  }
  const dt = DATE_TIME_RE.exec(text);
  if (!dt) return undefined;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(dt[i])) as [number, number, number, number, number];
  const s = dt[6] === undefined ? 0 : Number(dt[6]);
  if (!validParts(y, mo, d, h, mi, s)) return undefined;
  const fraction = dt[7] ? Math.round(Number(dt[7]) * 1000) : 0;
  let ms = utc(y, mo, d, h, mi, s) + fraction;
  const zone = dt[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    if (Number(digits.slice(0, 2)) > 23 || Number(digits.slice(2, 4)) > 59) return undefined;
    ms -= sign * offset * 60_000;
  }
  return ms;
}

/** ISO 8601 in UTC with whole seconds when the value has no milliseconds: 2026-11-01T00:30:00Z. */
export function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** A short human duration: 850ms, 12.3s, 4m05s, 2h10m. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s).padStart(2, '0')}s`;
}

const ZONE_RE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date-time the API sent. ASP.NET writes a DateTime of unspecified kind
 * without a zone (2026-11-01T12:10:00.1234567); the API's times are UTC, so
 * such a value is read as UTC, never as the machine's local time.
 */
export function parseApiTime(value: string): number {
  const fast = fastUtc(value);
  if (fast !== undefined) return fast;
  // ISO 8601 (RFC 3339) only, and a real calendar date: Date.parse alone also reads '1' (2001), 'Nov 1 2026' (local
  // time) and 30 February (as 2 March), which would put a swap on the wrong day rather than be refused.
  const m = API_TIME_RE.exec(value);
  if (!m) return Number.NaN;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  const text = value.toUpperCase();
  return Date.parse(ZONE_RE.test(text) ? text : `${text}Z`);
}

/** A date and time, a fraction of a second (ASP.NET writes up to seven digits), a zone or none (read as UTC). */
const API_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;

/** Digits at value[start, start + count) as a number, or -1 when one is not a digit. */
export function digits(value: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** The days of a month (1-12) of the proleptic Gregorian calendar. */
export function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.mmm]Z`, the form the API sends, without Date.parse: an export reads six per swap.
 * Only values Date.parse reads the same way take this path (no 30 February, which Date.parse rolls over
 * into March, no leap second, no 24:00, no year before 1000); anything else is left to Date.parse.
 */
function fastUtc(value: string): number | undefined {
  const length = value.length;
  if ((length !== 20 && length !== 24) || value.charCodeAt(length - 1) !== 90) return undefined;
  if (value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':') return undefined;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  const ms = length === 24 ? (value[19] === '.' ? digits(value, 20, 3) : -1) : 0;
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  if (second < 0 || second > 59 || ms < 0) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}
