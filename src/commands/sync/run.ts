/** The `swapx sync` handler, loaded only when that command runs (the declaration is in command.ts): flags in, the engine, lines out. */
import { AbortedError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { EXIT, exitCodeFor, fsReason, messageFor } from '../../cli/exit-codes.js';
import { Progress } from '../../cli/progress.js';
import { wrapHelp } from '../../cli/help-wrap.js';
import { terminalWidth } from '../../output/table.js';
import { formatDuration, formatUtc } from '../../util/time.js';
import { runSync, type ErrorPolicy, type SyncEvent } from '../../sync/engine.js';
import { parseSyncFlags, type SyncFlags } from './flags.js';
import { inUsersTerms, sinceIgnoredWords, warningWords } from './errors.js';
import { openMirror } from './open-mirror.js';
import { failureJson, movedJson, noteJson, stepJson, stepText } from './render.js';

const errors: ErrorPolicy = {
  fsReason,
  refusedCredentials: (error) => exitCodeFor(error) === EXIT.auth,
  transient: (error) => exitCodeFor(error) === EXIT.failed,
};

/** With --summary-json, main writes a failure as a JSON line too: the log is JSON Lines throughout. */
export async function sync(ctx: Context, flags: SyncFlags): Promise<number> {
  return run(ctx, flags).catch((error: unknown) => {
    throw inUsersTerms(error);
  });
}

async function run(ctx: Context, flags: SyncFlags): Promise<number> {
  const options = parseSyncFlags(flags, ctx.now());
  const concurrency = options.concurrency ?? ctx.settings().concurrency.value;
  let retries = 0;
  let requests = 0;
  // In --follow a signal must not cut a request: the step finishes first. Only main's second signal stops it (exit 130).
  const client = ctx.client({
    connections: concurrency,
    signal: options.follow ? new AbortController().signal : ctx.io.signal,
    onAttempt: (log) => {
      requests += 1;
      if (log.retryInMs !== undefined) retries += 1;
    },
  });
  const mirror = await openMirror(ctx, flags, options);
  const store = mirror.store;
  const json = (line: string) => ctx.io.stderr.write(`${line}\n`);
  const where = store.name;
  // A log keeps a step to one line; a terminal narrower than it gets a clause a line, not words broken by the terminal.
  const stderr = ctx.io.stderr as { isTTY?: boolean; columns?: number };
  const onTerminal = (line: string) =>
    stderr.isTTY !== true || [...line].length <= terminalWidth(stderr) ? line : wrapHelp(line.split('; ').join(';\n  '), terminalWidth(stderr));
  // With --summary-json every line on stderr is JSON: a log parser reads warnings and notices too.
  const warn = (message: string) => (options.summaryJson ? json(noteJson('sync-warning', message, ctx.now())) : ctx.warn(message));
  const info = (message: string) => {
    if (!options.summaryJson) ctx.info(message);
    else if (!ctx.quiet) json(noteJson('sync-info', message, ctx.now()));
  };
  // A spinner on a terminal while a step runs (a backfill takes a while); nothing in a log, nor with --summary-json.
  let progress: Progress | undefined;
  const stopProgress = () => {
    progress?.stop();
    progress = undefined;
  };
  const onProgress = (event: Extract<SyncEvent, { type: 'progress' }>) => {
    if (options.summaryJson) return;
    const tally = { windowsDone: event.windows, windowsTotal: event.windowsPlanned, swaps: event.swaps, dropped: 0 };
    if (!progress) {
      progress = new Progress(ctx.io.stderr, tally, {
        quiet: ctx.quiet,
        color: ctx.err.level > 0,
        retries: () => retries,
        env: ctx.io.env,
        terminalOnly: true,
      });
      void progress.start();
    }
    progress.onEvent({ type: 'window', ...tally });
  };
  const onEvent = (event: SyncEvent): void => {
    if (event.type === 'step' || event.type === 'stopped-now') stopProgress();
    if (event.type === 'progress') onProgress(event);
    else if (event.type === 'note') warn(event.message);
    else if (event.type === 'warning') warn(warningWords(event.warning));
    else if (event.type === 'since-ignored') warn(sinceIgnoredWords(event.mirror, event.since, event.cursor));
    else if (event.type === 'step') {
      if (options.summaryJson) json(stepJson(event.result, ctx.now()));
      else ctx.info(onTerminal(stepText(event.result, mirror.rowsGoInto)));
    } else if (event.type === 'moved') {
      if (options.summaryJson) json(movedJson(event.from, event.to, ctx.now()));
      else ctx.info(`${where} follows its API from ${event.from} to ${event.to}`);
    } else if (event.type === 'following') {
      info(`Following ${where}: a step every ${formatDuration(event.intervalMs)}; stop with Ctrl-C or SIGTERM`);
    } else if (event.type === 'stopping') info('Stopping after this step…');
    else if (event.type === 'retrying') warn(messageFor(event.error));
    else {
      const message = `interrupted; synced up to ${formatUtc(event.cursor)}; run the same command again to continue`;
      if (options.summaryJson) json(failureJson(ctx.now(), EXIT.interrupted, new AbortedError(message), message));
      else ctx.io.stderr.write(`swapx: ${message}\n`);
    }
  };
  const summary = await runSync(
    { ...options, baseUrl: ctx.settings().baseUrl.value, concurrency },
    {
      store,
      client,
      now: () => ctx.now(),
      signal: ctx.io.signal,
      stop: ctx.io.stop,
      requests: () => requests,
      retries: () => retries,
      errors,
    },
    onEvent,
  ).finally(stopProgress);
  if (options.follow) info(`Stopped; synced up to ${formatUtc(summary.cursor)}`);
  return EXIT.ok;
}
