/** `swapx swaps`: the bulk export over any range, in windows of at most 30 minutes. */
import { CONCURRENCY, WINDOW_MS } from '../../api/bounds.js';
import type { Register } from '../../cli/command.js';
import { addOutputOptions } from '../../cli/output.js';
import type { SwapsFlags } from './run.js';

const span = (ms: number) => `${ms / 60_000}m`;

export const register: Register = (program, run) => {
  const command = program
    .command('swaps')
    .description('export every swap in a time range (any length), in windows of at most 30 minutes')
    .option('--from <time>', 'start of the range, included (ISO 8601, now, today, yesterday, or a duration ago such as 7d)')
    .option('--to <time>', 'end of the range, excluded (default: now)')
    .option('--last <duration>', 'the range ending now, e.g. 24h or 7d')
    .option('--filter <name>', 'which swap time the range applies to: Withdrawn (server default), Deposited, Completed, Updated')
    .option('--window <duration>', `window length, ${span(WINDOW_MS.min)} to ${span(WINDOW_MS.max)} (default: ${span(WINDOW_MS.default)})`)
    .option('--concurrency <n>', `windows fetched at once, ${CONCURRENCY.min} to ${CONCURRENCY.max} (default: ${CONCURRENCY.default}, or the profile setting)`)
    .option('--rps <n>', 'at most this many requests per second across all workers')
    .option('--resume', 'continue the unfinished export to -o FILE (or upload the finished export to an s3:// -o)')
    .option('--force', 'overwrite -o FILE (or the object), or discard its unfinished export')
    .option('--dry-run', 'print the plan and exit without a request');
  addOutputOptions(command, { export: true })
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  swapx swaps --from 2026-11-01 --to 2026-11-08 --csv -o week.csv',
        '  swapx swaps --last 24h --filter Completed -o day.jsonl.gz',
        '  swapx swaps --from 2026-11-01 --to 2026-11-08 -o week.parquet',
        '  swapx swaps --from 2026-11-01 --to 2026-11-08 -o s3://my-lake/reports/week.csv.gz',
        '  swapx swaps --from yesterday --to today -o daily.jsonl --resume',
        '  swapx swaps --from 2026-11-01 --to 2026-12-01 --dry-run',
      ].join('\n'),
    )
    .action((flags: SwapsFlags) => run(async (ctx) => (await import('./run.js')).swaps(ctx, flags)));
};
