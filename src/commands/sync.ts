/**
 * `swapx sync`: incremental export for cron, the vendor's polling strategy
 * (Filter=Completed, completedAt as the cursor, a re-scan of the trailing
 * 48 hours for late arrivals) into daily partitions, idempotent and safe
 * to kill at any moment.
 */
import fs from 'node:fs/promises';
import { AbortedError, WrappedError } from '../api/errors.js';
import { SWAP_FIELDS } from '../api/types.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { EXIT, exitCodeFor, fsReason, messageFor } from '../cli/exit-codes.js';
import { WindowFailedError } from '../export/run-windows.js';
import { createEncoder } from '../output/encode.js';
import { formatElapsed, formatUtc } from '../util/time.js';
import { followLoop } from '../sync/follow.js';
import { acquireLock, type HeldLock } from '../sync/lock.js';
import { checkStart, defaultUntil, parseSyncFlags, resolveQuery, type SyncFlags, type SyncOptions } from '../sync/options.js';
import { runStamp, type PartFormat } from '../sync/partitions.js';
import { recover } from '../sync/recovery.js';
import { newState, readState, writeState, type SyncQuery, type SyncState } from '../sync/state.js';
import { runStep, type StepOutcome } from '../sync/step.js';
import { stepJson, stepText } from '../sync/summary.js';

export const register: Register = (program, run) => {
  program
    .command('sync')
    .description('incremental export for cron: new and late swaps (Filter=Completed) into daily partitions of a directory')
    .option('--out <dir>', 'the directory of partitions (date=YYYY-MM-DD/part-*.jsonl) and of the sync state')
    .option('--since <time>', 'where the first run starts (later runs continue from the saved cursor)')
    .option('--until <time>', 'end of this run, excluded (default: now minus 2 minutes)')
    .option('-f, --format <format>', "jsonl or csv, .gz or --gzip to compress (default: jsonl); set by the dir's first run: later runs may omit it, a different one is refused")
    .option('--gzip', 'gzip the parts (.jsonl.gz, .csv.gz)')
    .option('--fields <list>', 'only these fields (must include id and completedAt)')
    .option('--lag <duration>', 're-scan this far behind the cursor for late arrivals; 0 turns it off (default: 48h)')
    .option('--rescan-every <duration>', 're-scan at most this often; 0: every run (default: 0, or 15m with --follow)')
    .option('--follow', 'keep going, a step every --interval, until Ctrl-C or SIGTERM (then exit 0)')
    .option('--interval <duration>', 'with --follow: time between steps (default: 60s)')
    .option('--concurrency <n>', 'windows fetched at once, 1 to 32 (default: 4, or the profile setting)')
    .option('--summary-json', 'one JSON line on stderr after each step (newSwaps, lateSwaps, cursor, windows, retries, elapsedMs, parts)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  swapx sync --out /data/swaps --since 2026-11-01      # first run: backfill, then record the cursor',
        '  swapx sync --out /data/swaps --summary-json          # later runs (cron): new swaps and late arrivals',
        '  swapx sync --out /data/swaps --follow --interval 30s',
        '',
        'Parts are never rewritten; the state (.swapx-sync.json) is written after the data it records is durable,',
        'so a killed run is simply run again. Exit codes: 0 done, 1 API or I/O failure (rerun continues),',
        '2 bad input, 3 credentials, 130 interrupted.',
      ].join('\n'),
    )
    .action((flags: SyncFlags) => run((ctx) => sync(ctx, flags)));
};

interface Prepared {
  query: SyncQuery;
  since: number;
}

/** Every check against the flags and the saved state; throws UsageError. Run before the lock and again under it. */
function prepare(ctx: Context, options: SyncOptions, saved: SyncState | undefined, notes: boolean): Prepared {
  const query = resolveQuery(options, ctx.settings().baseUrl.value, saved?.query);
  const { since, ignoredSince } = checkStart(options, saved);
  if (ignoredSince && notes) {
    ctx.warn(`--since ignored: ${options.dir} syncs from ${formatUtc(saved!.since)} and continues from its cursor ${formatUtc(saved!.cursor)} (a new start needs a new --out dir)`);
  }
  return { query, since };
}

export async function sync(ctx: Context, flags: SyncFlags): Promise<number> {
  const options = parseSyncFlags(flags, Date.now());
  const dir = options.dir;
  prepare(ctx, options, await readState(dir), false);

  let retries = 0;
  // In --follow a signal must not cut a request: the step finishes first. Only main's second signal stops it (exit 130).
  const client = ctx.client({
    connections: options.concurrency ?? ctx.settings().concurrency.value,
    signal: options.follow ? new AbortController().signal : ctx.io.signal,
    onAttempt: (log) => {
      if (log.retryInMs !== undefined) retries += 1;
    },
  });

  const lock = await lockDir(ctx, dir);
  try {
    // Again under the lock: a sync that ended meanwhile may have moved the cursor.
    const saved = await readState(dir);
    const { query, since } = prepare(ctx, options, saved, true);
    const state = saved ?? newState(query, since);
    const recovered = await recover(dir, state);
    if (recovered.parts.length > 0) {
      ctx.warn(`recorded ${recovered.ids} swaps of ${recovered.parts.length} part(s) an interrupted run left unrecorded (${recovered.parts.join(', ')})`);
    }
    if (!saved || recovered.parts.length > 0) await writeState(dir, state);

    const part: PartFormat = {
      format: query.format,
      gzip: query.gzip,
      encoder: createEncoder(query.format, { fields: query.fields, allFields: SWAP_FIELDS }),
    };
    const step = async (): Promise<StepOutcome> => {
      const now = Date.now();
      const until = options.until ?? Math.max(state.cursor, defaultUntil(now));
      const rescan = options.rescanEveryMs === 0 || state.rescannedAt === undefined || now - state.rescannedAt >= options.rescanEveryMs;
      let outcome: StepOutcome;
      try {
        outcome = await runStep({
          dir,
          client,
          state,
          until,
          lagMs: options.lagMs,
          rescan,
          concurrency: options.concurrency ?? ctx.settings().concurrency.value,
          part,
          stamp: runStamp(now),
          signal: options.follow ? undefined : ctx.io.signal,
          retries: () => retries,
        });
      } catch (error) {
        // Writing failed (a full disk, a read-only dir): parts and state on disk are consistent up to the cursor.
        const reason = fsReason(error);
        if (reason) throw new WrappedError(`writing ${dir}: ${reason}; synced up to ${formatUtc(state.cursor)}; run the same command again to continue`, { cause: error });
        throw error;
      }
      const { result } = outcome;
      if (result.rescanClippedAt !== undefined) {
        ctx.warn(`the re-scan starts at ${formatUtc(result.rescanClippedAt)}: ids before it are no longer recorded (an earlier run used a shorter --lag)`);
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
  }
}

/** Creates the dir and takes its lock; a file-system refusal says which dir, not which temporary file. */
async function lockDir(ctx: Context, dir: string): Promise<HeldLock> {
  try {
    await fs.mkdir(dir, { recursive: true });
    return await acquireLock(dir, { onTakeOver: (reason) => ctx.warn(`took over ${reason} on ${dir}`) });
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
