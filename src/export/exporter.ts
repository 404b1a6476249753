/** The bulk export: windows fetched concurrently, written in order through an encoder into a sink. */
import type { SwapxClient } from '../api/client.js';
import type { Encoder } from '../output/encode.js';
import { fetchWindow } from './fetch-window.js';
import type { RangeQuery, Window } from './plan.js';
import type { ExportCounters } from './progress.js';
import { runWindows } from './run-windows.js';
import type { ExportSink } from './sink.js';

export interface ExportJob {
  client: SwapxClient;
  query: RangeQuery;
  windows: readonly Window[];
  concurrency: number;
  encoder: Encoder;
  sink: ExportSink;
  counters: ExportCounters;
  signal?: AbortSignal;
  /** after each window is durable */
  onWindow?: () => void;
}

export async function exportSwaps(job: ExportJob): Promise<void> {
  const { encoder, sink, counters } = job;
  const start = sink.state;
  Object.assign(counters, { windowsDone: start.windowsDone, swaps: start.swaps, dropped: start.dropped });
  await runWindows({
    windows: job.windows.slice(start.windowsDone),
    concurrency: job.concurrency,
    signal: job.signal,
    fetch: (window) => fetchWindow(job.client, window, job.query.filter, counters),
    consume: async (window, kept) => {
      const rows = kept.swaps as unknown as Record<string, unknown>[];
      const text = (window.index === 0 ? encoder.header() : '') + encoder.batch(rows, counters.swaps === 0);
      const done = { windowsDone: window.index + 1, swaps: counters.swaps + rows.length, dropped: counters.dropped + kept.dropped };
      await sink.append(text, done);
      Object.assign(counters, done);
      job.onWindow?.();
    },
  });
  await sink.complete(encoder.footer(counters.swaps > 0));
}
