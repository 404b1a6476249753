// The clean runs every case is compared with: an export byte for byte, a sync row for row (JSON Lines), a
// Parquet sync row for row with DuckDB and file for file with a clean Parquet sync.
import fs from 'node:fs';
import path from 'node:path';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import {
  asParquetRows,
  byteDifferences,
  dirBytes,
  parquetParts,
  parquetSyncedRows,
  partDifferences,
  rowDifferences,
  type SyncedRow,
  syncedRows,
} from './compare.js';
import type { Harness, Reference } from './harness.js';
import { type ExportQuery, exportArgs, type SyncQuery, syncArgs } from './queries.js';
import type { CaseRow } from './report.js';
import { exists, firstLine, runSwapx } from './spawn.js';

export async function exportReference(harness: Harness, query: ExportQuery): Promise<Reference> {
  const sandbox = await harness.sandbox();
  try {
    const file = path.join(harness.caseDir('reference-export'), `clean.${query.ext ?? 'jsonl'}`);
    const r = await runSwapx(exportArgs(query, file, ['-q']), harness.env(sandbox));
    if (r.code !== 0) throw new Error(`the clean reference export failed (exit ${r.code}): ${firstLine(r.stderr)}`);
    const bytes = fs.readFileSync(file);
    // Parquet rows are counted in the JSON Lines export of the same query.
    const rows =
      query.ext === 'parquet' ? (await harness.reference({ ...query, ext: undefined })).rows : bytes.toString('utf8').split('\n').filter(Boolean).length;
    return {
      rows,
      size: bytes.length,
      ms: r.ms,
      compare: (row, output) => {
        row.rows = rows;
        row.differences = byteDifferences(exists(output) ? fs.readFileSync(output) : Buffer.alloc(0), bytes);
      },
      progress: (row, output) => partialState(row, output, bytes),
    };
  } finally {
    await harness.stopSandbox(sandbox);
  }
}

export async function syncReference(harness: Harness, query: SyncQuery, now: number): Promise<Reference> {
  const sandbox = await harness.sandbox({ now: () => now });
  try {
    const dir = path.join(harness.caseDir('reference-sync'), 'out');
    const r = await runSwapx(syncArgs(query, dir, ['-q']), harness.env(sandbox));
    if (r.code !== 0) throw new Error(`the clean reference sync failed (exit ${r.code}): ${firstLine(r.stderr)}`);
    const lines: SyncedRow[] = syncedRows(dir);
    if (new Set(lines.map(([id]) => id)).size !== lines.length) throw new Error('the clean reference sync wrote a swap twice');
    return {
      lines,
      rows: lines.length,
      size: dirBytes(dir),
      ms: r.ms,
      compare: (row, output) => {
        row.rows = lines.length;
        row.differences = rowDifferences(exists(output) ? syncedRows(output) : [], lines);
      },
      progress: (_row, output) => `${exists(output) ? syncedRows(output).length : 0} swaps in parts`,
    };
  } finally {
    await harness.stopSandbox(sandbox);
  }
}

/**
 * A Parquet sync is compared with what the API sent: the clean JSON Lines sync of the query at the same clock,
 * row for row, read from `dir/**\/*.parquet` with DuckDB (a missing, extra, duplicate or stale row is a
 * difference); and each partition file with a clean Parquet sync's, byte for byte (one file that differs is one
 * difference: a mirror must converge to the bytes of an uninterrupted run).
 */
export async function parquetSyncReference(harness: Harness, query: SyncQuery, now: number): Promise<Reference> {
  const rows = asParquetRows((await harness.reference({ ...query, format: undefined }, now)).lines ?? [], LIST_SWAP_FIELDS);
  const sandbox = await harness.sandbox({ now: () => now });
  try {
    const dir = path.join(harness.caseDir('reference-sync-parquet'), 'out');
    const r = await runSwapx(syncArgs(query, dir, ['-q']), harness.env(sandbox));
    if (r.code !== 0) throw new Error(`the clean reference Parquet sync failed (exit ${r.code}): ${firstLine(r.stderr)}`);
    const parts = parquetParts(dir);
    if (rowDifferences(await parquetSyncedRows(dir, LIST_SWAP_FIELDS), rows) !== 0) throw new Error('the clean reference Parquet sync differs from the API');
    return {
      rows: rows.length,
      size: dirBytes(dir),
      ms: r.ms,
      compare: async (row, output) => {
        row.rows = rows.length;
        const actual = exists(output) ? parquetParts(output) : new Map<string, Buffer>();
        const files = partDifferences(actual, parts);
        if (files.length) row.notes.push(`partitions not byte-identical to a clean sync: ${files.join(', ')}`);
        row.differences = rowDifferences(exists(output) ? await parquetSyncedRows(output, LIST_SWAP_FIELDS) : [], rows) + files.length;
      },
      progress: (_row, output) => `${exists(output) ? parquetParts(output).size : 0} Parquet parts`,
    };
  } finally {
    await harness.stopSandbox(sandbox);
  }
}

/** What a killed or failed export left: `k/N windows` from its manifest, and a check that its recorded bytes are the clean run's first. */
function partialState(row: CaseRow, file: string, clean: Buffer): string {
  const manifestFile = `${file}.partial.manifest.json`;
  if (exists(file)) {
    if (Buffer.compare(fs.readFileSync(file), clean) !== 0) row.problems.push('a file not identical to the clean run was left under the final name');
    return 'complete';
  }
  if (!exists(manifestFile)) return 'no manifest yet';
  let manifest: { bytes: number; windowsDone: number; windowsTotal: number };
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch (error) {
    row.problems.push(`unreadable manifest: ${(error as Error).message}`);
    return 'bad manifest';
  }
  const partial = exists(`${file}.partial`) ? fs.readFileSync(`${file}.partial`) : Buffer.alloc(0);
  if (partial.length < manifest.bytes) row.problems.push(`the partial file (${partial.length} B) is shorter than the manifest records (${manifest.bytes} B)`);
  else if (Buffer.compare(partial.subarray(0, manifest.bytes), clean.subarray(0, manifest.bytes)) !== 0) {
    row.problems.push('the partial file differs from the clean run within what the manifest records as done');
  }
  return `${manifest.windowsDone}/${manifest.windowsTotal} windows`;
}
