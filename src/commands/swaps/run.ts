/** The `swapx swaps` handler, loaded only when that command runs (its declaration: command.ts): flags → plan → runExport → words. */
import { AbortedError, SwapxError, UnresumableError, UsageError, WrappedError } from '../../api/errors.js';
import { fsReason, messageFor } from '../../cli/exit-codes.js';
import { DEFAULT_FILTER, LIST_SWAP_FIELDS } from '../../api/types.js';
import type { Context } from '../../cli/context.js';
import { planOutput, type OutputFlags } from '../../cli/output.js';
import { shellQuote } from '../../cli/shell-quote.js';
import { ExportStoppedError, TargetFileError, TargetRefusedError, UploadFailedError } from '../../export/errors.js';
import type { ObjectEvent, ObjectOutcome } from '../../export/object/run.js';
import { cacheDir } from '../../config/cache.js';
import { isS3Url } from '../../fs/output-target.js';
import { AddressError } from '../../sync/errors.js';
import { formatOf } from '../../formats/registry.js';
import { partialPaths, windowsSaved } from '../../export/partial-file.js';
import { runExport, type ExportOutcome, type RunEvent } from '../../export/run-export.js';
import type { ExportPlan } from '../../export/plan.js';
import { planFromFlags } from './flags.js';
import { describePlan, describeQueryChange, futureNote, resumeArgs } from './render.js';
import { bytesInWords, Progress, summaryText } from '../../cli/progress.js';
import { WindowFailedError } from '../../windows/run-windows.js';
import { terminalWidth } from '../../output/table.js';
import { formatUtc } from '../../util/time.js';

export interface SwapsFlags extends OutputFlags {
  from?: string;
  to?: string;
  last?: string;
  filter?: string;
  window?: string;
  concurrency?: string;
  rps?: string;
  resume?: boolean;
  dryRun?: boolean;
  force?: boolean;
}

/** An `-o s3://BUCKET/KEY` as messages name it; a problem in it said of -o. */
async function objectUrl(output: string): Promise<string> {
  const { parseS3Object } = await import('../../mirror/lake/s3/location.js');
  try {
    return parseS3Object(output).url;
  } catch (error) {
    if (error instanceof AddressError) throw new UsageError(`-o${error.rest}`, { cause: error });
    throw error;
  }
}

/** Every check that can fail on input, before any request: the one plan of this export. */
async function planOf(ctx: Context, flags: SwapsFlags, now: number): Promise<ExportPlan> {
  // An object's URL is read first, so that no other message repeats a URL that carries credentials; its export is
  // made in a stage of the user's cache before it is uploaded (export/object/stage.ts).
  const object = flags.output !== undefined && isS3Url(flags.output) ? await objectUrl(flags.output) : undefined;
  const { output, format, gzip, fields, excelSafe } = planOutput(ctx, { ...flags, ...(object ? { output: object } : {}) }, LIST_SWAP_FIELDS, { export: true });
  const file = object ? (await import('../../export/object/stage.js')).stageFile(object, cacheDir(ctx.io.env)) : output;
  const plan = planFromFlags(flags, { file, ...(object ? { object } : {}), format, gzip, fields, excelSafe }, now, ctx.settings().concurrency.value);
  if (flags.resume && !file) throw new UsageError('--resume needs -o FILE: only a file export can be resumed');
  if (flags.resume && flags.force) throw new UsageError('--resume continues an unfinished export and --force discards it: give one');
  return plan;
}

/** The exact command that continues `plan`: swapx, the global options this run was given, and the plan's words. */
function resumeCommand(ctx: Context, plan: ExportPlan): string {
  const words = ['swapx'];
  if (ctx.globals.profile) words.push('--profile', ctx.globals.profile);
  if (ctx.globals.baseUrl) words.push('--base-url', ctx.globals.baseUrl);
  return shellQuote([...words, ...resumeArgs(plan)]);
}

export async function swaps(ctx: Context, flags: SwapsFlags): Promise<number> {
  // Whole seconds: plans and resume commands stay readable for --last and relative times.
  const now = Math.floor(ctx.now() / 1000) * 1000;
  const plan = await planOf(ctx, flags, now);
  const future = futureNote(plan);
  if (future) ctx.warn(future);
  if (flags.dryRun) {
    ctx.io.stdout.write(describePlan(plan));
    return 0;
  }

  // Credentials and the base URL are checked before any file is made: a refused run leaves nothing to resume.
  let retries = 0;
  const client = ctx.client({
    connections: plan.concurrency,
    requestsPerSecond: plan.rps,
    onAttempt: (log) => {
      if (log.retryInMs !== undefined) retries += 1;
    },
  });
  const baseUrl = ctx.settings().baseUrl.value;
  let progress: Progress | undefined;
  /** what this run exports: a resume's own range may differ from the one the flags now mean */
  let running = plan;
  let unStop = () => {};
  const onEvent = async (event: RunEvent | ObjectEvent): Promise<void> => {
    switch (event.type) {
      case 'store':
        // Where, which endpoint and region, and where the credentials came from: never the credentials.
        if (ctx.globals.verbose) ctx.io.stderr.write(`s3: ${event.description}\n`);
        return;
      case 'uploading': {
        progress?.stop();
        const earlier = event.earlier ? ' (the export an earlier run finished: nothing is fetched)' : '';
        ctx.info(`Uploading ${bytesInWords(event.bytes)} to ${event.object}${earlier}`);
        return;
      }
      case 'resuming': {
        const range = event.ownRange
          ? `, of its own range ${formatUtc(event.plan.from)} → ${formatUtc(event.plan.to)} (not the one the command now means)`
          : '';
        ctx.info(`Resuming: ${event.windowsDone}/${event.windowsTotal} windows already done${range}`);
        if (event.baseUrlWas) ctx.warn(`the windows already done came from ${event.baseUrlWas}; the rest comes from ${baseUrl}`);
        return;
      }
      case 'start': {
        running = event.plan;
        const stdout = plan.output.file ? undefined : ctx.io.stdout;
        progress = new Progress(ctx.io.stderr, event, { quiet: ctx.quiet, color: ctx.err.level > 0, retries: () => retries, stdout, env: ctx.io.env });
        const file = plan.output.file;
        // A second signal ends the process before the engine's clean-up: what the manifest on disk holds is said now
        // (on a failure, the run's last line says it: main.ts drops the hook then).
        if (file) {
          const windowsTotal = event.windowsTotal;
          unStop = ctx.onStop(() => {
            progress?.stop();
            const done = windowsSaved(file);
            const saved = `; ${done}/${windowsTotal} windows saved in ${partialPaths(file).partial}; resume with: ${resumeCommand(ctx, running)}`;
            ctx.io.stderr.write(`swapx: interrupted${done > 0 ? saved : ''}\n`);
          });
        }
        return progress.start();
      }
      case 'window':
        progress?.onEvent(event);
    }
  };
  const stdout = ctx.io.stdout;
  const look = formatOf(plan.output.format).people ? { chalk: ctx.out, width: terminalWidth(stdout, ctx.io.env) } : undefined;
  const deps = { client, baseUrl, stdout, look, resume: flags.resume === true, force: flags.force === true, signal: ctx.io.signal, stop: ctx.io.stop };
  let outcome: ExportOutcome | ObjectOutcome;
  try {
    if (plan.output.object) {
      // The object store's client is loaded only here (and the URL's reader, for the plan).
      const { runExportToObject } = await import('../../export/object/run.js');
      outcome = await runExportToObject(plan, { ...deps, s3: { env: ctx.io.env, signal: ctx.io.signal, onAttempt: ctx.attemptLogger() } }, onEvent);
    } else outcome = await runExport(plan, deps, onEvent);
  } catch (error) {
    throw inUsersTerms(ctx, error);
  } finally {
    unStop();
    progress?.stop();
  }
  const destination = plan.output.object ?? plan.output.file;
  if (outcome.status === 'complete') {
    ctx.info(`${destination} is complete already: nothing to resume (add --force to export it again)`);
    return 0;
  }
  if (outcome.status === 'uploaded') {
    ctx.info(`Uploaded to ${destination}`);
    return 0;
  }
  const { summary } = outcome;
  // JSON Lines and JSON keep every byte the API sent; columns of a fixed list do not hold what only `swap` documents.
  if (summary.withBalanceChanges && formatOf(plan.output.format).fixedColumns)
    ctx.warn(
      `the API sent balanceChanges with ${summary.withBalanceChanges} swap(s), which ${plan.output.format} output leaves out: export as jsonl or json to keep them, or look one swap up with 'swapx swap <id>'`,
    );
  if (summary.conflicts)
    ctx.warn(
      `the API returned ${summary.conflicts} swap id(s) twice in one response with different content; each was written once, its version with the later updatedAt`,
    );
  if (summary.outside)
    ctx.warn(`the API returned ${summary.outside} swap(s) outside the window asked for; each window wrote only its own, so check the export against the API`);
  if (!ctx.quiet) {
    const facts = {
      range: `${formatUtc(outcome.plan.from)} → ${formatUtc(outcome.plan.to)}`,
      filter: outcome.plan.filter ?? `${DEFAULT_FILTER} (server default)`,
      output: outcome.plan.output.object ?? outcome.plan.output.file ?? 'stdout',
      retries,
      ...('bytes' in outcome ? { uploaded: `${bytesInWords(outcome.bytes)}, whole` } : {}),
    };
    ctx.io.stderr.write(`${summaryText(summary, progress?.elapsedMs() ?? 0, facts)}\n`);
  }
  return 0;
}

/** What an export left cannot be continued: --force starts it over. */
function startOver(error: UnresumableError): UsageError {
  return new UsageError(`${error.message}${error.orElse ? ', or' : ';'} add --force to start over`, { cause: error });
}

/** runExport's errors in the user's terms: the command that resumes, what was saved, FILE as the user named it. */
function inUsersTerms(ctx: Context, error: unknown): unknown {
  if (error instanceof UploadFailedError) return notUploaded(ctx, error);
  if (error instanceof TargetRefusedError) {
    const { refusal, target } = error;
    if (refusal.reason === 'exists') return new UsageError(`${target} exists; add --force to overwrite it`);
    if (refusal.reason === 'other-range') {
      const [done, per] = isS3Url(target) ? ['written', 'a key'] : ['finished', 'a file name'];
      return new UsageError(
        `${target} was ${done} at ${formatUtc(refusal.written)}, before this range ends (${formatUtc(refusal.to)}), so it holds another range; use ${per} per range, or add --force to export again`,
      );
    }
    if (refusal.reason === 'finished') {
      const upload = `upload it with: ${resumeCommand(ctx, refusal.saved)} — or add --force to start over`;
      return new UsageError(
        `an export to ${target} of a different query (${describeQueryChange(refusal.differences)}) is finished in ${refusal.file} and waits to be uploaded; ${upload}`,
      );
    }
    const resume = `resume it with: ${resumeCommand(ctx, refusal.saved)} — or add --force to start over`;
    if (refusal.reason === 'unfinished')
      return new UsageError(`an unfinished export to ${target} exists (${refusal.windowsDone}/${refusal.windowsTotal} windows done); ${resume}`);
    return new UsageError(`the unfinished export to ${target} is of a different query (${describeQueryChange(refusal.differences)}); ${resume}`);
  }
  if (error instanceof UnresumableError) return startOver(error);
  if (error instanceof TargetFileError) return inUsersWords(error.cause, error.target);
  if (!(error instanceof ExportStoppedError)) return error;
  const { cause, plan } = error;
  const saved = error.saved
    ? `; ${error.saved.windowsDone}/${error.saved.windowsTotal} windows saved in ${error.saved.partial}; resume with: ${resumeCommand(ctx, plan)}`
    : '';
  // A partial export that cannot be resumed as it is (its Parquet row groups' metadata is gone): --force, not --resume.
  if (cause instanceof UnresumableError) return startOver(cause);
  if (cause instanceof UsageError) return cause;
  if (cause instanceof AbortedError || ctx.io.signal.aborted) return new AbortedError(`interrupted${saved}`);
  if (cause instanceof WindowFailedError) {
    const w = cause.window;
    cause.message = `window ${formatUtc(w.from)} → ${formatUtc(w.to)} failed: ${cause.message}${saved}`;
    return cause;
  }
  // Writing failed (a full disk, a read-only dir): what is checkpointed is intact and resumable.
  const file = plan.output.file;
  const writing = file && fsReason(cause) ? `writing ${file}: ${fsReason(cause)}` : messageFor(cause);
  return new WrappedError(`${writing}${saved}`, { cause });
}

/**
 * An upload that failed, as its cause's class (its exit code: 3 for a key refused, 2 for a bucket that is not there,
 * 130 for Ctrl-C, 1 for the rest) with where the finished export waits and the command that uploads it.
 */
function notUploaded(ctx: Context, error: UploadFailedError): unknown {
  const { cause } = error;
  const kept = `the export is complete in ${error.file}; upload it with: ${resumeCommand(ctx, error.plan)}`;
  if (cause instanceof AbortedError || ctx.io.signal.aborted) return new AbortedError(`interrupted before ${error.object} was uploaded; ${kept}`);
  if (cause instanceof SwapxError) {
    cause.message = `${cause.message}; ${error.object} was not written; ${kept}`;
    return cause;
  }
  const reason = fsReason(cause);
  return new WrappedError(`${reason ? `reading ${error.file}: ${reason}` : messageFor(cause)}; ${error.object} was not written; ${kept}`, { cause });
}

/**
 * A file-system error of the files beside FILE, as the user named it: FILE, not FILE.partial or its lock (as
 * messageFor words a file error), unless it is the .partial itself that is wrong (a symbolic link, not followed:
 * fs/open-flags.ts). Any other error as it is.
 */
function inUsersWords(error: unknown, file: string): unknown {
  const reason = fsReason(error);
  if (!reason) return error;
  const named = (error as { code?: unknown }).code === 'ELOOP' ? (error as { path?: string }).path : undefined;
  return new WrappedError(`${reason}: ${named ?? file}`, { cause: error });
}
