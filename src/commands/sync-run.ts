/** The `swapx sync` handler, loaded only when that command runs (the declaration is in sync.ts). */
import { makeDir } from '../fs/make-dir.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SwapxClient } from '../api/client.js';
import { AbortedError, UsageError, WrappedError } from '../api/errors.js';
import { SWAP_FIELDS } from '../api/types.js';
import type { Context } from '../cli/context.js';
import { EXIT, exitCodeFor, fsReason, messageFor } from '../cli/exit-codes.js';
import { WindowFailedError } from '../windows/run-windows.js';
import { formatElapsed, formatUtc } from '../util/time.js';
import { followLoop } from '../sync/follow.js';
import { acquireLock, type HeldLock } from '../fs/lock.js';
import { checkStart, defaultUntil, parseSyncFlags, resolveQuery, type SyncFlags, type SyncOptions } from '../sync/options.js';
import { partitionCodec, type PartitionCodec } from '../sync/codec.js';
import { recover } from '../sync/recovery.js';
import { newState, readState, writeState, type SyncQuery, type SyncState } from '../sync/state.js';
import { runStep, type StepOutcome } from '../sync/step.js';
import { stepJson, stepText } from '../sync/summary.js';

interface Prepared {
  query: SyncQuery;
  since: number;
}

/** Every check against the flags and the saved state; throws UsageError. Run before the lock and again under it. */
function prepare(ctx: Context, options: SyncOptions, saved: SyncState | undefined, notes: boolean): Prepared {
  const query = resolveQuery(options, ctx.settings().baseUrl.value, saved?.query);
  checkFields(query, options.dir);
  const { since, ignoredSince } = checkStart(options, saved);
  if (ignoredSince && notes) {
    ctx.warn(
      `--since ignored: ${options.dir} syncs from ${formatUtc(saved!.since)} and continues from its cursor ${formatUtc(saved!.cursor)} (a new start needs a new --out dir)`,
    );
  }
  return { query, since };
}

export async function sync(ctx: Context, flags: SyncFlags): Promise<number> {
  const options = parseSyncFlags(flags, Date.now());
  const dir = options.dir;
  const early = prepare(ctx, options, await readState(dir), false);

  let retries = 0;
  let requests = 0;
  // In --follow a signal must not cut a request: the step finishes first. Only main's second signal stops it (exit 130).
  const client = ctx.client({
    connections: options.concurrency ?? ctx.settings().concurrency.value,
    signal: options.follow ? new AbortController().signal : ctx.io.signal,
    onAttempt: (log) => {
      requests += 1;
      if (log.retryInMs !== undefined) retries += 1;
    },
  });

  // Credentials and the server are checked before anything is created: a run that fetches nothing leaves nothing behind.
  // The probe is a zero-width window at the sync's start: the same operation the windows use, tiny on any server.
  const probeAt = early.since;
  let present = (await serverClock(client, probeAt)) ?? Date.now();
  let presentAt = Date.now();
  const { lock, created } = await lockDir(ctx, dir);
  try {
    // Again under the lock: a sync that ended meanwhile may have moved the cursor.
    const saved = await readState(dir);
    const { query, since } = prepare(ctx, options, saved, true);
    const state = saved ?? newState(query, since);
    const codec: PartitionCodec = partitionCodec({ ...query, allFields: SWAP_FIELDS });
    const recovered = await recover(dir, codec);
    const upgraded = state.upgradedFrom === 1;
    if (upgraded) {
      ctx.warn(
        `${dir} was written by an older swapx: its parts are folded into one file per partition, and updates since ${formatUtc(state.since)} are fetched once (Filter=Updated) to bring every swap to its latest version`,
      );
      delete state.upgradedFrom;
    } else if (recovered.folded.length > 0) {
      ctx.warn(`folded ${recovered.folded.length} partition(s) an interrupted run left in two files (${recovered.folded.join(', ')})`);
    }
    if (saved && (recovered.folded.length > 0 || upgraded)) await writeState(dir, state);
    const unsaved = { value: !saved };

    let firstStep = true;
    /** requests of a step before its windows (the clock read): counted in the step's summary */
    let stepRequestsFrom = 0;
    const step = async (): Promise<StepOutcome> => {
      const now = Date.now();
      if (!firstStep) stepRequestsFrom = requests;
      // The present is the server's clock (its Date header), not ours: a skewed local clock moves no cursor.
      if (!firstStep) {
        // Without an answer (an outage in --follow), the last clock read, moved on by ours, plans the step; its windows fail and are waited out.
        const read = await serverClock(client, state.cursor);
        present = read ?? present + (Date.now() - presentAt);
        presentAt = Date.now();
      }
      firstStep = false;
      const until = options.until ?? Math.max(state.cursor, defaultUntil(present));
      const end = Math.max(until, defaultUntil(present));
      const rescan = options.rescanEveryMs === 0 || state.rescannedAt === undefined || now - state.rescannedAt >= options.rescanEveryMs;
      let outcome: StepOutcome;
      try {
        outcome = await runStep({
          dir,
          client,
          state,
          unsaved,
          until,
          present,
          end,
          lagMs: options.lagMs,
          rescan,
          concurrency: options.concurrency ?? ctx.settings().concurrency.value,
          codec,
          stillLocked: lock.check,
          // Tests make a short run commit often, so a kill can fall between commits.
          commitWindows: Number(ctx.io.env.SWAPX_SYNC_COMMIT_WINDOWS) || undefined,
          signal: options.follow ? undefined : ctx.io.signal,
          requests: () => requests,
          retries: () => retries,
        });
      } catch (error) {
        // Writing failed (a full disk, a read-only dir): parts and state on disk are consistent up to the cursor.
        const reason = fsReason(error);
        if (reason)
          throw new WrappedError(`writing ${dir}: ${reason}; synced up to ${formatUtc(state.cursor)}; run the same command again to continue`, {
            cause: error,
          });
        throw error;
      }
      const { result } = outcome;
      result.requests = requests - stepRequestsFrom;
      if (result.outsideWindow > 0) {
        ctx.warn(
          `the API returned ${result.outsideWindow} swap(s) outside the window asked for; they were kept (each swap is held once, by id), but the server may be faulty`,
        );
      }
      if (options.summaryJson) ctx.io.stderr.write(`${stepJson(result)}\n`);
      else ctx.info(stepText(result));
      return outcome;
    };

    if (!options.follow) {
      if (ctx.io.signal.aborted) throw new AbortedError('interrupted before the sync started');
      const { result, error } = await step();
      if (error instanceof AbortedError || ctx.io.signal.aborted) {
        throw new AbortedError(`interrupted; synced up to ${formatUtc(result.cursor)}; run the same command again to continue`);
      }
      if (error) throw describeFailure(error, result.cursor, 'run again to continue');
      return EXIT.ok;
    }

    ctx.info(`Following ${dir}: a step every ${formatElapsed(options.intervalMs)}; stop with Ctrl-C or SIGTERM`);
    ctx.io.signal.addEventListener('abort', () => ctx.info('Stopping after this step…'), { once: true });
    await followLoop({
      intervalMs: options.intervalMs,
      signal: ctx.io.signal,
      step: async () => {
        const { result, error } = await step();
        if (!error) return;
        // An outage is waited out (the next step retries); credentials or bad input are not.
        const failure = describeFailure(error, result.cursor, `trying again in ${formatElapsed(options.intervalMs)}`);
        if (exitCodeFor(failure) !== EXIT.failed) throw failure;
        ctx.warn(messageFor(failure));
      },
    });
    ctx.info(`Stopped; synced up to ${formatUtc(state.cursor)}`);
    return EXIT.ok;
  } finally {
    await lock.release();
    // A first run that wrote nothing (its first window failed) leaves no empty directory behind.
    if (created !== undefined) await removeEmpty(dir, created);
  }
}

/** Removes `dir` and its parents up to `top` (the first one this run created), each only if empty. */
async function removeEmpty(dir: string, top: string): Promise<void> {
  const stop = path.resolve(top);
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      await fs.rmdir(current);
    } catch {
      return;
    }
    if (current === stop || path.dirname(current) === current) return;
  }
}

/**
 * The server's clock from its Date header (one small authenticated request: an empty window at `at`), or ours
 * when it sends none. Refused credentials end the run here, before anything is written; any other failure is
 * left to the windows, which name what failed.
 */
async function serverClock(client: SwapxClient, at: number): Promise<number | undefined> {
  client.http.serverDate = undefined;
  try {
    await client.listSwaps({ from: at, to: at, filter: 'Completed' });
  } catch (error) {
    if (exitCodeFor(error) === EXIT.auth) throw error;
  }
  return client.http.serverDate;
}

/** A partition holds one row per swap, its latest version: that takes the id, completedAt and updatedAt of each row. */
function checkFields(query: SyncQuery, dir: string): void {
  const missing = ['id', 'completedAt', 'updatedAt'].filter((field) => !query.fields.includes(field));
  if (missing.length > 0) {
    throw new UsageError(
      `${dir} syncs --fields without ${missing.join(' and ')}, which a mirror that keeps the latest version of each swap needs; sync into a new --out dir`,
    );
  }
}

/** Creates the dir and takes its lock; a file-system refusal says which dir, not which temporary file. */
async function lockDir(ctx: Context, dir: string): Promise<{ lock: HeldLock; created: string | undefined }> {
  try {
    const created = await makeDir(dir);
    const lock = await acquireLock(dir, { onTakeOver: (reason) => ctx.warn(`took over ${reason} on ${dir}`) });
    return { lock, created };
  } catch (error) {
    const reason = fsReason(error);
    if (reason) throw new WrappedError(`cannot take the lock in ${dir}: ${reason}`, { cause: error });
    throw error;
  }
}

/** Names the window and how far the sync got; `next` (what happens now) only for failures a retry can outlast. */
function describeFailure(error: WindowFailedError | AbortedError, cursor: number, next: string): Error {
  if (error instanceof WindowFailedError) {
    const w = error.window;
    const then = exitCodeFor(error) === EXIT.failed ? `; ${next}` : '';
    error.message = `window ${formatUtc(w.from)} → ${formatUtc(w.to)} failed: ${error.message}; synced up to ${formatUtc(cursor)}${then}`;
  }
  return error;
}
