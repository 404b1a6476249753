/**
 * The list columns of a Parquet export (src/output/parquet/lists.ts) as Dremel levels and leaves: a null list,
 * an empty one, null elements and tags, rows in a given order (as rows fed in that order would be), strings as
 * codes where the column has tables, and runs put one after another.
 */
import { describe, expect, it } from 'vitest';
import { StringTable, StringTables } from '../../src/output/parquet/coded.js';
import { concatLists, concatStrings, ListBuilder, type ListValues } from '../../src/output/parquet/lists.js';
import { coded, stringsOf, text } from '../helpers/parquet-values.js';

const NO_TABLES = new Map<string, StringTables>();

/** A list column read back: rows, levels and each leaf's strings. */
function read(list: ListValues) {
  return {
    rows: list.rows,
    repetition: [...list.repetition],
    maxDefinition: list.maxDefinition,
    leaves: list.leaves.map((leaf) => ({ name: leaf.name, definition: [...leaf.definition], values: stringsOf(leaf.values) })),
  };
}

function built(tags: boolean, rows: readonly unknown[], order?: number[], tables = NO_TABLES): ListValues {
  const builder = new ListBuilder(tags, tags ? 'tags' : 'sourceOtherProtocolAddresses', tables);
  for (const row of rows) builder.push(row);
  return builder.build(order);
}

describe('ListBuilder', () => {
  it('list<string>: a null list 0, an empty one 1, a null element 2, a value 3; repetition 1 after a row’s first slot', () => {
    expect(read(built(false, [null, [], ['a', null, 'b'], 'not a list', ['c']]))).toEqual({
      rows: 5,
      repetition: [0, 0, 0, 1, 1, 0, 0],
      maxDefinition: 3,
      leaves: [{ name: 'element', definition: [0, 1, 3, 2, 3, 0, 3], values: [null, null, 'a', null, 'b', null, 'c'] }],
    });
  });

  it('list<struct<type, value>>: a tag is its two fields, a null tag (or a missing field) nulls there', () => {
    const tags = [[{ type: 'nft', value: 'x' }, null, { type: 'agg-affiliate' }, undefined, { type: 'chain-nonce', value: 7 }], [], null];
    expect(read(built(true, tags))).toEqual({
      rows: 3,
      repetition: [0, 1, 1, 1, 1, 0, 0],
      maxDefinition: 4,
      leaves: [
        { name: 'type', definition: [4, 3, 4, 3, 4, 1, 0], values: ['nft', null, 'agg-affiliate', null, 'chain-nonce', null, null] },
        { name: 'value', definition: [4, 3, 3, 3, 4, 1, 0], values: ['x', null, null, null, '7', null, null] },
      ],
    });
  });

  it('rows in a given order are the rows fed in that order, past the first room of rows and of slots', () => {
    const rows = Array.from({ length: 300 }, (_, i) => (i % 11 === 0 ? null : Array.from({ length: i % 4 }, (_, j) => (j === 1 ? null : `${i}.${j}`))));
    const order = rows.map((_, i) => (i * 7) % rows.length);
    expect(new Set(order).size).toBe(rows.length);
    expect(read(built(false, rows, order))).toEqual(
      read(
        built(
          false,
          order.map((i) => rows[i]),
        ),
      ),
    );
    // A part of the rows, and none.
    expect(read(built(false, rows, [5, 2]))).toEqual(read(built(false, [rows[5], rows[2]])));
    expect(read(built(false, rows, []))).toEqual({ rows: 0, repetition: [], maxDefinition: 3, leaves: [{ name: 'element', definition: [], values: [] }] });
    // The last row, which ends at the last slot.
    expect(read(built(false, rows, [299]))).toEqual(read(built(false, [rows[299]])));
  });

  it('strings as codes into the tables of the leaf’s column (`field.leaf`), as bytes where it has none', () => {
    const tables = new Map([['tags.type', new StringTables()]]);
    const list = built(true, [[{ type: 'nft', value: 'x' }]], undefined, tables);
    expect(list.leaves.map((leaf) => 'table' in leaf.values)).toEqual([true, false]);
    expect(tables.get('tags.type')!.table().strings).toEqual(['nft']);
  });
});

describe('concatLists and concatStrings', () => {
  it('runs one after another: rows summed, levels and leaves joined', () => {
    const a = built(false, [['a'], null]);
    const b = built(false, [[], ['b', 'c']]);
    const c = built(false, [['d']]);
    expect(read(concatLists([a, b, c]))).toEqual(read(built(false, [['a'], null, [], ['b', 'c'], ['d']])));
    expect(read(concatLists([a]))).toEqual(read(a));
  });

  it('one run is itself; runs of codes stay codes (of one table) or become bytes (of two); runs of bytes are bytes', () => {
    const table = new StringTable();
    const x = coded(['a', null], table);
    expect(concatStrings([x])).toBe(x);
    const same = concatStrings([x, coded(['b'], table)]);
    expect(['table' in same, stringsOf(same)]).toEqual([true, ['a', null, 'b']]);
    const two = concatStrings([x, coded(['c'], new StringTable())]);
    expect(['table' in two, stringsOf(two)]).toEqual([false, ['a', null, 'c']]);
    const bytes = concatStrings([text(['d', null]), text(['e'])]);
    expect(['table' in bytes, stringsOf(bytes)]).toEqual([false, ['d', null, 'e']]);
    const levels = new Uint8Array([1, 2]);
    const list = { rows: 1, repetition: levels, maxDefinition: 3, leaves: [{ name: 'element', values: x, definition: levels }] };
    expect(concatLists([list]).repetition).toBe(levels);
  });
});
