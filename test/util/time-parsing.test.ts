/**
 * util/time at its edges: the API's own form read without Date.parse up to 23:59:59.999 and the last day of
 * each month, everything around it refused or left to the slower reader, offsets, and formatElapsed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseTimeOption } from '../../src/cli/option-values.js';
import { digits, formatElapsed, formatUtc, parseApiTime, parseTime } from '../../src/util/time.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseApiTime: the API form (YYYY-MM-DDTHH:MM:SS[.mmm]Z) is read without Date.parse', () => {
  it.each([
    '2026-11-30T23:59:59Z',
    '2026-12-31T23:59:59.999Z',
    '2026-01-31T00:00:00.000Z',
    '2026-04-30T12:00:00Z',
    '2026-02-28T12:00:00Z',
    '2024-02-29T12:00:00Z',
    '2000-02-29T12:00:00Z',
    '1000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ])('%s', (value) => {
    const expected = new Date(value).getTime();
    const parse = vi.spyOn(Date, 'parse');
    expect(parseApiTime(value)).toBe(expected);
    expect(parse).not.toHaveBeenCalled();
  });

  it.each([
    ['seven fractional digits', '2026-11-01T12:10:00.1234567Z', '2026-11-01T12:10:00.123Z'],
    ['no zone', '2026-11-01T12:10:00', '2026-11-01T12:10:00Z'],
    ['an offset', '2026-11-01T14:10:00+02:00', '2026-11-01T12:10:00Z'],
    ['a lower-case z', '2026-11-01T12:10:00z', '2026-11-01T12:10:00Z'],
    ['a year before 1000', '0999-01-01T00:00:00Z', '0999-01-01T00:00:00Z'],
  ])('other forms go to the slower reader: %s', (_name, value, same) => {
    const parse = vi.spyOn(Date, 'parse');
    expect(parseApiTime(value)).toBe(new Date(same).getTime());
    expect(parse).toHaveBeenCalled();
  });

  it.each([
    '2026-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-06-31T00:00:00.000Z',
    '2026-09-31T00:00:00Z',
    '2026-11-31T00:00:00Z',
    '2026-12-32T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-13-10T00:00:00Z',
    '2026-11-00T00:00:00Z',
    '2026-11-01T24:00:00Z',
    '2026-11-01T12:60:00Z',
    '2026-11-01T12:00:60Z',
    '2026/11-01T00:00:00Z',
    '2026-11/01T00:00:00Z',
    '2026-11-01 00:00:00Z',
    '2026-11-01T00-00:00Z',
    '2026-11-01T00:00-00Z',
    '2026-11-01T00:00:00X',
    '2026-11-01T00:00:00,123Z',
    '2026-11-01T00:00:00.12xZ',
    '2026-1a-01T00:00:00Z',
    '2026-11-0aT00:00:00Z',
    '2026-11-01T0a:00:00Z',
    '2026-11-01T00:0a:00Z',
    '2026-11-01T00:00:0aZ',
    '2026-13-01T00:00:00',
    '2026-02-30T00:00:00.1234567',
    '2026-11-01T24:00:00.1234567',
    '2026-11-01T23:60:00.1234567',
    '2026-11-01T23:59:60.1234567',
    '2026-11-00T00:00:00.1234567',
    '2026-00-01T00:00:00.1234567',
  ])('%s is NaN', (value) => {
    expect(parseApiTime(value)).toBeNaN();
  });

  it('reads the last day of each month through the slower reader too, and 29 February in leap years only', () => {
    const last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    last.forEach((day, i) => {
      const month = String(i + 1).padStart(2, '0');
      const value = `2026-${month}-${day}T23:59:59.1234567`;
      expect(parseApiTime(value)).toBe(Date.UTC(2026, i, day, 23, 59, 59, 123));
      expect(parseApiTime(`2026-${month}-${day + 1}T00:00:00.1234567`)).toBeNaN();
    });
    expect(parseApiTime('2024-02-29T00:00:00.1234567')).toBe(Date.UTC(2024, 1, 29, 0, 0, 0, 123));
    expect(parseApiTime('2000-02-29T00:00:00.1234567')).toBe(Date.UTC(2000, 1, 29, 0, 0, 0, 123));
    expect(parseApiTime('1900-02-29T00:00:00.1234567')).toBeNaN();
  });
});

describe('digits', () => {
  it('reads the digits in range, and -1 when one is not a digit (the characters either side of 0-9 included)', () => {
    expect(digits('x2026-', 1, 4)).toBe(2026);
    expect(digits('09', 0, 2)).toBe(9);
    expect(digits('1/', 0, 2)).toBe(-1);
    expect(digits('1:', 0, 2)).toBe(-1);
    expect(digits('/1', 0, 1)).toBe(-1);
  });
});

describe('parseTime at its edges', () => {
  const now = Date.parse('2026-11-21T15:45:30.250Z');

  it.each([
    ['2026-11-30T23:59:59', '2026-11-30T23:59:59Z'],
    ['2026-12-31 23:59', '2026-12-31T23:59:00Z'],
    ['2024-02-29', '2024-02-29T00:00:00Z'],
    ['2026-11-01t12:00:00z', '2026-11-01T12:00:00Z'],
    ['  2026-11-01T12:00:00Z  ', '2026-11-01T12:00:00Z'],
    ['2026-11-01T12:00:00.1234', '2026-11-01T12:00:00.123Z'],
    ['2026-11-01T12:00:00.0005', '2026-11-01T12:00:00.001Z'],
    ['2026-11-01T12:00:00+05:30', '2026-11-01T06:30:00Z'],
    ['2026-11-01T12:00:00-0545', '2026-11-01T17:45:00Z'],
    ['2026-11-01T12:00:00+23:59', '2026-10-31T12:01:00Z'],
    ['2026-11-01T12:00:00-01', '2026-11-01T13:00:00Z'],
  ])('%j is %s', (text, iso) => {
    expect(parseTime(text, now)).toBe(Date.parse(iso));
  });

  it('reads years 1 to 99 as written', () => {
    const expected = new Date(Date.UTC(2000, 0, 1));
    expected.setUTCFullYear(99);
    expect(parseTime('0099-01-01', now)).toBe(expected.getTime());
    expected.setUTCHours(12, 30, 15);
    expect(parseTime('0099-01-01T12:30:15Z', now)).toBe(expected.getTime());
  });

  it.each([
    '2026-02-29',
    '2026-04-31',
    '2026-00-01',
    '2026-11-00',
    '2026-02-29T00:00',
    '2026-11-01T24:00',
    '2026-11-01T23:60',
    '2026-11-01T23:59:60',
    '2026-11-01T12:00:00+24:00',
    '2026-11-01T12:00:00+05:60',
    '2026-11-01T12:00:00+5',
    'x2026-11-01',
    '2026-11-01x',
    '2026-11-01T12:00x',
  ])('%j is refused', (text) => {
    expect(parseTime(text, now)).toBeUndefined();
  });

  it('takes today and yesterday as UTC midnights before 1970 too, and trims and ignores case', () => {
    const before1970 = Date.parse('1969-12-31T12:00:00Z');
    expect(parseTime('today', before1970)).toBe(Date.parse('1969-12-31T00:00:00Z'));
    expect(parseTime(' YESTERDAY ', before1970)).toBe(Date.parse('1969-12-30T00:00:00Z'));
    expect(parseTime('Now', now)).toBe(now);
    expect(parseTime('today', Date.parse('2026-11-21T00:00:00Z'))).toBe(Date.parse('2026-11-21T00:00:00Z'));
  });
});

describe('formatElapsed', () => {
  it.each([
    [0, '0ms'],
    [849.6, '850ms'],
    [999.4, '999ms'],
    [1000, '1.0s'],
    [12_345, '12.3s'],
    [59_940, '59.9s'],
    [60_000, '1m00s'],
    [245_000, '4m05s'],
    [3_599_000, '59m59s'],
    [3_600_000, '1h00m'],
    [7_830_000, '2h10m'],
    [90_061_000, '25h01m'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });
});

describe('formatUtc', () => {
  it('keeps milliseconds unless they are zero, dates before 1970 too', () => {
    expect(formatUtc(Date.parse('1969-12-31T23:59:59.001Z'))).toBe('1969-12-31T23:59:59.001Z');
    expect(formatUtc(0)).toBe('1970-01-01T00:00:00Z');
  });
});

describe('the forms a time is read in, as an error names them', () => {
  it('an unreadable time names every form it could have been', () => {
    expect(() => parseTimeOption('--from', 'soonish', Date.parse('2026-11-21T00:00:00Z'))).toThrow(
      "--from: cannot read 'soonish' as a time; use an ISO 8601 date or date-time (UTC unless a zone is given, e.g. 2026-11-01 or 2026-11-01T12:30:00Z), now, today, yesterday, or a duration before now such as 90m, 6h, 7d, 2w",
    );
  });
});
