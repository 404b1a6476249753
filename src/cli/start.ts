/**
 * What bin/swapx.js runs: the process's signals and broken pipe, then the program. `swapx --version`
 * alone is answered here, as commander would answer it, before the program and its dependencies load:
 * loading them was most of what that command cost.
 */
import { VERSION } from '../version.js';
import { EXIT } from './exit-status.js';

const VERSION_FLAGS: readonly string[] = ['--version', '-V'];

/** For the bin: Ctrl-C / SIGTERM abort the run (it saves what it can); a second one exits at once. */
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
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
  try {
    if (argv.length === 1 && VERSION_FLAGS.includes(argv[0]!)) {
      process.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    const { run } = await import('../main.js');
    return await run(argv, { signal: controller.signal, stop: stop.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
