/** Every default and bound, and each check at its edges: the value just in, just out, and the exact one-line message. */
import { describe, expect, it } from 'vitest';
import { CONCURRENCY, DEFAULT_BASE_URL, RETRIES, RPS_MAX, TIMEOUT_MS, WINDOW_MS, parseWholeNumber } from '../../src/api/bounds.js';
import { parseDurationOption, parseIntInRange, parseRps, parseTimeOption } from '../../src/cli/option-values.js';
import { DURATION_FORMS, TIME_FORMS } from '../../src/util/time.js';
import { refusal } from '../helpers/refusal.js';

describe('the defaults and bounds', () => {
  it('are these', () => {
    expect(DEFAULT_BASE_URL).toBe('https://api.pulsy.app');
    expect(CONCURRENCY).toEqual({ min: 1, max: 32, default: 4 });
    expect(TIMEOUT_MS).toEqual({ min: 1, max: 3_600_000, default: 30_000 });
    expect(RETRIES).toEqual({ min: 0, max: 100, default: 5 });
    expect(WINDOW_MS).toEqual({ min: 60_000, max: 1_800_000, default: 1_800_000 });
    expect(RPS_MAX).toBe(10_000);
  });
});

describe('parseRps', () => {
  it.each([
    ['1', 1],
    ['2.5', 2.5],
    [' 3 ', 3],
    ['0.01', 0.01],
    ['10000', 10_000],
    ['10000.0', 10_000],
  ])('reads %j as %d', (text, rps) => {
    expect(parseRps(text)).toBe(rps);
  });
  it('is undefined when not given', () => {
    expect(parseRps(undefined)).toBeUndefined();
  });
  it.each(['0', '0.0', '-1', '10000.5', '10001', '1e3', '.5', '5.', '', ' ', 'ten', '0x10', '1 2'])('refuses %j', (text) => {
    expect(refusal(() => parseRps(text))).toBe(`--rps must be a positive number of requests per second, not '${text}'`);
  });
});

describe('parseIntInRange', () => {
  it.each([
    ['1', 1],
    ['32', 32],
    [' 7 ', 7],
    ['007', 7],
  ])('reads %j as %i', (text, n) => {
    expect(parseIntInRange(text, '--concurrency', 1, 32)).toBe(n);
  });
  it('reads a negative number within its bounds, and nothing when not given', () => {
    expect(parseIntInRange('-3', '--n', -5, 5)).toBe(-3);
    expect(parseIntInRange(undefined, '--n', 1, 2)).toBeUndefined();
  });
  it.each(['1.5', '', ' ', 'four', '1e2', '+3', '9007199254740993', '0x1f'])('refuses %j as no whole number', (text) => {
    expect(refusal(() => parseIntInRange(text, '--concurrency', 1, 32))).toBe(`--concurrency must be a whole number from 1 to 32, not '${text}'`);
  });
  it.each([
    ['0', '--concurrency must be from 1 to 32, not 0'],
    [' 33 ', '--concurrency must be from 1 to 32, not 33'],
    ['-1', '--concurrency must be from 1 to 32, not -1'],
  ])('refuses %j as out of bounds', (text, message) => {
    expect(refusal(() => parseIntInRange(text, '--concurrency', 1, 32))).toBe(message);
  });
});

describe('parseWholeNumber', () => {
  it.each([
    ['0', 0],
    ['100', 100],
    [' 5 ', 5],
  ])('reads %j as %i', (text, n) => {
    expect(parseWholeNumber(text, 'retries', RETRIES)).toBe(n);
  });
  it.each(['-1', '101', '1.5', '', 'five', '1e1', '9007199254740993'])('refuses %j', (text) => {
    expect(refusal(() => parseWholeNumber(text, 'retries', RETRIES))).toBe(`retries must be a whole number from 0 to 100, not '${text}'`);
  });
  it('takes the lower bound it is given', () => {
    expect(refusal(() => parseWholeNumber('0', 'timeout', TIMEOUT_MS))).toBe("timeout must be a whole number from 1 to 3600000, not '0'");
  });
});

describe('parseTimeOption', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('reads a time', () => {
    expect(parseTimeOption('--from', '2026-11-01', now)).toBe(Date.parse('2026-11-01'));
    expect(parseTimeOption('--from', '6h', now)).toBe(now - 21_600_000);
  });
  it('refuses what is no time, naming the option and the forms', () => {
    expect(refusal(() => parseTimeOption('--to', 'soon', now))).toBe(`--to: cannot read 'soon' as a time; use ${TIME_FORMS}`);
  });
  it('takes the earliest time a Date holds, and refuses one before it', () => {
    expect(parseTimeOption('--from', '100000000d', 0)).toBe(-8.64e15);
    expect(new Date(parseTimeOption('--from', '100000000d', 0)).getTime()).toBe(-8.64e15);
    expect(refusal(() => parseTimeOption('--from', '100000000d1ms', 0))).toBe("--from '100000000d1ms' is beyond the dates a time can hold");
    expect(refusal(() => parseTimeOption('--from', '20000000w', now))).toBe("--from '20000000w' is beyond the dates a time can hold");
  });
});

describe('parseDurationOption', () => {
  it('reads a duration, and refuses what is none', () => {
    expect(parseDurationOption('--last', '1h30m')).toBe(5_400_000);
    expect(refusal(() => parseDurationOption('--last', 'a day'))).toBe(`--last: 'a day' is not a duration: use ${DURATION_FORMS}`);
  });
});
