/**
 * What bin/swapx.js runs: the process's signals and broken pipe, then the program. `swapx --version`
 * alone is answered here, as commander would answer it, before the program and its dependencies load:
 * loading them was most of what that command cost.
 */
import { EXIT } from '../cli/exit-status.js';
import { VERSION } from '../version.js';

const VERSION_FLAGS: readonly string[] = ['--version', '-V'];

/**
 * For the bin: Ctrl-C / SIGTERM abort the run (it saves what it can); a second one exits at once, after the run's
 * last words (its locks released, the resume command printed: Context.onStop), said synchronously as `stop` aborts.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const stop = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) {
      stop.abort();
      process.exit(EXIT.interrupted);
    }
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `swapx ... | head` closes the pipe early: that is the reader's choice, not an error.
  // Any other error (a full disk, EIO) is the program's to report in one line (main.ts).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
  });
  // The handlers stay until the process ends: a second signal after the run's clean-up still exits 130, rather than
  // killing the process by the signal's default.
  if (argv.length === 1 && VERSION_FLAGS.includes(argv[0]!)) {
    const failed = await new Promise<Error | null | undefined>((resolve) => process.stdout.write(`${VERSION}\n`, resolve));
    if (!failed) return EXIT.ok;
    // Node says "ENOSPC: no space left on device, write": the words only, as main.ts says them.
    process.stderr.write(`swapx: error: cannot write to standard output: ${failed.message.replace(/^[A-Z]+: |, write$/g, '')}\n`);
    return EXIT.failed;
  }
  const { run } = await import('../main.js');
  return await run(argv, { signal: controller.signal, stop: stop.signal });
}
