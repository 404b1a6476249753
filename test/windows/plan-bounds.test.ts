/**
 * The export plan at its edges: each bound exactly (in and just out), the clock exactly at `to`, what a
 * plan copies and freezes, which `<time>` forms make a range relative, the ten-year cap, and the resume
 * words for each option that differs from its default.
 */
import { describe, expect, it } from 'vitest';
import { RPS_MAX } from '../../src/api/bounds.js';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { planWindows } from '../../src/windows/plan.js';
import { freezeOutput, planExport, windowsOf, withRange, type ExportOutput } from '../../src/export/plan.js';
import { parseFilter, parseRange, parseWindow, planFromFlags } from '../../src/commands/swaps/flags.js';
import { describePlan, resumeArgs } from '../../src/commands/swaps/render.js';
import { refusal } from '../helpers/refusal.js';

const t = (iso: string) => Date.parse(iso);
const MIN = 60_000;
const DAY = 86_400_000;
const now = t('2026-11-21T12:00:00Z');
const output: ExportOutput = { file: 'week.jsonl', format: 'jsonl', gzip: false, fields: [...LIST_SWAP_FIELDS], excelSafe: false };
const base = { from: t('2026-11-20'), to: t('2026-11-21'), output, now };

describe('freezeOutput', () => {
  it('copies exactly the output fields, frozen, and no other key', () => {
    const fields = ['id', 'bridge'];
    const frozen = freezeOutput({ ...output, fields, gzip: true, excelSafe: true, extra: 1 } as ExportOutput);
    expect(frozen).toEqual({ file: 'week.jsonl', format: 'jsonl', gzip: true, fields: ['id', 'bridge'], excelSafe: true });
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(Object.isFrozen(frozen.fields)).toBe(true);
    fields.push('status');
    expect(frozen.fields).toEqual(['id', 'bridge']);
  });
});

describe('planExport bounds', () => {
  it('takes the defaults: 30-minute windows, 4 at once, no rps, not relative', () => {
    const plan = planExport(base);
    expect(plan).toEqual({
      from: t('2026-11-20'),
      to: t('2026-11-21'),
      filter: undefined,
      windowMs: 30 * MIN,
      output,
      concurrency: 4,
      rps: undefined,
      relative: false,
      futureTo: undefined,
    });
    expect(Object.isFrozen(plan)).toBe(true);
  });

  it.each([60_000, 1_800_000])('accepts a window of %i ms', (windowMs) => {
    expect(planExport({ ...base, windowMs }).windowMs).toBe(windowMs);
  });
  it.each([
    [59_999, 'the window (ms) must be from 60000 to 1800000, not 59999'],
    [1_800_001, 'the window (ms) must be from 60000 to 1800000, not 1800001'],
    [Number.NaN, 'the window (ms) must be from 60000 to 1800000, not NaN'],
  ])('refuses a window of %d ms', (windowMs, message) => {
    expect(refusal(() => planExport({ ...base, windowMs }))).toBe(message);
  });

  it.each([1, 32])('accepts concurrency %i', (concurrency) => {
    expect(planExport({ ...base, concurrency }).concurrency).toBe(concurrency);
  });
  it.each([0, 33, Number.NaN])('refuses concurrency %d', (concurrency) => {
    expect(refusal(() => planExport({ ...base, concurrency }))).toBe(`concurrency must be from 1 to 32, not ${concurrency}`);
  });

  it.each([0.5, RPS_MAX])('accepts rps %d', (rps) => {
    expect(planExport({ ...base, rps }).rps).toBe(rps);
  });
  it.each([0, -1, RPS_MAX + 1, Number.NaN])('refuses rps %d', (rps) => {
    expect(refusal(() => planExport({ ...base, rps }))).toBe(`rps must be above 0 and at most ${RPS_MAX}, not ${rps}`);
  });

  it('takes a from exactly at now as not in the future, and refuses an empty range', () => {
    expect(refusal(() => planExport({ ...base, from: now, to: now + 1000 }))).toBe('to (2026-11-21T12:00:01Z) must be after from (2026-11-21T12:00:00Z)');
    expect(refusal(() => planExport({ ...base, from: now + 1 }))).toBe('from 2026-11-21T12:00:00.001Z is in the future');
    expect(refusal(() => planExport({ ...base, to: base.from }))).toBe('to (2026-11-20T00:00:00Z) must be after from (2026-11-20T00:00:00Z)');
    expect(refusal(() => planExport({ ...base, to: base.from - 1 }))).toBe('to (2026-11-19T23:59:59.999Z) must be after from (2026-11-20T00:00:00Z)');
    expect(planExport({ ...base, to: base.from + 1 }).to).toBe(base.from + 1);
  });

  it('keeps a to exactly at now as given: not in the future, not relative', () => {
    const plan = planExport({ ...base, to: now });
    expect([plan.to, plan.futureTo, plan.relative]).toEqual([now, undefined, false]);
    const later = planExport({ ...base, to: now + 1 });
    expect([later.to, later.futureTo, later.relative]).toEqual([now, now + 1, true]);
  });

  it('is relative when the spec says so, and reads the clock when no now is given', () => {
    expect(planExport({ ...base, relative: true }).relative).toBe(true);
    expect(planExport({ ...base, relative: false }).relative).toBe(false);
    const { now: _unused, ...clockless } = base;
    const before = Date.now();
    const plan = planExport({ ...clockless, to: before + DAY });
    const after = Date.now();
    expect(plan.futureTo).toBe(before + DAY);
    expect(plan.to).toBeGreaterThanOrEqual(before);
    expect(plan.to).toBeLessThanOrEqual(after);
  });

  it('keeps the filter it is given', () => {
    expect(planExport({ ...base, filter: 'Completed' }).filter).toBe('Completed');
  });
});

describe('withRange and windowsOf', () => {
  it('moves the range, keeps the rest, and is absolute', () => {
    const plan = planExport({ ...base, to: now + DAY, filter: 'Updated', windowMs: 10 * MIN, concurrency: 2 });
    const moved = withRange(plan, { from: t('2026-11-20T01:00:00Z'), to: t('2026-11-20T01:25:00Z') });
    expect(moved).toEqual({ ...plan, from: t('2026-11-20T01:00:00Z'), to: t('2026-11-20T01:25:00Z'), relative: false, futureTo: undefined });
    expect(Object.isFrozen(moved)).toBe(true);
    expect(windowsOf(moved)).toEqual(planWindows(moved.from, moved.to, 10 * MIN));
    expect(windowsOf(moved)).toHaveLength(3);
  });

  it('describes a range with no window left: no first or last line', () => {
    const done = withRange(planExport({ ...base, filter: 'Completed', concurrency: 7, windowMs: 90_000 }), { from: base.to, to: base.to });
    expect(describePlan(done)).toBe(
      [
        'range        2026-11-21T00:00:00Z → 2026-11-21T00:00:00Z (UTC, end excluded)',
        'filter       Completed',
        'window       90s',
        'windows      0',
        'requests     0 (more if windows are retried or split)',
        'concurrency  7',
        '',
      ].join('\n'),
    );
  });

  it('describes a one-window plan with the same first and last', () => {
    const plan = planExport({ ...base, to: t('2026-11-20T00:20:00Z') });
    expect(describePlan(plan).split('\n').slice(-3)).toEqual([
      'first        2026-11-20T00:00:00Z → 2026-11-20T00:20:00Z',
      'last         2026-11-20T00:00:00Z → 2026-11-20T00:20:00Z',
      '',
    ]);
  });
});

describe('parseWindow and parseFilter at their edges', () => {
  it('accepts exactly 1m and 30m and whole seconds', () => {
    expect(parseWindow('60s')).toBe(MIN);
    expect(parseWindow('30m')).toBe(30 * MIN);
    expect(parseWindow('90s')).toBe(90_000);
  });
  it.each([
    ['59.999s', '--window must be from 1m to 30m, not 59.999s'],
    ['1800.001s', '--window must be from 1m to 30m, not 1800.001s'],
    ['90.5s', '--window must be whole seconds, not 90.5s'],
    ['ten', "--window: 'ten' is not a duration: use"],
  ])('refuses --window %s', (text, message) => {
    expect(refusal(() => parseWindow(text))).toContain(message);
    expect(refusal(() => parseWindow(text)).startsWith(message)).toBe(true);
  });
  it('reads a filter with spaces around it', () => {
    expect(parseFilter('  deposited ')).toBe('Deposited');
    expect(parseFilter('Withdrawn')).toBe('Withdrawn');
  });
});

describe('parseRange: what makes a range relative', () => {
  it.each([
    [{ from: '2026-11-01', to: '2026-11-08' }, false],
    [{ from: '2026-11-01T00:00:00Z', to: '2026-11-21T12:00:00Z' }, false],
    [{ from: '2026-11-01' }, true],
    [{ from: '2026-11-01', to: 'now' }, true],
    [{ from: '2026-11-01', to: ' NOW ' }, true],
    [{ from: '2026-11-01', to: 'today' }, true],
    [{ from: '2026-11-01', to: 'Yesterday' }, true],
    [{ from: '7d', to: '2026-11-21' }, true],
    [{ from: 'today', to: '2026-11-22' }, true],
    [{ from: 'yesterday', to: '2026-11-22' }, true],
    [{ from: 'now', to: '2026-11-22' }, true],
    [{ from: '2026-11-01', to: '1d' }, true],
  ])('%j is relative: %s', (flags, relative) => {
    expect(parseRange(flags, now).relative).toBe(relative);
  });

  it('reads --last exactly', () => {
    expect(parseRange({ last: '90m' }, now)).toEqual({ from: now - 90 * MIN, to: now, relative: true });
    expect(parseRange({ last: '1ms' }, now)).toEqual({ from: now - 1, to: now, relative: true });
  });

  it.each([
    [{ last: '0s' }, "--last must be longer than 0, not '0s'"],
    [{ last: '24h', to: '2026-11-01' }, '--last covers the range ending now: give either --last or --from/--to'],
    [{ last: '3654d' }, 'the range spans 3,654 days; one run exports at most 3,653 (ten years): split it'],
    [{ from: '2016-11-20T11:59:59Z', to: '2026-11-21T12:00:00Z' }, 'the range spans 3,653 days; one run exports at most 3,653 (ten years): split it'],
    [{ from: '2026-11-21T12:00:00.001Z' }, '--from 2026-11-21T12:00:00.001Z is in the future'],
    [{ from: '2026-11-21T12:00:00Z' }, '--to (2026-11-21T12:00:00Z) must be after --from (2026-11-21T12:00:00Z)'],
  ])('refuses %j', (flags, message) => {
    expect(refusal(() => parseRange(flags, now))).toBe(message);
  });

  it('takes exactly ten years, by --last and by --from/--to', () => {
    expect(parseRange({ last: '3653d' }, now)).toEqual({ from: now - 3653 * DAY, to: now, relative: true });
    expect(parseRange({ from: '2016-11-20T12:00:00Z' }, now)).toEqual({ from: now - 3653 * DAY, to: now, relative: true });
  });

  it('takes a --to in the future (the plan cuts it at now)', () => {
    expect(parseRange({ from: '2026-11-21', to: '2026-12-01' }, now)).toEqual({ from: t('2026-11-21'), to: t('2026-12-01'), relative: false });
  });
});

describe('planFromFlags', () => {
  it('reads every flag', () => {
    const plan = planFromFlags({ from: '2026-11-20', to: '2026-11-22', filter: 'updated', window: '5m', concurrency: '9', rps: '2.5' }, output, now, 4);
    expect(plan).toEqual({
      from: t('2026-11-20'),
      to: now,
      filter: 'Updated',
      windowMs: 5 * MIN,
      output,
      concurrency: 9,
      rps: 2.5,
      relative: true,
      futureTo: t('2026-11-22'),
    });
  });
  it("takes the profile's concurrency when no flag is given, and refuses one out of bounds", () => {
    expect(planFromFlags({ last: '1h' }, output, now, 11).concurrency).toBe(11);
    expect(refusal(() => planFromFlags({ last: '1h', concurrency: '33' }, output, now, 4))).toBe('--concurrency must be from 1 to 32, not 33');
    expect(refusal(() => planFromFlags({ last: '1h', concurrency: '0' }, output, now, 4))).toBe('--concurrency must be from 1 to 32, not 0');
  });
});

describe('resumeArgs', () => {
  it('adds --excel-safe, and -o with an empty name for standard output', () => {
    const plan = planExport({ ...base, output: { ...output, file: undefined, excelSafe: true } });
    expect(resumeArgs(plan)).toEqual([
      'swaps',
      '--from',
      '2026-11-20T00:00:00Z',
      '--to',
      '2026-11-21T00:00:00Z',
      '--format',
      'jsonl',
      '--excel-safe',
      '-o',
      '',
      '--resume',
    ]);
  });
  it('leaves out a format the file name says, even gzipped, and the default window', () => {
    const plan = planExport({ ...base, output: { ...output, file: 'out.csv.gz', format: 'csv', gzip: true } });
    expect(resumeArgs(plan)).toEqual(['swaps', '--from', '2026-11-20T00:00:00Z', '--to', '2026-11-21T00:00:00Z', '-o', 'out.csv.gz', '--resume']);
  });
  it('names the fields when they are every field in another order (two swapped, or all), or one fewer', () => {
    const reordered = [...LIST_SWAP_FIELDS].reverse();
    const plan = planExport({ ...base, output: { ...output, fields: reordered } });
    expect(resumeArgs(plan).slice(5, 7)).toEqual(['--fields', reordered.join(',')]);
    const swapped = [LIST_SWAP_FIELDS[1]!, LIST_SWAP_FIELDS[0]!, ...LIST_SWAP_FIELDS.slice(2)];
    expect(resumeArgs(planExport({ ...base, output: { ...output, fields: swapped } })).slice(5, 7)).toEqual(['--fields', swapped.join(',')]);
    const fewer = LIST_SWAP_FIELDS.slice(0, -1);
    const short = planExport({ ...base, output: { ...output, fields: fewer } });
    expect(resumeArgs(short).slice(5, 7)).toEqual(['--fields', fewer.join(',')]);
  });
});
