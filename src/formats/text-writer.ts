/**
 * The export writer of the text formats (JSON Lines, JSON, CSV, the table): each window is encoded as its swaps
 * arrive and waits as bytes; it goes out whole, after the header before the first window and the separator
 * between records (JSON's comma). Every window is a checkpoint, and a resume needs no state but the bytes.
 */
import type { Encoder } from '../output/encode.js';
import { WindowBytes } from './window-bytes.js';
import type { ExportStart, ExportWriter } from './writer.js';

export function textWriter(encoder: Encoder, start: ExportStart): ExportWriter<Buffer, Buffer> {
  // A resume's first window follows windows already written: no header, and a separator if they held a record.
  let first = start.windowsDone === 0;
  let wroteAny = start.swaps > 0;
  let pending: Buffer | undefined;
  return {
    collector: () => {
      // A window's items wait as bytes (window-bytes.ts), freed once the window is one buffer.
      const bytes = new WindowBytes();
      const { fromRaw } = encoder;
      return {
        item: (swap, raw) => (raw !== undefined && fromRaw !== undefined ? bytes.keepWritten(swap, raw, fromRaw) : bytes.keep(encoder.item(swap, raw))),
        batch: (items) => {
          const batch = encoder.join(items, true);
          bytes.free();
          return batch;
        },
      };
    },
    sizeOf: (batch) => batch.length,
    add(batch, rows) {
      const before = (first ? encoder.header() : '') + (rows > 0 && wroteAny ? encoder.between : '');
      pending = before === '' ? batch : Buffer.concat([Buffer.from(before), batch]);
      first = false;
      wroteAny ||= rows > 0;
    },
    async flush() {
      const bytes = pending;
      pending = undefined;
      return bytes === undefined ? undefined : { bytes };
    },
    footer: () => encoder.footer(wroteAny),
    async close() {},
  };
}
