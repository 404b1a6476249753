/**
 * Running swapx in this process through its entry point, `run(argv, io)`, with captured streams, a given
 * environment and clock: the way most CLI behaviour is tested. Spawn the real bin (./cli.ts) only where a
 * process matters: signals, SIGKILL, a TTY, locks.
 */
import { Readable, Writable } from 'node:stream';
import { run } from '../../src/main.js';
import type { CliResult } from './cli.js';

/** A stream that keeps what is written, and says it is a terminal of `columns` when asked to. */
export class Capture extends Writable {
  text = '';
  isTTY: boolean;
  columns: number | undefined;

  constructor(tty?: { columns: number }) {
    super({ decodeStrings: false });
    this.isTTY = tty !== undefined;
    this.columns = tty?.columns;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    callback();
  }
}

export interface InProcessOptions {
  env?: NodeJS.ProcessEnv;
  /** standard input; default: empty */
  input?: string;
  /** the clock, epoch ms; default: the real one */
  now?: number;
  /** make stdout and stderr terminals this wide */
  tty?: { columns: number };
  /** aborts the run as Ctrl-C would */
  signal?: AbortSignal;
  /** the working directory for the run (relative -o paths land there); tests using it must not run concurrently */
  cwd?: string;
}

export async function runSwapx(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  const stdout = new Capture(options.tty);
  const stderr = new Capture(options.tty);
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const now = options.now;
  const home = process.cwd();
  if (options.cwd) process.chdir(options.cwd);
  let code: number;
  try {
    code = await run(args, {
      stdout,
      stderr,
      stdin,
      env: options.env ?? {},
      signal: options.signal,
      now: now === undefined ? undefined : () => now,
    });
  } finally {
    process.chdir(home);
  }
  return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
}
