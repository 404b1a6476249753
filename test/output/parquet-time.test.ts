/**
 * API times as the microseconds of a Parquet TIMESTAMP(MICROS) (src/output/parquet/time.ts): the API's own form
 * read digit by digit, taken exactly at each of its bounds and refused just past them (then read as everywhere in
 * swapx, or refused); every other form as parseApiTime reads it, with the digits past the millisecond.
 */
import { describe, expect, it } from 'vitest';
import { apiTimeMicros, fastUtcMicrosInto, timeMicros, timeMicrosInto } from '../../src/output/parquet/time.js';
import { Rng } from '../../src/sandbox/random.js';
import { parseApiTime } from '../../src/util/time.js';

/** What a time is, by the parser the rest of swapx uses, plus digits 4 to 6 of its fraction. */
function expected(value: string): number {
  const ms = parseApiTime(value);
  if (Number.isNaN(ms)) return Number.NaN;
  const fraction = /T\d\d:\d\d:\d\d\.(\d+)/.exec(value)?.[1] ?? '';
  return ms * 1000 + Number(fraction.slice(3, 6).padEnd(3, '0'));
}

/** The fast reading: whether it took the value, and what it wrote (out[1], between two cells it must not touch). */
function fast(value: string): [boolean, number] {
  const out = Float64Array.of(-7, -7, -7);
  const taken = fastUtcMicrosInto(value, out, 1);
  expect([out[0], out[2]]).toEqual([-7, -7]);
  return [taken, out[1]!];
}

describe('the API’s form, read digit by digit', () => {
  it.each([
    '1970-01-01T00:00:00Z',
    '1969-12-31T23:59:59.999999Z',
    '0000-01-01T00:00:00Z',
    '0400-02-29T00:00:00Z',
    '1600-03-01T00:00:00Z',
    '2000-02-29T12:00:00Z',
    '2024-02-29T23:59:59Z',
    '2100-02-28T00:00:00Z',
    '2026-01-01T00:00:00Z',
    '2026-04-30T10:00:00Z',
    '2026-12-31T23:59:59Z',
    '2026-11-02T10:11:12.3Z',
    '2026-11-02T10:11:12.345Z',
    '2026-11-02T10:11:12.123456Z',
    // Past the microsecond (ASP.NET sends 7 digits; up to 9 are taken), cut.
    '2026-11-02T10:11:12.1234567Z',
    '2026-11-02T10:11:12.123456789Z',
    '9999-12-31T23:59:59.999999Z',
  ])('%s', (value) => {
    expect(fast(value)).toEqual([true, expected(value)]);
    expect(timeMicros(value)).toBe(expected(value));
  });

  it('agrees with parseApiTime on random times of three centuries, each fraction length', () => {
    const rng = Rng.of(11, 0, 0, 0);
    const next = () => rng.float();
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor(Date.UTC(1900, 0, 1) + next() * (Date.UTC(2200, 0, 1) - Date.UTC(1900, 0, 1)));
      const digits = Math.floor(next() * 8);
      const fraction =
        digits === 0
          ? ''
          : `.${String(Math.floor(next() * 10 ** 7))
              .padStart(7, '0')
              .slice(0, digits)}`;
      const value = new Date(ms).toISOString().replace(/\.\d{3}Z$/, `${fraction}Z`);
      expect(fast(value), value).toEqual([true, expected(value)]);
    }
  });
});

describe('just past a bound: not taken here, read as everywhere in swapx', () => {
  it.each([
    // Refused everywhere: a day the month lacks, an hour, minute, second or month out of range.
    ['2026-02-29T00:00:00Z', false],
    ['2100-02-29T00:00:00Z', false],
    ['2026-04-31T00:00:00Z', false],
    ['2026-12-32T00:00:00Z', false],
    ['2026-11-00T00:00:00Z', false],
    ['2026-00-01T00:00:00Z', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-11-01T24:00:00Z', false],
    ['2026-11-01T00:60:00Z', false],
    ['2026-11-01T00:00:60Z', false],
    ['2O26-11-01T00:00:00Z', false],
    ['2026-11-01T0a:00:00Z', false],
    ['2026-11-01T00:0a:00Z', false],
    ['2026-11-01T00:00:0aZ', false],
    ['2026-11-01T00:00:00.12a4Z', false],
    ['2026-11-01T00:00:00.1234567aZ', false],
    ['2026-11-01T00:00:00.1234567890Z', false],
    ['2026-11-01T00:00:00,5Z', false],
    ['2026-11-01T00:00:00.Z', false],
    ['2026/11-01T00:00:00Z', false],
    ['2026-11-01 00:00:00Z', false],
    ['2026/11/01T00:00:00Z', false],
    ['2026-11/01T00:00:00Z', false],
    ['2026-11-01T00-00:00Z', false],
    ['2026-11-01T00:00-00Z', false],
    ['2026-11-01T00:00Z', false],
    ['', false],
    // Read the slower way: no zone (UTC), an offset, a lower-case t or z.
    ['2026-11-01T00:00:00', true],
    ['2026-11-01T00:00:00.1234567', true],
    ['2026-11-01T02:00:00.5+02:00', true],
    ['2026-11-01T02:00:00.12345+02:00', true],
    ['2026-11-01T02:00:00.1234-02:00', true],
    ['2026-11-01t00:00:00Z', true],
    ['2026-11-01T00:00:00.25z', true],
  ] as const)('%j', (value, readable) => {
    expect(fast(value)).toEqual([false, -7]);
    if (readable) {
      expect(timeMicros(value)).toBe(expected(value));
      expect(Number.isNaN(expected(value))).toBe(false);
    } else expect(() => timeMicros(value)).toThrow(new RangeError(`not a date-time: '${value}'`));
  });
});

describe('the column and the single value', () => {
  it('timeMicrosInto writes each value into its cell, whichever way it is read', () => {
    const values = ['2026-11-02T10:11:12.123456Z', '2026-11-02T12:11:12.5+02:00', '1970-01-01T00:00:00Z'];
    const out = new Float64Array(3);
    for (const [i, value] of values.entries()) timeMicrosInto(value, out, i);
    expect([...out]).toEqual(values.map(expected));
  });

  it('apiTimeMicros: the same as a bigint', () => {
    expect(apiTimeMicros('2026-11-02T10:11:12.1234567Z')).toBe(1_793_614_272_123_456n);
    expect(apiTimeMicros('1969-12-31T23:59:59.999999Z')).toBe(-1n);
  });
});
