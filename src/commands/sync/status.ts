/**
 * `swapx sync status --out DIR|URL [--json] [--max-lag D]`: where a mirror stands, for the operator and the
 * monitor: its cursors, its last run, the swaps it holds, and how far it lags the API's clock (its Date header; this
 * machine's clock when the API cannot be read, said so). It reads only: it never takes the writer's lock, so it
 * answers while a sync runs. With --max-lag it exits 1 when the mirror is staler than that, as dbt's `source
 * freshness` does, so a monitor can page on the exit code alone.
 */
import { UsageError } from '../../api/errors.js';
import { parseSpanOption } from '../../cli/option-values.js';
import type { Context } from '../../cli/context.js';
import { EXIT, messageFor } from '../../cli/exit-codes.js';
import type { MirrorStatus, RunRecord } from '../../sync/store.js';
import { formatElapsed, formatUtc } from '../../util/time.js';
import type { SyncFlags } from './flags.js';
import { inUsersTerms } from './errors.js';
import { openMirror } from './open-mirror.js';

/** The flags of a sync that a status does not take: each refused, naming it. */
const SYNC_ONLY: readonly [keyof SyncFlags, string][] = [
  ['since', '--since'],
  ['until', '--until'],
  ['lag', '--lag'],
  ['rescanEvery', '--rescan-every'],
  ['follow', '--follow'],
  ['interval', '--interval'],
  ['concurrency', '--concurrency'],
  ['checkpointEvery', '--checkpoint-every'],
  ['moveBaseUrl', '--move-base-url'],
  ['summaryJson', '--summary-json'],
];

const num = (n: number) => n.toLocaleString('en-US');

function runText(run: RunRecord | undefined): string {
  if (!run) return 'none recorded';
  const started = formatUtc(run.startedAt);
  if (run.outcome === 'running' || run.endedAt === undefined) return `${started}, no end recorded (still running, or killed)`;
  const took = formatElapsed(run.endedAt - run.startedAt);
  return run.outcome === 'failed' ? `${started}, failed after ${took}: ${run.message ?? ''}` : `${started}, ${run.outcome} in ${took}`;
}

export async function status(ctx: Context, action: string, flags: SyncFlags): Promise<number> {
  return statusOf(ctx, action, flags).catch((error: unknown) => {
    throw inUsersTerms(error);
  });
}

async function statusOf(ctx: Context, action: string, flags: SyncFlags): Promise<number> {
  if (action !== 'status') throw new UsageError(`'${action}' is not an action of sync: 'swapx sync status --out DIR|URL' says where a mirror stands`);
  for (const [key, flag] of SYNC_ONLY) if (flags[key] !== undefined) throw new UsageError(`${flag} applies to a sync, not to 'swapx sync status'`);
  if (flags.out === undefined || flags.out.trim() === '') throw new UsageError('--out <dir|url> is missing: the mirror whose status to show');
  const maxLagMs = flags.maxLag === undefined ? undefined : parseSpanOption('--max-lag', flags.maxLag);
  const { store } = await openMirror(ctx, flags, { dir: flags.out, format: undefined, gzip: undefined, fields: undefined, summaryJson: false });
  const mirror = await store.readStatus!().finally(() => store.close(false));
  if (!mirror) throw new UsageError(`${store.name} holds no mirror yet: its first run is 'swapx sync --out ${flags.out} --since <time>'`);
  // The API's clock, as a sync reads it (its Date header); this machine's when it cannot be read.
  let apiTime: number | undefined;
  let apiProblem: string | undefined;
  try {
    apiTime = await ctx.client().serverTime(mirror.state.cursor);
    if (apiTime === undefined) apiProblem = 'the API sent no Date header';
  } catch (error) {
    apiProblem = messageFor(error);
  }
  const clock = apiTime ?? ctx.now();
  const lagMs = Math.max(0, clock - mirror.state.cursor);
  const stale = maxLagMs !== undefined && lagMs > maxLagMs;
  ctx.io.stdout.write(
    flags.json
      ? `${JSON.stringify(asJson(mirror, store.name, apiTime, clock, lagMs, maxLagMs, stale))}\n`
      : asText(mirror, store.name, apiTime, clock, lagMs, apiProblem),
  );
  if (apiProblem !== undefined && flags.json) ctx.warn(`the API's clock could not be read (${apiProblem}): the lag is by this machine's clock`);
  if (!stale) return EXIT.ok;
  ctx.io.stderr.write(
    `swapx: error: ${store.name} lags ${apiTime === undefined ? "this machine's clock" : "the API's clock"} by ${formatElapsed(lagMs)}, more than --max-lag ${flags.maxLag} (its cursor: ${formatUtc(mirror.state.cursor)})\n`,
  );
  return EXIT.failed;
}

function asJson(mirror: MirrorStatus, name: string, apiTime: number | undefined, clock: number, lagMs: number, maxLagMs: number | undefined, stale: boolean) {
  const run = mirror.lastRun;
  return {
    mirror: name,
    holds: mirror.holds,
    swaps: mirror.swaps,
    since: formatUtc(mirror.state.since),
    cursor: formatUtc(mirror.state.cursor),
    updatedCursor: formatUtc(mirror.state.updatedCursor),
    lastRun: run
      ? {
          startedAt: formatUtc(run.startedAt),
          endedAt: run.endedAt === undefined ? null : formatUtc(run.endedAt),
          outcome: run.outcome,
          message: run.message ?? null,
        }
      : null,
    clock: apiTime === undefined ? 'local' : 'api',
    now: formatUtc(clock),
    lagMs,
    maxLagMs: maxLagMs ?? null,
    stale,
  };
}

function asText(mirror: MirrorStatus, name: string, apiTime: number | undefined, clock: number, lagMs: number, apiProblem: string | undefined): string {
  const lines = [
    ['mirror', `${name}, ${mirror.holds}`],
    ['swaps held', `${num(mirror.swaps)}, completed from ${formatUtc(mirror.state.since)}`],
    ['cursor', formatUtc(mirror.state.cursor)],
    ['updates from', formatUtc(mirror.state.updatedCursor)],
    ['last run', runText(mirror.lastRun)],
    apiTime === undefined
      ? ['clock', `${formatUtc(clock)} (this machine's: the API's could not be read: ${apiProblem}): the mirror lags it by ${formatElapsed(lagMs)}`]
      : ["API's clock", `${formatUtc(clock)}: the mirror lags it by ${formatElapsed(lagMs)}`],
  ];
  return lines.map(([key, value]) => `${key!.padEnd(14)}${value}\n`).join('');
}
