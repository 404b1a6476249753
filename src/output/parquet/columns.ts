/**
 * Swaps taken into Parquet columns one at a time, as a window's swaps are parsed, so that a parsed swap is
 * garbage at once and what waits for its row group holds no JS string per value: times and amounts as
 * typed arrays, strings as bytes or as codes into a table of distinct values (text.ts, coded.ts), lists as
 * Dremel levels and leaves. Measured (docs/parquet.md): rows kept as parsed objects, then as strings, were
 * copied through V8's young generation and promoted, a quarter of a Parquet export's CPU.
 */
import type { FlatValues } from './chunk-values.js';
import { HASHES, KINDS } from './schema.js';
import { CodedBuilder, type CodedValues, type ColumnTables, StringTables, stringBuilder } from './coded.js';
import { concatLists, concatStrings, ListBuilder, type ListValues } from './lists.js';
import { asText, grown, type TextBuilder, type TextValues } from './text.js';
import { timeMicrosInto } from './time.js';

type Row = Record<string, unknown>;
type Strings = TextValues | CodedValues;

/** Numbers appended one at a time (a time as microseconds, an amount), NaN for a null. */
abstract class NumberBuilder {
  protected values = new Float64Array(64);
  protected count = 0;

  abstract push(value: unknown): void;

  build(order?: ArrayLike<number>): Float64Array {
    if (!order) return this.values.slice(0, this.count);
    const out = new Float64Array(order.length);
    for (let i = 0; i < order.length; i++) out[i] = this.values[order[i]!]!;
    return out;
  }
}

/** Times as microseconds, parsed straight into the column. */
class TimeBuilder extends NumberBuilder {
  push(value: unknown): void {
    if (this.count === this.values.length) this.values = grown(this.values, this.count + 1);
    if (value === null || value === undefined) this.values[this.count] = Number.NaN;
    else timeMicrosInto(value as string, this.values, this.count);
    this.count++;
  }
}

class AmountBuilder extends NumberBuilder {
  constructor(private readonly field: string) {
    super();
  }

  push(value: unknown): void {
    if (this.count === this.values.length) this.values = grown(this.values, this.count + 1);
    // JSON has no NaN, so NaN can stand for a null.
    if (value === null || value === undefined) this.values[this.count] = Number.NaN;
    else if (typeof value === 'number') this.values[this.count] = value;
    else throw new RangeError(`${this.field}: not a number: ${JSON.stringify(value)}`);
    this.count++;
  }
}

type Builder = NumberBuilder | TextBuilder | CodedBuilder | ListBuilder;

/** `limit`: distinct values a table takes before the next windows start a new one (tests make it small). */
export function columnTables(fields: readonly string[], limit?: number): ColumnTables {
  const coded: string[] = [];
  for (const field of fields) {
    const kind = KINDS[field] ?? 'string';
    if (kind === 'string' && !HASHES.has(field)) coded.push(field);
    else if (kind === 'strings') coded.push(`${field}.element`);
    else if (kind === 'tags') coded.push(`${field}.type`);
  }
  return new Map(coded.map((column) => [column, new StringTables(limit)]));
}

export type ColumnValues = FlatValues | ListValues;

/** Rows as column values, one per field: what a window is kept as while it waits for its row group. */
export interface ColumnBatch {
  rows: number;
  columns: ColumnValues[];
}

/**
 * A window's rows taken into columns one at a time, as its swaps arrive: add() returns the row's number;
 * batch() hands the columns over in the order given (the window's sorted order) and spends the collector.
 */
export class ColumnCollector {
  /** each field's builder, in the fields' order */
  private readonly builders: Builder[] = [];
  // The same builders by kind, each kind with its fields: add() calls each kind's push at a call site of its own.
  private readonly times: TimeBuilder[] = [];
  private readonly timeFields: string[] = [];
  private readonly amounts: AmountBuilder[] = [];
  private readonly amountFields: string[] = [];
  private readonly texts: TextBuilder[] = [];
  private readonly textFields: string[] = [];
  private readonly coded: CodedBuilder[] = [];
  private readonly codedFields: string[] = [];
  private readonly lists: ListBuilder[] = [];
  private readonly listFields: string[] = [];
  private count = 0;

  /** `tables`: shared by the windows of one file (columnTables), so their row groups need no new dictionary keys. */
  constructor(fields: readonly string[], tables: ColumnTables = columnTables(fields)) {
    for (const field of fields) {
      const kind = KINDS[field] ?? 'string';
      let builder: Builder;
      if (kind === 'timestamp') {
        const times = new TimeBuilder();
        this.times.push(times);
        this.timeFields.push(field);
        builder = times;
      } else if (kind === 'double') {
        const amounts = new AmountBuilder(field);
        this.amounts.push(amounts);
        this.amountFields.push(field);
        builder = amounts;
      } else if (kind === 'string') {
        const strings = stringBuilder(tables.get(field));
        if (strings instanceof CodedBuilder) {
          this.coded.push(strings);
          this.codedFields.push(field);
        } else {
          this.texts.push(strings);
          this.textFields.push(field);
        }
        builder = strings;
      } else {
        const list = new ListBuilder(kind === 'tags', field, tables);
        this.lists.push(list);
        this.listFields.push(field);
        builder = list;
      }
      this.builders.push(builder);
    }
  }

  add(row: Row): number {
    const { times, timeFields, amounts, amountFields, texts, textFields, coded, codedFields, lists, listFields } = this;
    for (let i = 0; i < times.length; i++) times[i]!.push(row[timeFields[i]!]);
    for (let i = 0; i < amounts.length; i++) amounts[i]!.push(row[amountFields[i]!]);
    for (let i = 0; i < texts.length; i++) texts[i]!.push(asText(row[textFields[i]!]));
    for (let i = 0; i < coded.length; i++) coded[i]!.push(asText(row[codedFields[i]!]));
    for (let i = 0; i < lists.length; i++) lists[i]!.push(row[listFields[i]!]);
    return this.count++;
  }

  batch(order?: ArrayLike<number>): ColumnBatch {
    return { rows: order ? order.length : this.count, columns: this.builders.map((builder) => builder.build(order)) };
  }
}

export function toColumns(fields: readonly string[], rows: readonly Row[]): ColumnBatch {
  const collector = new ColumnCollector(fields);
  for (const row of rows) collector.add(row);
  return collector.batch();
}

/** Column `i` of the batches as one run of values. */
export function concatColumn(batches: readonly ColumnBatch[], i: number): ColumnValues {
  const parts = batches.map((batch) => batch.columns[i]!);
  const first = parts[0]!;
  if (parts.length === 1) return first;
  if (first instanceof Float64Array) {
    const out = new Float64Array(parts.reduce((sum, part) => sum + (part as Float64Array).length, 0));
    let at = 0;
    for (const part of parts as Float64Array[]) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
  if ('leaves' in first) return concatLists(parts as ListValues[]);
  return concatStrings(parts as Strings[]);
}
