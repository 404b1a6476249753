/**
 * What a flat column's values say of themselves, for its chunk (chunk.ts): which are null, their statistics
 * (min, max, nulls) and whether a dictionary pays, by hyparquet-writer's own rules.
 */
import type { SchemaElement } from 'hyparquet';
import type { CodedValues } from './coded.js';
import { bytesStart, type FastBuffer, type TextValues, textAt } from './text.js';

/**
 * A flat column's values. Times are microseconds since the epoch and amounts numbers, NaN for a null
 * (JSON has no NaN); strings are UTF-8 bytes (text.ts) or codes into a table of distinct strings (coded.ts).
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
    // No value: min and max stay -1, and values[-1] is undefined.
    const low = values[min];
    const high = values[max];
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

/** Spread over the column: the positions hyparquet-writer's useDictionary samples. */
const SAMPLE = 1000;
const sampleAt = (i: number, n: number, sampleSize: number) => (sampleSize === 1 ? 0 : Math.floor((i * (n - 1)) / (sampleSize - 1)));

/** Kept only if the dictionary and its indexes at most halve the plain bytes. */
function pays(entries: number, dictionaryBytes: number, total: number, nonNull: number, prefix: number): boolean {
  const bitWidth = Math.ceil(Math.log2(entries));
  const indexBytes = Math.ceil((nonNull * bitWidth) / 8);
  return 2 * (dictionaryBytes + entries * prefix + indexBytes) <= total + nonNull * prefix;
}

/**
 * The writer's dictionary rule (hyparquet-writer useDictionary, for strings and numbers): rejected when a
 * sample of 1,000 spread over the column is more than 90 % distinct by bytes; else built, and kept only
 * if the dictionary and its indexes at most halve the plain bytes. A string's size here is its length in
 * UTF-16 units, as the writer counts it. One function per form of values, so that each stays monomorphic.
 */
export function dictionaryOf(values: FlatValues): Dictionary | undefined {
  if (values instanceof Float64Array) return numberDictionary(values);
  return isCoded(values) ? codedDictionary(values) : textDictionary(values);
}

/** Coded strings: a renumbering of the table's numbers in order of first appearance, no key to build, no map to look up. */
function codedDictionary(values: CodedValues): Dictionary | undefined {
  const n = values.length;
  const { ids, table } = values;
  const units = table.units;
  // -2: seen in the sample; then each table entry's dictionary entry, -1 for none yet.
  const entry = new Int32Array(table.size);
  const sampleSize = Math.min(n, SAMPLE);
  let sampleDictionary = 0;
  let sampleTotal = 0;
  for (let i = 0; i < sampleSize; i++) {
    const id = ids[sampleAt(i, n, sampleSize)]!;
    if (id < 0) continue;
    const bytes = units[id]! + 4;
    if (entry[id] !== -2) {
      entry[id] = -2;
      sampleDictionary += bytes;
    }
    sampleTotal += bytes;
  }
  if (!sampleTotal || sampleDictionary / sampleTotal > 0.9) return undefined;
  entry.fill(-1);
  const dictionary: number[] = [];
  const indexes = new Int32Array(n).fill(-1);
  let dictionaryBytes = 0;
  let total = 0;
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    if (id < 0) continue;
    nonNull++;
    const size = units[id]!;
    total += size;
    let at = entry[id]!;
    if (at < 0) {
      at = dictionary.length;
      entry[id] = at;
      dictionary.push(i);
      dictionaryBytes += size;
    }
    indexes[i] = at;
  }
  return pays(dictionary.length, dictionaryBytes, total, nonNull, 4) ? { dictionary, indexes, nulls: n - nonNull } : undefined;
}

/** Strings held as bytes: told apart by their bytes read as Latin-1 (one JS character per byte, so equal keys are equal bytes). */
function textDictionary(values: TextValues): Dictionary | undefined {
  const n = values.length;
  const { bytes, ends, units } = values;
  const key = (i: number) => (bytes as FastBuffer).latin1Slice(bytesStart(values, i), ends[i]!);
  const sampleSize = Math.min(n, SAMPLE);
  let sampleDictionary = 0;
  let sampleTotal = 0;
  const seen = new Set<string>();
  for (let i = 0; i < sampleSize; i++) {
    const at = sampleAt(i, n, sampleSize);
    if (units[at]! < 0) continue;
    const v = key(at);
    const size = units[at]! + 4;
    if (!seen.has(v)) {
      seen.add(v);
      sampleDictionary += size;
    }
    sampleTotal += size;
  }
  if (!sampleTotal || sampleDictionary / sampleTotal > 0.9) return undefined;
  const dictionary: number[] = [];
  const indexes = new Int32Array(n).fill(-1);
  const index = new Map<string, number>();
  let dictionaryBytes = 0;
  let total = 0;
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    const size = units[i]!;
    if (size < 0) continue;
    const v = key(i);
    nonNull++;
    total += size;
    let at = index.get(v);
    if (at === undefined) {
      at = dictionary.length;
      dictionary.push(i);
      index.set(v, at);
      dictionaryBytes += size;
    }
    indexes[i] = at;
  }
  return pays(dictionary.length, dictionaryBytes, total, nonNull, 4) ? { dictionary, indexes, nulls: n - nonNull } : undefined;
}

/** Numbers, 8 bytes each: the sample's share is its distinct values over its values, counted in a sorted copy (a Set boxes each number). */
function numberDictionary(values: Float64Array): Dictionary | undefined {
  const n = values.length;
  const sampleSize = Math.min(n, SAMPLE);
  const sample = new Float64Array(sampleSize);
  let count = 0;
  for (let i = 0; i < sampleSize; i++) {
    const v = values[sampleAt(i, n, sampleSize)]!;
    if (!Number.isNaN(v)) sample[count++] = v;
  }
  const sorted = sample.subarray(0, count).sort();
  let sampleDictionary = 0;
  for (let i = 0; i < count; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sampleDictionary += 8;
  const sampleTotal = 8 * count;
  if (!sampleTotal || sampleDictionary / sampleTotal > 0.9) return undefined;
  const dictionary: number[] = [];
  const indexes = new Int32Array(n).fill(-1);
  const index = new Map<number, number>();
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    nonNull++;
    let at = index.get(v);
    if (at === undefined) {
      at = dictionary.length;
      dictionary.push(i);
      index.set(v, at);
    }
    indexes[i] = at;
  }
  return pays(dictionary.length, 8 * dictionary.length, 8 * nonNull, nonNull, 0) ? { dictionary, indexes, nulls: n - nonNull } : undefined;
}
