/**
 * The flags of `swapx swaps` into the export's plan (export/plan.ts), checked before any request: a range
 * (--from/--to or --last), the filter, the window, the concurrency and the rate. Each bad input is a one-line
 * UsageError (exit 2) naming the flag.
 */
import { CONCURRENCY, WINDOW_MS } from '../../api/bounds.js';
import { UsageError } from '../../api/errors.js';
import { DATE_RANGE_FILTERS, type DateRangeFilter } from '../../api/types.js';
import { parseIntInRange, parseRps, parseSpanOption, parseTimeOption } from '../../cli/option-values.js';
import { formatUtc, parseDuration } from '../../util/time.js';
import { type ExportOutput, type ExportPlan, planExport } from '../../export/plan.js';

export function parseFilter(text: string | undefined): DateRangeFilter | undefined {
  if (text === undefined) return undefined;
  const match = DATE_RANGE_FILTERS.find((f) => f.toLowerCase() === text.trim().toLowerCase());
  if (!match) throw new UsageError(`unknown filter '${text}' (use one of ${DATE_RANGE_FILTERS.join(', ')})`);
  return match;
}

export function parseWindow(text: string | undefined): number {
  if (text === undefined) return WINDOW_MS.default;
  const ms = parseSpanOption('--window', text);
  if (ms < WINDOW_MS.min || ms > WINDOW_MS.max) throw new UsageError(`--window must be from 1m to 30m, not ${text}`);
  if (ms % 1000 !== 0) throw new UsageError(`--window must be whole seconds, not ${text}`);
  return ms;
}

export interface RangeFlags {
  from?: string;
  to?: string;
  last?: string;
}

/**
 * The forms of `<time>` that mean a different instant at each run. Only a text parseTime read comes here, so a
 * bare number (which parseDuration reads as seconds, and parseTime refuses) never does.
 */
function isRelativeTime(text: string): boolean {
  const lower = text.trim().toLowerCase();
  return lower === 'now' || lower === 'today' || lower === 'yesterday' || parseDuration(lower) !== undefined;
}

/** --from/--to or --last, checked; the range is [from, to). `relative`: it depends on the clock. */
export function parseRange(flags: RangeFlags, now: number): { from: number; to: number; relative: boolean } {
  if (flags.last !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined) throw new UsageError('--last covers the range ending now: give either --last or --from/--to');
    const ms = parseSpanOption('--last', flags.last);
    if (ms <= 0) throw new UsageError(`--last must be longer than 0, not '${flags.last}'`);
    checkSpan(now - ms, now);
    return { from: now - ms, to: now, relative: true };
  }
  if (flags.from === undefined) {
    throw new UsageError(
      flags.to === undefined ? 'give a range: --from <time> --to <time>, or --last <duration>' : '--from is missing (the range is --from <time> --to <time>)',
    );
  }
  const from = parseTimeOption('--from', flags.from, now);
  const to = flags.to === undefined ? now : parseTimeOption('--to', flags.to, now);
  if (from > now) throw new UsageError(`--from ${formatUtc(from)} is in the future`);
  if (to <= from) throw new UsageError(`--to (${formatUtc(to)}) must be after --from (${formatUtc(from)})`);
  checkSpan(from, to);
  return { from, to, relative: flags.to === undefined || isRelativeTime(flags.from) || isRelativeTime(flags.to) };
}

/** One run's range at most: ten years is 175,200 windows of 30 minutes; millions would not fit in memory to plan. */
const MAX_RANGE_DAYS = 3653;

function checkSpan(from: number, to: number): void {
  const days = (to - from) / 86_400_000;
  if (days > MAX_RANGE_DAYS) {
    throw new UsageError(
      `the range spans ${Math.round(days).toLocaleString('en-US')} days; one run exports at most ${MAX_RANGE_DAYS.toLocaleString('en-US')} (ten years): split it`,
    );
  }
}

export interface ExportFlags extends RangeFlags {
  filter?: string;
  window?: string;
  concurrency?: string;
  rps?: string;
}

/** The plan from the command line: `output` is checked already, `concurrency` is the profile's when no flag is given. */
export function planFromFlags(flags: ExportFlags, output: ExportOutput, now: number, defaultConcurrency: number): ExportPlan {
  const range = parseRange(flags, now);
  const rps = parseRps(flags.rps);
  return planExport({
    ...range,
    filter: parseFilter(flags.filter),
    windowMs: parseWindow(flags.window),
    output,
    concurrency: parseIntInRange(flags.concurrency, '--concurrency', CONCURRENCY.min, CONCURRENCY.max) ?? defaultConcurrency,
    rps,
    now,
  });
}
