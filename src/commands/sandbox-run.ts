/** The `swapx sandbox` handler, loaded only when that command runs (the declaration is in sandbox.ts). */
import { UsageError, WrappedError } from '../api/errors.js';
import { isLoopbackHost } from '../api/base-url.js';
import { parseIntInRange, parseSpanOption, parseTimeOption } from '../cli/option-values.js';
import type { Context } from '../cli/context.js';
import { wrapHelp } from '../cli/help-wrap.js';
import { terminalWidth } from '../output/table.js';
import { checkFaultKinds, startSandbox, type SandboxOptions } from '../sandbox/index.js';
import { formatUtc } from '../util/time.js';

export interface SandboxFlags {
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

/** `clock`: the command's (ctx.now), what a relative --now such as 2h is read against. */
function parseOptions(flags: SandboxFlags, clock: number): SandboxOptions {
  const lateBy = flags.lateBy === undefined ? undefined : parseSpanOption('--late-by', flags.lateBy);
  let now: (() => number) | undefined;
  if (flags.now !== undefined) {
    const fixed = parseTimeOption('--now', flags.now, clock);
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

export async function sandbox(ctx: Context, flags: SandboxFlags): Promise<number> {
  const options = parseOptions(flags, ctx.now());
  if (!isLoopbackHost(options.host!)) {
    ctx.warn(`binding to ${options.host}: the sandbox is reachable from other machines, with the demo credentials`);
  }
  if (ctx.globals.verbose) {
    options.onRequest = ({ method, url, status, fault }) => ctx.io.stderr.write(`${method} ${url} ${status}${fault ? ` (fault: ${fault})` : ''}\n`);
  }
  let server: Awaited<ReturnType<typeof startSandbox>>;
  try {
    server = await startSandbox(options);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const where = `${options.host}:${options.port ?? 8787}`;
    if (code === 'EADDRINUSE')
      throw new WrappedError(`${where} is in use (another sandbox?): stop it, or pick another --port (--port 0 takes a free one)`, { cause: error });
    if (code === 'EACCES') throw new WrappedError(`not allowed to listen on ${where}: pick a port above 1023 with --port`, { cause: error });
    throw error;
  }
  const clients = (options.clients ?? ['demo:demo']).join(', ');
  const url = reachableUrl(server.url);
  ctx.io.stdout.write(`${url}\n`);
  const listening = `swapx sandbox listening on ${server.url}`;
  const facts = `(clients: ${clients}; clock: ${options.now ? formatUtc(options.now()) : 'real'})`;
  const hint = `  try: SWAPX_BASE_URL=${url} SWAPX_CLIENT_ID=demo SWAPX_API_KEY=demo swapx chains`;
  // On a terminal, the width of it: the facts on a line of their own, the command continued with a backslash.
  const stderr = ctx.io.stderr as { isTTY?: boolean; columns?: number };
  const width = stderr.isTTY === true ? terminalWidth(stderr) : Number.POSITIVE_INFINITY;
  const head = [...`${listening} ${facts}`].length <= width ? `${listening} ${facts}` : `${listening}\n  ${facts}`;
  ctx.info([head, wrapHelp(hint, width), '  Ctrl-C stops it'].join('\n'));
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) resolve();
    ctx.io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return 0;
}
