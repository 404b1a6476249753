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
  /** after each window is written */
  onWindow?: () => void;
}

/** A window as it waits for its turn: already encoded, so the parsed swaps are garbage at once. */
interface EncodedWindow {
  text: string;
  swaps: number;
  dropped: number;
  outside: number;
}

export async function exportSwaps(job: ExportJob): Promise<void> {
  const { encoder, sink, counters } = job;
  const start = sink.state;
  Object.assign(counters, { windowsDone: start.windowsDone, swaps: start.swaps, dropped: start.dropped });
  await runWindows<EncodedWindow>({
    windows: job.windows.slice(start.windowsDone),
    concurrency: job.concurrency,
    signal: job.signal,
    fetch: async (window, signal) => {
      const kept = await fetchWindow(job.client, window, job.query.filter, counters, signal);
      const rows = kept.swaps as unknown as Record<string, unknown>[];
      return { text: encoder.batch(rows, true), swaps: rows.length, dropped: kept.dropped, outside: kept.outside.length };
    },
    consume: async (window, encoded) => {
      const joiner = encoded.swaps > 0 && counters.swaps > 0 ? encoder.between : '';
      const text = (window.index === 0 ? encoder.header() : '') + joiner + encoded.text;
      const done = { windowsDone: window.index + 1, swaps: counters.swaps + encoded.swaps, dropped: counters.dropped + encoded.dropped };
      await sink.append(text, done);
      Object.assign(counters, done);
      counters.outside = (counters.outside ?? 0) + encoded.outside;
      job.onWindow?.();
    },
  });
  await sink.complete(encoder.footer(counters.swaps > 0));
}
