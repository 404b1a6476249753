/**
 * The export engine: runExport runs one plan to its end — FILE's lock, what is already at FILE (start, resume, or
 * refuse), the format's writer and where its bytes go — and returns what it did, or throws a typed error
 * (errors.ts). It prints nothing: the shell (commands/swaps/run.ts) renders its events, its outcome and its errors.
 */
import fsSync from 'node:fs';
import path from 'node:path';
import type { ChalkInstance } from 'chalk';
import type { SwapxClient } from '../api/client.js';
import { SwapxError, UsageError } from '../api/errors.js';
import { LIST_SWAP_FIELDS } from '../api/types.js';
import { formatOf } from '../formats/registry.js';
import { acquireLock, type HeldLock } from '../fs/lock.js';
import { terminalSafe } from '../output/sanitize.js';
import type { OutStream } from '../output/stream.js';
import { windowsOf, type ExportPlan } from './plan.js';
import { ExportStoppedError, TargetFileError, TargetRefusedError } from './errors.js';
import { exportSwaps, type ExportEvent, type ExportSummary } from './exporter.js';
import { queryOf } from './manifest.js';
import { PartialFile, partialPaths, windowsSaved } from './partial-file.js';
import { StdoutSink, type ExportSink, type Tally } from './sink.js';
import { decideTarget } from './target.js';

export interface ExportDeps {
  client: SwapxClient;
  /** where the windows come from: recorded in FILE's manifest */
  baseUrl: string;
  /** where an export without a file goes */
  stdout: OutStream;
  /** the people view (table) on stdout: its colours and width; in a file it is plain */
  look?: { chalk: ChalkInstance; width: number | undefined };
  /** an unfinished export at FILE is continued (else refused) */
  resume?: boolean;
  /** whatever is at FILE is replaced */
  force?: boolean;
  signal?: AbortSignal;
  /**
   * Aborted as the process ends at once (a second Ctrl-C or SIGTERM): FILE's lock is released there and then, and an
   * export that saved no window is removed, synchronously, since nothing asynchronous runs after it.
   */
  stop?: AbortSignal;
}

export type RunEvent =
  /** FILE's unfinished export is continued; `ownRange`: of its own range (`plan`'s), not the one asked for */
  | { type: 'resuming'; plan: ExportPlan; windowsDone: number; windowsTotal: number; ownRange: boolean; baseUrlWas: string | undefined }
  /** the windows start: where this run begins (a resume begins with windows done), and the plan it runs (`plan`'s, or FILE's own) */
  | ({ type: 'start'; plan: ExportPlan; windowsTotal: number } & Tally)
  | ExportEvent;

export type ExportOutcome =
  /** `plan`: what was exported (a resume's may be the saved range) */
  | { status: 'exported'; plan: ExportPlan; summary: ExportSummary }
  /** --resume found FILE complete: nothing to do */
  | { status: 'complete' };

/** `onEvent` may return a promise: the engine waits for it (a progress display starting), except for window events. */
export async function runExport(plan: ExportPlan, deps: ExportDeps, onEvent: (event: RunEvent) => void | Promise<void> = () => {}): Promise<ExportOutcome> {
  const file = plan.output.file;
  const format = formatOf(plan.output.format);
  if (!file) {
    // The shell refuses it first, naming its flag (cli/format-choice.ts): this is for a plan made otherwise.
    if (format.fileOnly) throw new UsageError(`${format.title} is written only to a file, and the export names none`);
    // JSON and JSON Lines escape controls themselves, the table strips them; CSV shown on a terminal must not let a server's escapes through.
    const shown = !format.terminalSafe && deps.stdout.isTTY === true;
    return exportTo(plan, new StdoutSink(deps.stdout, shown ? terminalSafe : undefined), undefined, deps, onEvent);
  }
  // One run at a time per FILE: two (overlapping cron runs, a resume pasted twice) would write one .partial.
  let lock: HeldLock;
  try {
    lock = await acquireLock(path.dirname(file), { name: `${path.basename(file)}.partial.lock`, what: 'export', where: file });
  } catch (error) {
    throw targetError(file, error);
  }
  const lastWords = () => {
    lock.releaseSync();
    const paths = partialPaths(file);
    if (windowsSaved(file) === 0)
      for (const name of [...Object.values(paths), ...(format.sideFiles?.(paths.partial) ?? [])]) fsSync.rmSync(name, { force: true });
  };
  deps.stop?.addEventListener('abort', lastWords, { once: true });
  try {
    let opened: Awaited<ReturnType<typeof openTarget>>;
    try {
      opened = await openTarget(plan, deps, onEvent);
    } catch (error) {
      throw targetError(file, error);
    }
    if (!opened) return { status: 'complete' };
    return await exportTo(opened.plan, opened.file, opened.file, deps, onEvent);
  } finally {
    // The last words stay ready until the lock is released: a second signal may come while it is.
    await lock.release();
    deps.stop?.removeEventListener('abort', lastWords);
  }
}

/** A file error at FILE's lock or partial export, for the shell to word in the user's terms; swapx's own errors as they are. */
function targetError(file: string, error: unknown): unknown {
  return error instanceof SwapxError ? error : new TargetFileError(file, error);
}

/** Opens -o FILE as decideTarget decides: undefined when there is nothing to do (the file is complete). */
async function openTarget(
  plan: ExportPlan,
  deps: ExportDeps,
  onEvent: (event: RunEvent) => void | Promise<void>,
): Promise<{ file: PartialFile; plan: ExportPlan } | undefined> {
  const target = plan.output.file!;
  const decision = await decideTarget(plan, deps.baseUrl, { resume: deps.resume === true, force: deps.force === true });
  switch (decision.action) {
    case 'refuse': {
      if (decision.reason === 'exists') throw new TargetRefusedError(target, { reason: 'exists' });
      const { windowsDone, windowsTotal } = decision.manifest;
      throw new TargetRefusedError(target, { reason: decision.reason, saved: decision.saved, windowsDone, windowsTotal, differences: decision.differences });
    }
    case 'start':
      return { file: await PartialFile.start(target, queryOf(decision.plan, deps.baseUrl), windowsOf(decision.plan).length), plan: decision.plan };
    case 'resume': {
      const { windowsDone, windowsTotal } = decision.manifest;
      await onEvent({ type: 'resuming', plan: decision.plan, windowsDone, windowsTotal, ownRange: decision.ownRange, baseUrlWas: decision.baseUrlWas });
      return { file: await PartialFile.resume(target, decision.manifest, deps.baseUrl), plan: decision.plan };
    }
  }
  // 'complete': nothing to do.
  return undefined;
}

/** The windows of `plan` into `sink` (`partial` when it is FILE's), in the plan's format. */
async function exportTo(
  plan: ExportPlan,
  sink: ExportSink,
  partial: PartialFile | undefined,
  deps: ExportDeps,
  onEvent: (event: RunEvent) => void | Promise<void>,
): Promise<ExportOutcome> {
  const windows = windowsOf(plan);
  const { windowsDone, swaps, dropped } = sink.state;
  await onEvent({ type: 'start', plan, windowsTotal: windows.length, windowsDone, swaps, dropped });
  try {
    const { output } = plan;
    const writer = await formatOf(output.format).exportWriter(
      {
        fields: output.fields,
        allFields: LIST_SWAP_FIELDS,
        excelSafe: output.excelSafe,
        filter: plan.filter,
        // In a file the table is plain.
        look: output.file ? undefined : deps.look,
        partial: partial && partialPaths(partial.target).partial,
      },
      sink.state,
    );
    const summary = await exportSwaps({
      client: deps.client,
      filter: plan.filter,
      windows,
      concurrency: plan.concurrency,
      writer,
      sink,
      signal: deps.signal,
      onEvent,
    });
    return { status: 'exported', plan, summary };
  } catch (error) {
    await sink.close();
    const done = sink.state.windowsDone;
    // After a run that saved no window there is nothing to resume: nothing is left behind.
    if (partial && done === 0) await partial.discard();
    const saved = partial && done > 0 ? { windowsDone: done, windowsTotal: windows.length, partial: partialPaths(partial.target).partial } : undefined;
    throw new ExportStoppedError(plan, saved, error);
  }
}
