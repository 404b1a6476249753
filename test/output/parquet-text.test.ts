/**
 * How a Parquet string column waits for its row group as bytes (src/output/parquet/text.ts): each value as a plain
 * page entry (its length, 4 bytes little-endian, then its UTF-8), nulls as no bytes; reordered, concatenated, and
 * the helpers that append and grow.
 */
import { describe, expect, it } from 'vitest';
import { asText, bytesStart, concatText, copyBytes, grown, type TextValues, textAt, textStart, writeLength } from '../../src/output/parquet/text.js';
import { text } from '../helpers/parquet-values.js';

/** Each value read back, and each entry's length prefix checked against its bytes. */
function read(values: TextValues): (string | null)[] {
  return Array.from({ length: values.length }, (_, i) => {
    const value = textAt(values, i);
    if (value !== null) {
      expect(values.bytes.readUInt32LE(textStart(values, i))).toBe(Buffer.byteLength(value));
      expect(values.units[i]).toBe(value.length);
    } else {
      expect(values.units[i]).toBe(-1);
      expect(values.ends[i]).toBe(textStart(values, i));
    }
    return value;
  });
}

const STRINGS = ['a', null, '', 'é ✓', '😀x', null, 'long'.repeat(50)];

describe('TextBuilder', () => {
  it('holds each value as its plain entry, a null as none', () => {
    const values = text(STRINGS);
    expect(read(values)).toEqual(STRINGS);
    expect([values.length, values.ends.length, values.units.length]).toEqual([STRINGS.length, STRINGS.length, STRINGS.length]);
    expect(values.bytes.length).toBe(STRINGS.reduce((n, s) => n + (s === null ? 0 : 4 + Buffer.byteLength(s)), 0));
    expect([textStart(values, 0), bytesStart(values, 0), textStart(values, 1)]).toEqual([0, 4, 5]);
  });

  it('grows past its first room: many values, and a value longer than the first buffer', () => {
    // Three bytes a character: the room asked for each value is exactly what it takes.
    const ticks = Array.from({ length: 1000 }, () => '✓');
    expect(read(text(ticks))).toEqual(ticks);
    const strings = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? null : `value ${i} ${'é'.repeat(i % 5)}`));
    strings[150] = 'x'.repeat(5000);
    strings[151] = '✓'.repeat(3000);
    expect(read(text(strings))).toEqual(strings);
    // A first value that needs more than twice the first room: the room grows to what it needs, not to twice.
    expect(read(text(['€'.repeat(3000), 'a']))).toEqual(['€'.repeat(3000), 'a']);
  });

  it('builds in a given order, and the order 0, 1, 2, … as it came', () => {
    expect(read(text(STRINGS, [6, 0, 3, 1, 4]))).toEqual([STRINGS[6], STRINGS[0], STRINGS[3], STRINGS[1], STRINGS[4]]);
    expect(read(text(STRINGS, [0, 1]))).toEqual([STRINGS[0], STRINGS[1]]);
    // Every value once, in another order: reversed, and turned by one (no value where it came).
    const reversed = STRINGS.map((_, i) => STRINGS.length - 1 - i);
    expect(read(text(STRINGS, reversed))).toEqual([...STRINGS].reverse());
    const turned = STRINGS.map((_, i) => (i + 1) % STRINGS.length);
    expect(read(text(STRINGS, turned))).toEqual([...STRINGS.slice(1), STRINGS[0]]);
    const identity = text(
      STRINGS,
      STRINGS.map((_, i) => i),
    );
    expect(identity).toEqual(text(STRINGS));
    expect(read(text([], []))).toEqual([]);
  });
});

describe('the helpers', () => {
  it('concatText: the runs one after another; one run is itself', () => {
    const a = text(['a', null, 'bc']);
    const b = text(['é', 'long'.repeat(80), null]);
    expect(read(concatText([a, b]))).toEqual(['a', null, 'bc', 'é', 'long'.repeat(80), null]);
    expect(concatText([a])).toBe(a);
    expect(read(concatText([a, text([]), a]))).toEqual(['a', null, 'bc', 'a', null, 'bc']);
  });

  it('writeLength: 4 bytes, little-endian', () => {
    const out = new Uint8Array(10).fill(0xee);
    writeLength(out, 1, 0x12345678);
    writeLength(out, 5, 2 ** 31 - 1);
    expect([...out]).toEqual([0xee, 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0x7f, 0xee]);
  });

  it('copyBytes: short and long runs, at an offset; returns where it ended', () => {
    const source = Buffer.from(Array.from({ length: 600 }, (_, i) => i % 251));
    for (const [from, to] of [
      [3, 10],
      [0, 256],
      [1, 258],
      [10, 600],
      [5, 5],
    ] as const) {
      const out = Buffer.alloc(700, 0xee);
      expect(copyBytes(source, from, to, out, 7)).toBe(7 + to - from);
      expect(out.subarray(7, 7 + to - from).equals(source.subarray(from, to))).toBe(true);
      expect(out[6]).toBe(0xee);
      expect(out[7 + to - from]).toBe(0xee);
    }
  });

  it('grown: the array itself while the values fit, else a copy at least twice as long', () => {
    const array = Int32Array.from([1, 2, 3, 4]);
    expect(grown(array, 4)).toBe(array);
    expect(grown(array, 0)).toBe(array);
    const twice = grown(array, 5);
    expect(twice).toBeInstanceOf(Int32Array);
    expect([...twice]).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
    expect(grown(new Float64Array(2), 9)).toEqual(new Float64Array(9));
    expect(grown(new Uint8Array(0), 1)).toEqual(new Uint8Array(1));
  });

  it('asText: null for a null or a missing field; a number or a boolean as JavaScript writes it', () => {
    expect([null, undefined, 'x', '', 1.5, -0, true, false].map(asText)).toEqual([null, null, 'x', '', '1.5', '0', 'true', 'false']);
  });
});
