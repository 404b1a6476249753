/**
 * Swaps taken into Parquet columns (src/output/parquet/columns.ts): which string columns are coded into tables
 * (the repetitive ones) and which kept as bytes (the hashes), each kind's values and nulls, a wrong amount
 * refused by name, rows in a given order, and runs joined. The file's bytes are the same either way; what
 * changes is how much a window holds while it waits, which these tests pin.
 */
import { describe, expect, it } from 'vitest';
import type { CodedValues } from '../../src/output/parquet/coded.js';
import { type ColumnBatch, ColumnCollector, columnTables, concatColumn, toColumns } from '../../src/output/parquet/columns.js';
import type { ListValues } from '../../src/output/parquet/lists.js';
import { HASHES, PARQUET_FIELDS } from '../../src/output/parquet/schema.js';
import type { TextValues } from '../../src/output/parquet/text.js';
import { stringsOf } from '../helpers/parquet-values.js';

describe('columnTables', () => {
  it('a table for each repetitive string column and list leaf; none for hashes, times, amounts or tag values', () => {
    const tables = columnTables(PARQUET_FIELDS);
    const expected = [
      ...PARQUET_FIELDS.filter((field) => !HASHES.has(field) && !/At$|^timestamp$|Amount$|OtherProtocolAddresses$|^tags$/.test(field)),
      'sourceOtherProtocolAddresses.element',
      'destinationOtherProtocolAddresses.element',
      'tags.type',
    ];
    expect([...tables.keys()].sort()).toEqual(expected.sort());
    expect(tables.has('sourceChain') && tables.has('sourceTokenContract') && !tables.has('id') && !tables.has('tags.value')).toBe(true);
    expect(columnTables([])).toEqual(new Map());
  });

  it('each table turns over past the limit given', () => {
    const tables = columnTables(['bridge'], 1).get('bridge')!;
    const first = tables.table();
    first.code('a');
    expect(tables.table()).toBe(first);
    first.code('b');
    expect(tables.table()).not.toBe(first);
  });
});

describe('ColumnCollector', () => {
  const FIELDS = ['id', 'bridge', 'completedAt', 'depositAmount', 'sourceOtherProtocolAddresses', 'tags'];
  const rows = [
    {
      id: '0xa',
      bridge: 'b1',
      completedAt: '2026-11-02T00:00:00.5Z',
      depositAmount: 1.5,
      sourceOtherProtocolAddresses: ['x'],
      tags: [{ type: 'nft', value: 'v' }],
    },
    { id: null, bridge: undefined, completedAt: null, depositAmount: null, sourceOtherProtocolAddresses: null, tags: [] },
    {},
  ];

  it('each kind of column, a null or a missing field as null; strings coded where the column has a table', () => {
    const { rows: count, columns } = toColumns(FIELDS, rows);
    expect(count).toBe(3);
    const [id, bridge, completedAt, amount, addresses, tags] = columns as [TextValues, CodedValues, Float64Array, Float64Array, ListValues, ListValues];
    expect(['table' in id, 'table' in bridge]).toEqual([false, true]);
    expect([stringsOf(id), stringsOf(bridge)]).toEqual([
      ['0xa', null, null],
      ['b1', null, null],
    ]);
    expect([...completedAt]).toEqual([Date.parse('2026-11-02T00:00:00Z') * 1000 + 500_000, Number.NaN, Number.NaN]);
    expect([...amount]).toEqual([1.5, Number.NaN, Number.NaN]);
    expect([addresses.rows, tags.rows, 'table' in addresses.leaves[0]!.values, 'table' in tags.leaves[1]!.values]).toEqual([3, 3, true, false]);
    expect([stringsOf(addresses.leaves[0]!.values), [...addresses.leaves[0]!.definition]]).toEqual([
      ['x', null, null],
      [3, 0, 0],
    ]);
    expect(tags.leaves.map((leaf) => [stringsOf(leaf.values), [...leaf.definition]])).toEqual([
      [
        ['nft', null, null],
        [4, 1, 0],
      ],
      [
        ['v', null, null],
        [4, 1, 0],
      ],
    ]);
  });

  it('an amount that is not a number is refused, naming the field and the value', () => {
    const collector = new ColumnCollector(['withdrawnAmount']);
    expect(() => collector.add({ withdrawnAmount: '12.5' })).toThrow(new RangeError('withdrawnAmount: not a number: "12.5"'));
  });

  it('rows in a given order, past the first room of 64', () => {
    const many = Array.from({ length: 150 }, (_, i) => ({
      id: `0x${i}`,
      bridge: `b${i % 3}`,
      completedAt: new Date(Date.UTC(2026, 10, 2, 0, i)).toISOString(),
      depositAmount: i,
    }));
    const fields = ['id', 'bridge', 'completedAt', 'depositAmount'];
    const collector = new ColumnCollector(fields);
    for (const row of many) expect(collector.add(row)).toBe(many.indexOf(row));
    const order = many.map((_, i) => many.length - 1 - i);
    const batch = collector.batch(order);
    const direct = toColumns(
      fields,
      order.map((i) => many[i]!),
    );
    expect(batch.rows).toBe(150);
    expect(stringsOf(batch.columns[0] as TextValues)).toEqual(stringsOf(direct.columns[0] as TextValues));
    expect(stringsOf(batch.columns[1] as CodedValues)).toEqual(stringsOf(direct.columns[1] as CodedValues));
    expect([...(batch.columns[2] as Float64Array)]).toEqual([...(direct.columns[2] as Float64Array)]);
    expect([...(batch.columns[3] as Float64Array)]).toEqual(order);
  });
});

describe('concatColumn', () => {
  it('column i of the batches as one run, for every kind; one batch is its own column', () => {
    const fields = ['id', 'bridge', 'completedAt', 'tags'];
    const a = toColumns(fields, [{ id: '0xa', bridge: 'x', completedAt: '2026-11-02T00:00:00Z', tags: [] }]);
    const b = toColumns(fields, [{ id: '0xb', bridge: 'y', completedAt: null, tags: null }]);
    const both: ColumnBatch[] = [a, b];
    expect(stringsOf(concatColumn(both, 0) as TextValues)).toEqual(['0xa', '0xb']);
    expect(stringsOf(concatColumn(both, 1) as CodedValues)).toEqual(['x', 'y']);
    expect([...(concatColumn(both, 2) as Float64Array)]).toEqual([Date.parse('2026-11-02T00:00:00Z') * 1000, Number.NaN]);
    expect((concatColumn(both, 3) as ListValues).rows).toBe(2);
    for (let i = 0; i < fields.length; i++) expect(concatColumn([a], i)).toBe(a.columns[i]);
  });
});
