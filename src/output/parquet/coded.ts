/**
 * The repetitive string columns of a Parquet export (chains, tokens, bridges, contracts) as CodedValues: a
 * number per value into a StringTable of the column's distinct values, so that a row group's dictionary page
 * is a renumbering of those numbers, not a dictionary built from strings again (text.ts has the other form).
 */
import { grown, TextBuilder, type TextValues } from './text.js';

/**
 * A string's slot in a StringTable: its length and eight of its characters, spread from end to end (an
 * address or a hash differs in any of them, a name in its length or its letters). Not the whole string:
 * V8's own hash for a Map key reads every character of each new string JSON.parse makes, and most of a
 * table's lookups are of such strings (measured: the lookups of a day took about half the time). Equal
 * strings always land on the same slot; which slot only changes how far a lookup probes.
 */
export function slotHash(value: string): number {
  const n = value.length;
  let h = Math.imul(n, 0x9e3779b1);
  if (n > 0) {
    const step = n >> 3;
    for (let i = n - 1, k = 0; k < 8; k++, i -= step + 1) {
      h = Math.imul(h ^ value.charCodeAt(i < 0 ? 0 : i), 0x01000193);
    }
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/** A lookup probes this many taken slots at most before its table turns to a Map. */
const MAX_PROBES = 32;

/** The distinct strings of a column, each numbered once, with its UTF-8 bytes. */
export class StringTable {
  readonly strings: string[] = [];
  /** each string's length in UTF-16 units (what hyparquet-writer's dictionary rule counts) */
  readonly units: number[] = [];
  readonly utf8: Buffer[] = [];
  /** open addressing: each slot a string's number, -1 for none; at most half full */
  private slots = new Int32Array(64).fill(-1);

  get size(): number {
    return this.strings.length;
  }

  /** Set when strings kept landing on the same slots: from then on the table looks up through V8's own hash. */
  private index: Map<string, number> | undefined;

  code(value: string): number {
    if (this.index) return this.codeByMap(value, this.index);
    const { slots, strings } = this;
    const mask = slots.length - 1;
    let at = slotHash(value) & mask;
    for (let probes = 0; ; probes++) {
      const id = slots[at]!;
      if (id < 0) break;
      if (strings[id] === value) return id;
      // Strings alike in every character sampled: a Map, rather than a probe past each of them.
      if (probes === MAX_PROBES) {
        this.index = new Map(strings.map((string, i) => [string, i]));
        return this.codeByMap(value, this.index);
      }
      at = (at + 1) & mask;
    }
    slots[at] = this.add(value);
    if (2 * strings.length > mask) this.rehash(2 * slots.length);
    return strings.length - 1;
  }

  private codeByMap(value: string, index: Map<string, number>): number {
    let id = index.get(value);
    if (id === undefined) {
      id = this.add(value);
      index.set(value, id);
    }
    return id;
  }

  private add(value: string): number {
    this.strings.push(value);
    this.units.push(value.length);
    this.utf8.push(Buffer.from(value));
    return this.strings.length - 1;
  }

  private rehash(size: number): void {
    const slots = new Int32Array(size).fill(-1);
    const mask = size - 1;
    const { strings } = this;
    for (let id = 0; id < strings.length; id++) {
      let at = slotHash(strings[id]!) & mask;
      while (slots[at]! >= 0) at = (at + 1) & mask;
      slots[at] = id;
    }
    this.slots = slots;
  }
}

/** Value i is table entry ids[i], or null where ids[i] is -1. */
export interface CodedValues {
  readonly length: number;
  readonly table: StringTable;
  readonly ids: Int32Array;
}

/**
 * A table of distinct values grows with them: past this many, a column's next windows start a new table,
 * and the old one goes once no waiting window refers to it. Measured: with 65,536, a 10-day export's address
 * lists (3,600 new addresses a day) held 18 MB more at its end than a day's export; with 4,096 a table lasts
 * about a day of them, and a row group that mixes two tables is written from bytes (concatCoded), the same bytes.
 */
const TABLE_LIMIT = 4096;

/** A column's current table, shared by the windows that code into it. */
export class StringTables {
  private current = new StringTable();
  constructor(private readonly limit = TABLE_LIMIT) {}
  table(): StringTable {
    if (this.current.size > this.limit) this.current = new StringTable();
    return this.current;
  }
}

/** Strings coded one at a time into a table. */
export class CodedBuilder {
  private ids: Int32Array = new Int32Array(64);
  private count = 0;
  constructor(private readonly table: StringTable) {}

  push(value: string | null): void {
    this.ids = grown(this.ids, this.count + 1);
    this.ids[this.count++] = value === null ? -1 : this.table.code(value);
  }

  /** The values so far, in `order` (indexes of pushed values) if given. */
  build(order?: ArrayLike<number>): CodedValues {
    const { table, ids, count } = this;
    if (!order) return { length: count, table, ids: ids.slice(0, count) };
    const out = new Int32Array(order.length);
    for (let i = 0; i < order.length; i++) out[i] = ids[order[i]!]!;
    return { length: order.length, table, ids: out };
  }
}

/** The runs one after another, as one: coded if they share a table, else as bytes. */
export function concatCoded(parts: readonly CodedValues[]): CodedValues | TextValues {
  if (parts.length === 1) return parts[0]!;
  const { table } = parts[0]!;
  let length = 0;
  for (const part of parts) length += part.length;
  if (parts.every((part) => part.table === table)) {
    const ids = new Int32Array(length);
    let at = 0;
    for (const part of parts) {
      ids.set(part.ids, at);
      at += part.length;
    }
    return { length, table, ids };
  }
  const text = new TextBuilder();
  for (const { ids, table: own } of parts) for (let i = 0; i < ids.length; i++) text.push(ids[i]! < 0 ? null : own.strings[ids[i]!]!);
  return text.build();
}

/**
 * The tables of distinct strings that the windows of one file code their repetitive columns into, by column
 * (a list's leaf as `field.leaf`): the hashes and a tag's value, near unique, are kept as bytes instead.
 */
export type ColumnTables = ReadonlyMap<string, StringTables>;

/** Strings as bytes (near-unique columns) or as codes into the column's table (repetitive ones). */
export function stringBuilder(tables: StringTables | undefined): TextBuilder | CodedBuilder {
  return tables ? new CodedBuilder(tables.table()) : new TextBuilder();
}
