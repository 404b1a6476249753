// How a case is compared with its clean run: exports byte for byte, syncs row for row by id (duplicates,
// missing, extra and stale rows count as differences; a Parquet mirror read with DuckDB); and what a run's
// stderr says it retried.
import fs from 'node:fs';
import path from 'node:path';
import { asRead, asReadColumns, query, sqlString } from '../support/duckdb.js';

/** The retries an export reports in its summary (the last `retries N` on stderr); 0 without one. */
export function exportRetries(stderr: string): number {
  const all = [...stderr.matchAll(/retries\s+([\d,]+)/g)];
  const last = all[all.length - 1];
  return last?.[1] ? Number(last[1].replace(/,/g, '')) : 0;
}

/** The sum of `retries` over a sync's --summary-json lines. */
export function syncRetries(stderr: string): number {
  let total = 0;
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{"event":"sync-step"')) continue;
    try {
      total += (JSON.parse(line) as { retries: number }).retries;
    } catch {
      // A line cut by SIGKILL.
    }
  }
  return total;
}

/** Differences between two exports: 0 when byte-identical, else the lines in one but not the other (at least 1). */
export function byteDifferences(actual: Buffer, expected: Buffer): number {
  if (Buffer.compare(actual, expected) === 0) return 0;
  const count = new Map<string, number>();
  for (const line of expected.toString('utf8').split('\n')) count.set(line, (count.get(line) ?? 0) + 1);
  let extra = 0;
  for (const line of actual.toString('utf8').split('\n')) {
    const n = count.get(line) ?? 0;
    if (n > 0) count.set(line, n - 1);
    else extra += 1;
  }
  let missing = 0;
  for (const n of count.values()) missing += n;
  // Same lines, other order or bytes: still not identical.
  return Math.max(1, missing + extra);
}

/** Differences between two sets of ids: missing + unexpected + each duplicate written. */
export function idDifferences(actual: readonly string[], expected: readonly string[]): number {
  const want = new Set(expected);
  const seen = new Set<string>();
  let extra = 0;
  let duplicates = 0;
  for (const id of actual) {
    if (seen.has(id)) duplicates += 1;
    else if (!want.has(id)) extra += 1;
    seen.add(id);
  }
  let missing = 0;
  for (const id of want) if (!seen.has(id)) missing += 1;
  return missing + extra + duplicates;
}

/** A synced row: its id and its JSON line. */
export type SyncedRow = [id: string, line: string];

/** A swap in comparable form (scripts/support/comparable.ts) as a synced row: its id, and its JSON. */
export function syncedRow(swap: Record<string, unknown>): SyncedRow {
  return [String(swap.id), JSON.stringify(swap)];
}

/** Every row of a sync dir's partitions (date=*\/part*.jsonl) as [id, line], in file order, duplicates kept. */
export function syncedRows(dir: string): SyncedRow[] {
  const rows: SyncedRow[] = [];
  for (const partition of fs.readdirSync(dir).sort()) {
    if (!/^date=\d{4}-\d{2}-\d{2}$/.test(partition)) continue;
    for (const name of fs.readdirSync(path.join(dir, partition)).sort()) {
      if (!/^part(-.*)?\.jsonl$/.test(name)) continue;
      for (const line of fs.readFileSync(path.join(dir, partition, name), 'utf8').split('\n')) {
        if (line !== '') rows.push([String((JSON.parse(line) as { id: unknown }).id), line]);
      }
    }
  }
  return rows;
}

/** idDifferences, plus each row held in another version than the reference's (a stale or wrong row). */
export function rowDifferences(actual: readonly SyncedRow[], expected: readonly SyncedRow[]): number {
  const want = new Map(expected);
  let stale = 0;
  for (const [id, line] of actual) if (want.has(id) && want.get(id) !== line) stale += 1;
  return (
    idDifferences(
      actual.map(([id]) => id),
      [...want.keys()],
    ) + stale
  );
}

/** Hidden files a finished sync must not leave (temporary parts, state or lock files). */
/**
 * Hidden files a sync left in `dir` that a finished run keeps none of: everything hidden but the state, its last run, the folder of
 * partition indexes and the index of each partition there is (a temporary file, a lock, moves not finished).
 */
export function syncLeftovers(dir: string): string[] {
  const names = fs.readdirSync(dir, { recursive: true }).map(String);
  const kept = new Set(['.swapx-sync.json', '.swapx-last-run.json', '.swapx-ids']);
  for (const name of names) {
    const date = /^date=(\d{4}-\d{2}-\d{2})$/.exec(name)?.[1];
    if (date !== undefined) kept.add(path.join('.swapx-ids', `${date}.ids`));
  }
  return names.filter((name) => path.basename(name).startsWith('.') && !kept.has(name));
}

export function dirBytes(dir: string): number {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

/** JSON with object keys sorted, so a row read back by DuckDB and the API's record compare as text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * A JSON Lines mirror's rows (what the API sent) as a Parquet mirror must hold them, read by DuckDB: the
 * Parquet columns (`fields`), times as epoch microseconds; to compare with parquetSyncedRows.
 */
export function asParquetRows(rows: readonly SyncedRow[], fields: readonly string[]): SyncedRow[] {
  return rows.map(([id, line]) => [id, canonicalJson(asRead(JSON.parse(line) as Record<string, unknown>, fields))]);
}

/** Every row of a Parquet sync dir (`dir/**\/*.parquet`, read with DuckDB) as [id, canonical JSON], in file order, duplicates kept. */
export async function parquetSyncedRows(dir: string, fields: readonly string[]): Promise<SyncedRow[]> {
  if (!fs.readdirSync(dir, { recursive: true }).some((name) => String(name).endsWith('.parquet'))) return [];
  const rows = await query(
    `SELECT ${asReadColumns(fields)} FROM read_parquet(${sqlString(`${dir}/**/*.parquet`)}, filename = true, file_row_number = true) ORDER BY filename, file_row_number`,
  );
  return rows.map((row) => [String(row.id), canonicalJson(row)]);
}

/** The Parquet partitions of a sync dir, relative path to bytes. */
export function parquetParts(dir: string): Map<string, Buffer> {
  const parts = new Map<string, Buffer>();
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    if (name.endsWith('.parquet')) parts.set(name, fs.readFileSync(path.join(dir, name)));
  }
  return parts;
}

/** Partitions missing, extra, or not byte-identical to the clean run's. */
export function partDifferences(actual: ReadonlyMap<string, Buffer>, expected: ReadonlyMap<string, Buffer>): string[] {
  const names = [...new Set([...actual.keys(), ...expected.keys()])].sort();
  return names.filter((name) => {
    const a = actual.get(name);
    const b = expected.get(name);
    return !a || !b || !a.equals(b);
  });
}
