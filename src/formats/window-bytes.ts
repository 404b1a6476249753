/**
 * Where a window's encoded text waits until the window is sorted and joined: as bytes in a few large buffers, not as
 * thousands of strings on V8's heap. A window's lines (a CSV export's, or JSON re-serialised) live until the
 * window is complete, long enough that each young collection copied them and the old generation took them in;
 * written out at once, a line's string dies young. Items that are bytes already (a swap's canonical JSON, a part of
 * the response body) are kept as they are.
 */
import type { RawItemWriter } from '../output/encode.js';
import { freeNow } from '../util/free-now.js';

/** Large enough that a dense window (~1,000 lines a 1 MB chunk) takes a few, small enough to waste little at its end. */
const CHUNK_BYTES = 256 * 1024;

export class WindowBytes {
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer | undefined;
  private at = 0;

  /** The item as bytes: a string is written into the window's chunks and returned as a view of them. */
  keep(item: string | Buffer): Buffer {
    if (typeof item !== 'string') return item;
    // A UTF-16 unit is at most 3 bytes of UTF-8: enough room whatever the text.
    const chunk = this.room(item.length * 3);
    const start = this.at;
    this.at += chunk.write(item, start);
    return chunk.subarray(start, this.at);
  }

  /** The item that `writer` writes from `record` and its `raw` into the window's chunks, as a view of them. */
  keepWritten(record: object, raw: Buffer, writer: RawItemWriter): Buffer {
    const chunk = this.room(writer.bound(raw));
    const start = this.at;
    this.at = writer.write(record, raw, chunk, start);
    return chunk.subarray(start, this.at);
  }

  /** The chunk being filled, with at least `bytes` free from `at` on. */
  private room(bytes: number): Buffer {
    if (this.chunk === undefined || this.chunk.length - this.at < bytes) {
      this.chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes));
      this.chunks.push(this.chunk);
      this.at = 0;
    }
    return this.chunk;
  }

  /** The window was joined: its chunks are freed now (every view of them reads as empty afterwards). */
  free(): void {
    for (const chunk of this.chunks) freeNow(chunk);
    this.chunks.length = 0;
    this.chunk = undefined;
  }
}
