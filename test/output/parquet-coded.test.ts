/**
 * The repetitive string columns as codes (src/output/parquet/coded.ts): the slot hash reads a string's length and
 * characters from end to end, a column's tables turn over past their limit, coded runs stay coded only while
 * they share a table, and a builder codes values in any order.
 */
import { describe, expect, it } from 'vitest';
import { CodedBuilder, concatCoded, slotHash, StringTable, StringTables, stringBuilder } from '../../src/output/parquet/coded.js';
import { TextBuilder, textAt, type TextValues } from '../../src/output/parquet/text.js';
import { expectEqual } from '../helpers/equal.js';
import { coded, stringsOf } from '../helpers/parquet-values.js';

/** How many distinct hashes the strings have. */
const distinct = (strings: readonly string[]) => new Set(strings.map(slotHash)).size;

describe('slotHash', () => {
  // A 42-character address: its first and last characters and six spread between them are read.
  const address = (at: number, c: string) => {
    const base = `0x${'5'.repeat(40)}`;
    return `${base.slice(0, at)}${c}${base.slice(at + 1)}`;
  };
  const HEX = [...'0123456789abcdef'];

  it('tells strings apart by their last character, their first, and one sampled between', () => {
    for (const at of [41, 0, 35, 5]) expect(distinct(HEX.map((c) => address(at, c))), `position ${at}`).toBe(16);
  });

  it('tells strings apart by their length, and short strings by their characters', () => {
    expect(distinct(['', 'a', 'aa', 'aaa', 'aaaa'])).toBe(5);
    expect(distinct([...'abcdefgh'])).toBe(8);
    expect(distinct(['ab', 'ba', 'aa', 'bb'])).toBe(4);
  });
});

describe('StringTable', () => {
  /** Each string coded once, then each again: the same number, and no string numbered twice. */
  function expectNumberedOnce(table: StringTable, strings: readonly string[]): void {
    const ids = strings.map((s) => table.code(s));
    expect(ids).toEqual(strings.map((_, i) => i));
    expect([...strings].reverse().map((s) => table.code(s))).toEqual([...ids].reverse());
    expect(table.size).toBe(strings.length);
    expect(table.strings).toEqual(strings);
    expectEqual(
      table.units,
      strings.map((s) => s.length),
    );
    expectEqual(
      table.utf8,
      strings.map((s) => Buffer.from(s)),
    );
  }

  it('numbers each distinct string once, in order of first appearance, through every growth of its slots', () => {
    const strings = Array.from({ length: 5000 }, (_, i) => `0x${(i * 2_654_435_761).toString(16)}`);
    expect(distinct(strings)).toBe(5000);
    expectNumberedOnce(new StringTable(), strings);
  });

  it('finds both strings of one slot after each growth: the first, and one that lands on it in every table size', () => {
    // A string whose slot is the first one's in every table up to 65,536 slots.
    const first = 'ethereum';
    const low = slotHash(first) & 0xffff;
    let other = 0;
    while ((slotHash(`chain ${other}`) & 0xffff) !== low) other++;
    // Strings that differ in the characters sampled, so that the table keeps to its slots (no Map).
    const more = Array.from({ length: 300 }, (_, i) => `0x${(((i + 1) * 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}`);
    expect(distinct(more)).toBe(300);
    expectNumberedOnce(new StringTable(), [first, `chain ${other}`, ...more]);
  });

  it('strings alike in every character sampled (one slot for all) are still numbered once each', () => {
    // 100 characters: the sampled ones (the last, then every 13th back) are 'x'; the others tell them apart.
    const alike = Array.from({ length: 80 }, (_, k) =>
      Array.from({ length: 100 }, (_, i) => ((99 - i) % 13 === 0 ? 'x' : String.fromCharCode(97 + ((k >> (i % 7)) & 1)))).join(''),
    );
    expect(distinct(alike)).toBe(1);
    expect(new Set(alike).size).toBe(80);
    expectNumberedOnce(new StringTable(), [...alike, 'other', `${alike[0]}!`]);
  });
});

describe('StringTables', () => {
  it('gives the same table until it holds more than its limit, then a new one', () => {
    const tables = new StringTables(2);
    const first = tables.table();
    first.code('a');
    first.code('b');
    expect(tables.table()).toBe(first);
    first.code('c');
    const second = tables.table();
    expect(second).not.toBe(first);
    expect(second.size).toBe(0);
    expect(tables.table()).toBe(second);
  });
});

describe('CodedBuilder and concatCoded', () => {
  it('codes each value into its table, a null as -1, in the order given', () => {
    const table = new StringTable();
    const values = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? null : `v${i % 7}`));
    const built = coded(values, table);
    expect(built.length).toBe(100);
    expect([built.table === table, stringsOf(built)]).toEqual([true, values]);
    const ordered = coded(['a', null, 'b'], new StringTable(), [2, 0, 1]);
    expect(stringsOf(ordered)).toEqual(['b', 'a', null]);
    expect(ordered.ids).toHaveLength(3);
  });

  it('runs of one table stay codes; runs of two tables become bytes; one run is itself', () => {
    const table = new StringTable();
    const a = coded(['x', null, 'y'], table);
    const b = coded(['y', 'z'], table);
    const joined = concatCoded([a, b]);
    expect('table' in joined && joined.table).toBe(table);
    expect([...(joined as { ids: Int32Array }).ids]).toEqual([0, -1, 1, 1, 2]);
    expect(concatCoded([a])).toBe(a);

    const other = coded(['w', null]);
    const mixed = concatCoded([a, other]) as TextValues;
    expect('table' in mixed).toBe(false);
    expect(Array.from({ length: mixed.length }, (_, i) => textAt(mixed, i))).toEqual(['x', null, 'y', 'w', null]);
  });
});

describe('stringBuilder', () => {
  it('strings as bytes without tables, as codes into the current table with them', () => {
    expect(stringBuilder(undefined)).toBeInstanceOf(TextBuilder);
    const tables = new StringTables();
    const builder = stringBuilder(tables);
    expect(builder).toBeInstanceOf(CodedBuilder);
    builder.push('base');
    expect(tables.table().strings).toEqual(['base']);
  });
});
