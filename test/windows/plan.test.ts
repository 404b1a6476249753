import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { planWindows } from '../../src/windows/plan.js';
import { planExport } from '../../src/export/plan.js';
import { parseFilter, parseRange, parseWindow, planFromFlags } from '../../src/commands/swaps/flags.js';
import { describePlan, futureNote, resumeArgs } from '../../src/commands/swaps/render.js';

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
    expect(planWindows(t('2026-11-01T00:00:00Z'), t('2026-11-01T00:00:01Z'), 30 * MIN)).toEqual([
      { index: 0, from: t('2026-11-01T00:00:00Z'), to: t('2026-11-01T00:00:01Z') },
    ]);
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
    expect(parseRange({ from: '2026-11-01', to: '2026-11-08' }, now)).toEqual({ from: t('2026-11-01'), to: t('2026-11-08'), relative: false });
    expect(parseRange({ last: '6h' }, now)).toEqual({ from: now - 6 * 3_600_000, to: now, relative: true });
    expect(parseRange({ from: 'yesterday' }, now)).toEqual({ from: t('2026-11-20'), to: now, relative: true });
    expect(parseRange({ from: '2026-11-01', to: 'today' }, now)).toEqual({ from: t('2026-11-01'), to: t('2026-11-21'), relative: true });
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
    const output = { file: undefined, format: 'jsonl' as const, gzip: false, fields: [], excelSafe: false };
    const plan = planExport({ from: t('2026-11-01'), to: t('2026-11-01T01:15:00Z'), output, now: t('2026-11-21T12:00:00Z') });
    expect(describePlan(plan)).toBe(
      [
        'range        2026-11-01T00:00:00Z → 2026-11-01T01:15:00Z (UTC, end excluded)',
        'filter       Withdrawn (server default)',
        'window       30m',
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

describe('planExport', () => {
  const now = t('2026-11-21T12:00:00Z');
  const output = { file: 'week.csv', format: 'csv' as const, gzip: false, fields: ['id', 'bridge'], excelSafe: false };

  it('cuts a --to in the future at now and says so', () => {
    const plan = planExport({ from: t('2026-11-21'), to: t('2026-11-23'), output, now });
    expect([plan.to, plan.futureTo, plan.relative]).toEqual([now, t('2026-11-23'), true]);
    expect(futureNote(plan)).toBe('--to 2026-11-23T00:00:00Z is in the future: the export stops at now (2026-11-21T12:00:00Z)');
    expect(futureNote(planExport({ from: t('2026-11-20'), to: t('2026-11-21'), output, now }))).toBeUndefined();
  });

  it('is frozen', () => {
    const plan = planExport({ from: t('2026-11-20'), to: t('2026-11-21'), output, now });
    expect(Object.isFrozen(plan) && Object.isFrozen(plan.output) && Object.isFrozen(plan.output.fields)).toBe(true);
  });

  it.each([
    [{ windowMs: 59_000 }, 'the window (ms) must be from 60000 to 1800000, not 59000'],
    [{ concurrency: 33 }, 'concurrency must be from 1 to 32, not 33'],
    [{ from: t('2026-11-22') }, 'from 2026-11-22T00:00:00Z is in the future'],
  ])('refuses %j', (change, message) => {
    expect(() => planExport({ from: t('2026-11-20'), to: t('2026-11-21'), output, now, ...change })).toThrow(message);
  });

  it('renders the words that resume it: absolute times, only what differs from the defaults', () => {
    const plan = planFromFlags({ last: '2d', filter: 'completed', window: '10m' }, output, now, 4);
    expect(resumeArgs(plan)).toEqual([
      'swaps',
      '--from',
      '2026-11-19T12:00:00Z',
      '--to',
      '2026-11-21T12:00:00Z',
      '--filter',
      'Completed',
      '--window',
      '10m',
      '--fields',
      'id,bridge',
      '-o',
      'week.csv',
      '--resume',
    ]);
    const plain = planFromFlags({ from: '2026-11-01', to: '2026-11-02' }, { ...output, file: 'out.txt', format: 'jsonl', fields: LIST_SWAP_FIELDS }, now, 4);
    expect(resumeArgs(plain)).toEqual([
      'swaps',
      '--from',
      '2026-11-01T00:00:00Z',
      '--to',
      '2026-11-02T00:00:00Z',
      '--format',
      'jsonl',
      '-o',
      'out.txt',
      '--resume',
    ]);
  });
});
