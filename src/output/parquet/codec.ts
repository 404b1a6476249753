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
  compressors.ZSTD = (input) => compress(input, { params: { [ZSTD_LEVEL]: 1 } });
  const decompress = zstd.zstdDecompressSync;
  decompressors.ZSTD = (input) => plain(decompress(input));
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
  const first = rowGroups[0];
  if (first === undefined) return undefined;
  try {
    const group = JSON.parse(first) as { columns?: { meta_data?: { codec?: unknown } }[] };
    const codec = group.columns?.[0]?.meta_data?.codec;
    return typeof codec === 'string' ? (codec as ParquetCodec) : undefined;
  } catch {
    // Not JSON: the resume that parses it fails on it, as before.
    return undefined;
  }
}
