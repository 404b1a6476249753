/**
 * The bulk export: windows fetched concurrently, written in order through an
 * encoder into a sink. It reports as it goes through `onEvent` and returns
 * what it did; how that is shown is the caller's business.
 */
import type { SwapxClient } from '../api/client.js';
import type { DateRangeFilter } from '../api/types.js';
import type { Encoder } from '../output/encode.js';
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
  encoder: Encoder;
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
 * Encoded bytes fetched (or expected) ahead of the writer, per unit of concurrency. Windows of a sparse range
 * are far smaller, so this never slows them; a dense range (2,000 swaps an hour is ~1.4 MB a window) runs
 * fewer windows at once rather than holding more: a 10-day export at concurrency 8 stays under 100 MB.
 */
const BYTES_AHEAD_PER_SLOT = 1024 * 1024;

/** A window as it waits for its turn: already encoded, so no swap of it is alive as an object. */
interface EncodedWindow {
  bytes: Buffer;
  swaps: number;
  dropped: number;
  outside: number;
  conflicts: number;
  withBalanceChanges: number;
}

export async function exportSwaps(job: ExportJob): Promise<ExportSummary> {
  const { encoder, sink } = job;
  const start = sink.state;
  const windowsTotal = job.windows.length;
  let tally: Tally = { windowsDone: start.windowsDone, swaps: start.swaps, dropped: start.dropped };
  const stats = { splits: 0 };
  const reader = windowReader(job.client);
  let outside = 0;
  let conflicts = 0;
  let withBalanceChanges = 0;
  await runWindows<EncodedWindow>({
    windows: job.windows.slice(start.windowsDone),
    concurrency: job.concurrency,
    maxBytesAhead: job.concurrency * BYTES_AHEAD_PER_SLOT,
    sizeOf: (encoded) => encoded.bytes.length,
    signal: job.signal,
    fetch: async (window, signal) => {
      // Each swap becomes its encoded piece as it arrives (for most, a part of the response body); the window is
      // joined once it is sorted, and then its bodies are freed: kept alive by those parts until now, they would
      // linger until V8's next full collection (~10 MB of a JSON Lines export's peak, measured).
      const bodies: Buffer[] = [];
      const read: ReadWindow = async (query, visit, signal) => {
        const done = await reader(query, visit, signal);
        bodies.push(done.body);
        return done;
      };
      const kept = await fetchWindow(read, window, job.filter, stats, signal, encoder.item);
      const bytes = encoder.join(kept.swaps, true);
      for (const body of bodies) freeNow(body);
      return {
        bytes,
        swaps: kept.swaps.length,
        dropped: kept.dropped,
        outside: kept.outside.length,
        conflicts: kept.conflicts,
        withBalanceChanges: kept.withBalanceChanges,
      };
    },
    consume: async (window, encoded) => {
      const joiner = encoded.swaps > 0 && tally.swaps > 0 ? encoder.between : '';
      const before = (window.index === 0 ? encoder.header() : '') + joiner;
      const text = before === '' ? encoded.bytes : Buffer.concat([Buffer.from(before), encoded.bytes]);
      const done: Tally = { windowsDone: window.index + 1, swaps: tally.swaps + encoded.swaps, dropped: tally.dropped + encoded.dropped };
      await sink.append(text, done);
      tally = done;
      outside += encoded.outside;
      conflicts += encoded.conflicts;
      withBalanceChanges += encoded.withBalanceChanges;
      job.onEvent?.({ type: 'window', windowsTotal, ...done });
    },
  });
  await sink.complete(encoder.footer(tally.swaps > 0));
  return { ...tally, windowsTotal, splits: stats.splits, swapsThisRun: tally.swaps - start.swaps, outside, conflicts, withBalanceChanges };
}
