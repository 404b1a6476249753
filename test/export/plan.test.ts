import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { describePlan, parseFilter, parseRange, parseWindow, planWindows } from '../../src/export/plan.js';

const t = (iso: string) => Date.parse(iso);
const MIN = 60_000;

describe('planWindows', () => {
  it('cuts a range into 30-minute windows aligned to its start, the last one shorter', () => {
    const windows = planWindows(t('2026-11-01T00:10:00Z'), t('2026-11-01T01:25:00Z'), 30 * MIN);
    expect(windows.map((w) => [new Date(w.from).toISOString(), new Date(w.to).toISOString()])).toEqual([
      ['2026-11-01T00:10:00.000Z', '2026-11-01T00:40:00.000Z'],
      ['2026-11-01T00:40:00.000Z', '2026-11-01T01:10:00.000Z'],
      ['2026-11-01T01:10:00.000Z', '2026-11-01T01:25:00.000Z'],
    ]);
    expect(windows.map((w) => w.index)).toEqual([0, 1, 2]);
  });
  it('covers 7 days with 336 windows', () => {
    expect(planWindows(t('2026-11-01'), t('2026-11-08'), 30 * MIN)).toHaveLength(336);
  });
  it('plans one window for a one-second range', () => {
    expect(planWindows(t('2026-11-01T00:00:00Z'), t('2026-11-01T00:00:01Z'), 30 * MIN)).toEqual([{ index: 0, from: t('2026-11-01T00:00:00Z'), to: t('2026-11-01T00:00:01Z') }]);
  });
  it('leaves no gap and no overlap', () => {
    const windows = planWindows(t('2026-11-01T00:00:00.500Z'), t('2026-11-02T03:07:11Z'), 7 * MIN);
    for (let i = 1; i < windows.length; i += 1) expect(windows[i]!.from).toBe(windows[i - 1]!.to);
    expect(windows.at(-1)!.to).toBe(t('2026-11-02T03:07:11Z'));
  });
});

describe('parseRange', () => {
  const now = t('2026-11-21T12:00:00Z');
  it('reads --from/--to and --last', () => {
    expect(parseRange({ from: '2026-11-01', to: '2026-11-08' }, now)).toEqual({ from: t('2026-11-01'), to: t('2026-11-08') });
    expect(parseRange({ last: '6h' }, now)).toEqual({ from: now - 6 * 3_600_000, to: now });
    expect(parseRange({ from: 'yesterday' }, now)).toEqual({ from: t('2026-11-20'), to: now });
  });
  it.each([
    [{}, 'give a range: --from <time> --to <time>, or --last <duration>'],
    [{ to: '2026-11-08' }, '--from is missing (the range is --from <time> --to <time>)'],
    [{ from: 'last tuesday' }, /^--from: cannot read 'last tuesday' as a time; use an ISO 8601 date/],
    [{ from: '2026-11-01', to: 'soon' }, /^--to: cannot read 'soon' as a time/],
    [{ from: '2026-11-08', to: '2026-11-01' }, '--to (2026-11-01T00:00:00Z) must be after --from (2026-11-08T00:00:00Z)'],
    [{ from: '2026-11-08', to: '2026-11-08' }, '--to (2026-11-08T00:00:00Z) must be after --from (2026-11-08T00:00:00Z)'],
    [{ from: '2026-12-01', to: '2026-12-02' }, '--from 2026-12-01T00:00:00Z is in the future'],
    [{ last: '24h', from: '2026-11-01' }, '--last covers the range ending now: give either --last or --from/--to'],
    [{ last: 'a day' }, /^--last: 'a day' is not a duration/],
  ])('rejects %j', (flags, message) => {
    expect(() => parseRange(flags, now)).toThrow(UsageError);
    expect(() => parseRange(flags, now)).toThrow(message);
  });
});

describe('parseWindow and parseFilter', () => {
  it('accepts 1m to 30m', () => {
    expect(parseWindow(undefined)).toBe(30 * MIN);
    expect(parseWindow('1m')).toBe(MIN);
    expect(parseWindow('15m')).toBe(15 * MIN);
  });
  it.each(['59s', '31m', '1h', 'ten'])('rejects --window %s', (text) => {
    expect(() => parseWindow(text)).toThrow(UsageError);
  });
  it('reads filters case-insensitively and spells them as the API does', () => {
    expect(parseFilter('completed')).toBe('Completed');
    expect(parseFilter('UPDATED')).toBe('Updated');
    expect(parseFilter(undefined)).toBeUndefined();
    expect(() => parseFilter('Created')).toThrow("unknown filter 'Created' (use one of Withdrawn, Deposited, Completed, Updated)");
  });
});

describe('describePlan', () => {
  it('shows range, filter, windows, requests and concurrency', () => {
    const query = { from: t('2026-11-01'), to: t('2026-11-01T01:15:00Z'), filter: undefined, windowMs: 30 * MIN };
    expect(describePlan(query, planWindows(query.from, query.to, query.windowMs), 4)).toBe(
      [
        'range        2026-11-01T00:00:00Z → 2026-11-01T01:15:00Z (UTC, end excluded)',
        'filter       Withdrawn (server default)',
        'window       30 min',
        'windows      3',
        'requests     3 (more if windows are retried or split)',
        'concurrency  4',
        'first        2026-11-01T00:00:00Z → 2026-11-01T00:30:00Z',
        'last         2026-11-01T01:00:00Z → 2026-11-01T01:15:00Z',
        '',
      ].join('\n'),
    );
  });
});
