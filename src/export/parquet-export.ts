/**
 * The bulk export as one Parquet file. Windows are fetched as for the text
 * formats and taken in order; they wait as columns until they make a row
 * group of ROW_GROUP_ROWS, which is then written. A Parquet file ends with
 * the metadata of all its row groups, so each group's metadata is also
 * appended, synced, to `<file>.partial.rowgroups` before the manifest may
 * count the group (the sink's formatState, Manifest.parquet). A checkpoint is therefore always at a
 * row-group edge: a resume cuts the file there, rebuilds the writer from
 * those lines and ends with the same bytes as a run never stopped.
 */
import fs from 'node:fs/promises';
import type { SwapxClient } from '../api/client.js';
import type { DateRangeFilter } from '../api/types.js';
import { ColumnCollector, columnTables, ParquetFile, ROW_GROUP_ROWS, type ColumnBatch } from '../output/parquet/writer.js';
import { OPEN_EXISTING, OPEN_NEW } from '../fs/open-flags.js';
import { writeAll } from '../fs/write-all.js';
import { fetchWindow } from '../windows/fetch-window.js';
import { savedRowGroups } from './parquet-state.js';
import type { ExportEvent, ExportSummary } from './exporter.js';
import type { Window } from '../windows/plan.js';
import { runWindows } from '../windows/run-windows.js';
import type { ExportSink, Tally } from './sink.js';

export interface ParquetExportJob {
  client: SwapxClient;
  filter: DateRangeFilter | undefined;
  windows: readonly Window[];
  concurrency: number;
  /** the columns, in order */
  fields: readonly string[];
  /** a file sink: Parquet is never streamed to stdout */
  sink: ExportSink;
  /** where the row groups' metadata is kept until the file is complete (parquetStatePath) */
  stateFile: string;
  signal?: AbortSignal;
  onEvent?: (event: ExportEvent) => void;
  /** rows per row group (tests make it small) */
  rowGroupRows?: number;
}

type Row = Record<string, unknown>;

/** The saved metadata lines of the first `count` row groups; the file is cut to them. */
async function openState(file: string, count: number): Promise<{ handle: fs.FileHandle; lines: string[]; bytes: number }> {
  if (count === 0) return { handle: await fs.open(file, OPEN_NEW, 0o644), lines: [], bytes: 0 };
  const lines = await savedRowGroups(file, count);
  const bytes = Buffer.byteLength(lines.join('\n')) + 1;
  const handle = await fs.open(file, OPEN_EXISTING);
  // What lies past the checkpoint belongs to row groups the resume writes again.
  await handle.truncate(bytes);
  return { handle, lines, bytes };
}

export async function exportSwapsParquet(job: ParquetExportJob): Promise<ExportSummary> {
  const { sink } = job;
  const groupRows = job.rowGroupRows ?? ROW_GROUP_ROWS;
  const start = sink.state;
  const windowsTotal = job.windows.length;
  const resumed = start.bytes > 0;
  const state = await openState(job.stateFile, resumed ? Number(start.formatState ?? 0) : 0);
  let tally: Tally = { windowsDone: start.windowsDone, swaps: start.swaps, dropped: start.dropped };
  const stats = { splits: 0 };
  /** rows the API returned outside the window asked for (this run): reported, not written by that window */
  let outside = 0;
  let conflicts = 0;
  let withBalanceChanges = 0;
  let groups = state.lines.length;
  try {
    const file = new ParquetFile(job.fields, resumed ? { resume: { bytes: start.bytes, rowGroups: state.lines } } : {});
    let stateBytes = state.bytes;
    // The magic bytes go out with the first row group, or with the footer of an empty export.
    let header: Buffer | undefined = resumed ? undefined : file.header();
    let pending: ColumnBatch[] = [];
    let pendingRows = 0;
    const flush = async (done: Tally) => {
      const group = file.rowGroupOf(pending);
      pending = [];
      pendingRows = 0;
      const line = Buffer.from(`${file.groupState(groups)}\n`);
      await writeAll(state.handle, line, stateBytes);
      await state.handle.datasync();
      stateBytes += line.length;
      groups += 1;
      const bytes = header ? Buffer.concat([header, group]) : group;
      header = undefined;
      await sink.append(bytes, done, String(groups));
    };

    // A window waits as columns (strings as bytes or codes), not as parsed objects, as the text formats keep theirs encoded.
    const tables = columnTables(job.fields);
    await runWindows<{ batch: ColumnBatch; dropped: number; outside: number; conflicts: number; withBalanceChanges: number }>({
      windows: job.windows.slice(start.windowsDone),
      concurrency: job.concurrency,
      signal: job.signal,
      fetch: async (window, signal) => {
        // Each swap goes into the columns as it is parsed, and the window's order picks the rows.
        const columns = new ColumnCollector(job.fields, tables);
        const kept = await fetchWindow(job.client, window, job.filter, stats, signal, (swap) => columns.add(swap as unknown as Row));
        return {
          batch: columns.batch(kept.swaps),
          dropped: kept.dropped,
          outside: kept.outside.length,
          conflicts: kept.conflicts,
          withBalanceChanges: kept.withBalanceChanges,
        };
      },
      consume: async (window, result) => {
        pending.push(result.batch);
        pendingRows += result.batch.rows;
        const done: Tally = { windowsDone: window.index + 1, swaps: tally.swaps + result.batch.rows, dropped: tally.dropped + result.dropped };
        // Cut only where the rows since the last cut decide it, so a resume cuts in the same places.
        if (pendingRows >= groupRows) await flush(done);
        tally = done;
        outside += result.outside;
        conflicts += result.conflicts;
        withBalanceChanges += result.withBalanceChanges;
        job.onEvent?.({ type: 'window', windowsTotal, ...done });
      },
    });
    if (pendingRows > 0) await flush(tally);
    const footer = file.footer();
    await sink.complete(header ? Buffer.concat([header, footer]) : footer);
  } catch (error) {
    await state.handle.close();
    // No row group recorded: nothing to resume from (the partial file is discarded too).
    if (groups === 0) await fs.rm(job.stateFile, { force: true });
    throw error;
  }
  await state.handle.close();
  await fs.rm(job.stateFile, { force: true });
  return { ...tally, windowsTotal, splits: stats.splits, swapsThisRun: tally.swaps - start.swaps, outside, conflicts, withBalanceChanges };
}
