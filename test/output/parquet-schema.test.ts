/**
 * The Parquet schema of a swap export (src/output/parquet/schema.ts), element by element as the file's footer
 * holds it: what DuckDB, pyarrow and Spark read the types from. And which columns keep statistics and may take
 * a dictionary.
 */
import { describe, expect, it } from 'vitest';
import { LIST_SWAP_FIELDS } from '../../src/api/types.js';
import { HASHES, keepsStatistics, PARQUET_FIELDS, parquetKind, parquetSchema, plainOnly } from '../../src/output/parquet/schema.js';

const TEXT = { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' };

describe('parquetSchema', () => {
  it('each kind of field, element by element', () => {
    expect(parquetSchema(['id', 'completedAt', 'depositAmount', 'sourceOtherProtocolAddresses', 'tags'])).toEqual([
      { name: 'root', num_children: 5 },
      { name: 'id', ...TEXT },
      {
        name: 'completedAt',
        type: 'INT64',
        repetition_type: 'OPTIONAL',
        converted_type: 'TIMESTAMP_MICROS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      },
      { name: 'depositAmount', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
      { name: 'sourceOtherProtocolAddresses', repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', ...TEXT },
      { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
      { name: 'type', ...TEXT },
      { name: 'value', ...TEXT },
    ]);
  });

  it('every list-export field has a column (balanceChanges none); a field without one is refused by name', () => {
    expect(PARQUET_FIELDS).toEqual(LIST_SWAP_FIELDS);
    expect(PARQUET_FIELDS).not.toContain('balanceChanges');
    expect(parquetSchema(PARQUET_FIELDS)[0]).toEqual({ name: 'root', num_children: PARQUET_FIELDS.length });
    expect(() => parquetSchema(['id', 'balanceChanges'])).toThrow(new RangeError("no Parquet column for field 'balanceChanges'"));
    expect(parquetSchema([])).toEqual([{ name: 'root', num_children: 0 }]);
  });

  it('kinds: the six times, the four amounts, the two address lists, the tags; any other field a string', () => {
    const kinds = Object.fromEntries(PARQUET_FIELDS.map((field) => [field, parquetKind(field)]));
    const of = (kind: string) =>
      Object.keys(kinds)
        .filter((field) => kinds[field] === kind)
        .sort();
    expect(of('timestamp')).toEqual(['completedAt', 'depositedAt', 'detectedAt', 'timestamp', 'updatedAt', 'withdrawnAt']);
    expect(of('double')).toEqual(['depositAmount', 'depositUsdAmount', 'withdrawnAmount', 'withdrawnUsdAmount']);
    expect(of('strings')).toEqual(['destinationOtherProtocolAddresses', 'sourceOtherProtocolAddresses']);
    expect(of('tags')).toEqual(['tags']);
    expect(parquetKind('aFieldTheApiAddsLater')).toBe('string');
  });
});

describe('per column', () => {
  it('statistics: times, amounts and the categorical strings; not hashes, addresses, contracts, lists or tags', () => {
    expect(PARQUET_FIELDS.filter(keepsStatistics)).toEqual([
      ...['timestamp', 'depositedAt', 'withdrawnAt', 'detectedAt', 'completedAt', 'updatedAt'],
      ...['bridge', 'bridgeKey', 'sourceChain', 'destinationChain', 'protocolKey', 'sourceToken', 'destinationToken'],
      ...['depositAmount', 'withdrawnAmount', 'depositUsdAmount', 'withdrawnUsdAmount', 'usdMismatchStatus'],
    ]);
  });

  it('plain only (no dictionary): the times and the hashes', () => {
    expect(PARQUET_FIELDS.filter(plainOnly).sort()).toEqual(
      [...HASHES, 'completedAt', 'depositedAt', 'detectedAt', 'timestamp', 'updatedAt', 'withdrawnAt'].filter((f) => PARQUET_FIELDS.includes(f)).sort(),
    );
    expect([...HASHES].sort()).toEqual(['destinationAccount', 'destinationTransaction', 'id', 'intermediateSwapId', 'sourceAccount', 'sourceTransaction']);
  });
});
