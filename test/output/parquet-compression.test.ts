/**
 * How Parquet pages are compressed (src/output/parquet/compression.ts): GZIP as zlib's level 1 Huffman-only writes it,
 * ZSTD where the runtime has it, each read back; the one zstd context reused page after page, driven as zlib's
 * sync path drives it (checked here against an engine of our own, on every Node); and the codec a saved row
 * group names. test/e2e/parquet-codec.test.ts compares the ZSTD pages with zstdCompressSync's on Node 22 and 24.
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  canCompress,
  codecOfRowGroups,
  DEFAULT_PARQUET_CODEC,
  parquetCompressors,
  parquetDecompressors,
  reusedZstd,
  type ZstdEngine,
} from '../../src/output/parquet/compression.js';

const HAS_ZSTD = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';
const PAGE = Buffer.from(`${'0x5f3a9c'.repeat(500)}ethereum base arbitrum ✓`);

describe('the codecs', () => {
  it('GZIP: level 1, Huffman coding only, read back as a plain Uint8Array (not a Buffer, whose slice is a view)', () => {
    const page = parquetCompressors.GZIP!(PAGE);
    expect(Buffer.from(page).equals(zlib.gzipSync(PAGE, { level: 1, strategy: zlib.constants.Z_HUFFMAN_ONLY }))).toBe(true);
    const read = parquetDecompressors.GZIP!(page);
    expect([Buffer.isBuffer(read), read instanceof Uint8Array, Buffer.from(read).equals(PAGE)]).toEqual([false, true, true]);
  });

  it.skipIf(!HAS_ZSTD)('ZSTD: read back as a plain Uint8Array, page after page', () => {
    for (const page of [PAGE, Buffer.alloc(0), PAGE.subarray(7, 40)]) {
      const read = parquetDecompressors.ZSTD!(Buffer.from(parquetCompressors.ZSTD!(page)));
      expect([Buffer.isBuffer(read), Buffer.from(read).equals(page)]).toEqual([false, true]);
    }
  });

  it(`a new file is ${HAS_ZSTD ? 'ZSTD' : 'GZIP'} on Node ${process.version}; what this runtime can write`, () => {
    expect(DEFAULT_PARQUET_CODEC).toBe(HAS_ZSTD ? 'ZSTD' : 'GZIP');
    expect(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD'].map((codec) => canCompress(codec as never))).toEqual([true, true, true, HAS_ZSTD]);
    // Codecs another writer may have used, which swapx does not write: a resume of such a file is refused.
    expect(['BROTLI', 'LZ4_RAW', 'LZO'].map((codec) => canCompress(codec as never))).toEqual([false, false, false]);
    expect(parquetCompressors.ZSTD !== undefined && parquetDecompressors.ZSTD !== undefined).toBe(HAS_ZSTD);
  });
});

/**
 * An engine shaped as zlib's ZstdCompress is inside, whose "compression" copies its input: writeSync fills at
 * most the room it is given and reports what is left of the room and of the input, as the native one does.
 */
function copyingEngine(chunk: number, writes: { inLen: number; outOff: number; outLen: number }[] = []) {
  return class {
    _writeState = new Uint32Array(2);
    _chunkSize = chunk;
    _finishFlushFlag = 3;
    _handle = {
      writeSync: (flush: number, input: Uint8Array, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number) => {
        expect(flush).toBe(3);
        writes.push({ inLen, outOff, outLen });
        const n = Math.min(inLen, outLen);
        out.set(input.subarray(inOff, inOff + n), outOff);
        this._writeState[0] = outLen - n;
        this._writeState[1] = inLen - n;
      },
    };
  };
}

describe('reusedZstd: one context for every page', () => {
  it('writes each page whole in chunks of the engine’s size, growing its buffer past four chunks, page after page', () => {
    const writes: { inLen: number; outOff: number; outLen: number }[] = [];
    const compress = reusedZstd(copyingEngine(16, writes), {})!;
    const bytes = (n: number, from = 0) => Buffer.from(Array.from({ length: n }, (_, i) => (from + i * 7) & 0xff));
    // Under a chunk, exactly one (a full chunk asks once more, for the frame's end), several, past the first buffer.
    for (const [n, calls] of [
      [5, 1],
      [16, 2],
      [40, 3],
      [150, 10],
      [0, 1],
      [64, 5],
    ] as const) {
      writes.length = 0;
      const page = bytes(n, n);
      expect(Buffer.from(compress(page)).equals(page), `${n} bytes`).toBe(true);
      expect(writes).toHaveLength(calls);
      // Each write continues where the last ended, with a chunk of room.
      expect(writes.map((w) => [w.outOff, w.outLen])).toEqual(writes.map((_, i) => [16 * i, 16]));
      expect(writes.map((w) => w.inLen)).toEqual(writes.map((_, i) => Math.max(0, n - 16 * i)));
    }
  });

  it('is none (a context per page instead) where zlib’s insides are not as expected', () => {
    const without = (key: keyof ZstdEngine | 'writeSync', value: unknown) => {
      const Engine = copyingEngine(16);
      return class extends Engine {
        constructor() {
          super();
          if (key === 'writeSync') this._handle = { writeSync: value as never };
          else (this as Record<string, unknown>)[key] = value;
        }
      };
    };
    expect(reusedZstd(undefined, {})).toBeUndefined();
    expect(reusedZstd(copyingEngine(16), {})).toBeTypeOf('function');
    for (const [key, value] of [
      ['_handle', undefined],
      ['writeSync', undefined],
      ['_writeState', [0, 0]],
      ['_chunkSize', '16'],
      ['_finishFlushFlag', undefined],
    ] as const) {
      expect(reusedZstd(without(key, value), {}), key).toBeUndefined();
    }
  });

  it.skipIf(!HAS_ZSTD)('on this runtime, zlib’s ZstdCompress is as expected: the context is reused', () => {
    expect(reusedZstd((zlib as unknown as { ZstdCompress: never }).ZstdCompress, {})).toBeTypeOf('function');
  });
});

describe('codecOfRowGroups', () => {
  const group = (codec: unknown) => JSON.stringify({ columns: [{ meta_data: { codec } }] });

  it('the codec the first saved row group names', () => {
    expect(codecOfRowGroups([group('GZIP'), group('ZSTD')])).toBe('GZIP');
    expect(codecOfRowGroups([group('ZSTD'), 'not JSON'])).toBe('ZSTD');
  });

  it('none: no row group, not JSON, not a row group, or no codec named', () => {
    for (const rowGroups of [[], ['not JSON'], ['null'], ['{}'], ['{"columns":[]}'], ['{"columns":[null]}'], ['{"columns":[{}]}'], [group(5)], [group(null)]]) {
      expect(codecOfRowGroups(rowGroups), JSON.stringify(rowGroups)).toBeUndefined();
    }
  });
});
