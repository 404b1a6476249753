/**
 * `runSync`: the sync engine, for any store (store.ts). It checks the query
 * against the saved state, reads the server's clock, takes the store's lock,
 * records a new mirror's start at once, and runs one step (or, with
 * `follow`, a step every interval until the signal). It returns a summary or
 * throws a typed error whose message says how far the mirror is synced and
 * what to do next; what happens along the way goes to `onEvent`.
 */
import type { SwapxClient } from '../api/client.js';
import { AbortedError, WrappedError } from '../api/errors.js';
import { WindowFailedError } from '../windows/run-windows.js';
import { formatElapsed, formatUtc } from '../util/time.js';
import { CheckpointSchedule } from './checkpoints.js';
import { followLoop } from './follow.js';
import { defaultUntil } from './defaults.js';
import { prepare } from './prepare.js';
import { believe, CLOCK_SKEW_MS, pullBack } from './present.js';
import { newState } from './store.js';
import { runStep, type StepOutcome, type StepProgress, type StepResult } from './step.js';
import { StepWarnings, type SyncWarning } from './warnings.js';
import type { MirrorQuery, MirrorState, MirrorStore, RunRecord } from './store.js';

/** What a run is asked to do. */
export interface SyncRunOptions {
  /** the API this run reads */
  baseUrl: string;
  /** where a new mirror starts (a later run continues from its cursor) */
  since: number | undefined;
  /** hold swaps completed before this; undefined: the present minus the settle margin, at each step */
  until: number | undefined;
  /** how far behind the cursor a re-scan looks for late arrivals (0: none) */
  lagMs: number;
  /** re-scan at most this often (0: every step) */
  rescanEveryMs: number;
  /** a step every `intervalMs` until the signal */
  follow: boolean;
  intervalMs: number;
  /** the API moved: a mirror of another base URL continues from this one */
  moveBaseUrl: boolean;
  /** time between checkpoints (0: after every window) */
  checkpointMs: number;
  concurrency: number;
  /** windows between commits; default COMMIT_WINDOWS (tests make it small, so a kill can fall between commits) */
  commitWindows?: number;
  /** false: no commit before the first checkpoint interval (checkpoints.ts; the bench measures what early ones cost) */
  earlyCheckpoints?: boolean;
}

/** How the shell sorts errors: the engine decides with these what to retry and how to word a file-system refusal. */
export interface ErrorPolicy {
  /** "no space left on device" for a file-system error, else undefined */
  fsReason(error: unknown): string | undefined;
  /** the credentials were refused: nothing to wait out */
  refusedCredentials(error: unknown): boolean;
  /** a failure a later step may outlast (an outage), not bad input or credentials */
  transient(error: unknown): boolean;
}

export interface SyncDeps<Q extends MirrorQuery> {
  store: MirrorStore<Q>;
  /** in --follow, a client whose requests the signal does not cut: a step always finishes */
  client: SwapxClient;
  /** the wall clock, epoch ms */
  now: () => number;
  /** the user's stop (Ctrl-C, SIGTERM) */
  signal: AbortSignal;
  /** a second stop: the process ends right after this aborts, so its listener says the last words synchronously */
  stop?: AbortSignal;
  /** a monotonic clock, ms, for when to commit; default performance.now (tests step it by hand) */
  elapsed?: () => number;
  /** HTTP requests and retries so far, counted by the client */
  requests: () => number;
  retries: () => number;
  errors: ErrorPolicy;
}

export type SyncEvent =
  | { type: 'note'; message: string }
  /** what a step found that the user should know (warnings.ts), for the shell to word */
  | { type: 'warning'; warning: SyncWarning }
  /** a start was given that is not the mirror's: it continues from its cursor */
  | { type: 'since-ignored'; mirror: string; since: number; cursor: number }
  /** a step's windows: at its start and after each one consumed */
  | ({ type: 'progress' } & StepProgress)
  | { type: 'step'; result: StepResult }
  /** the mirror follows its API to a new address, as the user said */
  | { type: 'moved'; from: string; to: string }
  | { type: 'following'; intervalMs: number }
  | { type: 'stopping' }
  /** a --follow step failed in a way the next step may outlast */
  | { type: 'retrying'; error: Error }
  /** a second signal ends the process now: said synchronously, with the cursor the store holds */
  | { type: 'stopped-now'; cursor: number };

export interface SyncSummary {
  cursor: number;
  updatedCursor: number;
  steps: number;
  /** the base URL the mirror came from, when this run moved it */
  movedFrom?: string;
}

/**
 * The server's clock (its Date header) on one small authenticated request at `at`, or undefined. Refused
 * credentials end the run here, before anything is written; any other failure is left to the windows, which name it.
 */
async function serverClock(client: SwapxClient, at: number, errors: ErrorPolicy): Promise<number | undefined> {
  try {
    return await client.serverTime(at);
  } catch (error) {
    if (errors.refusedCredentials(error)) throw error;
    return undefined;
  }
}

/** Names the window and how far the sync got; `next` (what happens now) only for failures a retry can outlast. */
function describeFailure(error: WindowFailedError | AbortedError, cursor: number, next: string, errors: ErrorPolicy): Error {
  if (error instanceof WindowFailedError) {
    const w = error.window;
    const then = errors.transient(error) ? `; ${next}` : '';
    error.message = `window ${formatUtc(w.from)} → ${formatUtc(w.to)} failed: ${error.message}; synced up to ${formatUtc(cursor)}${then}`;
  }
  return error;
}

export async function runSync<Q extends MirrorQuery>(options: SyncRunOptions, deps: SyncDeps<Q>, onEvent: (event: SyncEvent) => void): Promise<SyncSummary> {
  const { store, client, errors } = deps;
  const note = (message: string) => onEvent({ type: 'note', message });
  const before = await store.readState();
  const early = prepare(options, store, before);

  // Credentials and the server are checked before anything is created: a run that fetches nothing leaves nothing behind.
  // The probe is a zero-width window at the sync's start: the same operation the windows use, tiny on any server.
  const clock = believe(await serverClock(client, early.since, errors), deps.now());
  let present = clock.present;
  let presentAt = deps.now();
  let current: MirrorState<Q> | undefined;
  // A second signal ends the process at once: the lock is released and how far the mirror got is said, now; ready
  // before the lock is taken, for a signal while the store opens (and repairs what a killed run left).
  const lastWords = () => {
    store.closeNow?.();
    onEvent({ type: 'stopped-now', cursor: (current ?? before)?.cursor ?? early.since });
  };
  // (A signal aborts once: its listener runs once.)
  deps.stop?.addEventListener('abort', lastWords);
  const stopListener = () => deps.stop?.removeEventListener('abort', lastWords);
  const saved = await store.open(note).catch((error: unknown) => {
    stopListener();
    throw error;
  });
  // The run's start, then its end, for `swapx sync status`: best effort (a store that fails is said by the run itself).
  const run: RunRecord = { startedAt: deps.now(), outcome: 'running' };
  const record = () => store.recordRun?.(run).catch(() => {});
  await record();
  let failure: unknown;
  /** this run made the mirror; should it fail before it committed anything past the start, closing removes what it made */
  const isNew = !saved;
  let rowsCommitted = false;
  let succeeded = false;
  /** Only a first run that committed nothing is cleaned away: what a failed one committed is kept, for the cron line. */
  const committedNothing = () =>
    !rowsCommitted &&
    (current === undefined || (current.cursor === current.since && current.updatedCursor === current.since && current.rescannedTo === undefined));
  try {
    // Again under the lock: a sync that ended meanwhile may have moved the cursor.
    const { query, since, movedFrom, ignoredSince } = prepare(options, store, saved);
    if (ignoredSince) onEvent({ type: 'since-ignored', mirror: store.name, since: saved!.since, cursor: saved!.cursor });
    const state: MirrorState<Q> = saved ? { ...saved, query } : newState(query, since);
    current = state;
    if (clock.warning) note(clock.warning);
    // Past every clock there is: a cursor past the server's alone may be right (an --until by our clock, ahead of it).
    const pulled = pullBack(state, Math.max(present, deps.now()) + CLOCK_SKEW_MS, defaultUntil(present));
    if (pulled) {
      note(
        `${store.name} holds times past the present (${pulled}), saved under a clock that was wrong: moved back to ${formatUtc(state.cursor)}; what lies after is fetched again`,
      );
    }
    // One schedule for the run: it commits early (a deadline of a few seconds still moves the mirror), then less often.
    const checkpoints = new CheckpointSchedule(options.checkpointMs, deps.elapsed, options.earlyCheckpoints);
    const wrapWrite = (error: unknown): never => {
      // Writing failed (a full disk, a read-only dir): what the store holds is consistent up to the cursor.
      const reason = errors.fsReason(error);
      if (reason) {
        throw new WrappedError(`writing ${store.name}: ${reason}; synced up to ${formatUtc(state.cursor)}; run the same command again to continue`, {
          cause: error,
        });
      }
      throw error;
    };
    if (!saved || movedFrom !== undefined) {
      // The start of a new mirror is recorded at once: a run killed before its first checkpoint is continued by the
      // cron line, which gives no --since. A move to a new base URL is recorded before any row of it.
      await store.commit(state, state.cursor).catch(wrapWrite);
      if (movedFrom !== undefined) onEvent({ type: 'moved', from: movedFrom, to: options.baseUrl });
    }

    let steps = 0;
    let requestsFrom = 0;
    const warnings = new StepWarnings((warning) => onEvent({ type: 'warning', warning }), store.name, query);
    // The clock is said about once a run: at the start, or at the first step that finds it wrong.
    let clockSaid = clock.warning !== undefined;
    const step = async (): Promise<StepOutcome> => {
      // The present is the server's clock (its Date header), not ours: a skewed local clock moves no cursor.
      if (steps > 0) {
        requestsFrom = deps.requests();
        // Without an answer (an outage in --follow), the last clock read, moved on by ours, plans the step; its windows fail and are waited out.
        const read = await serverClock(client, state.cursor, errors);
        const believed = read === undefined ? undefined : believe(read, deps.now());
        if (believed?.warning && !clockSaid) {
          clockSaid = true;
          note(believed.warning);
        }
        present = believed?.present ?? present + (deps.now() - presentAt);
        presentAt = deps.now();
      }
      steps += 1;
      const until = options.until ?? Math.max(state.cursor, defaultUntil(present));
      const end = Math.max(until, defaultUntil(present));
      const rescan = options.rescanEveryMs === 0 || state.rescannedAt === undefined || present - state.rescannedAt >= options.rescanEveryMs;
      const outcome = await runStep({
        store,
        client,
        state,
        until,
        present,
        end,
        lagMs: options.lagMs,
        rescan,
        concurrency: options.concurrency,
        commitWindows: options.commitWindows,
        checkpointMs: options.checkpointMs,
        checkpoints,
        signal: options.follow ? undefined : deps.signal,
        requests: deps.requests,
        retries: deps.retries,
        onProgress: (progress) => onEvent({ type: 'progress', ...progress }),
        onCommitted: (committed) => {
          if (committed.touched.length > 0) rowsCommitted = true;
        },
      }).catch(wrapWrite);
      const { result } = outcome;
      // The step's requests include its clock read.
      result.requests = deps.requests() - requestsFrom;
      warnings.step(result);
      onEvent({ type: 'step', result });
      return outcome;
    };
    const summary = (): SyncSummary => ({
      cursor: state.cursor,
      updatedCursor: state.updatedCursor,
      steps,
      ...(movedFrom === undefined ? {} : { movedFrom }),
    });

    if (!options.follow) {
      if (deps.signal.aborted) throw new AbortedError('interrupted before the sync started');
      const { result, error } = await step();
      if (error instanceof AbortedError || deps.signal.aborted) {
        throw new AbortedError(`interrupted; synced up to ${formatUtc(result.cursor)}; run the same command again to continue`);
      }
      if (error) throw describeFailure(error, result.cursor, 'run again to continue', errors);
      succeeded = true;
      return summary();
    }

    onEvent({ type: 'following', intervalMs: options.intervalMs });
    deps.signal.addEventListener('abort', () => onEvent({ type: 'stopping' }));
    await followLoop({
      intervalMs: options.intervalMs,
      signal: deps.signal,
      step: async () => {
        const { result, error } = await step();
        if (!error) return;
        // An outage is waited out (the next step retries); credentials or bad input are not.
        const failure = describeFailure(error, result.cursor, `trying again in ${formatElapsed(options.intervalMs)}`, errors);
        if (!errors.transient(failure)) throw failure;
        onEvent({ type: 'retrying', error: failure });
      },
    });
    succeeded = true;
    return summary();
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    run.endedAt = deps.now();
    run.outcome = succeeded ? 'complete' : failure instanceof AbortedError ? 'interrupted' : 'failed';
    if (run.outcome === 'failed') run.message = failure instanceof Error ? failure.message : String(failure);
    await record();
    // The last words stay ready until the lock is released: a second signal may come while it is.
    await store.close(isNew && !succeeded && committedNothing());
    stopListener();
  }
}
