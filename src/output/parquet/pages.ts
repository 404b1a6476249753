/**
 * The small encodings of a page, written straight into bytes: the RLE/bit-packed hybrid of levels and
 * dictionary indexes, and the Thrift compact-protocol page headers. The same bytes as hyparquet-writer's
 * writeRleBitPackedHybrid and writePageHeader (test/output/parquet-chunk.test.ts compares whole files), without
 * their generic paths: a DataView call and a bounds check per byte, and for each header an object walked with
 * Object.entries and a regular expression per field name. Measured (docs/parquet.md): ~20 % of writing a row group.
 */

/** Bytes appended to a buffer that is made large enough first (room()), so no append checks its bounds. */
export class Bytes {
  bytes: Uint8Array = new Uint8Array(1024);
  length = 0;

  /** Empties it, with room for `size` bytes. */
  reset(size: number): this {
    if (this.bytes.length < size) this.bytes = new Uint8Array(Math.max(size, 2 * this.bytes.length));
    this.length = 0;
    return this;
  }

  byte(value: number): void {
    this.bytes[this.length++] = value;
  }

  /** An unsigned varint (hyparquet-writer's appendVarInt, for 32-bit values). */
  varint(value: number): void {
    let v = value;
    while ((v & ~0x7f) !== 0) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * More bytes than the hybrid encoding of `count` values of `bitWidth` takes: runs (8 values or more) and groups
 * (8 values) together at most count / 8 + 1, each at most a 5-byte header, 4 bytes of value or bitWidth bytes
 * of group, and the 5-byte header of the groups before it.
 */
export function rleBound(count: number, bitWidth: number): number {
  return (Math.ceil(count / 8) + 2) * (14 + bitWidth);
}

/**
 * values[start, end) in the RLE/bit-packed hybrid (as hyparquet-writer's writeRleBitPackedHybrid: a run of 8 or
 * more equal values as RLE, anything else in groups of 8, padded with zeros at the end) into `out`, which has
 * room (rleBound). Returns the bytes written.
 */
export function writeRle(out: Bytes, values: Uint8Array | Int32Array, start: number, end: number, bitWidth: number): number {
  const before = out.length;
  let groups = 0;
  let groupStart = start;
  let i = start;
  while (i < end) {
    const first = values[i]!;
    let run = 1;
    while (i + run < end && values[i + run] === first) run++;
    if (run >= 8) {
      if (groups) {
        bitPacked(out, values, groupStart, end, groups, bitWidth);
        groups = 0;
      }
      out.varint(run << 1);
      const width = (bitWidth + 7) >> 3;
      for (let j = 0; j < width; j++) out.byte((first >> (j << 3)) & 0xff);
      i += run;
    } else {
      if (groups === 0) groupStart = i;
      groups++;
      i += 8;
    }
  }
  if (groups) bitPacked(out, values, groupStart, end, groups, bitWidth);
  return out.length - before;
}

/** `groups` groups of 8 values from `start`, bit-packed (values past `end` are 0). */
function bitPacked(out: Bytes, values: Uint8Array | Int32Array, start: number, end: number, groups: number, bitWidth: number): void {
  out.varint((groups << 1) | 1);
  // Eight values of bitWidth bits are bitWidth whole bytes: no bits are left over at the end (none at width 0).
  const mask = (1 << bitWidth) - 1;
  const { bytes } = out;
  let at = out.length;
  let buffer = 0;
  let bits = 0;
  const last = start + groups * 8;
  for (let i = start; i < last; i++) {
    const v = i < end ? values[i]! & mask : 0;
    buffer |= v << bits;
    bits += bitWidth;
    while (bits >= 8) {
      bytes[at++] = buffer & 0xff;
      buffer >>>= 8;
      bits -= 8;
    }
  }
  out.length = at;
}

// Thrift compact protocol: a field's header is (id delta << 4) | type.
const I32 = 5;
const FALSE = 2;
const STRUCT = 12;
const STOP = 0;
/** hyparquet's PageTypes and Encodings, by index */
const DICTIONARY_PAGE = 2;
const DATA_PAGE_V2 = 3;
export const PLAIN = 0;
export const RLE_DICTIONARY = 8;

/** An i32 field `delta` ids after the last: its header, then its zigzag varint (hyparquet-writer's appendZigZag). */
function i32(out: Bytes, delta: number, value: number): void {
  out.byte((delta << 4) | I32);
  out.varint((value << 1) ^ (value >> 31));
}

/** Room enough for either header. */
export const HEADER_BOUND = 64;

/** A DICTIONARY_PAGE header (PageHeader fields 1-3 and 7: DictionaryPageHeader num_values, encoding PLAIN). */
export function dictionaryPageHeader(out: Bytes, uncompressed: number, compressed: number, values: number): void {
  i32(out, 1, DICTIONARY_PAGE);
  i32(out, 1, uncompressed);
  i32(out, 1, compressed);
  out.byte((4 << 4) | STRUCT);
  i32(out, 1, values);
  i32(out, 1, PLAIN);
  out.byte(STOP);
  out.byte(STOP);
}

export interface DataPageV2 {
  uncompressed: number;
  compressed: number;
  values: number;
  nulls: number;
  rows: number;
  encoding: number;
  definitionBytes: number;
  repetitionBytes: number;
  /** false writes is_compressed = false (the default, true, is not written) */
  compressedPage: boolean;
}

/** A DATA_PAGE_V2 header (PageHeader fields 1-3 and 8, DataPageHeaderV2 fields 1-6, and 7 when false). */
export function dataPageV2Header(out: Bytes, page: DataPageV2): void {
  i32(out, 1, DATA_PAGE_V2);
  i32(out, 1, page.uncompressed);
  i32(out, 1, page.compressed);
  out.byte((5 << 4) | STRUCT);
  i32(out, 1, page.values);
  i32(out, 1, page.nulls);
  i32(out, 1, page.rows);
  i32(out, 1, page.encoding);
  i32(out, 1, page.definitionBytes);
  i32(out, 1, page.repetitionBytes);
  if (!page.compressedPage) out.byte((1 << 4) | FALSE);
  out.byte(STOP);
  out.byte(STOP);
}
