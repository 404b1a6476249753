/**
 * One sync step, in three passes of windows, interleaved (one window of each
 * in turn), so that a run killed again and again moves each of them:
 *
 *  - the re-scan: Filter=Completed over [rescanFrom, cursor), the vendor's
 *    re-scan for late arrivals;
 *  - the completions: Filter=Completed over [cursor, until). It moves the
 *    completions cursor. It does not rely on the Updated pass to bring the
 *    swaps completed there (an API whose updatedAt may precede completedAt
 *    would lose them); on the first run (an empty mirror) it is the only pass;
 *  - the updates: Filter=Updated over [updatedCursor, present): every swap
 *    whose current version changed since the mirror's latest. It reaches the
 *    server's clock, but the updates cursor stops at `end` (2 minutes before
 *    it): what changed since is fetched again by the next run, in case it was
 *    not all visible yet.
 *
 * Each row goes to the store (store.ts) if completedAt lies in [since,
 * until); the store holds one row per swap, its latest version. Rows are
 * committed with the next state: after the first window, then at intervals
 * that double up to the checkpoint interval (checkpoints.ts), every
 * BUFFER_ROWS rows, at the end or on a failure. Each pass's cursor moves only
 * past its windows consumed whole and in order: the completions cursor, the
 * updates cursor (the largest updatedAt held, never past the end of the
 * Updated windows consumed: a row fetched by another pass may carry a later
 * updatedAt, but the rows held from earlier runs are only known current up to
 * there), and how far a re-scan cut short got.
 */
import type { SwapxClient } from '../api/client.js';
import { AbortedError } from '../api/errors.js';
import type { DateRangeFilter, Swap } from '../api/types.js';
import { fetchWindow } from '../windows/fetch-window.js';
import { runWindows, WindowFailedError } from '../windows/run-windows.js';
import { parseApiTime } from '../util/time.js';
import { CheckpointSchedule, type Checkpoints } from './checkpoints.js';
import { planStep, type SyncWindow } from './plan-step.js';
import type { Committed, MirrorQuery, MirrorState, MirrorStore, UnfitValue } from './store.js';

/** Rows held in memory before a commit merges them into their partitions (about 1.5 KB each). */
export const BUFFER_ROWS = 64_000;
/**
 * Windows between commits (a week of them): a long catch-up makes its progress durable as it goes, while a
 * nightly run (about 145 windows) rewrites each partition it touches once. Dense data commits sooner, by BUFFER_ROWS.
 */
export const COMMIT_WINDOWS = 336;
/** Unfit values a step's warning names one by one; the rest are counted. */
export const UNFIT_NAMED = 10;

export interface StepOptions<Q extends MirrorQuery = MirrorQuery> {
  store: MirrorStore<Q>;
  client: SwapxClient;
  /** mutated, and committed at every checkpoint */
  state: MirrorState<Q>;
  /** the mirror holds swaps completed before this */
  until: number;
  /** the present (the server's clock): the Updated pass reaches it */
  present: number;
  /** the present minus the settle margin: the updates cursor never passes it */
  end: number;
  lagMs: number;
  /** windows between commits; default COMMIT_WINDOWS */
  commitWindows?: number;
  /** when to commit as time passes: the run's schedule (a step of its own at `checkpointMs` when not given) */
  checkpoints?: Checkpoints;
  /** time between commits (0: after every window) */
  checkpointMs: number;
  /** whether this step re-scans [rescanBase − lag, cursor) for late swaps */
  rescan: boolean;
  concurrency: number;
  /** aborts fetching (not given in --follow: a step there always finishes) */
  signal?: AbortSignal;
  /** HTTP requests so far, retries included, counted by the client */
  requests: () => number;
  /** request retries so far, counted by the client */
  retries: () => number;
  /** at the start and after each window consumed: how far the step is (progress on a terminal) */
  onProgress?: (progress: StepProgress) => void;
  /** after each commit the store made durable */
  onCommitted?: (committed: Committed) => void;
}

export interface StepProgress {
  windows: number;
  windowsPlanned: number;
  /** swaps fetched so far in this step */
  swaps: number;
}

export interface StepResult {
  newSwaps: number;
  lateSwaps: number;
  /** swaps held in an older version, replaced by their latest */
  updatedSwaps: number;
  /** rows the server returned outside the window asked for: kept (merged by id), but a sign of a server fault */
  outsideWindow: number;
  /** ids returned twice in one response with different content (windows/order.ts): the later version is held */
  conflicts: number;
  /** swaps that came with balanceChanges (the list may send them): a mirror whose fields leave them out must say so */
  withBalanceChanges: number;
  /** values the store kept aside, as sent, because their typed place cannot hold them (store.ts) */
  unfitValues: number;
  /** the first UNFIT_NAMED of them, for the warning that names them */
  unfit: UnfitValue[];
  /** fields the spec does not name that the API sent and the store's rows leave out (a mirror of fixed columns) */
  leftOut: string[];
  /** windows consumed whole */
  windows: number;
  windowsPlanned: number;
  /** HTTP requests of this step, retries included (the command adds its clock read) */
  requests: number;
  retries: number;
  elapsedMs: number;
  /** what the store rewrote (partition files relative to the dir), in the order written */
  parts: string[];
  cursor: number;
  updatedCursor: number;
  /** start of the re-scan, when this step re-scanned */
  rescanFrom: number | undefined;
  complete: boolean;
}

export interface StepOutcome {
  result: StepResult;
  /** the failure (WindowFailedError) or interrupt (AbortedError) that ended the step after committing what was complete */
  error?: WindowFailedError | AbortedError;
}

export async function runStep<Q extends MirrorQuery>(options: StepOptions<Q>): Promise<StepOutcome> {
  const started = performance.now();
  const retriesAtStart = options.retries();
  const requestsAtStart = options.requests();
  const { state, until, end, store } = options;
  const oldCursor = state.cursor;
  const plan = planStep(state, until, end, options.lagMs, options.rescan, options.present);
  const result: StepResult = {
    newSwaps: 0,
    lateSwaps: 0,
    updatedSwaps: 0,
    outsideWindow: 0,
    conflicts: 0,
    withBalanceChanges: 0,
    unfitValues: 0,
    unfit: [],
    leftOut: [],
    windows: 0,
    windowsPlanned: plan.windows.length,
    requests: 0,
    retries: 0,
    elapsedMs: 0,
    parts: [],
    cursor: oldCursor,
    updatedCursor: state.updatedCursor,
    rescanFrom: plan.rescanFrom,
    complete: false,
  };
  /** end of the last completions window consumed whole (each pass's windows are consumed in order) */
  let completedTo = oldCursor;
  /** end of the last re-scan window consumed whole: the re-scan is done when it reaches the cursor */
  const rescanStart = plan.rescanFrom ?? oldCursor;
  let rescannedTo = rescanStart;
  /** end of the last Updated window consumed whole; on the first run every row is fetched now, current up to `end` */
  let updatedTo: number | undefined = plan.first ? end : undefined;
  /** largest updatedAt of the rows consumed */
  let maxUpdated = Number.NaN;
  /** a write failed: what is in memory is not what is durable, so nothing more is committed */
  let broken: unknown;
  const checkpoints = options.checkpoints ?? new CheckpointSchedule(options.checkpointMs);
  let fetched = 0;
  const progress = () => options.onProgress?.({ windows: result.windows, windowsPlanned: result.windowsPlanned, swaps: fetched });

  const commit = async (complete: boolean) => {
    // The next state, taken on only once it is durable: a failed commit must leave `state` what the store holds,
    // which is what the error message says is synced.
    const next: MirrorState<Q> = { ...state, cursor: Math.max(state.cursor, complete ? until : completedTo) };
    if (updatedTo !== undefined && !Number.isNaN(maxUpdated)) next.updatedCursor = Math.max(state.updatedCursor, Math.min(updatedTo, maxUpdated));
    if (options.rescan && rescannedTo >= oldCursor) {
      // Every swap completed before the new cursor, back to the re-scan's start, was fetched in this step.
      next.rescanBase = next.cursor;
      // The server's clock, as the re-scan's bound and cadence are: a skewed local clock moves neither.
      next.rescannedAt = options.present;
      delete next.rescannedTo;
    } else if (rescannedTo > rescanStart) {
      // Only a re-scan window consumed whole moves rescannedTo below the cursor: a re-scan cut short got this far.
      next.rescannedTo = rescannedTo;
    }
    const committed = await store.commit(next, oldCursor);
    options.onCommitted?.(committed);
    checkpoints.committed();
    result.newSwaps += committed.newSwaps;
    result.lateSwaps += committed.lateSwaps;
    result.updatedSwaps += committed.updatedSwaps;
    for (const value of committed.unfit ?? []) {
      result.unfitValues += 1;
      if (result.unfit.length < UNFIT_NAMED) result.unfit.push(value);
    }
    for (const file of committed.touched) if (!result.parts.includes(file)) result.parts.push(file);
    for (const field of committed.leftOut ?? []) if (!result.leftOut.includes(field)) result.leftOut.push(field);
    result.cursor = next.cursor;
    result.updatedCursor = next.updatedCursor;
    delete state.rescannedTo;
    Object.assign(state, next);
  };

  const place = async (swap: Swap) => {
    // The window reader refuses a swap whose completedAt or updatedAt is not a date-time (api/shape.ts): both read.
    const at = parseApiTime(swap.completedAt);
    if (!(at >= state.since && at < until)) return;
    const updatedMs = parseApiTime(swap.updatedAt);
    if (!(updatedMs <= maxUpdated)) maxUpdated = updatedMs;
    await store.add({ swap, completedMs: at });
  };

  const consume = async (window: SyncWindow, swaps: readonly Swap[], outside: readonly Swap[]) => {
    for (const swap of swaps) await place(swap);
    // Rows of another window are still the server's latest versions: merged by id, they cannot be written twice.
    for (const swap of outside) await place(swap);
    result.outsideWindow += outside.length;
    if (window.pass === 'completions') completedTo = window.to;
    else if (window.pass === 'rescan') rescannedTo = window.to;
    else updatedTo = Math.min(window.to, end);
    result.windows += 1;
    fetched += swaps.length + outside.length;
    progress();
    const due = store.buffered >= BUFFER_ROWS || result.windows % (options.commitWindows ?? COMMIT_WINDOWS) === 0 || checkpoints.due();
    if (due) await commit(false);
  };
  const finish = () => {
    result.retries = options.retries() - retriesAtStart;
    result.requests = options.requests() - requestsAtStart;
    result.elapsedMs = Math.round(performance.now() - started);
    return result;
  };
  progress();
  try {
    await runWindows({
      windows: plan.windows,
      concurrency: options.concurrency,
      signal: options.signal,
      fetch: (window, signal) => fetchWindow(options.client, window, (window as SyncWindow).filter as DateRangeFilter, undefined, signal),
      consume: async (window, kept) => {
        try {
          result.conflicts += kept.conflicts;
          result.withBalanceChanges += kept.withBalanceChanges;
          await consume(window as SyncWindow, kept.swaps, kept.outside);
        } catch (error) {
          broken = error;
          throw error;
        }
      },
    });
  } catch (error) {
    if (broken === undefined && (error instanceof AbortedError || error instanceof WindowFailedError)) {
      // What is complete is kept: the pending rows are of windows consumed whole.
      await commit(false);
      return { result: finish(), error };
    }
    throw broken ?? error;
  }
  await commit(true);
  result.complete = true;
  return { result: finish() };
}
