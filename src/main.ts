/** The swapx program: global options, the commands, and the one place a run becomes an exit code. */
import { type AddHelpTextContext, Command, CommanderError, Help, Option } from 'commander';
import { DEFAULT_BASE_URL, RETRIES, TIMEOUT_MS } from './api/bounds.js';
import { NotFoundError, UsageError } from './api/errors.js';
import { VERSION } from './version.js';
import type { Handler } from './cli/command.js';
import { Context, type GlobalOptions, type Io } from './cli/context.js';
import { EXIT, exitCodeFor, fsReason, messageFor } from './cli/exit-codes.js';
import { commandTerm, wrapHelp } from './cli/help-wrap.js';
import type { OutStream } from './output/stream.js';
import { COMMANDS } from './commands/index.js';
import { failureJson } from './commands/sync/render.js';

/** Flags that would put a secret into argv (ps, shell history): refused with what to use instead. */
const SECRET_FLAGS: Record<string, string> = {
  '--api-key': "use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
  '--token': "use 'swapx auth login --token-stdin' or the SWAPX_TOKEN environment variable",
  '--password': "use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
  '--secret': "use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
};

/** Global options that take a value as the next argument: skipped to find the command's name. */
const VALUE_GLOBALS = new Set(['--profile', '--base-url', '--timeout', '--retries']);

/**
 * Whether this is `swapx sync … --summary-json`: its stderr is then a JSON Lines log from its first line, so an
 * error found before the command runs (an unknown option, a refused flag) is a `sync-failed` line too.
 */
function summaryJsonRun(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  let command: string | undefined;
  for (let i = 0; i < args.length && command === undefined; i++) {
    if (VALUE_GLOBALS.has(args[i]!)) i += 1;
    else if (!args[i]!.startsWith('-')) command = args[i];
  }
  return command === 'sync' && args.includes('--summary-json');
}

function refuseSecretFlags(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    const name = arg.split('=')[0]!;
    const advice = SECRET_FLAGS[name];
    if (advice) throw new UsageError(`${name} is not accepted: a secret on the command line leaks into ps and shell history; ${advice}`);
  }
}

/** `swapx --help`: what the options table cannot say. */
const PROGRAM_HELP_AFTER = `
Environment:
  SWAPX_CLIENT_ID, SWAPX_API_KEY  Basic credentials; beat the stored profile
  SWAPX_TOKEN                     Bearer token (JWT), when no Basic pair is set
  SWAPX_PROFILE                   the profile to use (like --profile)
  SWAPX_BASE_URL                  the API base address (like --base-url)
  SWAPX_CONFIG_DIR                where profiles are stored
                                  (default: the OS config folder)
  SWAPX_ALLOW_HTTP=1              send credentials over plain http to a test
                                  server beyond loopback
  NO_COLOR                        any value turns colour off (like --no-color)
  FORCE_COLOR=0, TERM=dumb        colour off too
  Precedence: flag > environment > profile > default; a profile named with
  --profile is a flag: its credentials beat the environment's, and one that
  does not exist is exit 2.

Exit codes:
  0    success (an empty result is a success)
  1    the work failed: API or network error after retries, file I/O
  2    usage or bad input (checked before any request; or a lookup's 400)
  3    authentication or permission (missing credentials, 403)
  4    not found (swap with no match, unknown chain)
  130  interrupted (Ctrl-C / SIGTERM), after saving what can be resumed

Run 'swapx <command> --help' for a command's options and examples.`;

/** The global options each command honours, where not all (by attribute name); its help lists only these. */
const GLOBALS_HONOURED: Record<string, readonly string[]> = {
  sandbox: ['verbose', 'quiet', 'color'],
  completion: [],
};

function topCommand(cmd: Command): Command {
  let top = cmd;
  while (top.parent?.parent) top = top.parent;
  return top;
}

/** The width help is wrapped to: a terminal's own, else 80 (what a file or a pipe reads comfortably). */
function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY === true && Number.isInteger(stream.columns) && stream.columns! > 0 ? Math.min(stream.columns!, 100) : 80;
}

/**
 * A command whose own help text (addHelpText: examples, environment, exit codes) is wrapped to the width commander
 * wraps the rest of its help to; its subcommands are made the same, so every command's is.
 */
class SwapxCommand extends Command {
  constructor(
    name: string | undefined,
    private readonly widthFor: (context: { error: boolean }) => number,
  ) {
    super(name);
  }

  override createCommand(name?: string): Command {
    return new SwapxCommand(name, this.widthFor);
  }

  override addHelpText(position: Parameters<Command['addHelpText']>[0], text: string | ((context: AddHelpTextContext) => string)): this {
    const textOf = typeof text === 'string' ? () => text : text;
    return super.addHelpText(position, (context) => wrapHelp(textOf(context), this.widthFor(context)));
  }
}

/** A base URL ending in /v1 doubles the prefix swapx adds to every path (GET /v1/v1/external/chains): say so. */
function doubledPrefixHint(ctx: Context): string {
  let base: string;
  try {
    base = ctx.settings().baseUrl.value;
  } catch {
    return '';
  }
  const url = new URL(base);
  if (!/\/v1\/?$/.test(url.pathname)) return '';
  const fixed = `${url.origin}${url.pathname.replace(/\/v1\/?$/, '')}`;
  return `; the base URL ${base} ends in /v1, which swapx adds to every path: use ${fixed}`;
}

/**
 * Standard output failing under a run: a full disk (ENOSPC), a device error (EIO), a reader gone (EPIPE). Its
 * error would otherwise be thrown from nowhere (a stack trace); instead the work stops (`signal`) and the run
 * ends with one line naming the problem (exit 1), or quietly for a closed pipe (the reader's choice, exit 0).
 * Standard error failing leaves nowhere to say anything: it only must not crash the run.
 */
class OutputWatch {
  failure: NodeJS.ErrnoException | undefined;
  private readonly failed = new AbortController();
  readonly signal = this.failed.signal;
  private readonly onError = (error: NodeJS.ErrnoException) => {
    this.failure ??= error;
    this.failed.abort();
  };
  private readonly ignore = () => {};

  constructor(private readonly io: Pick<Io, 'stdout' | 'stderr'>) {
    io.stdout.on('error', this.onError);
    io.stderr.on('error', this.ignore);
  }

  /** Once what was written has gone out (or failed): a failing write reports its error after the write returns. */
  async settled(): Promise<void> {
    const out = this.io.stdout as OutStream & { destroyed?: boolean; writableEnded?: boolean; writableLength?: number };
    if (!out.destroyed && !out.writableEnded && (out.writableLength ?? 0) > 0) await new Promise<void>((resolve) => out.write('', () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** The run's exit code and last line once stdout failed; undefined while it has not. */
  verdict(): { code: number; line: string } | undefined {
    const failure = this.failure;
    if (!failure) return undefined;
    if (failure.code === 'EPIPE') return { code: EXIT.ok, line: '' };
    return { code: EXIT.failed, line: `swapx: error: cannot write to standard output: ${fsReason(failure) ?? messageFor(failure)}\n` };
  }

  dispose(): void {
    this.io.stdout.off('error', this.onError);
    this.io.stderr.off('error', this.ignore);
  }
}

export function buildProgram(io: Io, onExit: (code: number) => void, outputFailed: () => boolean = () => false, jsonLog = false): Command {
  const program = new SwapxCommand('swapx', ({ error }) => helpWidth(error ? io.stderr : io.stdout))
    .description('Query and bulk-export cross-chain swaps from the XFlow swap export API')
    .version(VERSION, '-V, --version')
    .addOption(new Option('--profile <name>', 'stored profile (credentials + settings) [env: SWAPX_PROFILE] (default: "default")'))
    .addOption(new Option('--base-url <url>', `API base address [env: SWAPX_BASE_URL] (default: "${DEFAULT_BASE_URL}")`))
    .addOption(new Option('--timeout <duration>', `per-request timeout, e.g. 30s (default: "${TIMEOUT_MS.default / 1000}s")`))
    .addOption(new Option('--retries <n>', `retries per request on 429, 5xx, timeouts, resets, ${RETRIES.min} to ${RETRIES.max} (default: ${RETRIES.default})`))
    .option('-v, --verbose', 'one stderr line per HTTP request (credentials redacted)')
    .option('-q, --quiet', 'no progress, no summary (errors still go to stderr)')
    .option('--no-color', 'no colour [env: NO_COLOR]')
    .showSuggestionAfterError(true)
    .addHelpText('after', PROGRAM_HELP_AFTER)
    // Every command's help lists the global options it honours (inherited by the subcommands made below).
    .configureHelp({
      showGlobalOptions: true,
      subcommandTerm: commandTerm,
      // commander leaves a description column under 40 unwrapped, for the terminal to break mid-word (at 60 columns)
      minWidthToWrap: 24,
      visibleGlobalOptions(cmd: Command) {
        const honoured = GLOBALS_HONOURED[topCommand(cmd).name()];
        return Help.prototype.visibleGlobalOptions
          .call(this, cmd)
          .filter((option) => option.long !== '--version' && (honoured === undefined || honoured.includes(option.attributeName())));
      },
    })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Help wraps at the terminal's width (words, indented), not at 80 for the terminal to break mid-word.
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
      // One line: commander puts its suggestion on a second one.
      outputError: (text, write) => {
        const line = text
          .replace(/^error: /, 'swapx: ')
          // `swapx version` is what gh and docker take; swapx answers --version.
          .replace(/^(swapx: unknown command 'version')\s*$/, '$1 (Did you mean --version?)')
          .trim()
          .replace(/\s*\n\s*/g, ' ');
        write(jsonLog ? failureLine(io, EXIT.usage, new UsageError(line), line.replace(/^swapx: /, '')) : `${line}\n`);
      },
    });

  const run = async (handler: Handler): Promise<void> => {
    let ctx: Context | undefined;
    try {
      ctx = new Context(io, program.opts<GlobalOptions>());
      onExit(await handler(ctx));
    } catch (error) {
      const code = exitCodeFor(error);
      // The run stopped because stdout failed: run() says so, once, instead of what that did to the work.
      if (outputFailed()) return onExit(code);
      if (jsonLog) {
        io.stderr.write(failureLine(io, code, error, messageFor(error)));
        return onExit(code);
      }
      const label = code === EXIT.interrupted ? '' : `${ctx ? ctx.err.red('error:') : 'error:'} `;
      io.stderr.write(
        `swapx: ${label}${messageFor(error)}${ctx && (error instanceof NotFoundError || (error as { cause?: unknown })?.cause instanceof NotFoundError) ? doubledPrefixHint(ctx) : ''}\n`,
      );
      onExit(code);
    } finally {
      ctx?.dropStopHooks();
      await ctx?.close();
    }
  };
  for (const register of COMMANDS) register(program, run);
  return program;
}

/** Runs swapx with these arguments (without node and the script) and returns the exit code. */
export async function run(argv: readonly string[], io: Partial<Io> = {}): Promise<number> {
  const fullIo: Io = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    // Made when first read (only auth reads it): process.stdin builds a stream, a cost at every start.
    get stdin() {
      return io.stdin ?? process.stdin;
    },
    env: io.env ?? process.env,
    signal: io.signal ?? new AbortController().signal,
    stop: io.stop,
    now: io.now ?? Date.now,
  };
  const watch = new OutputWatch(fullIo);
  fullIo.signal = AbortSignal.any([fullIo.signal, watch.signal]);
  try {
    const code = await runProgram(argv, fullIo, () => watch.failure !== undefined);
    await watch.settled();
    const failed = watch.verdict();
    if (!failed) return code;
    fullIo.stderr.write(failed.line);
    return failed.code;
  } finally {
    watch.dispose();
  }
}

/** `{"event":"sync-failed",…}` and its newline: an error of a `--summary-json` run, as its log has every line. */
function failureLine(io: Io, code: number, error: unknown, message: string): string {
  return `${failureJson(io.now(), code, error, message)}\n`;
}

async function runProgram(argv: readonly string[], io: Io, outputFailed: () => boolean): Promise<number> {
  let exitCode: number = EXIT.ok;
  const jsonLog = summaryJsonRun(argv);
  try {
    refuseSecretFlags(argv);
    const program = buildProgram(io, (code) => (exitCode = code), outputFailed, jsonLog);
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    io.stderr.write(jsonLog ? failureLine(io, exitCodeFor(error), error, messageFor(error)) : `swapx: ${messageFor(error)}\n`);
    return exitCodeFor(error);
  }
  return exitCode;
}
