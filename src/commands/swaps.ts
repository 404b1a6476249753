/** `swapx swaps`: the bulk export over any range, in windows of at most 30 minutes. */
import { Chalk } from 'chalk';
import { AbortedError, UsageError, WrappedError } from '../api/errors.js';
import { fsReason, messageFor } from '../cli/exit-codes.js';
import { DEFAULT_FILTER, SWAP_FIELDS } from '../api/types.js';
import { parseIntInRange } from '../cli/args.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { addOutputOptions, planOutput, type OutputFlags, type OutputPlan } from '../cli/output.js';
import { shellQuote } from '../cli/shell-quote.js';
import { exportSwaps } from '../export/exporter.js';
import type { ExportQuery } from '../export/manifest.js';
import { PartialFile, partialPaths } from '../export/partial-file.js';
import { describePlan, parseFilter, parseRange, parseWindow, planWindows, type RangeQuery } from '../export/plan.js';
import { Progress, newCounters, summaryText } from '../export/progress.js';
import { WindowFailedError } from '../export/run-windows.js';
import { FileSink, StdoutSink, type ExportSink } from '../export/sink.js';
import { createEncoder, type Encoder, type MachineFormat } from '../output/encode.js';
import { formatFromPath } from '../output/format.js';
import { swapRowsEncoder } from '../output/swap-rows.js';
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

export const register: Register = (program, run) => {
  const command = program
    .command('swaps')
    .description('export every swap in a time range (any length), in windows of at most 30 minutes')
    .option('--from <time>', 'start of the range, included (ISO 8601, now, today, yesterday, or a duration ago such as 7d)')
    .option('--to <time>', 'end of the range, excluded (default: now)')
    .option('--last <duration>', 'the range ending now, e.g. 24h or 7d')
    .option('--filter <name>', 'which swap time the range applies to: Withdrawn (server default), Deposited, Completed, Updated')
    .option('--window <duration>', 'window length, 1m to 30m (default: 30m)')
    .option('--concurrency <n>', 'windows fetched at once, 1 to 32 (default: 4, or the profile setting)')
    .option('--rps <n>', 'at most this many requests per second across all workers')
    .option('--resume', 'continue the unfinished export to -o FILE')
    .option('--force', 'overwrite -o FILE, or discard its unfinished export')
    .option('--dry-run', 'print the plan and exit without a request');
  addOutputOptions(command)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  swapx swaps --from 2026-11-01 --to 2026-11-08 --csv -o week.csv',
        '  swapx swaps --last 24h --filter Completed -o day.jsonl.gz',
        '  swapx swaps --from yesterday --to today -o daily.jsonl --resume',
        '  swapx swaps --from 2026-11-01 --to 2026-12-01 --dry-run',
      ].join('\n'),
    )
    .action((flags: SwapsFlags) => run((ctx) => swaps(ctx, flags)));
};

interface Prepared {
  query: RangeQuery;
  output: OutputPlan;
  concurrency: number;
  rps: number | undefined;
}

/** Every check that can fail on input, before any request. */
function prepare(ctx: Context, flags: SwapsFlags, now: number): Prepared {
  const range = parseRange(flags, now);
  const query: RangeQuery = { ...range, filter: parseFilter(flags.filter), windowMs: parseWindow(flags.window) };
  const concurrency = parseIntInRange(flags.concurrency, '--concurrency', 1, 32) ?? ctx.settings().concurrency.value;
  let rps: number | undefined;
  if (flags.rps !== undefined) {
    rps = Number(flags.rps);
    if (!/^\d+(\.\d+)?$/.test(flags.rps.trim()) || !(rps > 0) || rps > 10_000) throw new UsageError(`--rps must be a positive number of requests per second, not '${flags.rps}'`);
  }
  if (flags.resume && !flags.output) throw new UsageError('--resume needs -o FILE: only a file export can be resumed');
  if (flags.resume && flags.force) throw new UsageError('--resume continues an unfinished export and --force discards it: give one');
  return { query, output: planOutput(ctx, flags, SWAP_FIELDS), concurrency, rps };
}

function exportQuery(ctx: Context, prepared: Prepared): ExportQuery {
  const { query, output } = prepared;
  return {
    baseUrl: ctx.settings().baseUrl.value,
    filter: query.filter ?? null,
    from: formatUtc(query.from),
    to: formatUtc(query.to),
    windowMs: query.windowMs,
    format: output.format,
    fields: output.fields,
    gzip: output.gzip,
    excelSafe: output.excelSafe,
  };
}

/** The exact command that resumes this export: absolute times, so `--last 24h` resumes the same range. */
function resumeCommand(ctx: Context, prepared: Prepared, flags: SwapsFlags): string {
  const { query, output } = prepared;
  const words = ['swapx', 'swaps', '--from', formatUtc(query.from), '--to', formatUtc(query.to)];
  if (query.filter) words.push('--filter', query.filter);
  if (query.windowMs !== 30 * 60_000) words.push('--window', `${query.windowMs / 1000}s`);
  if (formatFromPath(output.output ?? '').format !== output.format) words.push('--format', output.format);
  if (flags.fields !== undefined) words.push('--fields', output.fields.join(','));
  if (output.excelSafe) words.push('--excel-safe');
  if (ctx.globals.profile) words.push('--profile', ctx.globals.profile);
  if (ctx.globals.baseUrl) words.push('--base-url', ctx.globals.baseUrl);
  words.push('-o', output.output ?? '', '--resume');
  return shellQuote(words);
}

function encoderFor(ctx: Context, prepared: Prepared): Encoder {
  const { output, query } = prepared;
  if (output.format === 'table') {
    const view = { fields: output.fields, width: output.output ? undefined : terminalWidth(ctx.io.stdout as { columns?: number; isTTY?: boolean }, ctx.io.env) };
    return swapRowsEncoder(query.filter, output.output ? new Chalk({ level: 0 }) : ctx.out, view);
  }
  return createEncoder(output.format as MachineFormat, { fields: output.fields, allFields: SWAP_FIELDS, excelSafe: output.excelSafe });
}

export async function swaps(ctx: Context, flags: SwapsFlags): Promise<number> {
  // Whole seconds: plans and resume commands stay readable for --last and relative times.
  const now = Math.floor(Date.now() / 1000) * 1000;
  const prepared = prepare(ctx, flags, now);
  const { query, output, concurrency } = prepared;
  const windows = planWindows(query.from, query.to, query.windowMs);
  if (flags.dryRun) {
    ctx.io.stdout.write(describePlan(query, windows, concurrency));
    return 0;
  }
  if (query.to > now) ctx.warn(`--to ${formatUtc(query.to)} is in the future: swaps after now are not exported yet`);

  // Credentials and the base URL are checked before any file is made: a refused run leaves nothing to resume.
  const counters = newCounters(windows.length);
  const client = ctx.client({
    connections: concurrency,
    requestsPerSecond: prepared.rps,
    onAttempt: (log) => {
      if (log.retryInMs !== undefined) counters.retries += 1;
    },
  });

  const resume = output.output ? resumeCommand(ctx, prepared, flags) : '';
  let sink: ExportSink;
  if (output.output) {
    const opened = await PartialFile.open(output.output, exportQuery(ctx, prepared), windows.length, {
      resume: flags.resume === true,
      force: flags.force === true,
      resumeCommand: resume,
    });
    sink = new FileSink(opened.file);
    if (opened.resumed) ctx.info(`Resuming: ${opened.file.state.windowsDone}/${windows.length} windows already done`);
  } else sink = new StdoutSink(ctx.io.stdout);

  // A resume starts where the checkpoint is: progress counts rate and ETA from there.
  Object.assign(counters, { windowsDone: sink.state.windowsDone, swaps: sink.state.swaps, dropped: sink.state.dropped });
  const progress = new Progress(ctx.io.stderr, counters, { quiet: ctx.quiet, color: ctx.err.level > 0 });
  const startSwaps = sink.state.swaps;
  await progress.start();
  try {
    await exportSwaps({ client, query, windows, concurrency, encoder: encoderFor(ctx, prepared), sink, counters, signal: ctx.io.signal, onWindow: () => progress.update() });
  } catch (error) {
    progress.stop();
    await sink.close();
    const saved = output.output ? `; ${sink.state.windowsDone}/${windows.length} windows saved in ${partialPaths(output.output).partial}; resume with: ${resume}` : '';
    if (error instanceof AbortedError || ctx.io.signal.aborted) throw new AbortedError(`interrupted${saved}`);
    if (error instanceof WindowFailedError) {
      const w = error.window;
      error.message = `window ${formatUtc(w.from)} → ${formatUtc(w.to)} failed: ${error.message}${saved}`;
      throw error;
    }
    // Writing failed (a full disk, a read-only dir): what is checkpointed is intact and resumable.
    const writing = output.output && fsReason(error) ? `writing ${output.output}: ${fsReason(error)}` : messageFor(error);
    throw new WrappedError(`${writing}${saved}`, { cause: error });
  }
  progress.stop();
  if (!ctx.quiet) {
    const facts = {
      range: `${formatUtc(query.from)} → ${formatUtc(query.to)}`,
      filter: query.filter ?? `${DEFAULT_FILTER} (server default)`,
      output: output.output ?? 'stdout',
    };
    ctx.io.stderr.write(`${summaryText(counters, progress.elapsedMs(), facts, counters.swaps - startSwaps)}\n`);
  }
  return 0;
}
