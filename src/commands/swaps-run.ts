/** The `swapx swaps` handler, loaded only when that command runs (the declaration is in swaps.ts). */
import fsSync from 'node:fs';
import path from 'node:path';
import { Chalk } from 'chalk';
import type { SwapxClient } from '../api/client.js';
import { AbortedError, UsageError, WrappedError } from '../api/errors.js';
import { fsReason, messageFor } from '../cli/exit-codes.js';
import { DEFAULT_FILTER, LIST_SWAP_FIELDS } from '../api/types.js';
import type { Context } from '../cli/context.js';
import { planOutput, type OutputFlags } from '../cli/output.js';
import { shellQuote } from '../cli/shell-quote.js';
import { exportSwaps, type ExportSummary } from '../export/exporter.js';
import { queryOf } from '../export/manifest.js';
import { parquetStatePath } from '../export/parquet-state.js';
import { terminalSafe } from '../output/sanitize.js';
import { PartialFile, partialPaths } from '../export/partial-file.js';
import { describePlan, futureNote, planFromFlags, resumeArgs, windowsOf, type ExportPlan } from '../windows/plan.js';
import { decideTarget } from '../export/target.js';
import { Progress, summaryText } from '../cli/progress.js';
import { WindowFailedError } from '../windows/run-windows.js';
import { FileSink, StdoutSink, type ExportSink } from '../export/sink.js';
import { createEncoder, type Encoder, type MachineFormat } from '../output/encode.js';
import { swapRowsEncoder } from '../output/swap-rows.js';
import { terminalWidth } from '../output/table.js';
import { acquireLock, type HeldLock } from '../fs/lock.js';
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
  const { output: file, format, gzip, fields, excelSafe } = planOutput(ctx, flags, LIST_SWAP_FIELDS, { parquet: true });
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

function encoderFor(ctx: Context, plan: ExportPlan): Encoder {
  const { output } = plan;
  if (output.format === 'table') {
    const view = { fields: output.fields, width: output.file ? undefined : terminalWidth(ctx.io.stdout as { columns?: number; isTTY?: boolean }, ctx.io.env) };
    return swapRowsEncoder(plan.filter, output.file ? new Chalk({ level: 0 }) : ctx.out, view);
  }
  return createEncoder(output.format as MachineFormat, { fields: output.fields, allFields: LIST_SWAP_FIELDS, excelSafe: output.excelSafe });
}

/** Opens -o FILE as decided: undefined when there is nothing to do (the file is complete). */
async function openTarget(ctx: Context, plan: ExportPlan, flags: SwapsFlags): Promise<{ file: PartialFile; plan: ExportPlan } | undefined> {
  const target = plan.output.file!;
  const baseUrl = ctx.settings().baseUrl.value;
  const decision = await decideTarget(plan, baseUrl, { resume: flags.resume === true, force: flags.force === true });
  switch (decision.action) {
    case 'complete':
      ctx.info(`${target} is complete already: nothing to resume (add --force to export it again)`);
      return undefined;
    case 'refuse':
      if (decision.reason === 'exists') throw new UsageError(`${target} exists; add --force to overwrite it`);
      if (decision.reason === 'unfinished') {
        const { windowsDone, windowsTotal } = decision.manifest;
        throw new UsageError(
          `an unfinished export to ${target} exists (${windowsDone}/${windowsTotal} windows done); resume it with: ${resumeCommand(ctx, decision.saved)} — or add --force to start over`,
        );
      }
      throw new UsageError(
        `the unfinished export to ${target} is of a different query (${decision.difference}); resume it with: ${resumeCommand(ctx, decision.saved)} — or add --force to start over`,
      );
    case 'start':
      return { file: await PartialFile.start(target, queryOf(decision.plan, baseUrl), windowsOf(decision.plan).length), plan: decision.plan };
    case 'resume': {
      const { manifest } = decision;
      const range = decision.ownRange
        ? `, of its own range ${formatUtc(decision.plan.from)} → ${formatUtc(decision.plan.to)} (not the one the command now means)`
        : '';
      ctx.info(`Resuming: ${manifest.windowsDone}/${manifest.windowsTotal} windows already done${range}`);
      if (decision.baseUrlWas) ctx.warn(`the windows already done came from ${decision.baseUrlWas}; the rest comes from ${baseUrl}`);
      return { file: await PartialFile.resume(target, manifest, baseUrl), plan: decision.plan };
    }
  }
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

  if (!plan.output.file) return exportWith(ctx, plan, flags, client, () => retries);
  // One run at a time per FILE: two (overlapping cron runs, a resume pasted twice) would write one .partial.
  let lock: HeldLock;
  try {
    lock = await acquireLock(path.dirname(plan.output.file), {
      name: `${path.basename(plan.output.file)}.partial.lock`,
      what: 'export',
      where: plan.output.file,
    });
  } catch (error) {
    throw inUsersWords(error, plan.output.file);
  }
  const unStop = ctx.onStop(() => lock.releaseSync());
  try {
    return await exportWith(ctx, plan, flags, client, () => retries);
  } finally {
    await lock.release();
    unStop();
  }
}

/** The windows the manifest on disk counts (what a resume starts from); 0 when there is none to read. */
function checkpointed(manifest: string): number {
  try {
    return Number((JSON.parse(fsSync.readFileSync(manifest, 'utf8')) as { windowsDone?: unknown }).windowsDone) || 0;
  } catch {
    return 0;
  }
}

async function exportWith(ctx: Context, planned: ExportPlan, flags: SwapsFlags, client: SwapxClient, retries: () => number): Promise<number> {
  let plan = planned;
  let sink: ExportSink;
  let file: PartialFile | undefined;
  if (plan.output.file) {
    let opened: Awaited<ReturnType<typeof openTarget>>;
    try {
      opened = await openTarget(ctx, plan, flags);
    } catch (error) {
      throw inUsersWords(error, plan.output.file);
    }
    if (!opened) return 0;
    ({ file, plan } = opened);
    sink = new FileSink(file);
  } else {
    // JSON and JSON Lines escape controls themselves; CSV shown on a terminal must not let a server's escapes through.
    const shown = plan.output.format === 'csv' && (ctx.io.stdout as { isTTY?: boolean }).isTTY === true;
    sink = new StdoutSink(ctx.io.stdout, shown ? terminalSafe : undefined);
  }

  const windows = windowsOf(plan);
  const options = { quiet: ctx.quiet, color: ctx.err.level > 0, retries, stdout: plan.output.file ? undefined : ctx.io.stdout, env: ctx.io.env };
  const progress = new Progress(ctx.io.stderr, { ...sink.state, windowsTotal: windows.length }, options);
  await progress.start();
  const saved = (done: number) =>
    `; ${done}/${windows.length} windows saved in ${partialPaths(file!.target).partial}; resume with: ${resumeCommand(ctx, plan)}`;
  // A second signal ends the process before the clean-up below: what is checkpointed stays, and is said now.
  // A second signal ends the process before the clean-up below: what the manifest on disk holds stays, and is said
  // now (on a failure, until the run's last line says it: main.ts drops the hook then).
  const unStop = ctx.onStop(() => {
    progress.stop();
    const done = file ? checkpointed(partialPaths(file.target).manifest) : 0;
    if (file && done === 0) for (const name of Object.values(partialPaths(file.target))) fsSync.rmSync(name, { force: true });
    ctx.io.stderr.write(`swapx: interrupted${done > 0 ? saved(done) : ''}\n`);
  });
  let summary: ExportSummary;
  try {
    const job = { client, filter: plan.filter, windows, concurrency: plan.concurrency, sink, signal: ctx.io.signal, onEvent: progress.onEvent };
    if (plan.output.format === 'parquet' && file) {
      // Loaded only here: the Parquet writer is a chunk of its own, not parsed at every start.
      const { exportSwapsParquet } = await import('../export/parquet-export.js');
      summary = await exportSwapsParquet({ ...job, fields: plan.output.fields, stateFile: parquetStatePath(partialPaths(file.target).partial) });
    } else summary = await exportSwaps({ ...job, encoder: encoderFor(ctx, plan) });
  } catch (error) {
    progress.stop();
    await sink.close();
    if (file && sink.state.windowsDone === 0) await file.discard();
    const savedNote = file && sink.state.windowsDone > 0 ? saved(sink.state.windowsDone) : '';
    // A partial export that cannot be resumed as it is (its Parquet row groups' metadata is gone): --force, not --resume.
    if (error instanceof UsageError) throw error;
    if (error instanceof AbortedError || ctx.io.signal.aborted) throw new AbortedError(`interrupted${savedNote}`);
    if (error instanceof WindowFailedError) {
      const w = error.window;
      error.message = `window ${formatUtc(w.from)} → ${formatUtc(w.to)} failed: ${error.message}${savedNote}`;
      throw error;
    }
    // Writing failed (a full disk, a read-only dir): what is checkpointed is intact and resumable.
    const writing = file && fsReason(error) ? `writing ${file.target}: ${fsReason(error)}` : messageFor(error);
    throw new WrappedError(`${writing}${savedNote}`, { cause: error });
  }
  unStop();
  progress.stop();
  // JSON Lines and JSON keep every byte the API sent; columns of a fixed list do not hold what only `swap` documents.
  const fixedColumns = plan.output.format === 'csv' || plan.output.format === 'parquet' || plan.output.format === 'table';
  if (summary.withBalanceChanges && fixedColumns)
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
      range: `${formatUtc(plan.from)} → ${formatUtc(plan.to)}`,
      filter: plan.filter ?? `${DEFAULT_FILTER} (server default)`,
      output: plan.output.file ?? 'stdout',
      retries: retries(),
    };
    ctx.io.stderr.write(`${summaryText(summary, progress.elapsedMs(), facts)}\n`);
  }
  return 0;
}
