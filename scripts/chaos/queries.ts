// What a chaos case runs: an export or a sync of a range, and the CLI arguments of each.
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface ExportQuery {
  kind: 'export';
  /** epoch ms */
  from: number;
  to: number;
  /** --window, default 10m */
  window?: string;
  /** --concurrency, default 4 */
  concurrency?: number;
  /** the -o extension, so the format: default 'jsonl' */
  ext?: 'jsonl' | 'csv' | 'json' | 'parquet';
}

export interface SyncQuery {
  kind: 'sync';
  /** --since, epoch ms */
  from: number;
  /** --until, epoch ms */
  to: number;
  /** --concurrency, default 2 */
  concurrency?: number;
  /** --format, default jsonl (part.jsonl) */
  format?: 'parquet';
}

export type Query = ExportQuery | SyncQuery;

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The swaps arguments of an export of the query to `file`. */
export function exportArgs(query: Omit<ExportQuery, 'kind'>, file: string, extra: string[] = []): string[] {
  return [
    'swaps',
    '--from',
    iso(query.from),
    '--to',
    iso(query.to),
    '--window',
    query.window ?? '10m',
    '--concurrency',
    String(query.concurrency ?? 4),
    '-o',
    file,
    ...extra,
  ];
}

/** The sync arguments of a sync of the query into `dir`. */
export function syncArgs(query: Omit<SyncQuery, 'kind'>, dir: string, extra: string[] = []): string[] {
  return [
    'sync',
    '--out',
    dir,
    '--since',
    iso(query.from),
    '--until',
    iso(query.to),
    '--concurrency',
    String(query.concurrency ?? 2),
    '--summary-json',
    // A checkpoint every half second (not every 30): a kill falls between commits, not only before the first.
    '--checkpoint-every',
    '500ms',
    ...(query.format ? ['--format', query.format] : []),
    ...extra,
  ];
}
