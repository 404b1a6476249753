/**
 * The PLAIN bytes of a flat column's values, for its data pages and its dictionary page: 8 little-endian bytes
 * per number (INT64 microseconds or DOUBLE), a 4-byte length and the UTF-8 per string, nothing for a null.
 */
import type { SchemaElement } from 'hyparquet';
import { type FlatValues, isCoded } from './chunk-values.js';
import type { CodedValues } from './coded.js';
import { bytesStart, copyBytes, type TextValues, textStart, writeLength } from './text.js';

const TWO_32 = 4_294_967_296;

/** A scratch buffer for page values: compressed (copied) or appended (copied) before it is reused. */
let scratch = Buffer.allocUnsafe(1 << 16);
function room(bytes: number): Buffer {
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, scratch.length * 2));
  return scratch;
}

/** The plain bytes of numbers or coded strings [start, end) (nulls skipped) into `out` from 0; returns the length. */
function plainValues(values: Float64Array | CodedValues, element: SchemaElement, start: number, end: number, out: Buffer): number {
  let at = 0;
  if (values instanceof Float64Array) {
    // Through a DataView of the page (little-endian, whatever this machine is), not a Buffer method call per value.
    const view = new DataView(out.buffer, out.byteOffset, out.length);
    const int64 = element.type === 'INT64';
    for (let i = start; i < end; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) continue;
      if (int64) {
        const high = Math.floor(v / TWO_32);
        view.setUint32(at, v - high * TWO_32, true);
        // A negative high word (before 1970) is stored as its two's complement.
        view.setInt32(at + 4, high, true);
      } else view.setFloat64(at, v, true);
      at += 8;
    }
    return at;
  }
  const { ids, table } = values;
  const { utf8 } = table;
  for (let i = start; i < end; i++) {
    const id = ids[i]!;
    if (id < 0) continue;
    at = plainEntry(utf8[id]!, 0, utf8[id]!.length, out, at);
  }
  return at;
}

/** A string's plain entry at `at`: its length (4 bytes, little-endian), then bytes source[from, to); returns the end. */
function plainEntry(source: Buffer, from: number, to: number, out: Buffer, at: number): number {
  writeLength(out, at, to - from);
  return copyBytes(source, from, to, out, at + 4);
}

/** The plain page of values [start, end): text is held as one already (text.ts). */
export function plainPage(values: FlatValues, element: SchemaElement, start: number, end: number): Buffer {
  if (!(values instanceof Float64Array) && !isCoded(values)) return values.bytes.subarray(textStart(values, start), values.ends[end - 1]!);
  const out = room(plainSize(values, start, end));
  return out.subarray(0, plainValues(values, element, start, end, out));
}

/** The plain bytes of values [start, end): 8 per number, a 4-byte length and the bytes per string (a null none). */
function plainSize(values: Float64Array | CodedValues, start: number, end: number): number {
  if (values instanceof Float64Array) return (end - start) * 8;
  const { ids, table } = values;
  const { utf8 } = table;
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const id = ids[i]!;
    if (id >= 0) bytes += 4 + utf8[id]!.length;
  }
  return bytes;
}

/** The plain bytes of a dictionary's entries (each the value at a position of the column) into room() from 0. */
export function dictionaryValues(values: Float64Array | CodedValues | TextValues, entries: readonly number[]): Buffer {
  if (values instanceof Float64Array) {
    const out = room(8 * entries.length);
    const view = new DataView(out.buffer, out.byteOffset, 8 * entries.length);
    for (let k = 0; k < entries.length; k++) view.setFloat64(8 * k, values[entries[k]!]!, true);
    return out.subarray(0, 8 * entries.length);
  }
  let at = 0;
  if (isCoded(values)) {
    const { ids, table } = values;
    const { utf8 } = table;
    let size = 0;
    for (let k = 0; k < entries.length; k++) size += 4 + utf8[ids[entries[k]!]!]!.length;
    const out = room(size);
    for (let k = 0; k < entries.length; k++) {
      const bytes = utf8[ids[entries[k]!]!]!;
      at = plainEntry(bytes, 0, bytes.length, out, at);
    }
    return out.subarray(0, at);
  }
  const { bytes, ends } = values;
  let size = 0;
  for (let k = 0; k < entries.length; k++) size += ends[entries[k]!]! - textStart(values, entries[k]!);
  const out = room(size);
  for (let k = 0; k < entries.length; k++) {
    const i = entries[k]!;
    at = plainEntry(bytes, bytesStart(values, i), ends[i]!, out, at);
  }
  return out.subarray(0, at);
}
