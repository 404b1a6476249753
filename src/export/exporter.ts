/**
 * The bulk export: windows fetched concurrently, handed in order to the format's writer (src/formats), and what
 * it flushes appended to a sink with its checkpoint. It reports as it goes through `onEvent` and returns what it
 * did; how that is shown is the caller's business.
 */
import type { SwapxClient } from '../api/client.js';
import type { DateRangeFilter } from '../api/types.js';
import type { ExportWriter } from '../formats/writer.js';
import { fetchWindow } from '../windows/fetch-window.js';
import { windowReader, type ReadWindow } from '../windows/read-window.js';
import { freeNow } from '../util/free-now.js';
import type { Window } from '../windows/plan.js';
import { runWindows } from '../windows/run-windows.js';
import type { ExportSink, Tally } from './sink.js';

export interface ExportJob {
  client: SwapxClient;
  filter: DateRangeFilter | undefined;
  windows: readonly Window[];
  concurrency: number;
  /** the format's writer, from where the sink starts (sink.state) */
  writer: ExportWriter;
  sink: ExportSink;
  signal?: AbortSignal;
  onEvent?: (event: ExportEvent) => void;
}

/** What is written so far, after each window (a resume starts with the windows already done). */
export interface ExportEvent extends Tally {
  type: 'window';
  windowsTotal: number;
}

export interface ExportSummary extends Tally {
  windowsTotal: number;
  /** windows split in halves after timing out */
  splits: number;
  /** swaps written by this run (a resume wrote the others before) */
  swapsThisRun: number;
  /** rows the API returned, in this run, outside the window asked for: not written by that window, and reported */
  outside: number;
  /** ids returned twice in one window with different content, in this run: the later updatedAt kept (order.ts) */
  conflicts: number;
  /** swaps written, in this run, whose balanceChanges the API sent (CSV and Parquet leave them out: the caller says so) */
  withBalanceChanges: number;
}

/**
 * Encoded bytes fetched (or expected) ahead of the writer, per unit of concurrency, where the writer says what a
 * waiting window holds. Windows of a sparse range are far smaller, so this never slows them; a dense range (2,000
 * swaps an hour is ~1.4 MB a window) runs fewer windows at once rather than holding more: a 10-day export at
 * concurrency 8 stays under 100 MB.
 */
const BYTES_AHEAD_PER_SLOT = 1024 * 1024;

/** A window as it waits for its turn: its batch as the writer keeps it (encoded, or columns), no swap of it alive as an object. */
interface WaitingWindow {
  batch: unknown;
  swaps: number;
  dropped: number;
  outside: number;
  conflicts: number;
  withBalanceChanges: number;
}

export async function exportSwaps(job: ExportJob): Promise<ExportSummary> {
  const { writer, sink } = job;
  const start = sink.state;
  const windowsTotal = job.windows.length;
  let tally: Tally = { windowsDone: start.windowsDone, swaps: start.swaps, dropped: start.dropped };
  const stats = { splits: 0 };
  const reader = windowReader(job.client);
  let outside = 0;
  let conflicts = 0;
  let withBalanceChanges = 0;
  // Bounded by bytes where the writer can tell them (encoded text); else by the count of windows alone (Parquet's columns).
  const bytesAhead = writer.sizeOf
    ? { maxBytesAhead: job.concurrency * BYTES_AHEAD_PER_SLOT, sizeOf: (waiting: WaitingWindow) => writer.sizeOf!(waiting.batch) }
    : {};
  try {
    await runWindows<WaitingWindow>({
      windows: job.windows.slice(start.windowsDone),
      concurrency: job.concurrency,
      ...bytesAhead,
      signal: job.signal,
      fetch: async (window, signal) => {
        // Each swap becomes the writer's item as it arrives (for JSON, a part of the response body); the window's
        // batch is made once it is sorted, and then its bodies are freed: kept alive by those parts until now, they
        // would linger until V8's next full collection (~10 MB of a JSON Lines export's peak, measured).
        const bodies: Buffer[] = [];
        const read: ReadWindow = async (query, visit, signal) => {
          const done = await reader(query, visit, signal);
          bodies.push(done.body);
          return done;
        };
        const collector = writer.collector();
        const kept = await fetchWindow(read, window, job.filter, stats, signal, collector.item);
        const batch = collector.batch(kept.swaps);
        for (const body of bodies) freeNow(body);
        return {
          batch,
          swaps: kept.swaps.length,
          dropped: kept.dropped,
          outside: kept.outside.length,
          conflicts: kept.conflicts,
          withBalanceChanges: kept.withBalanceChanges,
        };
      },
      consume: async (window, waiting) => {
        writer.add(waiting.batch, waiting.swaps);
        const done: Tally = { windowsDone: window.index + 1, swaps: tally.swaps + waiting.swaps, dropped: tally.dropped + waiting.dropped };
        const flushed = await writer.flush(false);
        if (flushed) await sink.append(flushed.bytes, done, flushed.formatState);
        tally = done;
        outside += waiting.outside;
        conflicts += waiting.conflicts;
        withBalanceChanges += waiting.withBalanceChanges;
        job.onEvent?.({ type: 'window', windowsTotal, ...done });
      },
    });
    const last = await writer.flush(true);
    if (last) await sink.append(last.bytes, tally, last.formatState);
    await sink.complete(writer.footer());
  } catch (error) {
    await writer.close(false);
    throw error;
  }
  await writer.close(true);
  return { ...tally, windowsTotal, splits: stats.splits, swapsThisRun: tally.swaps - start.swaps, outside, conflicts, withBalanceChanges };
}
