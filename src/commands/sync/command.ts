/**
 * `swapx sync`: a current mirror for cron. The vendor's polling strategy
 * (Filter=Completed, completedAt as the cursor, a re-scan of the trailing
 * 48 hours for late arrivals), plus Filter=Updated from the latest updatedAt
 * held, so swaps corrected after completion are replaced by their latest
 * version; into daily partitions (one file each, rewritten atomically),
 * idempotent and safe to kill at any moment.
 */
import { CONCURRENCY } from '../../api/bounds.js';
import type { Register } from '../../cli/command.js';
import { DEFAULT_FORMAT, MIRROR_FORMATS } from '../../formats/registry.js';
import { MIRROR_KEY_FIELDS } from '../../sync/store.js';
import { andList, orList } from '../../util/words.js';
import type { SyncFlags } from './flags.js';

const gzipped = MIRROR_FORMATS.filter((format) => format.gzip);
const whole = orList(MIRROR_FORMATS.filter((format) => !format.gzip).map((format) => format.name));

export const register: Register = (program, run) => {
  program
    .command('sync')
    .argument('[status]', "'status': where the mirror at --out stands (cursors, last run, swaps held, lag behind the API's clock); reads only")
    .description('a current mirror for cron: new, late and updated swaps into daily partitions of a directory, or a Postgres table')
    .option(
      '--out <dir|url>',
      'a directory (one partition per day and the sync state) or postgres://USER@HOST/DB (a table; the password from PGPASSWORD or ~/.pgpass)',
    )
    .option('--table <name>', 'with a postgres:// --out: the table, name or schema.name (default: public.xflow_swaps; or ?table= in the URL)')
    .option('--since <time>', 'where the first run starts (later runs continue from the saved cursor)')
    .option('--until <time>', 'hold swaps completed before this (default: now minus 2 minutes); their updates are fetched up to now')
    .option(
      '-f, --format <format>',
      `${gzipped.map((format) => format.name).join(', ')} (.gz or --gzip to compress) or ${whole} (default: ${DEFAULT_FORMAT.name}); set by the dir's first run: later runs may omit it, a different one is refused`,
    )
    .option('--gzip', `gzip the parts (${gzipped.map((format) => `${format.extensions[0]}.gz`).join(', ')}; not with ${whole}, which is compressed already)`)
    .option('--fields <list>', `only these fields (must include ${andList(MIRROR_KEY_FIELDS)})`)
    .option('--lag <duration>', 're-scan this far behind the cursor for late arrivals; 0 turns it off (default: 48h)')
    .option('--rescan-every <duration>', 're-scan at most this often; 0: every run (default: 0, or 15m with --follow)')
    .option('--follow', 'keep going, a step every --interval, until Ctrl-C or SIGTERM (then exit 0)')
    .option('--interval <duration>', 'with --follow: time between steps (default: 60s)')
    .option('--concurrency <n>', `windows fetched at once, ${CONCURRENCY.min} to ${CONCURRENCY.max} (default: ${CONCURRENCY.default}, or the profile setting)`)
    .option(
      '--checkpoint-every <duration>',
      'make progress durable at least this often, so a run killed without warning loses at most this much (a run also commits after its first window, then 1s, 2s, 4s… later); 0: after every window (default: 30s)',
    )
    .option('--move-base-url', 'the API moved: continue a mirror made from another base URL from this one (its state records the new one)')
    .option('--json', 'with status: as one JSON object')
    .option('--max-lag <duration>', "with status: exit 1 when the mirror lags the API's clock by more than this (e.g. 2h)")
    .option(
      '--summary-json',
      'one JSON line on stderr after each step (time, newSwaps, lateSwaps, updatedSwaps, outsideWindow, cursor, updatedCursor, windows, requests, retries, elapsedMs, parts); a failure is a JSON line too (time, exitCode, error, message)',
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  # first run: backfill, then record the cursor',
        '  swapx sync --out /data/swaps --since 2026-11-01',
        '  # later runs (cron): new, late and updated swaps',
        '  swapx sync --out /data/swaps --summary-json',
        '  swapx sync --out /data/swaps --follow --interval 30s',
        '  # where the mirror stands; exit 1 when it lags the API by more than 2h (a monitor)',
        '  swapx sync status --out /data/swaps --max-lag 2h',
        '  # the same mirror in a Postgres table (password in PGPASSWORD or ~/.pgpass)',
        '  swapx sync --out postgres://swapx@db.internal/analytics --since 2026-11-01',
        '',
        'Each partition holds one row per swap, its latest version; it is rewritten',
        'whole and atomically, and the state (.swapx-sync.json) is written after the',
        'data it records is durable, so a killed run is simply run again. Read the',
        'partitions with a glob on the partition files, e.g. date=*/part.jsonl',
        "(swapx's own files are JSON too). In Postgres, the rows and the cursors of",
        'each commit are one transaction. Exit codes: 0 done, 1 API, I/O or database',
        'failure, or another sync holds the lock (rerun continues), or (status',
        '--max-lag) the mirror is staler than that, 2 bad input, 3 credentials',
        "(the API's or the database's), 130 interrupted.",
      ].join('\n'),
    )
    .action((action: string | undefined, flags: SyncFlags) =>
      run(async (ctx) => (action === undefined ? (await import('./run.js')).sync(ctx, flags) : (await import('./status.js')).status(ctx, action, flags))),
    );
};
