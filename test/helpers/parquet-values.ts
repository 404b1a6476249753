/**
 * A flat Parquet column's values in each form the writer holds them (src/output/parquet/chunk-values.ts), for
 * the tests of the modules that read them: numbers (NaN for a null), strings as bytes, strings as codes.
 */
import { CodedBuilder, type CodedValues, StringTable } from '../../src/output/parquet/coded.js';
import { TextBuilder, textAt, type TextValues } from '../../src/output/parquet/text.js';

export const INT64 = { name: 'completedAt', type: 'INT64' } as const;
export const DOUBLE = { name: 'amountUsd', type: 'DOUBLE' } as const;
export const STRING = { name: 'sourceChain', type: 'BYTE_ARRAY' } as const;

/** Numbers as a column holds them: NaN for a null. */
export const numbers = (values: readonly (number | null)[]) => Float64Array.from(values, (v) => (v === null ? Number.NaN : v));

/** Strings as bytes (text.ts), in the order given (each position's number in the push order), by default pushed. */
export function text(values: readonly (string | null)[], order?: number[]): TextValues {
  const builder = new TextBuilder();
  for (const v of values) builder.push(v);
  return builder.build(order);
}

/** Strings as codes into `table`, by default one of their own (coded.ts), in the order given as text's. */
export function coded(values: readonly (string | null)[], table = new StringTable(), order?: number[]): CodedValues {
  const builder = new CodedBuilder(table);
  for (const v of values) builder.push(v);
  return builder.build(order);
}

/** Strings read back from either form, null where there is none. */
export function stringsOf(values: TextValues | CodedValues): (string | null)[] {
  return Array.from({ length: values.length }, (_, i) =>
    'table' in values ? (values.ids[i]! < 0 ? null : values.table.strings[values.ids[i]!]!) : textAt(values, i),
  );
}
