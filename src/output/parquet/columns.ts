/**
 * Swaps taken into Parquet columns one at a time, as a window's swaps are parsed, so that a parsed swap is
 * garbage at once and what waits for its row group holds no JS string per value: times and amounts as
 * typed arrays, strings as bytes or as codes into a table of distinct values (parquet-text.ts), lists as
 * Dremel levels and leaves. Measured (docs/parquet.md): rows kept as parsed objects, then as strings, were
 * copied through V8's young generation and promoted, a quarter of a Parquet export's CPU.
 */
import type { FlatValues } from './chunk.js';
import { HASHES, KINDS } from './schema.js';
import { asText, CodedBuilder, type CodedValues, concatCoded, concatText, grown, StringTables, TextBuilder, type TextValues } from './text.js';
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

/** Strings as bytes (near-unique columns) or as codes into the column's table (repetitive ones). */
function stringsOf(tables: StringTables | undefined): TextBuilder | CodedBuilder {
  return tables ? new CodedBuilder(tables.table()) : new TextBuilder();
}

/** A leaf of a list column: a value per slot (null below the maximum definition level) and its definition levels. */
export interface ListLeaf {
  name: string;
  values: Strings;
  definition: Uint8Array;
}

/**
 * A list column as Dremel levels (as hyparquet-writer's encodeNestedValues makes them): list<string> has
 * one leaf, `element` (definition 0 a null list, 1 an empty one, 2 a null element, 3 a value);
 * list<struct<type, value>> two, `type` and `value` (0 null list, 1 empty, 3 a null field, 4 a value;
 * 2, a null tag, never occurs: a tag is its two fields, a null tag two nulls). Repetition is 0 at a
 * row's first slot, 1 after.
 */
export interface ListValues {
  rows: number;
  repetition: Uint8Array;
  maxDefinition: number;
  leaves: ListLeaf[];
}

class ListBuilder {
  private readonly names: readonly string[];
  private readonly values: (TextBuilder | CodedBuilder)[];
  private readonly maxDefinition: number;
  private definitions: Uint8Array[];
  private repetition: Uint8Array = new Uint8Array(64);
  /** the first slot of each row */
  private starts = new Int32Array(64);
  private slots = 0;
  private rows = 0;

  constructor(
    private readonly tags: boolean,
    field: string,
    tables: ColumnTables,
  ) {
    this.names = tags ? ['type', 'value'] : ['element'];
    this.values = this.names.map((name) => stringsOf(tables.get(`${field}.${name}`)));
    this.definitions = this.names.map(() => new Uint8Array(64));
    this.maxDefinition = tags ? 4 : 3;
  }

  private slot(repetition: number): number {
    const at = this.slots++;
    // The levels grow together (capacity checked here, not by a call per value).
    if (at === this.repetition.length) {
      this.repetition = grown(this.repetition, at + 1);
      for (let k = 0; k < this.definitions.length; k++) this.definitions[k] = grown(this.definitions[k]!, at + 1);
    }
    this.repetition[at] = repetition;
    return at;
  }

  push(value: unknown): void {
    if (this.rows === this.starts.length) this.starts = grown(this.starts, this.rows + 1);
    this.starts[this.rows++] = this.slots;
    const { names, values, definitions, maxDefinition, tags } = this;
    const list = Array.isArray(value) ? value : undefined;
    if (!list || list.length === 0) {
      const at = this.slot(0);
      for (let k = 0; k < names.length; k++) {
        definitions[k]![at] = list ? 1 : 0;
        values[k]!.push(null);
      }
      return;
    }
    for (let j = 0; j < list.length; j++) {
      const at = this.slot(j > 0 ? 1 : 0);
      const item = list[j];
      for (let k = 0; k < names.length; k++) {
        // A tag is its two fields: a null tag, or one without a field, has nulls there.
        const v = asText(tags ? (item === null || item === undefined ? null : (item as Row)[names[k]!]) : item);
        definitions[k]![at] = v === null ? maxDefinition - 1 : maxDefinition;
        values[k]!.push(v);
      }
    }
  }

  build(order?: ArrayLike<number>): ListValues {
    const { names, values, maxDefinition, slots, rows, starts } = this;
    let slotOrder: Int32Array | undefined;
    if (order) {
      slotOrder = new Int32Array(slots);
      let n = 0;
      for (let r = 0; r < order.length; r++) {
        const row = order[r]!;
        const end = row + 1 < rows ? starts[row + 1]! : slots;
        for (let at = starts[row]!; at < end; at++) slotOrder[n++] = at;
      }
      slotOrder = slotOrder.subarray(0, n);
    }
    // Loops, not Uint8Array.from(order, map): that iterates, allocating a result per value.
    const pick = (levels: Uint8Array) => {
      if (!slotOrder) return levels.slice(0, slots);
      const out = new Uint8Array(slotOrder.length);
      for (let i = 0; i < slotOrder.length; i++) out[i] = levels[slotOrder[i]!]!;
      return out;
    };
    return {
      rows: order ? order.length : rows,
      repetition: pick(this.repetition),
      maxDefinition,
      leaves: names.map((name, k) => ({ name, values: values[k]!.build(slotOrder), definition: pick(this.definitions[k]!) })),
    };
  }
}

type Builder = NumberBuilder | TextBuilder | CodedBuilder | ListBuilder;

/**
 * The tables of distinct strings that the windows of one file code their repetitive columns into, by column
 * (a list's leaf as `field.leaf`): the hashes and a tag's value, near unique, are kept as bytes instead.
 */
export type ColumnTables = ReadonlyMap<string, StringTables>;

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
        const strings = stringsOf(tables.get(field));
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

function concatStrings(parts: readonly Strings[]): Strings {
  if (parts.length === 1) return parts[0]!;
  if (parts.every((part) => 'table' in part)) return concatCoded(parts as CodedValues[]);
  return concatText(parts as TextValues[]);
}

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
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
  if ('leaves' in first) {
    const lists = parts as ListValues[];
    return {
      rows: lists.reduce((sum, list) => sum + list.rows, 0),
      repetition: concatBytes(lists.map((list) => list.repetition)),
      maxDefinition: first.maxDefinition,
      leaves: first.leaves.map((leaf, k) => ({
        name: leaf.name,
        values: concatStrings(lists.map((list) => list.leaves[k]!.values)),
        definition: concatBytes(lists.map((list) => list.leaves[k]!.definition)),
      })),
    };
  }
  return concatStrings(parts as Strings[]);
}
