/** `swapx sandbox`: serve the local copy of the API (src/sandbox) until Ctrl-C. */
import { UsageError } from '../api/errors.js';
import { isLoopbackHost } from '../api/http.js';
import { parseDurationOption, parseIntInRange, parseTimeOption } from '../api/bounds.js';
import type { Register } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { checkFaultKinds, startSandbox, type SandboxOptions } from '../sandbox/index.js';
import { formatUtc } from '../util/time.js';

interface SandboxFlags {
  port?: string;
  host?: string;
  seed?: string;
  latency?: string;
  faultRate?: string;
  faultKinds?: string;
  slowMs?: string;
  swapsPerHour?: string;
  client?: string[];
  bearer?: string[];
  lateShare?: string;
  lateBy?: string;
  updateRate?: string;
  now?: string;
  retryAfter?: string;
}

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
    .option('--update-rate <x>', 'how often swaps change after completion, a multiple of the realistic rate (45 % repriced within hours, 5.5 % corrected after 2 or 5 days); 0 turns updates off (default: 1)')
    .option('--now <time>', "the sandbox's clock: swaps not yet visible then are not served (default: the real clock)")
    .option('--retry-after <s>', 'Retry-After seconds on injected 429s (default: 1)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  swapx sandbox',
        '  swapx sandbox --port 9000 --latency 50 --fault-rate 0.1',
        '  swapx sandbox --fault-rate 0.3 --fault-kinds 429,slow --slow-ms 3000   # then: swapx --timeout 1s ...',
        '  SWAPX_BASE_URL=http://127.0.0.1:8787 SWAPX_CLIENT_ID=demo SWAPX_API_KEY=demo swapx chains',
      ].join('\n'),
    )
    .action((flags: SandboxFlags) => run((ctx) => sandbox(ctx, flags)));
};

function share(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const p = Number(text);
  if (text.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new UsageError(`${name} must be a number from 0 to 1, not '${text}'`);
  return p;
}

function updateRate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x) || x < 0 || x > 10) throw new UsageError(`--update-rate must be a number from 0 to 10, not '${text}'`);
  return x;
}

function parseOptions(flags: SandboxFlags): SandboxOptions {
  const lateBy = flags.lateBy === undefined ? undefined : parseDurationOption('--late-by', flags.lateBy);
  let now: (() => number) | undefined;
  if (flags.now !== undefined) {
    const fixed = parseTimeOption('--now', flags.now, Date.now());
    now = () => fixed;
  }
  let faultKinds: SandboxOptions['faultKinds'];
  if (flags.faultKinds !== undefined) {
    try {
      faultKinds = checkFaultKinds(
        flags.faultKinds
          .split(',')
          .map((kind) => kind.trim())
          .filter((kind) => kind !== ''),
      );
    } catch (error) {
      throw new UsageError(`--fault-kinds: ${(error as Error).message}`);
    }
  }
  for (const client of flags.client ?? []) {
    if (!/^[^:\s]+:\S+$/.test(client)) throw new UsageError(`--client must be id:key, not '${client}'`);
  }
  return {
    port: parseIntInRange(flags.port, '--port', 0, 65535) ?? 8787,
    host: flags.host ?? '127.0.0.1',
    seed: parseIntInRange(flags.seed, '--seed', 0, 2 ** 31 - 1),
    latencyMs: parseIntInRange(flags.latency, '--latency', 0, 600_000),
    faultRate: share(flags.faultRate, '--fault-rate'),
    faultKinds,
    slowMs: parseIntInRange(flags.slowMs, '--slow-ms', 0, 600_000),
    swapsPerHour: parseIntInRange(flags.swapsPerHour, '--swaps-per-hour', 0, 1_000_000),
    clients: flags.client,
    bearerTokens: flags.bearer,
    lateShare: share(flags.lateShare, '--late-share'),
    lateByMs: lateBy,
    updateRate: updateRate(flags.updateRate),
    now,
    retryAfterSeconds: parseIntInRange(flags.retryAfter, '--retry-after', 0, 3600),
  };
}

/**
 * The URL to give swapx: a wildcard bind (0.0.0.0, ::) is reached on this machine through loopback,
 * the one plain-http address swapx sends credentials to.
 */
export function reachableUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

async function sandbox(ctx: Context, flags: SandboxFlags): Promise<number> {
  const options = parseOptions(flags);
  if (!isLoopbackHost(options.host!)) {
    ctx.warn(`binding to ${options.host}: the sandbox is reachable from other machines, with the demo credentials`);
  }
  if (ctx.globals.verbose) {
    options.onRequest = ({ method, url, status, fault }) => ctx.io.stderr.write(`${method} ${url} ${status}${fault ? ` (fault: ${fault})` : ''}\n`);
  }
  const server = await startSandbox(options);
  const clients = (options.clients ?? ['demo:demo']).join(', ');
  const url = reachableUrl(server.url);
  ctx.io.stdout.write(`${url}\n`);
  ctx.info(
    [
      `swapx sandbox listening on ${server.url} (clients: ${clients}; clock: ${options.now ? formatUtc(options.now()) : 'real'})`,
      `  try: SWAPX_BASE_URL=${url} SWAPX_CLIENT_ID=demo SWAPX_API_KEY=demo swapx chains`,
      '  Ctrl-C stops it',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) resolve();
    ctx.io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return 0;
}
