/**
 * How a Parquet string column is held while its rows wait for their row group (up to ROW_GROUP_ROWS rows,
 * across windows). Kept as JS strings, those rows outlived V8's young generation and were copied into the
 * old one, and each row group then built a dictionary from strings again: together most of a Parquet
 * export's extra CPU (docs/parquet.md). Two forms instead:
 * - TextValues (here), for the near-unique columns (hashes), a tag's value and list elements: the bytes of a
 *   plain page already (each value's 4-byte length, then its UTF-8), so a page is a slice, not a copy per value.
 * - CodedValues (coded.ts), a number per value into a table of the distinct values, for the repetitive columns.
 */

/** Buffer's own methods, without the argument checks write() and toString() make on each of a row group's many calls. */
export type FastBuffer = Buffer & { utf8Write(value: string, offset: number): number; latin1Slice(start: number, end: number): string };

/**
 * Value i is bytes [textStart(i) + 4, ends[i]), after its length (little-endian, 4 bytes) at textStart(i);
 * a null has no bytes at all, and units -1, as in a plain page.
 */
export interface TextValues {
  readonly length: number;
  readonly bytes: Buffer;
  readonly ends: Int32Array;
  /** each value's length in UTF-16 units (what hyparquet-writer's dictionary rule counts), -1 for a null */
  readonly units: Int32Array;
}

/** Where value i's entry (its length, then its bytes) starts. */
export const textStart = (values: TextValues, i: number): number => (i === 0 ? 0 : values.ends[i - 1]!);

/** Where value i's bytes start (past its length). */
export const bytesStart = (values: TextValues, i: number): number => textStart(values, i) + 4;

/** Value i as a string (for the few a file keeps as text: statistics, a dictionary's min and max). */
export function textAt(values: TextValues, i: number): string | null {
  return values.units[i]! < 0 ? null : values.bytes.toString('utf8', bytesStart(values, i), values.ends[i]!);
}

/**
 * A length as 4 bytes, little-endian, at `at`. Byte by byte: Buffer#writeUInt32LE checks its arguments on each
 * call, and a day's export writes some 300,000 of them.
 */
export function writeLength(out: Uint8Array, at: number, length: number): void {
  out[at] = length & 0xff;
  out[at + 1] = (length >>> 8) & 0xff;
  out[at + 2] = (length >>> 16) & 0xff;
  out[at + 3] = length >>> 24;
}

/** A field's value as text: null for a null or a missing field, a number or a boolean as JavaScript writes it. */
export const asText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** Strings appended one at a time. */
export class TextBuilder {
  private bytes = Buffer.allocUnsafe(4096);
  private ends: Int32Array = new Int32Array(64);
  private units: Int32Array = new Int32Array(64);
  private used = 0;
  private count = 0;

  push(value: string | null): void {
    this.ends = grown(this.ends, this.count + 1);
    this.units = grown(this.units, this.count + 1);
    if (value !== null) {
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      const need = this.used + 4 + 3 * value.length;
      if (need > this.bytes.length) {
        const bigger = Buffer.allocUnsafe(Math.max(need, 2 * this.bytes.length));
        this.bytes.copy(bigger, 0, 0, this.used);
        this.bytes = bigger;
      }
      const { bytes, used } = this;
      const length = (bytes as FastBuffer).utf8Write(value, used + 4);
      writeLength(bytes, used, length);
      this.used = used + 4 + length;
    }
    this.ends[this.count] = this.used;
    this.units[this.count] = value === null ? -1 : value.length;
    this.count += 1;
  }

  /** The values so far, in `order` (indexes of pushed values) if given; the builder is spent. */
  build(order?: ArrayLike<number>): TextValues {
    const { bytes, ends, units, count, used } = this;
    if (!order || isIdentity(order, count)) {
      return { length: count, bytes: Buffer.from(bytes.subarray(0, used)), ends: ends.slice(0, count), units: units.slice(0, count) };
    }
    const source: TextValues = { length: count, bytes, ends, units };
    const out = Buffer.allocUnsafe(used);
    const outEnds = new Int32Array(order.length);
    const outUnits = new Int32Array(order.length);
    let at = 0;
    for (let i = 0; i < order.length; i++) {
      const from = order[i]!;
      at = copyBytes(bytes, textStart(source, from), ends[from]!, out, at);
      outEnds[i] = at;
      outUnits[i] = units[from]!;
    }
    return { length: order.length, bytes: out.subarray(0, at), ends: outEnds, units: outUnits };
  }
}

/**
 * Copies source[from, to) into out at `at`; returns the end. Most values are a few dozen bytes, where a
 * loop is several times cheaper than Buffer#copy, which checks its arguments and makes a view per call.
 */
export function copyBytes(source: Buffer, from: number, to: number, out: Buffer, at: number): number {
  if (to - from > 256) return at + source.copy(out, at, from, to);
  let j = at;
  for (let i = from; i < to; i++) out[j++] = source[i]!;
  return j;
}

type Growable = Float64Array | Int32Array | Uint8Array;

/** `array` while `need` values fit in it, else a copy at least twice as long: the builders append one value at a time. */
export function grown<T extends Growable>(array: T, need: number): T {
  if (need <= array.length) return array;
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(need, 2 * array.length));
  bigger.set(array);
  return bigger;
}

function isIdentity(order: ArrayLike<number>, count: number): boolean {
  if (order.length !== count) return false;
  for (let i = 0; i < count; i++) if (order[i] !== i) return false;
  return true;
}

/** The runs one after another, as one. */
export function concatText(parts: readonly TextValues[]): TextValues {
  if (parts.length === 1) return parts[0]!;
  let length = 0;
  for (const part of parts) length += part.length;
  const ends = new Int32Array(length);
  const units = new Int32Array(length);
  let at = 0;
  let offset = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) ends[at + i] = part.ends[i]! + offset;
    units.set(part.units, at);
    at += part.length;
    offset += part.bytes.length;
  }
  return { length, bytes: Buffer.concat(parts.map((part) => part.bytes)), ends, units };
}
