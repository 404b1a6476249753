/**
 * The bulk export as one Parquet file. Windows are fetched as for the text
 * formats and taken in order; their swaps wait in memory until they make a
 * row group of ROW_GROUP_ROWS, which is then written and checkpointed with
 * the metadata of every row group so far. A checkpoint is therefore always
 * at a row-group edge: a resume cuts the file there, rebuilds the writer
 * from the manifest and ends with the same bytes as a run never stopped.
 */
import type { SwapxClient } from '../api/client.js';
import { ParquetFile, ROW_GROUP_ROWS, toColumns, type ColumnBatch } from '../output/parquet.js';
import { fetchWindow } from './fetch-window.js';
import type { RangeQuery, Window } from './plan.js';
import type { ExportCounters } from './progress.js';
import { runWindows } from './run-windows.js';
import type { ExportSink } from './sink.js';

export interface ParquetExportJob {
  client: SwapxClient;
  query: RangeQuery;
  windows: readonly Window[];
  concurrency: number;
  /** the columns, in order */
  fields: readonly string[];
  /** a file sink: Parquet is never streamed to stdout */
  sink: ExportSink;
  counters: ExportCounters;
  signal?: AbortSignal;
  onWindow?: () => void;
  /** rows per row group (tests make it small) */
  rowGroupRows?: number;
}

type Row = Record<string, unknown>;

export async function exportSwapsParquet(job: ParquetExportJob): Promise<void> {
  const { sink, counters } = job;
  const groupRows = job.rowGroupRows ?? ROW_GROUP_ROWS;
  const start = sink.state;
  const resumed = start.bytes > 0;
  const file = new ParquetFile(job.fields, resumed ? { resume: { bytes: start.bytes, rowGroups: start.parquet ?? '[]' } } : {});
  // The magic bytes go out with the first row group, or with the footer of an empty export.
  let header: Buffer | undefined = resumed ? undefined : file.header();
  let pending: ColumnBatch[] = [];
  let pendingRows = 0;
  const flush = async (done: { windowsDone: number; swaps: number; dropped: number }) => {
    const group = file.rowGroupOf(pending);
    pending = [];
    pendingRows = 0;
    const bytes = header ? Buffer.concat([header, group]) : group;
    header = undefined;
    await sink.append(bytes, { ...done, parquet: file.state() });
  };

  Object.assign(counters, { windowsDone: start.windowsDone, swaps: start.swaps, dropped: start.dropped });
  // A window waits as columns, not as parsed objects (a tenth of the garbage), as the text formats keep theirs encoded.
  await runWindows<{ batch: ColumnBatch; dropped: number }>({
    windows: job.windows.slice(start.windowsDone),
    concurrency: job.concurrency,
    signal: job.signal,
    fetch: async (window, signal) => {
      const kept = await fetchWindow(job.client, window, job.query.filter, counters, signal);
      return { batch: toColumns(job.fields, kept.swaps as unknown as Row[]), dropped: kept.dropped };
    },
    consume: async (window, result) => {
      pending.push(result.batch);
      pendingRows += result.batch.rows;
      const done = { windowsDone: window.index + 1, swaps: counters.swaps + result.batch.rows, dropped: counters.dropped + result.dropped };
      // Cut only where the rows since the last cut decide it, so a resume cuts in the same places.
      if (pendingRows >= groupRows) await flush(done);
      Object.assign(counters, done);
      job.onWindow?.();
    },
  });
  if (pendingRows > 0) await flush({ windowsDone: counters.windowsDone, swaps: counters.swaps, dropped: counters.dropped });
  const footer = file.footer();
  await sink.complete(header ? Buffer.concat([header, footer]) : footer);
}
