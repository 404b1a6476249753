/**
 * The Parquet schema of a swap export: how each field is typed (the spec's types), and per column whether
 * it keeps statistics and may take a dictionary.
 */
import type { SchemaElement } from 'hyparquet-writer';
import { LIST_SWAP_FIELDS } from '../../api/types.js';

export type Kind = 'string' | 'timestamp' | 'double' | 'strings' | 'tags';

/** How each list-export field is typed in Parquet (the spec's types, section 2.1). */
export const KINDS: Record<string, Kind> = {
  timestamp: 'timestamp',
  depositedAt: 'timestamp',
  withdrawnAt: 'timestamp',
  detectedAt: 'timestamp',
  completedAt: 'timestamp',
  updatedAt: 'timestamp',
  sourceOtherProtocolAddresses: 'strings',
  destinationOtherProtocolAddresses: 'strings',
  depositAmount: 'double',
  withdrawnAmount: 'double',
  depositUsdAmount: 'double',
  withdrawnUsdAmount: 'double',
  tags: 'tags',
};

/** How `field` is typed in a Parquet file (a field not listed is a string). */
export function parquetKind(field: string): Kind {
  return KINDS[field] ?? 'string';
}

/** The fields a Parquet file can hold: those of a list export. */
export const PARQUET_FIELDS: readonly string[] = LIST_SWAP_FIELDS;

function text(name: string): SchemaElement {
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' };
}

function listOf(name: string, element: SchemaElement[]): SchemaElement[] {
  return [
    { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', logical_type: { type: 'LIST' }, num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    ...element,
  ];
}

function columnSchema(field: string): SchemaElement[] {
  switch (KINDS[field] ?? 'string') {
    case 'string':
      return [text(field)];
    case 'timestamp':
      return [
        {
          name: field,
          type: 'INT64',
          repetition_type: 'OPTIONAL',
          converted_type: 'TIMESTAMP_MICROS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
        },
      ];
    case 'double':
      return [{ name: field, type: 'DOUBLE', repetition_type: 'OPTIONAL' }];
    case 'strings':
      return listOf(field, [text('element')]);
    case 'tags':
      return listOf(field, [{ name: 'element', repetition_type: 'OPTIONAL', num_children: 2 }, text('type'), text('value')]);
  }
}

export function parquetSchema(fields: readonly string[]): SchemaElement[] {
  for (const field of fields) if (!PARQUET_FIELDS.includes(field)) throw new RangeError(`no Parquet column for field '${field}'`);
  return [{ name: 'root', num_children: fields.length }, ...fields.flatMap(columnSchema)];
}

const NO_STATISTICS = /Address|Contract|InteractedWith/;
/** Near-unique text: kept as bytes, never a dictionary, no statistics. */
export const HASHES = new Set(['id', 'intermediateSwapId', 'sourceTransaction', 'destinationTransaction', 'sourceAccount', 'destinationAccount']);

/** Min and max of addresses and lists prune nothing a query asks; only times, amounts and the categorical strings keep statistics. */
export function keepsStatistics(name: string): boolean {
  return !NO_STATISTICS.test(name) && !HASHES.has(name) && KINDS[name] !== 'strings' && KINDS[name] !== 'tags';
}

/**
 * Near unique: times (DELTA_BINARY_PACKED was 5 % smaller as a file but cost a quarter of the writer's
 * CPU) and the hashes, whose dictionary never pays.
 */
export function plainOnly(name: string): boolean {
  return KINDS[name] === 'timestamp' || HASHES.has(name);
}
