/**
 * The plan of an export, built once (from flags or a library call) and never
 * changed: a half-open range [from, to) cut into windows of at most 30
 * minutes aligned to its start (the last one shorter), the filter, the
 * output, the concurrency. It is computed before any request; the dry-run
 * text, the resume command and the manifest are all rendered from it.
 */
import { CONCURRENCY, RPS_MAX, WINDOW_MS, parseIntInRange, parseRps, parseSpanOption, parseTimeOption } from '../api/bounds.js';
import { UsageError } from '../api/errors.js';
import { DATE_RANGE_FILTERS, DEFAULT_FILTER, LIST_SWAP_FIELDS, type DateRangeFilter } from '../api/types.js';
import { formatFromPath } from '../formats/choose.js';
import type { FormatName } from '../formats/registry.js';
import { formatDuration, formatUtc, parseDuration } from '../util/time.js';

export interface Window {
  index: number;
  /** inclusive, epoch ms */
  from: number;
  /** exclusive for the export (the API includes it; the next window owns it), epoch ms */
  to: number;
}

export interface ExportOutput {
  /** -o FILE; undefined: stdout. For an object (`object`), the local file it is exported to before it is uploaded. */
  file: string | undefined;
  /** -o s3://BUCKET/KEY: the object `file` is uploaded to once complete (src/export/object) */
  object?: string;
  format: FormatName;
  gzip: boolean;
  fields: readonly string[];
  excelSafe: boolean;
}

export interface ExportPlan {
  /** inclusive, epoch ms */
  readonly from: number;
  /** exclusive, epoch ms, never past the clock when the plan was made */
  readonly to: number;
  /** undefined: not sent, the server default (Withdrawn) applies */
  readonly filter: DateRangeFilter | undefined;
  readonly windowMs: number;
  readonly output: Readonly<ExportOutput>;
  readonly concurrency: number;
  /** at most this many requests per second across all workers; undefined: no limit */
  readonly rps: number | undefined;
  /** the range was read against the clock (--last, now, today, 7d, a missing or future --to): a resume continues the saved one */
  readonly relative: boolean;
  /** the --to asked for when it lay in the future: the plan stops at now instead */
  readonly futureTo: number | undefined;
}

/** What a library call gives: times as epoch ms, everything else optional with the CLI's defaults. */
export interface ExportSpec {
  from: number;
  to: number;
  filter?: DateRangeFilter;
  windowMs?: number;
  output: ExportOutput;
  concurrency?: number;
  rps?: number;
  /** the clock: a `to` past it is cut to it; default Date.now() */
  now?: number;
  /** see ExportPlan.relative */
  relative?: boolean;
}

/** A copy of exactly the output's fields, frozen. */
export function freezeOutput(output: ExportOutput): Readonly<ExportOutput> {
  const { file, object, format, gzip, fields, excelSafe } = output;
  return Object.freeze({ file, ...(object === undefined ? {} : { object }), format, gzip, fields: Object.freeze([...fields]), excelSafe });
}

function checkWithin(value: number, name: string, min: number, max: number): void {
  if (!(value >= min && value <= max)) throw new UsageError(`${name} must be from ${min} to ${max}, not ${value}`);
}

/** Checks a spec and freezes it into a plan; a `to` in the future is cut to now (ExportPlan.futureTo says so). */
export function planExport(spec: ExportSpec): ExportPlan {
  const now = spec.now ?? Date.now();
  const windowMs = spec.windowMs ?? WINDOW_MS.default;
  checkWithin(windowMs, 'the window (ms)', WINDOW_MS.min, WINDOW_MS.max);
  const concurrency = spec.concurrency ?? CONCURRENCY.default;
  checkWithin(concurrency, 'concurrency', CONCURRENCY.min, CONCURRENCY.max);
  if (spec.rps !== undefined && !(spec.rps > 0 && spec.rps <= RPS_MAX)) throw new UsageError(`rps must be above 0 and at most ${RPS_MAX}, not ${spec.rps}`);
  if (spec.from > now) throw new UsageError(`--from ${formatUtc(spec.from)} is in the future`);
  const futureTo = spec.to > now ? spec.to : undefined;
  const to = Math.min(spec.to, now);
  if (to <= spec.from) throw new UsageError(`--to (${formatUtc(spec.to)}) must be after --from (${formatUtc(spec.from)})`);
  return Object.freeze({
    from: spec.from,
    to,
    filter: spec.filter,
    windowMs,
    output: freezeOutput(spec.output),
    concurrency,
    rps: spec.rps,
    relative: spec.relative === true || futureTo !== undefined,
    futureTo,
  });
}

/** The same plan over another range (a resume continues the range it started with). */
export function withRange(plan: ExportPlan, range: { from: number; to: number }): ExportPlan {
  return Object.freeze({ ...plan, from: range.from, to: range.to, relative: false, futureTo: undefined });
}

export function planWindows(from: number, to: number, windowMs: number): Window[] {
  const windows: Window[] = [];
  for (let start = from, index = 0; start < to; start += windowMs, index += 1) {
    windows.push({ index, from: start, to: Math.min(start + windowMs, to) });
  }
  return windows;
}

export function windowsOf(plan: ExportPlan): Window[] {
  return planWindows(plan.from, plan.to, plan.windowMs);
}

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

/** The --dry-run text. */
export function describePlan(plan: ExportPlan): string {
  const windows = windowsOf(plan);
  const filter = plan.filter ?? `${DEFAULT_FILTER} (server default)`;
  const lines = [
    `range        ${formatUtc(plan.from)} → ${formatUtc(plan.to)} (UTC, end excluded)`,
    `filter       ${filter}`,
    `window       ${formatDuration(plan.windowMs)}`,
    `windows      ${windows.length}`,
    `requests     ${windows.length} (more if windows are retried or split)`,
    `concurrency  ${plan.concurrency}`,
  ];
  if (windows.length > 0) {
    lines.push(`first        ${formatUtc(windows[0]!.from)} → ${formatUtc(windows[0]!.to)}`);
    const last = windows[windows.length - 1]!;
    lines.push(`last         ${formatUtc(last.from)} → ${formatUtc(last.to)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** "--to 2026-12-01T00:00:00Z is in the future: the export stops at now (…)", or undefined. */
export function futureNote(plan: ExportPlan): string | undefined {
  if (plan.futureTo === undefined) return undefined;
  return `--to ${formatUtc(plan.futureTo)} is in the future: the export stops at now (${formatUtc(plan.to)})`;
}

/**
 * The words of `swaps` that continue this export, after `swapx` and its global options: absolute
 * times (so `--last 24h` resumes the same range), and only what differs from the defaults.
 */
export function resumeArgs(plan: ExportPlan): string[] {
  const { output } = plan;
  const words = ['swaps', '--from', formatUtc(plan.from), '--to', formatUtc(plan.to)];
  if (plan.filter) words.push('--filter', plan.filter);
  if (plan.windowMs !== WINDOW_MS.default) words.push('--window', formatDuration(plan.windowMs));
  if (output.file === undefined || formatFromPath(output.file).format !== output.format) words.push('--format', output.format);
  const allFields = output.fields.length === LIST_SWAP_FIELDS.length && output.fields.every((field, i) => field === LIST_SWAP_FIELDS[i]);
  if (!allFields) words.push('--fields', output.fields.join(','));
  if (output.excelSafe) words.push('--excel-safe');
  words.push('-o', output.object ?? output.file ?? '', '--resume');
  return words;
}
