/** `swapx sandbox`: serve the local copy of the API (src/sandbox) until Ctrl-C. */
import type { Register } from '../cli/command.js';
import type { SandboxFlags } from './sandbox-run.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export const register: Register = (program, run) => {
  program
    .command('sandbox')
    .description('serve a faithful local copy of the API with synthetic data (default 127.0.0.1:8787)')
    .option('--port <n>', 'port, 0 for any free one (default: 8787)')
    .option('--host <addr>', 'address to bind (default: 127.0.0.1)')
    .option('--seed <n>', 'seed of the synthetic data (default: 1)')
    .option('--latency <ms>', 'mean added latency per request, jittered (default: 0)')
    .option('--fault-rate <p>', 'share 0..1 of requests answered with 429, 500, 503, a reset or a truncated body (default: 0)')
    .option('--fault-kinds <list>', 'which faults --fault-rate draws from, of 429,500,503,reset,truncated,slow (default: all but slow)')
    .option('--slow-ms <ms>', "how long a 'slow' fault holds back its answer (default: 5000)")
    .option('--swaps-per-hour <n>', 'density of the synthetic swaps (default: 2000)')
    .option('--client <id:key>', 'accepted Basic credentials, repeatable (default: demo:demo)', collect)
    .option('--bearer <token>', 'accepted Bearer token, repeatable (default: demo-token)', collect)
    .option('--late-share <p>', 'share 0..1 of swaps that become visible only --late-by after completedAt (default: 0)')
    .option('--late-by <duration>', 'how late those swaps show up, e.g. 3h (default: 0)')
    .option(
      '--update-rate <x>',
      'how often swaps change after completion, a multiple of the realistic rate (45 % repriced within hours, 5.5 % corrected after 2 or 5 days); 0 turns updates off (default: 1)',
    )
    .option('--now <time>', "the sandbox's clock: swaps not yet visible then are not served (default: the real clock)")
    .option('--retry-after <s>', 'Retry-After seconds on injected 429s (default: 1)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  swapx sandbox',
        '  swapx sandbox --port 9000 --latency 50 --fault-rate 0.1',
        '  # slow answers, to try: swapx --timeout 1s ...',
        '  swapx sandbox --fault-rate 0.3 --fault-kinds 429,slow --slow-ms 3000',
        '  # then, from another terminal:',
        '  SWAPX_BASE_URL=http://127.0.0.1:8787 SWAPX_CLIENT_ID=demo \\',
        '    SWAPX_API_KEY=demo swapx chains',
      ].join('\n'),
    )
    .action((flags: SandboxFlags) => run(async (ctx) => (await import('./sandbox-run.js')).sandbox(ctx, flags)));
};
