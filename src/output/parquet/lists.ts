/**
 * The list columns of a Parquet export (the address lists and the tags) as Dremel levels and leaves, built a
 * row at a time as the swaps arrive (columns.ts takes the flat columns).
 */
import { type CodedBuilder, type CodedValues, type ColumnTables, concatCoded, stringBuilder } from './coded.js';
import { asText, concatText, grown, type TextBuilder, type TextValues } from './text.js';

type Row = Record<string, unknown>;
type Strings = TextValues | CodedValues;

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

export class ListBuilder {
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
    this.values = this.names.map((name) => stringBuilder(tables.get(`${field}.${name}`)));
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

/** The lists of several batches one after another, as one. */
export function concatLists(lists: readonly ListValues[]): ListValues {
  const first = lists[0]!;
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

/** A column's runs, all of one form (the column's tables, or none, choose its builder). */
export function concatStrings(parts: readonly Strings[]): Strings {
  if ('table' in parts[0]!) return concatCoded(parts as CodedValues[]);
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
