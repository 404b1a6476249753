/**
 * Running swapx in this process through its entry point, `run(argv, io)`, with captured streams, a given
 * environment and clock: the way most CLI behaviour is tested. Spawn the real bin (./cli.ts) only where a
 * process matters: signals, SIGKILL, a TTY, locks.
 */
import { Readable, Writable } from 'node:stream';
import { run } from '../../src/main.js';
import type { CliResult } from './cli.js';

/**
 * A stdout/stderr that keeps what is written; `isTTY` and `columns` as a terminal would have them, and the
 * cursor moves and line clears a terminal stream offers and ora calls (written as their escape codes).
 */
export class Capture extends Writable {
  text = '';
  isTTY?: boolean;
  columns?: number;

  constructor(options: { isTTY?: boolean; columns?: number } = {}) {
    super({ decodeStrings: false });
    if (options.isTTY !== undefined) this.isTTY = options.isTTY;
    if (options.columns !== undefined) this.columns = options.columns;
  }

  cursorTo(x: number, y?: number | (() => void), done?: () => void): boolean {
    this.text += typeof y === 'number' ? `\u001b[${y + 1};${x + 1}H` : `\u001b[${x + 1}G`;
    (typeof y === 'function' ? y : done)?.();
    return true;
  }

  moveCursor(dx: number, dy: number, done?: () => void): boolean {
    if (dx) this.text += dx < 0 ? `\u001b[${-dx}D` : `\u001b[${dx}C`;
    if (dy) this.text += dy < 0 ? `\u001b[${-dy}A` : `\u001b[${dy}B`;
    done?.();
    return true;
  }

  clearLine(_dir: number, done?: () => void): boolean {
    this.text += '\u001b[2K';
    done?.();
    return true;
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
  /** streams of the caller's own (kept after the run, or a TTY stdin) instead of fresh captures */
  stdout?: Capture;
  stderr?: Capture;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** aborts the run as Ctrl-C would */
  signal?: AbortSignal;
  /** the working directory for the run (relative -o paths land there); tests using it must not run concurrently */
  cwd?: string;
}

/** An in-process run always ends with an exit code (never a signal). */
export async function runSwapx(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult & { code: number }> {
  const terminal = options.tty && { isTTY: true, columns: options.tty.columns };
  const stdout = options.stdout ?? new Capture(terminal);
  const stderr = options.stderr ?? new Capture(terminal);
  const stdin = options.stdin ?? Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
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
