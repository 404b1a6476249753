/**
 * The plan of an export, built once (from the shell's flags: commands/swaps/flags.ts, or an ExportSpec) and never
 * changed: a half-open range [from, to) cut into windows (windows/plan.ts), the filter, the output, the concurrency.
 * It is computed before any request; the dry-run text, the resume command (commands/swaps/render.ts) and the
 * manifest are all rendered from it.
 */
import { CONCURRENCY, RPS_MAX, WINDOW_MS } from '../api/bounds.js';
import { UsageError } from '../api/errors.js';
import type { DateRangeFilter } from '../api/types.js';
import type { FormatName } from '../formats/registry.js';
import { formatUtc } from '../util/time.js';
import { planWindows, type Window } from '../windows/plan.js';

export interface ExportOutput {
  /** the file written; undefined: stdout. For an object (`object`), the local file it is exported to before it is uploaded. */
  file: string | undefined;
  /** s3://BUCKET/KEY: the object `file` is uploaded to once complete (src/export/object) */
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
  /** the range was read against the clock (the last 24 h, now, today, 7 days ago, no end or a future one): a resume continues the saved one */
  readonly relative: boolean;
  /** the end asked for when it lay in the future: the plan stops at now instead */
  readonly futureTo: number | undefined;
}

/** What planExport takes: times as epoch ms, everything else optional with the CLI's defaults. */
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
  if (spec.from > now) throw new UsageError(`from ${formatUtc(spec.from)} is in the future`);
  const futureTo = spec.to > now ? spec.to : undefined;
  const to = Math.min(spec.to, now);
  if (to <= spec.from) throw new UsageError(`to (${formatUtc(spec.to)}) must be after from (${formatUtc(spec.from)})`);
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

export function windowsOf(plan: ExportPlan): Window[] {
  return planWindows(plan.from, plan.to, plan.windowMs);
}
