/**
 * The plan of an export: a half-open range [from, to) cut into windows of
 * at most 30 minutes aligned to its start, the last one shorter. It is
 * computed before any request and can be shown (--dry-run).
 */
import { UsageError } from '../api/errors.js';
import { DATE_RANGE_FILTERS, DEFAULT_FILTER, MAX_WINDOW_MS, type DateRangeFilter } from '../api/types.js';
import { DURATION_FORMS, TIME_FORMS, formatUtc, parseDuration, parseTime } from '../util/time.js';

export interface Window {
  index: number;
  /** inclusive, epoch ms */
  from: number;
  /** exclusive for the export (the API includes it; the next window owns it), epoch ms */
  to: number;
}

export interface RangeQuery {
  from: number;
  to: number;
  /** undefined: not sent, the server default (Withdrawn) applies */
  filter: DateRangeFilter | undefined;
  windowMs: number;
}

export const MIN_WINDOW_MS = 60_000;

export function planWindows(from: number, to: number, windowMs: number): Window[] {
  const windows: Window[] = [];
  for (let start = from, index = 0; start < to; start += windowMs, index += 1) {
    windows.push({ index, from: start, to: Math.min(start + windowMs, to) });
  }
  return windows;
}

export function parseFilter(text: string | undefined): DateRangeFilter | undefined {
  if (text === undefined) return undefined;
  const match = DATE_RANGE_FILTERS.find((f) => f.toLowerCase() === text.trim().toLowerCase());
  if (!match) throw new UsageError(`unknown filter '${text}' (use one of ${DATE_RANGE_FILTERS.join(', ')})`);
  return match;
}

export function parseWindow(text: string | undefined): number {
  if (text === undefined) return MAX_WINDOW_MS;
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--window: '${text}' is not a duration (${DURATION_FORMS})`);
  if (ms < MIN_WINDOW_MS || ms > MAX_WINDOW_MS) throw new UsageError(`--window must be from 1m to 30m, not ${text}`);
  if (ms % 1000 !== 0) throw new UsageError(`--window must be whole seconds, not ${text}`);
  return ms;
}

function parseTimeOption(name: string, text: string, now: number): number {
  const ms = parseTime(text, now);
  if (ms === undefined) throw new UsageError(`${name}: cannot read '${text}' as a time; use ${TIME_FORMS}`);
  return ms;
}

export interface RangeFlags {
  from?: string;
  to?: string;
  last?: string;
}

/** --from/--to or --last, checked; the range is [from, to). */
export function parseRange(flags: RangeFlags, now: number): { from: number; to: number } {
  if (flags.last !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined) throw new UsageError('--last covers the range ending now: give either --last or --from/--to');
    const ms = parseDuration(flags.last);
    if (ms === undefined) throw new UsageError(`--last: '${flags.last}' is not a duration (${DURATION_FORMS})`);
    if (ms <= 0) throw new UsageError(`--last must be longer than 0, not '${flags.last}'`);
    return { from: now - ms, to: now };
  }
  if (flags.from === undefined) {
    throw new UsageError(flags.to === undefined ? 'give a range: --from <time> --to <time>, or --last <duration>' : '--from is missing (the range is --from <time> --to <time>)');
  }
  const from = parseTimeOption('--from', flags.from, now);
  const to = flags.to === undefined ? now : parseTimeOption('--to', flags.to, now);
  if (from > now) throw new UsageError(`--from ${formatUtc(from)} is in the future`);
  if (to <= from) throw new UsageError(`--to (${formatUtc(to)}) must be after --from (${formatUtc(from)})`);
  return { from, to };
}

export function describePlan(query: RangeQuery, windows: readonly Window[], concurrency: number): string {
  const filter = query.filter ?? `${DEFAULT_FILTER} (server default)`;
  const lines = [
    `range        ${formatUtc(query.from)} → ${formatUtc(query.to)} (UTC, end excluded)`,
    `filter       ${filter}`,
    `window       ${query.windowMs / 60_000} min`,
    `windows      ${windows.length}`,
    `requests     ${windows.length} (more if windows are retried or split)`,
    `concurrency  ${concurrency}`,
  ];
  if (windows.length > 0) {
    lines.push(`first        ${formatUtc(windows[0]!.from)} → ${formatUtc(windows[0]!.to)}`);
    const last = windows[windows.length - 1]!;
    lines.push(`last         ${formatUtc(last.from)} → ${formatUtc(last.to)}`);
  }
  return `${lines.join('\n')}\n`;
}
