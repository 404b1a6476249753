/**
 * One sync step: Filter=Completed windows over [rescanStart, until), the
 * re-scan of [rescanStart, cursor) first, then the new range [cursor, until),
 * each part planned from its own start so the old cursor is a window edge.
 *
 * Each window keeps [from, to) (keepWindow), so a swap is in exactly one
 * window; ids already recorded are skipped. Windows are consumed in order and
 * each window's swaps are sorted by completedAt, so the UTC dates written
 * only rise: one part is open at a time. When the date changes, and at the
 * end, the part is made durable and THEN the state is written, with its ids
 * and the cursor at the end of the last new window consumed whole. The
 * cursor never moves back, nor past a window not consumed.
 */
import type { SwapxClient } from '../api/client.js';
import { AbortedError } from '../api/errors.js';
import { MAX_WINDOW_MS, type Swap } from '../api/types.js';
import { fetchWindow, type FetchStats } from '../export/fetch-window.js';
import { planWindows, type Window } from '../export/plan.js';
import { runWindows, WindowFailedError } from '../export/run-windows.js';
import { floorHour } from './ids.js';
import { PartWriter, utcDate, type PartFormat } from './partitions.js';
import { writeState, type SyncState } from './state.js';
import { parseApiTime } from '../util/time.js';

/** Ids are kept an hour longer than the re-scan needs: a window may straddle the horizon. */
export const ID_MARGIN_MS = 3_600_000;

export interface StepOptions {
  dir: string;
  client: SwapxClient;
  /** mutated, and written at every commit */
  state: SyncState;
  until: number;
  lagMs: number;
  /** whether this step re-scans [rescanBase − lag, cursor) for late swaps */
  rescan: boolean;
  concurrency: number;
  part: PartFormat;
  /** names this step's parts */
  stamp: string;
  /** aborts fetching (not given in --follow: a step there always finishes) */
  signal?: AbortSignal;
  /** request retries so far, counted by the client */
  retries: () => number;
}

export interface StepResult {
  newSwaps: number;
  lateSwaps: number;
  /** windows consumed whole */
  windows: number;
  windowsPlanned: number;
  retries: number;
  elapsedMs: number;
  /** relative to the dir, in the order written */
  parts: string[];
  cursor: number;
  /** start of the re-scan, when this step re-scanned */
  rescanFrom: number | undefined;
  /** the re-scan could not reach rescanBase − lag: ids before this are no longer recorded */
  rescanClippedAt: number | undefined;
  complete: boolean;
}

export interface StepOutcome {
  result: StepResult;
  /** the failure (WindowFailedError) or interrupt (AbortedError) that ended the step after committing what was complete */
  error?: WindowFailedError | AbortedError;
}

/** Plans the step's windows, indexed in order. */
export function planStep(state: SyncState, until: number, lagMs: number, rescan: boolean): { windows: Window[]; rescanFrom: number | undefined; clippedAt: number | undefined } {
  const wanted = Math.max(state.since, state.rescanBase - lagMs);
  const rescanFrom = rescan && lagMs > 0 ? Math.min(state.cursor, Math.max(wanted, state.idsFrom)) : state.cursor;
  const clippedAt = rescan && lagMs > 0 && state.idsFrom > wanted ? state.idsFrom : undefined;
  const windows = [...planWindows(rescanFrom, state.cursor, MAX_WINDOW_MS), ...planWindows(state.cursor, until, MAX_WINDOW_MS)].map((w, index) => ({ ...w, index }));
  return { windows, rescanFrom: rescanFrom < state.cursor ? rescanFrom : undefined, clippedAt };
}

export async function runStep(options: StepOptions): Promise<StepOutcome> {
  const started = performance.now();
  const startedAt = Date.now();
  const retriesAtStart = options.retries();
  const { state, dir } = options;
  const oldCursor = state.cursor;
  const plan = planStep(state, options.until, options.lagMs, options.rescan);
  const writer = new PartWriter(dir, options.stamp, options.part);
  const result: StepResult = {
    newSwaps: 0,
    lateSwaps: 0,
    windows: 0,
    windowsPlanned: plan.windows.length,
    retries: 0,
    elapsedMs: 0,
    parts: [],
    cursor: oldCursor,
    rescanFrom: plan.rescanFrom,
    rescanClippedAt: plan.clippedAt,
    complete: false,
  };
  /** end of the last new window consumed whole */
  let consumedTo = oldCursor;
  /** parts made durable since the last commit */
  let unrecorded: string[] = [];
  /** a write failed: what is in memory is not what is on disk, so nothing more is committed */
  let broken: unknown;

  const closePart = async () => {
    const relative = await writer.close();
    if (relative) {
      unrecorded.push(relative);
      result.parts.push(relative);
    }
  };

  // Every id in state.ids is in a durable part when this runs (ids of a date are added only after the previous date's part is closed).
  const commit = async (complete: boolean) => {
    state.cursor = Math.max(state.cursor, consumedTo);
    state.parts.push(...unrecorded);
    unrecorded = [];
    if (complete && options.rescan) {
      state.rescanBase = state.cursor;
      state.rescannedAt = startedAt;
    }
    const horizon = floorHour(state.rescanBase - options.lagMs - ID_MARGIN_MS);
    if (horizon > state.idsFrom) state.idsFrom = horizon;
    state.ids.pruneBefore(floorHour(state.idsFrom));
    const firstDate = utcDate(state.idsFrom);
    state.parts = state.parts.filter((part) => (/^date=(\d{4}-\d{2}-\d{2})\//.exec(part)?.[1] ?? '') >= firstDate);
    await writeState(dir, state);
    result.cursor = state.cursor;
  };

  const consume = async (window: Window, swaps: readonly Swap[]) => {
    let batch: Record<string, unknown>[] = [];
    let batchDate: string | undefined;
    const flush = async () => {
      if (batchDate !== undefined && batch.length > 0) await writer.append(batchDate, batch);
      batch = [];
    };
    for (const swap of swaps) {
      const parsed = typeof swap.completedAt === 'string' ? parseApiTime(swap.completedAt) : Number.NaN;
      // A swap without a readable completedAt stays in the window that returned it (as keepWindow keeps it).
      const at = Number.isNaN(parsed) ? window.to - 1 : parsed;
      const id = swap.id;
      // Without an id a swap cannot be recorded: written when new, never by the re-scan.
      if (id ? state.ids.has(id) : at < oldCursor) continue;
      const date = utcDate(at);
      if (date !== batchDate) {
        await flush();
        batchDate = date;
        if (writer.date !== undefined && writer.date !== date) {
          await closePart();
          await commit(false);
        }
      }
      batch.push(swap as unknown as Record<string, unknown>);
      if (id) state.ids.add(id, at);
      if (at < oldCursor) result.lateSwaps += 1;
      else result.newSwaps += 1;
    }
    await flush();
    if (window.to > oldCursor) consumedTo = window.to;
    result.windows += 1;
  };

  const stats: FetchStats = { splits: 0 };
  const finish = () => {
    result.retries = options.retries() - retriesAtStart;
    result.elapsedMs = Math.round(performance.now() - started);
    return result;
  };
  try {
    await runWindows({
      windows: plan.windows,
      concurrency: options.concurrency,
      signal: options.signal,
      fetch: (window, signal) => fetchWindow(options.client, window, 'Completed', stats, signal),
      consume: async (window, kept) => {
        try {
          await consume(window, kept.swaps);
        } catch (error) {
          broken = error;
          throw error;
        }
      },
    });
  } catch (error) {
    if (broken === undefined && (error instanceof AbortedError || error instanceof WindowFailedError)) {
      // What is complete is kept: the open part holds only windows consumed whole.
      await closePart();
      await commit(false);
      return { result: finish(), error };
    }
    await writer.discard();
    throw broken ?? error;
  }
  await closePart();
  await commit(true);
  result.complete = true;
  return { result: finish() };
}
