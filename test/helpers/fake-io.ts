/** In-process runs of the CLI: `run(argv, io)` with captured streams, a chosen terminal width and a throw-away config dir. */
import { Readable, Writable } from 'node:stream';
import { run } from '../../src/main.js';

/** A stdout/stderr that keeps what is written; `isTTY` and `columns` as a terminal would have them. */
export class FakeOut extends Writable {
  text = '';
  isTTY?: boolean;
  columns?: number;
  constructor(options: { isTTY?: boolean; columns?: number } = {}) {
    super();
    if (options.isTTY !== undefined) this.isTTY = options.isTTY;
    if (options.columns !== undefined) this.columns = options.columns;
  }
  // What a terminal stream offers and ora calls: cursor moves and line clears (never colour).
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
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  stdout?: FakeOut;
  stderr?: FakeOut;
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  signal?: AbortSignal;
}

export async function runInProcess(argv: readonly string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const stdout = options.stdout ?? new FakeOut();
  const stderr = options.stderr ?? new FakeOut();
  const stdin = options.stdin ?? Readable.from(options.input === undefined ? [] : [options.input]);
  const code = await run(argv, { stdout, stderr, stdin, env: options.env ?? { NO_COLOR: '1' }, signal: options.signal });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
