/**
 * The PLAIN bytes of a flat column (src/output/parquet/plain.ts), for data pages and dictionary pages, in each
 * form its values take (numbers, strings as bytes, strings as codes): the bytes hyparquet-writer's writePlain
 * writes for the same values, nulls left out, a slice of the column, and pages larger than the first scratch room.
 */
import { ByteWriter } from 'hyparquet-writer';
import { writePlain } from 'hyparquet-writer/src/plain.js';
import { describe, expect, it } from 'vitest';
import { dictionaryValues, plainPage } from '../../src/output/parquet/plain.js';
import { coded, DOUBLE, INT64, numbers, STRING, text } from '../helpers/parquet-values.js';

/** hyparquet-writer's PLAIN bytes of the values that are not null. */
function reference(values: readonly (number | bigint | string | null)[], type: 'INT64' | 'DOUBLE' | 'BYTE_ARRAY'): Buffer {
  const writer = new ByteWriter();
  const present = values.filter((v) => v !== null);
  writePlain(writer, type === 'BYTE_ARRAY' ? present.map((s) => new TextEncoder().encode(s as string)) : present, type, undefined);
  return Buffer.from(writer.getBytes());
}

/** Byte for byte (toEqual walks a large Buffer element by element; hex shows where a difference is). */
function same(actual: Buffer, expected: Buffer): void {
  if (!actual.equals(expected)) expect(actual.toString('hex')).toBe(expected.toString('hex'));
}

// Microseconds: 1970 itself, before it (a negative high word), around 2^32 and 2^53, and today's.
const MICROS = [0, 1, -1, -1_000_000, 4_294_967_295, 4_294_967_296, -4_294_967_297, 2 ** 53 - 1, -(2 ** 53) + 1, 1_795_000_000_123_456];
const AMOUNTS = [0, -0, 1.5, -2.25, 1e-300, 123456789.123, Number.MAX_VALUE, -Number.MIN_VALUE];
const STRINGS = ['ethereum', '', 'é ✓', '😀x', 'base', 'x'.repeat(300)];

/** `values` with a null after every other value. */
function withNulls<T>(values: readonly T[]): (T | null)[] {
  return values.flatMap((v, i) => (i % 2 ? [v, null] : [v]));
}

describe('plainPage', () => {
  it('INT64 microseconds: 8 little-endian bytes each, two’s complement before 1970, nulls left out', () => {
    const values = withNulls(MICROS);
    same(
      plainPage(numbers(values), INT64, 0, values.length),
      reference(
        values.map((v) => (v === null ? null : BigInt(v))),
        'INT64',
      ),
    );
  });

  it('DOUBLE: 8 little-endian bytes each, -0 kept, nulls left out', () => {
    const values = withNulls(AMOUNTS);
    const page = plainPage(numbers(values), DOUBLE, 0, values.length);
    same(page, reference(values, 'DOUBLE'));
    expect(Object.is(page.readDoubleLE(8), -0)).toBe(true);
  });

  it('strings, as bytes or as codes: a 4-byte length and the UTF-8 each, nulls left out', () => {
    const values = withNulls([...STRINGS, 'ethereum', 'base']);
    for (const form of [text, coded]) same(plainPage(form(values), STRING, 0, values.length), reference(values, 'BYTE_ARRAY'));
  });

  it('a page of the values [start, end) only', () => {
    const micros = withNulls(MICROS);
    same(
      plainPage(numbers(micros), INT64, 3, 9),
      reference(
        micros.slice(3, 9).map((v) => (v === null ? null : BigInt(v))),
        'INT64',
      ),
    );
    const strings = withNulls(STRINGS);
    for (const form of [text, coded]) {
      for (const [start, end] of [
        [0, 1],
        [1, 4],
        [2, 3],
        [4, strings.length],
      ] as const) {
        same(plainPage(form(strings), STRING, start, end), reference(strings.slice(start, end), 'BYTE_ARRAY'));
      }
    }
  });

  it('a page of nulls only is empty', () => {
    expect(plainPage(numbers([null, null]), DOUBLE, 0, 2).length).toBe(0);
    for (const form of [text, coded]) expect(plainPage(form(['a', null, null]), STRING, 1, 3).length).toBe(0);
  });

  it('pages larger than the first scratch room (64 KB), one after another', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => (i % 9 === 0 ? null : i * 1.25));
    same(plainPage(numbers(many), DOUBLE, 0, many.length), reference(many, 'DOUBLE'));
    const long = Array.from({ length: 3_000 }, (_, i) => (i % 7 === 0 ? null : `0x${i.toString(16).padStart(64, '0')}`));
    same(plainPage(coded(long), STRING, 0, long.length), reference(long, 'BYTE_ARRAY'));
    // The scratch room is reused: a later, smaller page holds only its own bytes.
    same(plainPage(coded(['a', 'b']), STRING, 0, 2), reference(['a', 'b'], 'BYTE_ARRAY'));
    const bigger = Array.from({ length: 40_000 }, (_, i) => i);
    same(plainPage(numbers(bigger), DOUBLE, 0, bigger.length), reference(bigger, 'DOUBLE'));
  });

  it('a coded page larger than any before it, of the table’s first string: its room counts every value', () => {
    // 2 MB, past every page above (the scratch room only grows): a value left out of the count would not fit.
    const first = Array.from({ length: 1000 }, () => 'x'.repeat(2000));
    same(plainPage(coded(first), STRING, 0, first.length), reference(first, 'BYTE_ARRAY'));
  });
});

describe('dictionaryValues', () => {
  it('the entries at the given positions, in that order, in each form', () => {
    const amounts = [1.5, -0, 7, 1.5, 3];
    same(dictionaryValues(numbers(amounts), [2, 0, 1]), reference([7, 1.5, -0], 'DOUBLE'));
    const strings = ['ethereum', 'é ✓', '😀x', 'ethereum', ''];
    for (const form of [text, coded]) {
      same(dictionaryValues(form(strings), [4, 2, 0, 1]), reference(['', '😀x', 'ethereum', 'é ✓'], 'BYTE_ARRAY'));
    }
  });

  it('no entries: no bytes', () => {
    expect(dictionaryValues(numbers([1]), []).length).toBe(0);
    for (const form of [text, coded]) expect(dictionaryValues(form(['a']), []).length).toBe(0);
  });

  it('dictionaries larger than the first scratch room (64 KB), in each form', () => {
    const count = 10_000;
    const positions = Array.from({ length: count }, (_, i) => i);
    const amounts = positions.map((i) => i / 3);
    same(dictionaryValues(numbers(amounts), positions), reference(amounts, 'DOUBLE'));
    const hashes = positions.map((i) => `0x${i.toString(16).padStart(64, 'a')}`);
    for (const form of [text, coded]) same(dictionaryValues(form(hashes), positions), reference(hashes, 'BYTE_ARRAY'));
  });

  it('dictionaries larger than any page or dictionary before them, as bytes then as codes: the room counts every entry', () => {
    // 2.5 MB, past every room above (the 2 MB page's), after which the room is twice that, 4 MB; then 4.5 MB,
    // past that (the scratch room only grows).
    for (const [form, size] of [
      [text, 2500],
      [coded, 4500],
    ] as const) {
      const long = Array.from({ length: 1000 }, (_, i) => `${i} ${'t'.repeat(size)}`);
      same(
        dictionaryValues(
          form(long),
          long.map((_, i) => i),
        ),
        reference(long, 'BYTE_ARRAY'),
      );
    }
  });
});
