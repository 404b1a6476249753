/**
 * What a flat column's values say of themselves (src/output/parquet/chunk-values.ts), in each form they take
 * (numbers, strings as bytes, strings as codes): nulls, lengths, min/max statistics, and the dictionary rule,
 * which must decide as hyparquet-writer's useDictionary does for the same values, column after column.
 */
import { useDictionary } from 'hyparquet-writer/src/dictionary.js';
import { describe, expect, it } from 'vitest';
import { byteLength, dictionaryOf, type FlatValues, isCoded, isNull, statistics } from '../../src/output/parquet/chunk-values.js';
import { Rng } from '../../src/sandbox/random.js';
import { coded, DOUBLE, INT64, numbers, STRING, text } from '../helpers/parquet-values.js';

/** Our dictionary as hyparquet-writer's useDictionary returns one: the entries' values, each value's entry. */
function asWriterDictionary(values: readonly unknown[], form: FlatValues) {
  const dict = dictionaryOf(form);
  if (!dict) return {};
  expect(dict.nulls).toBe(values.filter((v) => v === null).length);
  return { dictionary: dict.dictionary.map((i) => values[i]), indexes: Array.from(dict.indexes, (i) => (i < 0 ? undefined : i)) };
}

function writerDictionary(values: readonly unknown[], type: 'DOUBLE' | 'BYTE_ARRAY') {
  const { dictionary, indexes } = useDictionary(values as never, type, undefined, undefined);
  return dictionary ? { dictionary, indexes: Array.from(indexes!) } : {};
}

/**
 * Columns that land on either side of each of the rule's bounds: how many values (under and over the 1,000
 * sampled), how many distinct among them (the sample's 90 %, and whether the dictionary halves the bytes),
 * how many nulls, and strings of different lengths (the rule weighs each by its length in UTF-16 units).
 */
function columns<T>(value: (id: number, next: () => number) => T): (T | null)[][] {
  const out: (T | null)[][] = [[], [null], [null, null, null]];
  // The same columns every run.
  const rng = Rng.of(7, 0, 0, 0);
  const next = () => rng.float();
  for (const n of [1, 2, 9, 10, 11, 40, 999, 1000, 1001, 2500]) {
    for (const distinctShare of [0, 0.01, 0.2, 0.45, 0.5, 0.55, 0.85, 0.9, 0.95, 1]) {
      for (const nullShare of [0, 0.3]) {
        const distinct = Math.max(1, Math.round(n * distinctShare));
        out.push(Array.from({ length: n }, (_, i) => (next() < nullShare ? null : value(i < distinct ? i : Math.floor(next() * distinct), next))));
      }
    }
  }
  // Exactly 90 % distinct in a sample of 10 (9 of 10): not more than 90 %, so the rule goes on to build.
  out.push([0, 1, 2, 3, 4, 5, 6, 7, 8, 0].map((id) => value(id, next)));
  return out;
}

describe('dictionaryOf decides as hyparquet-writer’s useDictionary', () => {
  it('numbers: the same entries in the same order, the same indexes, or none', () => {
    let kept = 0;
    for (const column of columns((id) => (id === 1 ? -0 : id * 1.5))) {
      const expected = writerDictionary(column, 'DOUBLE');
      expect(asWriterDictionary(column, numbers(column))).toEqual(expected);
      if (expected.dictionary) kept++;
    }
    // Both outcomes are exercised, many times each.
    expect(kept).toBeGreaterThan(20);
  });

  it('strings as bytes and as codes: the same, lengths and non-ASCII weighed as the writer weighs them', () => {
    const shapes = ['ethereum', 'é', '😀', 'x'.repeat(40), 'arbitrum-one', '✓✓'];
    let kept = 0;
    for (const column of columns((id) => `${shapes[id % shapes.length]}${id}`)) {
      const expected = writerDictionary(column, 'BYTE_ARRAY');
      expect(asWriterDictionary(column, text(column))).toEqual(expected);
      expect(asWriterDictionary(column, coded(column))).toEqual(expected);
      if (expected.dictionary) kept++;
    }
    expect(kept).toBeGreaterThan(20);
  });

  it('a sample exactly 90 % distinct is not rejected: a column that then pays keeps its dictionary', () => {
    // 10,000 values: the 1,000 sampled hold 900 distinct (all of one length, so 90 % by bytes too), the rest one value.
    const n = 10_000;
    const sampled = new Set(Array.from({ length: 1000 }, (_, i) => Math.floor((i * (n - 1)) / 999)));
    let k = 0;
    const ids = Array.from({ length: n }, (_, i) => (sampled.has(i) ? k++ % 900 : 999));
    const strings = ids.map((id) => `v${String(id).padStart(3, '0')}`);
    const expected = writerDictionary(strings, 'BYTE_ARRAY');
    expect(expected.dictionary).toHaveLength(901);
    for (const form of [text, coded]) expect(asWriterDictionary(strings, form(strings))).toEqual(expected);
    const amounts = ids.map((id) => id + 0.5);
    expect(writerDictionary(amounts, 'DOUBLE').dictionary).toHaveLength(901);
    expect(asWriterDictionary(amounts, numbers(amounts))).toEqual(writerDictionary(amounts, 'DOUBLE'));
  });

  it('a sample more than 90 % distinct rejects the dictionary, even where the whole column would pay for one', () => {
    // 10,000 values: the 1,000 sampled all distinct, the rest one value (a dictionary of 1,001 would halve the bytes).
    const n = 10_000;
    const sampled = new Set(Array.from({ length: 1000 }, (_, i) => Math.floor((i * (n - 1)) / 999)));
    let k = 0;
    const ids = Array.from({ length: n }, (_, i) => (sampled.has(i) ? k++ : 9999));
    const strings = ids.map((id) => `v${String(id).padStart(4, '0')}`);
    expect(writerDictionary(strings, 'BYTE_ARRAY')).toEqual({});
    for (const form of [text, coded]) expect(dictionaryOf(form(strings))).toBeUndefined();
    const amounts = ids.map((id) => id + 0.5);
    expect(writerDictionary(amounts, 'DOUBLE')).toEqual({});
    expect(dictionaryOf(numbers(amounts))).toBeUndefined();
  });

  it('empty strings are values (not nulls) and nulls are not values, in the sample and in the column', () => {
    const empty = Array.from({ length: 100 }, () => '');
    for (const form of [text, coded]) expect(asWriterDictionary(empty, form(empty))).toEqual(writerDictionary(empty, 'BYTE_ARRAY'));
    expect(writerDictionary(empty, 'BYTE_ARRAY').dictionary).toEqual(['']);
    // 95 % nulls: the sample's few values are one, so a dictionary of one entry is kept.
    const sparse = Array.from({ length: 2000 }, (_, i) => (i % 20 === 0 ? 7.25 : null));
    expect(writerDictionary(sparse, 'DOUBLE').dictionary).toEqual([7.25]);
    expect(asWriterDictionary(sparse, numbers(sparse))).toEqual(writerDictionary(sparse, 'DOUBLE'));
    const sparseStrings = sparse.map((v) => (v === null ? null : 'base'));
    for (const form of [text, coded]) expect(asWriterDictionary(sparseStrings, form(sparseStrings))).toEqual(writerDictionary(sparseStrings, 'BYTE_ARRAY'));
  });

  it('a column of one short value and a few long ones: the sample weighs bytes, not values', () => {
    // 2 distinct of 1,000 values, but the long one holds most of the bytes: over 90 % distinct by size.
    const column = Array.from({ length: 1000 }, (_, i) => (i === 500 ? 'y'.repeat(100_000) : 'a'));
    expect(writerDictionary(column, 'BYTE_ARRAY')).toEqual({});
    for (const form of [text, coded]) expect(dictionaryOf(form(column))).toBeUndefined();
    const repeated = Array.from({ length: 1000 }, (_, i) => (i % 2 ? 'y'.repeat(1000) : 'a'));
    for (const form of [text, coded]) expect(dictionaryOf(form(repeated))?.dictionary).toEqual([0, 1]);
  });
});

describe('statistics', () => {
  it('INT64: min and max as bigints, nulls counted, no NaN count', () => {
    expect(statistics(numbers([5, null, -3, 1_795_000_000_123_456, null]), INT64)).toEqual({
      min_value: -3n,
      max_value: 1_795_000_000_123_456n,
      null_count: 2n,
    });
    expect(statistics(numbers([null, null]), INT64)).toEqual({ min_value: undefined, max_value: undefined, null_count: 2n });
  });

  it('DOUBLE: signed zero as the spec asks (a min of 0 is -0, a max of -0 is 0), NaN count 0', () => {
    const zeros = statistics(numbers([0, -0]), DOUBLE);
    expect(Object.is(zeros.min_value, -0)).toBe(true);
    expect(Object.is(zeros.max_value, 0)).toBe(true);
    expect(statistics(numbers([2.5, null, -1.25, 7]), DOUBLE)).toEqual({ min_value: -1.25, max_value: 7, null_count: 1n, nan_count: 0n });
    // The first value the min, then the max.
    expect(statistics(numbers([1, 5, 3]), DOUBLE)).toEqual({ min_value: 1, max_value: 5, null_count: 0n, nan_count: 0n });
    expect(statistics(numbers([9, 1, 5]), INT64)).toEqual({ min_value: 1n, max_value: 9n, null_count: 0n });
    const negative = statistics(numbers([-0, -2]), DOUBLE);
    expect([negative.min_value, Object.is(negative.max_value, 0)]).toEqual([-2, true]);
    expect(statistics(numbers([]), DOUBLE)).toEqual({ min_value: undefined, max_value: undefined, null_count: 0n, nan_count: 0n });
  });

  it('strings in UTF-8 byte order (code point order, not UTF-16 order), in each form', () => {
    // UTF-16 puts 😀 (a surrogate pair, 0xD83D…) before U+FFFF; UTF-8 (and the Parquet spec) after it.
    const values = ['b', null, '\uFFFF', '😀', 'a', '', 'ab'];
    for (const form of [text, coded]) {
      expect(statistics(form(values), STRING)).toEqual({ min_value: '', max_value: '😀', null_count: 1n });
      expect(statistics(form(['b', 'a', 'c', 'a']), STRING)).toEqual({ min_value: 'a', max_value: 'c', null_count: 0n });
      expect(statistics(form(['a', 'c', 'b']), STRING)).toEqual({ min_value: 'a', max_value: 'c', null_count: 0n });
      expect(statistics(form(['c', 'a', 'b']), STRING)).toEqual({ min_value: 'a', max_value: 'c', null_count: 0n });
      expect(statistics(form(['😀', '\uFFFF']), STRING)).toEqual({ min_value: '\uFFFF', max_value: '😀', null_count: 0n });
      expect(statistics(form([null]), STRING)).toEqual({ min_value: undefined, max_value: undefined, null_count: 1n });
    }
  });

  it('of the values at the given positions only (a dictionary’s entries), with the column’s nulls given', () => {
    const values = ['m', null, 'z', 'a', 'q'];
    for (const form of [text, coded]) expect(statistics(form(values), STRING, [0, 4], 3)).toEqual({ min_value: 'm', max_value: 'q', null_count: 3n });
    expect(statistics(numbers([9, null, 1, 5]), DOUBLE, [3, 0], 1)).toEqual({ min_value: 5, max_value: 9, null_count: 1n, nan_count: 0n });
    expect(statistics(numbers([9, 1, 5]), INT64, [], 4)).toEqual({ min_value: undefined, max_value: undefined, null_count: 4n });
  });
});

describe('nulls and lengths', () => {
  it('isNull: NaN, a -1 code, a -1 length', () => {
    expect([0, 1, 2].map((i) => isNull(numbers([1, null, 0]), i))).toEqual([false, true, false]);
    for (const form of [text, coded]) expect([0, 1, 2].map((i) => isNull(form(['a', null, '']), i))).toEqual([false, true, false]);
  });

  it('byteLength: UTF-8 bytes, in each form; isCoded tells the forms apart', () => {
    const values = ['a', 'é ✓', '', '😀'];
    for (const form of [text, coded]) expect(values.map((_, i) => byteLength(form(values), i))).toEqual([1, 6, 0, 4]);
    expect([isCoded(text(values)), isCoded(coded(values))]).toEqual([false, true]);
  });
});
