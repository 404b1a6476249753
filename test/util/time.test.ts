import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatUtc, parseApiTime, parseDuration, parseTime } from '../../src/util/time.js';

const now = Date.parse('2026-11-21T15:45:30.250Z');

describe('parseTime', () => {
  it('reads dates as UTC midnights and date-times without zone as UTC', () => {
    expect(parseTime('2026-11-01', now)).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(parseTime('2026-11-01T12:30', now)).toBe(Date.parse('2026-11-01T12:30:00Z'));
    expect(parseTime('2026-11-01T12:30:15.5', now)).toBe(Date.parse('2026-11-01T12:30:15.500Z'));
  });
  it('applies an explicit zone', () => {
    expect(parseTime('2026-11-01T12:00:00+02:00', now)).toBe(Date.parse('2026-11-01T10:00:00Z'));
    expect(parseTime('2026-11-01T12:00:00-0130', now)).toBe(Date.parse('2026-11-01T13:30:00Z'));
  });
  it('reads now, today, yesterday and durations before now', () => {
    expect(parseTime('now', now)).toBe(now);
    expect(parseTime('today', now)).toBe(Date.parse('2026-11-21T00:00:00Z'));
    expect(parseTime('Yesterday', now)).toBe(Date.parse('2026-11-20T00:00:00Z'));
    expect(parseTime('90m', now)).toBe(now - 90 * 60_000);
    expect(parseTime('2w', now)).toBe(now - 14 * 86_400_000);
  });
  it.each(['', 'tomorrowish', '2026-13-01', '2026-02-30', '2026-11-01T25:00', '11/01/2026', '7 days', '-5m'])('rejects %j', (text) => {
    expect(parseTime(text, now)).toBeUndefined();
  });
});

describe('parseDuration', () => {
  it('reads units and sums', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('7d')).toBe(604_800_000);
  });
  it('rejects what is not a duration', () => {
    expect(parseDuration('m')).toBeUndefined();
    expect(parseDuration('5y')).toBeUndefined();
    expect(parseDuration('-5')).toBeUndefined();
    expect(parseDuration('')).toBeUndefined();
  });
  // Issue 22.13: one grammar: a bare number is seconds (as --timeout 5 always was, and sleep(1)); a range refuses it (bounds.ts, issue 33).
  it('reads a bare number as seconds', () => {
    expect(parseDuration('30')).toBe(30_000);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('1.5')).toBe(1500);
  });
  it('a bare number is no <time>: a year or seconds since 1970 would be a guess', () => {
    expect(parseTime('30', Date.parse('2026-11-08T00:00:00Z'))).toBeUndefined();
    expect(parseTime('30s', Date.parse('2026-11-08T00:00:00Z'))).toBe(Date.parse('2026-11-07T23:59:30Z'));
  });
});

describe('formatDuration', () => {
  it('writes a duration as a user would, in its largest exact unit', () => {
    expect(formatDuration(600_000)).toBe('10m');
    expect(formatDuration(90_000)).toBe('90s');
    expect(formatDuration(5_400_000)).toBe('90m');
    expect(formatDuration(120_000)).toBe('2m');
    expect(formatDuration(86_400_000)).toBe('1d');
    expect(formatDuration(1500)).toBe('1500ms');
  });
  it('reads back what it writes', () => {
    for (const ms of [1000, 60_000, 600_000, 1_800_000, 3_600_000, 604_800_000, 250]) expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});

describe('formatUtc', () => {
  it('omits zero milliseconds', () => {
    expect(formatUtc(Date.parse('2026-11-01T00:30:00Z'))).toBe('2026-11-01T00:30:00Z');
    expect(formatUtc(Date.parse('2026-11-01T00:30:00.120Z'))).toBe('2026-11-01T00:30:00.120Z');
  });
});

describe('parseApiTime', () => {
  it('reads a zoneless date-time as UTC, whatever the machine zone', () => {
    expect(parseApiTime('2026-11-01T12:10:00.1234567')).toBe(Date.parse('2026-11-01T12:10:00.123Z'));
    expect(parseApiTime('2026-11-01T12:10:00')).toBe(Date.parse('2026-11-01T12:10:00Z'));
    expect(parseApiTime('2026-11-01T12:10:00Z')).toBe(Date.parse('2026-11-01T12:10:00Z'));
    expect(parseApiTime('2026-11-01T14:10:00+02:00')).toBe(Date.parse('2026-11-01T12:10:00Z'));
    expect(Number.isNaN(parseApiTime('yesterday-ish'))).toBe(true);
  });

  // The API's own form is read without Date.parse: the two must agree on every text of that shape, odd ones included.
  it('reads YYYY-MM-DDTHH:MM:SS[.mmm]Z as Date.parse does when it is a real date and time, else NaN (no rolling over)', () => {
    const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
    const text = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two, two, two, two, two, fc.option(fc.integer({ min: 0, max: 999 })))
      .map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}${ms === null ? '' : `.${String(ms).padStart(3, '0')}`}Z`);
    fc.assert(
      fc.property(text, (value) => {
        const parsed = Date.parse(value);
        // Real: Date.parse reads it back to the same fields (30 February would come back as 2 March).
        const real = !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 19) === value.slice(0, 19);
        expect(parseApiTime(value)).toBe(real ? parsed : Number.NaN);
      }),
      { numRuns: 2000 },
    );
    for (const odd of ['2026-02-30T00:00:00Z', '2026-10-01T24:00:00Z', '2026-10-01T23:59:60Z']) expect(parseApiTime(odd)).toBeNaN();
    for (const fine of ['0099-01-01T00:00:00Z', '2026-10-01T00:00:00.1234Z', '2026-10-01T00:00:00.1234567', '2026-10-01T02:00:00+02:00']) {
      expect(parseApiTime(fine)).toBe(Date.parse(fine.includes('+') || fine.endsWith('Z') ? fine : `${fine}Z`));
    }
    for (const loose of ['1', 'a 1', 'Nov 1 2026', 'Sun Nov 01 2026 00:02:00', '2026-11-01', '2026-11-01 00:00:00Z']) expect(parseApiTime(loose)).toBeNaN();
  });
});
