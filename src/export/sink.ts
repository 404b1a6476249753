/** Where an export's bytes go: stdout as they come (StdoutSink), or a checkpointed partial file (partial-file.ts). */
import type { OutStream } from '../output/stream.js';

/** How far an export is: windows complete and contiguous from the first, and what they held. */
export interface Tally {
  windowsDone: number;
  swaps: number;
  dropped: number;
}

/** Where a resumed export starts: what its last checkpoint recorded. */
export interface SinkState extends Tally {
  bytes: number;
  /** what the format's writer checkpointed with its bytes, for its resume (src/formats/writer.ts; Parquet: its row groups) */
  formatState?: string;
}

export interface ExportSink {
  readonly state: SinkState;
  /** `formatState`: the format's own checkpoint, recorded with these bytes (it replaces the last) */
  append(text: string | Buffer, done: Tally, formatState?: string): Promise<void>;
  complete(text: string | Buffer): Promise<void>;
  /** after a failure or interrupt: keep what is durable */
  close(): Promise<void>;
}

/** Writes with backpressure: waits for 'drain' when the pipe is full. */
export class StdoutSink implements ExportSink {
  readonly state: SinkState = { windowsDone: 0, swaps: 0, dropped: 0, bytes: 0 };

  /** `show`: the stream is a terminal showing machine output (terminalSafe); else every byte goes out as made. */
  constructor(
    private readonly stream: OutStream,
    private readonly show?: (text: string) => string,
  ) {}

  private write(made: string | Buffer): Promise<void> {
    const text = this.show && made.length > 0 ? this.show(made.toString()) : made;
    if (text.length === 0 || this.stream.write(text)) return Promise.resolve();
    return drained(this.stream);
  }

  append(text: string | Buffer): Promise<void> {
    return this.write(text);
  }

  complete(text: string | Buffer): Promise<void> {
    return this.write(text);
  }

  async close(): Promise<void> {}
}

/** A full pipe's 'drain'; a stream that fails (a full disk) never drains, and its error ends the wait instead. */
function drained(stream: OutStream): Promise<void> {
  const state = stream as OutStream & { destroyed?: boolean; errored?: Error | null };
  if (state.destroyed) return Promise.reject(state.errored ?? new Error('standard output is closed'));
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('drain', settle);
      stream.off('error', settle);
      stream.off('close', settle);
      if (error instanceof Error) reject(error);
      else if (state.destroyed) reject(state.errored ?? new Error('standard output is closed'));
      else resolve();
    };
    stream.on('drain', settle);
    stream.on('error', settle);
    stream.on('close', settle);
  });
}
