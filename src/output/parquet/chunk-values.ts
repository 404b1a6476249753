/**
 * What a flat column's values say of themselves, for its chunk (chunk.ts): which are null, their statistics
 * (min, max, nulls) and whether a dictionary pays, by hyparquet-writer's own rules.
 */
import type { SchemaElement } from 'hyparquet';
import { bytesStart, type CodedValues, type FastBuffer, type TextValues, textAt } from './text.js';

/**
 * A flat column's values. Times are microseconds since the epoch and amounts numbers, NaN for a null
 * (JSON has no NaN); strings are UTF-8 bytes or codes into a table of distinct strings (text.ts).
 */
export type FlatValues = Float64Array | TextValues | CodedValues;
type Strings = TextValues | CodedValues;

export const isCoded = (values: Strings): values is CodedValues => 'table' in values;

export function isNull(values: FlatValues, i: number): boolean {
  if (values instanceof Float64Array) return Number.isNaN(values[i]!);
  return isCoded(values) ? values.ids[i]! < 0 : values.units[i]! < 0;
}

/** The UTF-8 length of string i (not null). */
export function byteLength(values: Strings, i: number): number {
  return isCoded(values) ? values.table.utf8[values.ids[i]!]!.length : values.ends[i]! - bytesStart(values, i);
}

/** Strings i and j (not null) in UTF-8 byte order (code point order), as the writer orders string statistics. */
function compareStrings(values: Strings, i: number, j: number): number {
  if (isCoded(values)) {
    const { ids, table } = values;
    return ids[i] === ids[j] ? 0 : Buffer.compare(table.utf8[ids[i]!]!, table.utf8[ids[j]!]!);
  }
  const { bytes, ends } = values;
  return bytes.compare(bytes, bytesStart(values, j), ends[j]!, bytesStart(values, i), ends[i]!);
}

function stringAt(values: Strings, i: number): string {
  return isCoded(values) ? values.table.strings[values.ids[i]!]! : textAt(values, i)!;
}

interface Statistics {
  min_value?: string | number | bigint;
  max_value?: string | number | bigint;
  null_count: bigint;
  nan_count?: bigint;
}

/**
 * Min, max and nulls of the values, or only of those at `positions` (a dictionary's entries, never null:
 * then `knownNulls` is the column's count).
 */
export function statistics(values: FlatValues, element: SchemaElement, positions?: readonly number[], knownNulls?: number): Statistics {
  let nulls = knownNulls ?? 0;
  const count = positions ? positions.length : values.length;
  let min = -1;
  let max = -1;
  if (values instanceof Float64Array) {
    for (let k = 0; k < count; k++) {
      const i = positions ? positions[k]! : k;
      const v = values[i]!;
      if (Number.isNaN(v)) nulls += 1;
      else {
        if (min < 0 || v < values[min]!) min = i;
        if (max < 0 || v > values[max]!) max = i;
      }
    }
    const low = min < 0 ? undefined : values[min]!;
    const high = max < 0 ? undefined : values[max]!;
    if (element.type === 'INT64') {
      return { min_value: low === undefined ? undefined : BigInt(low), max_value: high === undefined ? undefined : BigInt(high), null_count: BigInt(nulls) };
    }
    // Signed zero as the spec asks: a min of 0 is -0, a max of -0 is 0.
    return { min_value: low === 0 ? -0 : low, max_value: high === 0 ? 0 : high, null_count: BigInt(nulls), nan_count: 0n };
  }
  for (let k = 0; k < count; k++) {
    const i = positions ? positions[k]! : k;
    if (isNull(values, i)) nulls += 1;
    else {
      if (min < 0 || compareStrings(values, i, min) < 0) min = i;
      if (max < 0 || compareStrings(values, i, max) > 0) max = i;
    }
  }
  return { min_value: min < 0 ? undefined : stringAt(values, min), max_value: max < 0 ? undefined : stringAt(values, max), null_count: BigInt(nulls) };
}

interface Dictionary {
  /** the position in the column of each entry's first occurrence */
  dictionary: number[];
  /** each value's entry, -1 for a null */
  indexes: Int32Array;
  nulls: number;
}

/**
 * The writer's dictionary rule (hyparquet-writer useDictionary, for strings and numbers): rejected when a
 * sample of 1,000 spread over the column is more than 90 % distinct by bytes; else built, and kept only
 * if the dictionary and its indexes at most halve the plain bytes. A string's size here is its length in
 * UTF-16 units, as the writer counts it.
 */
export function dictionaryOf(values: FlatValues): Dictionary | undefined {
  const n = values.length;
  const strings = !(values instanceof Float64Array);
  const prefix = strings ? 4 : 0;
  // Values are told apart by a key: a coded string's number, a string's bytes read as Latin-1 (one JS
  // character per byte, so equal keys are equal bytes), a number itself.
  let key: (i: number) => string | number;
  let size: (i: number) => number;
  if (values instanceof Float64Array) {
    key = (i) => values[i]!;
    size = () => 8;
  } else if (isCoded(values)) {
    const { ids, table } = values;
    key = (i) => ids[i]!;
    size = (i) => table.units[ids[i]!]!;
  } else {
    const text = values;
    key = (i) => (text.bytes as FastBuffer).latin1Slice(bytesStart(text, i), text.ends[i]!);
    size = (i) => text.units[i]!;
  }
  const sampleSize = Math.min(n, 1000);
  const sampleAt = (i: number) => (sampleSize === 1 ? 0 : Math.floor((i * (n - 1)) / (sampleSize - 1)));
  let sampleDictionary = 0;
  let sampleTotal = 0;
  if (values instanceof Float64Array) {
    // Every number is 8 bytes: the share is distinct values over values, counted in a sorted copy (a Set boxes each number).
    const sample = new Float64Array(sampleSize);
    let count = 0;
    for (let i = 0; i < sampleSize; i++) if (!Number.isNaN(values[sampleAt(i)]!)) sample[count++] = values[sampleAt(i)]!;
    const sorted = sample.subarray(0, count).sort();
    for (let i = 0; i < count; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sampleDictionary += 8;
    sampleTotal = 8 * count;
  } else {
    const seen = new Set<string | number>();
    for (let i = 0; i < sampleSize; i++) {
      const at = sampleAt(i);
      if (isNull(values, at)) continue;
      const v = key(at);
      const bytes = size(at) + prefix;
      if (!seen.has(v)) {
        seen.add(v);
        sampleDictionary += bytes;
      }
      sampleTotal += bytes;
    }
  }
  if (!sampleTotal || sampleDictionary / sampleTotal > 0.9) return undefined;
  const dictionary: number[] = [];
  const indexes = new Int32Array(n).fill(-1);
  let dictionaryBytes = 0;
  let total = 0;
  let nonNull = 0;
  if (strings && isCoded(values)) {
    // Renumbering the table's numbers in order of first appearance: no key to build, no map to look up.
    const { ids, table } = values;
    const entry = new Int32Array(table.size).fill(-1);
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      if (id < 0) continue;
      nonNull++;
      const units = table.units[id]!;
      total += units;
      let at = entry[id]!;
      if (at < 0) {
        at = dictionary.length;
        entry[id] = at;
        dictionary.push(i);
        dictionaryBytes += units;
      }
      indexes[i] = at;
    }
  } else {
    const index = new Map<string | number, number>();
    for (let i = 0; i < n; i++) {
      if (isNull(values, i)) continue;
      const v = key(i);
      nonNull++;
      total += size(i);
      let at = index.get(v);
      if (at === undefined) {
        at = dictionary.length;
        dictionary.push(i);
        index.set(v, at);
        dictionaryBytes += size(i);
      }
      indexes[i] = at;
    }
  }
  const bitWidth = Math.ceil(Math.log2(dictionary.length));
  const indexBytes = Math.ceil((nonNull * bitWidth) / 8);
  if (2 * (dictionaryBytes + dictionary.length * prefix + indexBytes) > total + nonNull * prefix) return undefined;
  return { dictionary, indexes, nulls: n - nonNull };
}
