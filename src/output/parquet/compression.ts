/**
 * How Parquet pages are compressed: ZSTD where the runtime's zlib has it (Node 22.15+, 23.8+), what Spark and
 * DuckDB write by default; GZIP otherwise (Node 20). A file keeps the codec it was started with: a resume reads it
 * from the saved row groups (codecOfRowGroups), so no file mixes two. Apart from the writer, so that deciding
 * whether an export can be resumed does not load it.
 */
import zlib from 'node:zlib';

export type ParquetCodec = 'ZSTD' | 'GZIP' | 'SNAPPY' | 'UNCOMPRESSED';
type Codec = (input: Uint8Array) => Uint8Array;

// @types/node follows Node 20, whose zlib has no zstd.
const zstd = zlib as unknown as { zstdCompressSync?: (input: Uint8Array, options: object) => Buffer; zstdDecompressSync?: (input: Uint8Array) => Buffer };
const ZSTD_LEVEL = (zlib.constants as Record<string, number | undefined>).ZSTD_c_compressionLevel;

/**
 * Measured on a day of 48,000 swaps (Node 24, CPU of compressing every page): ZSTD level 1 11.3 MB in 27 ms,
 * level 3 11.8 MB in 159 ms, GZIP below 13.5 MB in 134 ms (22 MB uncompressed). GZIP is Huffman coding only:
 * most bytes are hex hashes, which Huffman alone halves; full deflate saves 9 % more for a third more CPU.
 */
const compressors: Partial<Record<ParquetCodec, Codec>> = {
  GZIP: (input) => zlib.gzipSync(input, { level: 1, strategy: zlib.constants.Z_HUFFMAN_ONLY }),
};
// Plain Uint8Arrays, not Buffers: hyparquet slices what it is given, and a Buffer's slice is a view, not a copy.
const plain = (bytes: Buffer): Uint8Array => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const decompressors: Partial<Record<ParquetCodec, Codec>> = { GZIP: (input) => plain(zlib.gunzipSync(input)) };
if (zstd.zstdCompressSync && zstd.zstdDecompressSync && ZSTD_LEVEL !== undefined) {
  const compress = zstd.zstdCompressSync;
  const options = { params: { [ZSTD_LEVEL]: 1 } };
  const once = (input: Uint8Array) => compress(input, options);
  const Engine = (zlib as unknown as { ZstdCompress?: ZstdEngineClass }).ZstdCompress;
  // The context is made at the first page, not when a resume check loads this module.
  let reused: Codec | undefined;
  compressors.ZSTD = (input) => {
    reused ??= reusedZstd(Engine, options) ?? once;
    return reused(input);
  };
  const decompress = zstd.zstdDecompressSync;
  decompressors.ZSTD = (input) => plain(decompress(input));
}

/** What zlib's ZstdCompress keeps inside: its native context, the state writeSync reports into, its output size. */
export interface ZstdEngine {
  _handle?: { writeSync?: (flush: number, input: Uint8Array, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number) => void };
  _writeState?: Uint32Array;
  _chunkSize?: number;
  _finishFlushFlag?: number;
}

type ZstdEngineClass = new (options: object) => ZstdEngine;

/**
 * zstdCompressSync with one native context for all pages, as zlib's own sync path drives it (all the input at
 * once, output in chunks of the same size, ZSTD_e_end): a finished frame leaves the context ready for the next
 * with its parameters, so each page is the same frame. zstdCompressSync makes and frees a context per page
 * (~1,000 a day). Reaches into zlib's internals, so it is used only where they are as expected. What it returns
 * is valid until its next call: the page writers (chunk.ts, hyparquet-writer's) append it at once.
 */
export function reusedZstd(Engine: ZstdEngineClass | undefined, options: object): Codec | undefined {
  if (!Engine) return undefined;
  const engine = new Engine(options);
  const { _handle: handle, _writeState: state, _chunkSize: chunk, _finishFlushFlag: end } = engine;
  const writeSync = handle?.writeSync;
  if (!handle || !writeSync || !(state instanceof Uint32Array) || typeof chunk !== 'number' || typeof end !== 'number') return undefined;
  // The frames go one after another into one buffer (each write given `chunk` bytes of room, as zlib gives it):
  // a page's bytes are copied out by the page writer before the next page is compressed.
  let out = Buffer.allocUnsafe(4 * chunk);
  return (input) => {
    let total = 0;
    let offset = 0;
    let left = input.length;
    for (;;) {
      if (out.length - total < chunk) {
        const bigger = Buffer.allocUnsafe(2 * out.length);
        out.copy(bigger, 0, 0, total);
        out = bigger;
      }
      writeSync.call(handle, end, input, offset, left, out, total, chunk);
      const outLeft = state[0]!;
      const inLeft = state[1]!;
      total += chunk - outLeft;
      offset += left - inLeft;
      left = inLeft;
      // Output room to spare: the frame is complete.
      if (outLeft !== 0) break;
    }
    return out.subarray(0, total);
  };
}

/** The codec of a new file: ZSTD where this runtime has it. */
export const DEFAULT_PARQUET_CODEC: ParquetCodec = compressors.ZSTD ? 'ZSTD' : 'GZIP';

/** Whether this runtime can write (and read) pages of `codec`. hyparquet-writer brings SNAPPY itself. */
export function canCompress(codec: ParquetCodec): boolean {
  return codec === 'UNCOMPRESSED' || codec === 'SNAPPY' || compressors[codec] !== undefined;
}

export { compressors as parquetCompressors, decompressors as parquetDecompressors };

/** The codec of a file from its saved row-group metadata (writer.ts groupState), or undefined if none says. */
export function codecOfRowGroups(rowGroups: readonly string[]): ParquetCodec | undefined {
  try {
    const codec: unknown = JSON.parse(rowGroups[0] as string).columns[0].meta_data.codec;
    if (typeof codec === 'string') return codec as ParquetCodec;
  } catch {
    // No row group, not JSON (JSON.parse(undefined) throws too), or not a row group's metadata: none says; the
    // resume that reads it fails on it.
  }
  return undefined;
}
