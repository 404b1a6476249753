/** The swapx program: global options, the commands, and the one place a run becomes an exit code. */
import { Command, CommanderError, Help, Option } from 'commander';
import { DEFAULT_BASE_URL, RETRIES, TIMEOUT_MS } from './api/bounds.js';
import { UsageError } from './api/errors.js';
import { VERSION } from './version.js';
import type { Handler } from './cli/command.js';
import { Context, type GlobalOptions, type Io } from './cli/context.js';
import { EXIT, exitCodeFor, messageFor } from './cli/exit-codes.js';
import { COMMANDS } from './commands/index.js';

/** Flags that would put a secret into argv (ps, shell history): refused with what to use instead. */
const SECRET_FLAGS: Record<string, string> = {
  '--api-key': "use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
  '--token': "use 'swapx auth login --token-stdin' or the SWAPX_TOKEN environment variable",
  '--password': "use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
  '--secret': "use 'swapx auth login' (hidden prompt), '--api-key-stdin', or the SWAPX_API_KEY environment variable",
};

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
  Precedence: flag > environment > profile > default.

Exit codes:
  0    success (an empty result is a success)
  1    the work failed: API or network error after retries, file I/O
  2    usage or bad input (checked before any request is sent)
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

export function buildProgram(io: Io, onExit: (code: number) => void): Command {
  const program = new Command('swapx')
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
      // One line: commander puts its suggestion on a second one.
      outputError: (text, write) =>
        write(
          `${text
            .replace(/^error: /, 'swapx: ')
            .trim()
            .replace(/\s*\n\s*/g, ' ')}\n`,
        ),
    });

  const run = async (handler: Handler): Promise<void> => {
    let ctx: Context | undefined;
    try {
      ctx = new Context(io, program.opts<GlobalOptions>());
      onExit(await handler(ctx));
    } catch (error) {
      const code = exitCodeFor(error);
      const label = code === EXIT.interrupted ? '' : `${ctx ? ctx.err.red('error:') : 'error:'} `;
      io.stderr.write(`swapx: ${label}${messageFor(error)}\n`);
      onExit(code);
    } finally {
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
  let exitCode: number = EXIT.ok;
  try {
    refuseSecretFlags(argv);
    const program = buildProgram(fullIo, (code) => (exitCode = code));
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    fullIo.stderr.write(`swapx: ${messageFor(error)}\n`);
    return exitCodeFor(error);
  }
  return exitCode;
}
