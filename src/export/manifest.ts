/**
 * The record of finished work beside a partial export. A resume trusts it
 * only when it belongs to the same query (the fingerprint), never because a
 * file merely exists. It holds no secret: the base URL cannot carry one.
 */
import fs from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { type Difference, differences, fingerprint } from '../util/fingerprint.js';
import { formatUtc } from '../util/time.js';
import type { DateRangeFilter } from '../api/types.js';
import { type FormatName, formatNamed } from '../formats/registry.js';
import { freezeOutput, withRange, type ExportPlan } from './plan.js';

export interface ExportQuery {
  /** where the windows came from: recorded, but not part of the fingerprint (see queryFingerprint) */
  baseUrl: string;
  filter: string | null;
  from: string;
  to: string;
  windowMs: number;
  /** a format of the registry: readManifest refuses any other */
  format: FormatName;
  fields: string[];
  gzip: boolean;
  excelSafe: boolean;
}

/** The manifest's record of a plan. */
export function queryOf(plan: ExportPlan, baseUrl: string): ExportQuery {
  const { output } = plan;
  return {
    baseUrl,
    filter: plan.filter ?? null,
    from: formatUtc(plan.from),
    to: formatUtc(plan.to),
    windowMs: plan.windowMs,
    format: output.format,
    fields: [...output.fields],
    gzip: output.gzip,
    excelSafe: output.excelSafe,
  };
}

/**
 * What makes two exports the same: everything that shapes the bytes, not where they came from. A base URL
 * fixed after a failure (or the same API behind another address) must not make an export unresumable.
 */
export function queryFingerprint(query: ExportQuery): string {
  const { baseUrl: _, ...shape } = query;
  return fingerprint(shape);
}

export interface Manifest {
  /**
   * 1; 2 where the format keeps a state (`formatState`): a swapx of before formats were modules reads version 1 only,
   * and would resume a Parquet export without its row groups' state (it read `parquet`): it refuses version 2 instead.
   */
  version: 1 | 2;
  fingerprint: string;
  query: ExportQuery;
  windowsTotal: number;
  /** windows complete and contiguous from the first, all in the partial file */
  windowsDone: number;
  /** length of the partial file that those windows fill; anything after it is discarded on resume */
  bytes: number;
  swaps: number;
  dropped: number;
  /** the format's own checkpoint at `bytes`, opaque here: its writer's (src/formats; Parquet: its row groups) */
  formatState?: string;
  updatedAt: string;
}

/**
 * A manifest of swapx before formats were modules, which kept the only format state there was, Parquet's count of
 * row groups, as `parquet`: the same state, read as the format's.
 */
interface OldManifest extends Manifest {
  parquet?: string;
}

export async function readManifest(file: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new UsageError(`${file} is not a readable export manifest; delete it and the partial file beside it to start over`);
  }
  if (!isManifest(manifest)) {
    throw new UsageError(`${file} is not an export manifest swapx can read; delete it and the partial file beside it to start over`);
  }
  const { parquet, ...read } = manifest as OldManifest;
  return parquet === undefined ? manifest : { ...read, formatState: read.formatState ?? parquet };
}

/** The fields a resume reads, of their types, and a format swapx writes: a manifest written by hand or by another program is refused whole. */
function isManifest(value: unknown): value is Manifest {
  if (value === null || typeof value !== 'object') return false;
  const m = value as Partial<OldManifest>;
  const q = m.query as Partial<ExportQuery> | undefined;
  const text = (field: unknown) => field === undefined || typeof field === 'string';
  return (
    (m.version === 1 || (m.version === 2 && typeof m.formatState === 'string')) &&
    typeof m.bytes === 'number' &&
    text(m.formatState) &&
    text(m.parquet) &&
    typeof m.windowsDone === 'number' &&
    typeof m.windowsTotal === 'number' &&
    q !== null &&
    typeof q === 'object' &&
    typeof q.from === 'string' &&
    typeof q.to === 'string' &&
    typeof q.windowMs === 'number' &&
    typeof q.format === 'string' &&
    formatNamed(q.format) !== undefined &&
    Array.isArray(q.fields) &&
    q.fields.every((field) => typeof field === 'string')
  );
}

export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  const versioned: Manifest = { ...manifest, version: manifest.formatState === undefined ? 1 : 2 };
  await writeFileAtomic(file, `${JSON.stringify(versioned, null, 2)}\n`, { mode: 0o600 });
}

/** The plan a manifest records, with this run's file, concurrency and rate: what its resume command continues. */
export function planOfQuery(query: ExportQuery, current: ExportPlan): ExportPlan {
  return Object.freeze({
    ...withRange(current, { from: Date.parse(query.from), to: Date.parse(query.to) }),
    filter: (query.filter ?? undefined) as DateRangeFilter | undefined,
    windowMs: query.windowMs,
    output: freezeOutput({
      file: current.output.file,
      object: current.output.object,
      format: query.format,
      gzip: query.gzip,
      fields: query.fields,
      excelSafe: query.excelSafe,
    }),
  });
}

/** What differs but the base URL, in this order (the shell labels each key: from as --from). */
export function queryDifferences(saved: ExportQuery, wanted: ExportQuery): Difference[] {
  return differences(saved, wanted, ['filter', 'from', 'to', 'windowMs', 'format', 'fields', 'gzip', 'excelSafe']);
}

/** Only the range differs: what a relative range (--last 2d) does from one run to the next. */
export function onlyRangeDiffers(saved: ExportQuery, wanted: ExportQuery): boolean {
  return queryFingerprint({ ...saved, from: wanted.from, to: wanted.to }) === queryFingerprint(wanted);
}

/**
 * A saved query against this run's plan: what differs, and whether the saved range is taken instead (a --resume of
 * a range read against the clock, --last 24h, where only the range moved on). The resume of a FILE (target.ts) and
 * the upload of a finished stage (object/run.ts) decide alike.
 */
export function compareSaved(
  saved: ExportQuery,
  plan: ExportPlan,
  baseUrl: string,
  resume: boolean,
): { savedPlan: ExportPlan; same: boolean; differences: Difference[]; ownRange: boolean } {
  const wanted = queryOf(plan, baseUrl);
  // By the fingerprint, not the differences listed: a record of another swapx may hold a key this one does not name.
  const same = queryFingerprint(saved) === queryFingerprint(wanted);
  const ownRange = resume && !same && plan.relative && onlyRangeDiffers(saved, wanted);
  return { savedPlan: planOfQuery(saved, plan), same, differences: queryDifferences(saved, wanted), ownRange };
}
