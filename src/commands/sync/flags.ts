/**
 * The options of `swapx sync`, checked before any request or file change:
 * each bad input is a one-line UsageError (exit 2). Options a later run
 * leaves out (format, gzip, fields) come from the directory's state; one
 * given that differs from it is refused.
 */
import { UsageError } from '../../api/errors.js';
import { SWAP_FIELDS } from '../../api/types.js';
import { CONCURRENCY } from '../../api/bounds.js';
import { parseIntInRange, parseTimeOption, refuseBareSpan } from '../../cli/option-values.js';
import type { Format } from '../../formats/format.js';
import { type FormatName, formatNamed, formatOfExtension, MIRROR_FORMATS } from '../../formats/registry.js';
import { selectFields } from '../../cli/fields.js';
import { formatUtc, parseDuration } from '../../util/time.js';
import { orList } from '../../util/words.js';
import { missingKeyFields } from '../../sync/store.js';
import { DEFAULT_CHECKPOINT_MS, DEFAULT_FOLLOW_RESCAN_MS, DEFAULT_INTERVAL_MS, DEFAULT_LAG_MS } from '../../sync/defaults.js';

export interface SyncFlags {
  out?: string;
  since?: string;
  until?: string;
  format?: string;
  gzip?: boolean;
  fields?: string;
  lag?: string;
  rescanEvery?: string;
  follow?: boolean;
  interval?: string;
  summaryJson?: boolean;
  concurrency?: string;
  checkpointEvery?: string;
  moveBaseUrl?: boolean;
  /** a postgres:// --out's table, name or schema.name */
  table?: string;
  /** sync status: as JSON */
  json?: boolean;
  /** sync status: the lag past which it exits 1 */
  maxLag?: string;
}

export interface SyncOptions {
  dir: string;
  since: number | undefined;
  /** explicit --until; undefined: now − settle at each step */
  until: number | undefined;
  format: FormatName | undefined;
  gzip: boolean | undefined;
  fields: string[] | undefined;
  lagMs: number;
  rescanEveryMs: number;
  follow: boolean;
  intervalMs: number;
  summaryJson: boolean;
  concurrency: number | undefined;
  /** time between checkpoints (0: after every window) */
  checkpointMs: number;
  /** the API moved: a mirror of another base URL continues from this one */
  moveBaseUrl: boolean;
}

function duration(text: string, name: string, options: { min: number; max: number; zero?: boolean; span?: boolean }): number {
  // A span of data (--lag) needs a unit: '48' is refused with the units it may have meant (bounds.ts).
  if (options.span) refuseBareSpan(name, text);
  // parseDuration reads a bare '0' as 0 s: `zero` only says, in the refusal, that 0 is taken.
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`${name}: '${text}' is not a duration (such as 90s, 15m, 48h${options.zero ? ', or 0' : ''})`);
  if (ms < options.min || ms > options.max) throw new UsageError(`${name} must be from ${formatSpan(options.min)} to ${formatSpan(options.max)}, not ${text}`);
  return ms;
}

function formatSpan(ms: number): string {
  if (ms === 0) return '0';
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  // (no bound is in minutes)
  return `${ms / 1000}s`;
}

/** A `<time>`, down to a whole second (`--since 7d` keeps the cursor and the query times readable). */
function time(text: string, name: string, now: number): number {
  return Math.floor(parseTimeOption(name, text, now) / 1000) * 1000;
}

/** A mirror's format: its name or an extension's word (ndjson), and .gz after a text one. */
function parseFormat(text: string): { format: Format<FormatName>; gzip: boolean } {
  const lower = text.trim().toLowerCase();
  const gzip = lower.endsWith('.gz');
  const base = gzip ? lower.slice(0, -3) : lower;
  const format = formatNamed(base) ?? formatOfExtension(`.${base}`);
  if (!format?.mirror) {
    const gzipped = MIRROR_FORMATS.filter((other) => other.gzip).map((other) => other.name);
    const whole = MIRROR_FORMATS.filter((other) => !other.gzip).map((other) => other.name);
    throw new UsageError(`--format: sync writes ${gzipped.join(', ')} (optionally .gz, e.g. ${gzipped[0]}.gz) or ${orList(whole)}, not '${text}'`);
  }
  if (!format.gzip && gzip) throw new UsageError(`--format: ${format.name} is compressed inside the file; give ${format.name} without .gz`);
  return { format, gzip };
}

/** Checks of the flags alone. */
export function parseSyncFlags(flags: SyncFlags, now: number): SyncOptions {
  if (flags.out === undefined || flags.out.trim() === '') {
    throw new UsageError('--out <dir> is missing: the directory that holds the partitions and the sync state');
  }
  const format = flags.format === undefined ? undefined : parseFormat(flags.format);
  if (format && !format.format.gzip && flags.gzip === true) {
    const { name, title } = format.format;
    throw new UsageError(`--gzip does not apply to --format ${name}: a ${title} file is compressed inside (drop --gzip)`);
  }
  let fields: string[] | undefined;
  if (flags.fields !== undefined) {
    // A format whose schema fixes its columns (Parquet: a list export's, no balanceChanges) holds no other field.
    fields = selectFields(flags.fields, format?.format.holds ?? SWAP_FIELDS);
    const missing = missingKeyFields(fields);
    if (missing.length)
      throw new UsageError(
        `--fields must include ${missing.join(' and ')}: sync keeps one row per swap id, in its completedAt partition, the latest by updatedAt`,
      );
  }
  const since = flags.since === undefined ? undefined : time(flags.since, '--since', now);
  // A bound not given bounds nothing.
  if ((since ?? now) > now) throw new UsageError(`--since ${formatUtc(since!)} is in the future`);
  const until = flags.until === undefined ? undefined : time(flags.until, '--until', now);
  if ((until ?? now) > now) {
    throw new UsageError(`--until ${formatUtc(until!)} is in the future: the cursor would pass swaps that have not completed yet`);
  }
  if ((until ?? Number.POSITIVE_INFINITY) < (since ?? Number.NEGATIVE_INFINITY)) {
    throw new UsageError(`--until (${formatUtc(until!)}) is before --since (${formatUtc(since!)})`);
  }
  for (const [given, flag] of [
    [flags.json, '--json'],
    [flags.maxLag, '--max-lag'],
  ] as const) {
    if (given !== undefined) throw new UsageError(`${flag} applies to 'swapx sync status', not to a sync (a sync's lines are JSON with --summary-json)`);
  }
  const follow = flags.follow === true;
  if (follow && flags.until !== undefined) throw new UsageError('--follow keeps up with now: give --until or --follow, not both');
  if (!follow && flags.interval !== undefined) throw new UsageError('--interval applies to --follow only');
  return {
    dir: flags.out,
    since,
    until,
    format: format?.format.name,
    gzip: flags.gzip === true || format?.gzip === true ? true : undefined,
    fields,
    lagMs: flags.lag === undefined ? DEFAULT_LAG_MS : duration(flags.lag, '--lag', { min: 0, max: 30 * 86_400_000, zero: true, span: true }),
    rescanEveryMs:
      flags.rescanEvery === undefined
        ? follow
          ? DEFAULT_FOLLOW_RESCAN_MS
          : 0
        : duration(flags.rescanEvery, '--rescan-every', { min: 0, max: 30 * 86_400_000, zero: true }),
    follow,
    intervalMs: flags.interval === undefined ? DEFAULT_INTERVAL_MS : duration(flags.interval, '--interval', { min: 1000, max: 86_400_000 }),
    summaryJson: flags.summaryJson === true,
    concurrency: parseIntInRange(flags.concurrency, '--concurrency', CONCURRENCY.min, CONCURRENCY.max),
    checkpointMs:
      flags.checkpointEvery === undefined
        ? DEFAULT_CHECKPOINT_MS
        : duration(flags.checkpointEvery, '--checkpoint-every', { min: 0, max: 3_600_000, zero: true }),
    moveBaseUrl: flags.moveBaseUrl === true,
  };
}
