/** The `swapx swaps` handler, loaded only when that command runs (the declaration is in swaps.ts): flags → plan → runExport → words. */
import { AbortedError, UsageError, WrappedError } from '../api/errors.js';
import { fsReason, messageFor } from '../cli/exit-codes.js';
import { DEFAULT_FILTER, LIST_SWAP_FIELDS } from '../api/types.js';
import type { Context } from '../cli/context.js';
import { planOutput, type OutputFlags } from '../cli/output.js';
import { shellQuote } from '../cli/shell-quote.js';
import { ExportStoppedError, TargetFileError, TargetRefusedError } from '../export/errors.js';
import { formatOf } from '../formats/registry.js';
import { partialPaths, windowsSaved } from '../export/partial-file.js';
import { runExport, type ExportOutcome, type RunEvent } from '../export/run-export.js';
import type { ExportPlan } from '../windows/plan.js';
import { planFromFlags } from './swaps/flags.js';
import { describePlan, describeQueryChange, futureNote, resumeArgs } from './swaps/render.js';
import { Progress, summaryText } from '../cli/progress.js';
import { WindowFailedError } from '../windows/run-windows.js';
import { terminalWidth } from '../output/table.js';
import { formatUtc } from '../util/time.js';

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

/** Every check that can fail on input, before any request: the one plan of this export. */
function planOf(ctx: Context, flags: SwapsFlags, now: number): ExportPlan {
  const { output: file, format, gzip, fields, excelSafe } = planOutput(ctx, flags, LIST_SWAP_FIELDS, { export: true });
  const plan = planFromFlags(flags, { file, format, gzip, fields, excelSafe }, now, ctx.settings().concurrency.value);
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
  const plan = planOf(ctx, flags, now);
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
  const onEvent = async (event: RunEvent): Promise<void> => {
    switch (event.type) {
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
  let outcome: ExportOutcome;
  try {
    outcome = await runExport(
      plan,
      { client, baseUrl, stdout, look, resume: flags.resume === true, force: flags.force === true, signal: ctx.io.signal, stop: ctx.io.stop },
      onEvent,
    );
  } catch (error) {
    throw inUsersTerms(ctx, error);
  } finally {
    unStop();
    progress?.stop();
  }
  if (outcome.status === 'complete') {
    ctx.info(`${plan.output.file} is complete already: nothing to resume (add --force to export it again)`);
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
      output: outcome.plan.output.file ?? 'stdout',
      retries,
    };
    ctx.io.stderr.write(`${summaryText(summary, progress?.elapsedMs() ?? 0, facts)}\n`);
  }
  return 0;
}

/** runExport's errors in the user's terms: the command that resumes, what was saved, FILE as the user named it. */
function inUsersTerms(ctx: Context, error: unknown): unknown {
  if (error instanceof TargetRefusedError) {
    const { refusal, target } = error;
    if (refusal.reason === 'exists') return new UsageError(`${target} exists; add --force to overwrite it`);
    const resume = `resume it with: ${resumeCommand(ctx, refusal.saved)} — or add --force to start over`;
    if (refusal.reason === 'unfinished')
      return new UsageError(`an unfinished export to ${target} exists (${refusal.windowsDone}/${refusal.windowsTotal} windows done); ${resume}`);
    return new UsageError(`the unfinished export to ${target} is of a different query (${describeQueryChange(refusal.differences)}); ${resume}`);
  }
  if (error instanceof TargetFileError) return inUsersWords(error.cause, error.target);
  if (!(error instanceof ExportStoppedError)) return error;
  const { cause, plan } = error;
  const saved = error.saved
    ? `; ${error.saved.windowsDone}/${error.saved.windowsTotal} windows saved in ${error.saved.partial}; resume with: ${resumeCommand(ctx, plan)}`
    : '';
  // A partial export that cannot be resumed as it is (its Parquet row groups' metadata is gone): --force, not --resume.
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
