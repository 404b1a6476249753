/** Where an export's text goes: stdout as it comes, or a checkpointed partial file. */
import type { OutStream } from '../output/stream.js';
import type { PartialFile, PartialState } from './partial-file.js';

/** How far an export is: windows complete and contiguous from the first, and what they held. */
export interface Tally {
  windowsDone: number;
  swaps: number;
  dropped: number;
  /** Parquet: how many row groups the file holds (their metadata is kept beside it, parquet-export.ts) */
  parquet?: string;
}

export interface ExportSink {
  /** where a resumed export starts */
  readonly state: PartialState;
  append(text: string | Buffer, done: Tally): Promise<void>;
  complete(text: string | Buffer): Promise<void>;
  /** after a failure or interrupt: keep what is durable */
  close(): Promise<void>;
}

/** Writes with backpressure: waits for 'drain' when the pipe is full. */
export class StdoutSink implements ExportSink {
  readonly state: PartialState = { windowsDone: 0, swaps: 0, dropped: 0, bytes: 0 };

  /** `show`: the stream is a terminal showing machine output (terminalSafe); else every byte goes out as made. */
  constructor(
    private readonly stream: OutStream,
    private readonly show?: (text: string) => string,
  ) {}

  private write(made: string | Buffer): Promise<void> {
    const text = this.show && made.length > 0 ? this.show(made.toString()) : made;
    if (text.length === 0 || this.stream.write(text)) return Promise.resolve();
    return new Promise((resolve) => this.stream.once('drain', resolve));
  }

  append(text: string | Buffer): Promise<void> {
    return this.write(text);
  }

  complete(text: string | Buffer): Promise<void> {
    return this.write(text);
  }

  async close(): Promise<void> {}
}

export class FileSink implements ExportSink {
  constructor(private readonly file: PartialFile) {}
  get state(): PartialState {
    return this.file.state;
  }
  append(text: string | Buffer, done: Tally): Promise<void> {
    return this.file.append(text, done);
  }
  complete(text: string | Buffer): Promise<void> {
    return this.file.complete(text);
  }
  close(): Promise<void> {
    return this.file.close();
  }
}
