/**
 * Checks one canonical swap element (json-elements.ts) on its bytes, without
 * JSON.parse: the JSON grammar, the shape shape.ts asks for, no key twice.
 * When it vouches for an element, JSON.parse and checkSwap would accept it
 * and JSON.stringify would write it back byte for byte, so a JSON Lines
 * export writes the bytes and never builds the object. Anything it is not
 * sure of (an odd date form, a nested object it cannot vouch for) makes it
 * answer undefined, and the caller takes the ordinary way, with the
 * ordinary errors.
 */
import { SWAP_CHECKS, type Kind } from './shape.js';
import { fastUtcBytes } from '../util/time.js';

/** What the export needs of a swap it has not parsed. */
export interface Scanned {
  /** the id as sent; null when null, undefined when absent */
  id: string | null | undefined;
  /** the text of the asked-for date field; undefined when absent */
  time: string | undefined;
}

const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;

interface Field {
  name: Buffer;
  kind: Kind;
  required: boolean;
  index: number;
}

// balanceChanges is not among the list's fields, but a swap may carry it: an array of objects.
const FIELDS: Field[] = [...SWAP_CHECKS, { field: 'balanceChanges', kind: 'changes!' as Kind, optional: true }].map(({ field, kind, optional }, index) => ({
  name: Buffer.from(field),
  kind,
  required: !optional,
  index,
}));
const REQUIRED = FIELDS.filter((f) => f.required).length;
const ID = FIELDS.findIndex((f) => f.name.toString() === 'id');

function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + bytes[i]!) | 0;
  return h;
}

const BY_HASH = new Map<number, Field>(FIELDS.map((f) => [hashOf(f.name, 0, f.name.length), f]));
const INDEX = new Map(FIELDS.map((f) => [f.name.toString(), f.index]));

function sameBytes(bytes: Buffer, start: number, end: number, name: Buffer): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name[i]) return false;
  return true;
}

/**
 * The end of the string starting at `at` (its opening quote), past the closing quote. A canonical element
 * holds no escape and no control byte (the split checked), so the next quote closes it.
 */
function stringEnd(bytes: Buffer, at: number, end: number): number {
  const close = bytes.indexOf(QUOTE, at + 1);
  return close < 0 || close >= end ? -1 : close + 1;
}

function literal(bytes: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return -1;
  return at + text.length;
}

/** The end of a JSON number at `at`, by the grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?; -1 when it is not one. */
function numberEnd(bytes: Buffer, at: number): number {
  let i = at;
  const digit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
  if (bytes[i] === 0x2d) i++;
  if (bytes[i] === 0x30) i++;
  else if (digit(bytes[i]) && bytes[i] !== 0x30) while (digit(bytes[i])) i++;
  else return -1;
  if (bytes[i] === 0x2e) {
    i++;
    if (!digit(bytes[i])) return -1;
    while (digit(bytes[i])) i++;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
    if (!digit(bytes[i])) return -1;
    while (digit(bytes[i])) i++;
  }
  return i;
}

/** The end of any JSON value at `at`; -1 when it is not one, or holds an object with a key twice. */
function valueEnd(bytes: Buffer, at: number, end: number, depth: number): number {
  const c = bytes[at];
  if (c === QUOTE) return stringEnd(bytes, at, end);
  if (c === 0x6e) return literal(bytes, at, 'null');
  if (c === 0x74) return literal(bytes, at, 'true');
  if (c === 0x66) return literal(bytes, at, 'false');
  if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return numberEnd(bytes, at);
  if (depth > 64) return -1;
  if (c === 0x5b) {
    let i = at + 1;
    if (bytes[i] === 0x5d) return i + 1;
    for (;;) {
      i = valueEnd(bytes, i, end, depth + 1);
      if (i < 0 || i >= end) return -1;
      if (bytes[i] === 0x5d) return i + 1;
      if (bytes[i] !== COMMA) return -1;
      i++;
    }
  }
  if (c === 0x7b) {
    let i = at + 1;
    if (bytes[i] === 0x7d) return i + 1;
    const keys = new Set<string>();
    for (;;) {
      if (bytes[i] !== QUOTE) return -1;
      const keyEnd = stringEnd(bytes, i, end);
      if (keyEnd < 0 || bytes[keyEnd] !== COLON) return -1;
      const key = bytes.toString('utf8', i + 1, keyEnd - 1);
      if (keys.has(key)) return -1;
      keys.add(key);
      i = valueEnd(bytes, keyEnd + 1, end, depth + 1);
      if (i < 0 || i >= end) return -1;
      if (bytes[i] === 0x7d) return i + 1;
      if (bytes[i] !== COMMA) return -1;
      i++;
    }
  }
  return -1;
}

/** Whether the value at [at, valueEnd) is of `kind`, as shape.ts's `fits` judges it. */
function fits(bytes: Buffer, kind: Kind, at: number, to: number): boolean {
  const c = bytes[at];
  const isNull = c === 0x6e;
  switch (kind) {
    case 'string':
      return c === QUOTE;
    case 'string?':
      return c === QUOTE || isNull;
    case 'date':
      return c === QUOTE && fastUtcBytes(bytes, at + 1, to - 1) !== undefined;
    case 'number?':
      // Canonical numbers are finite: the split compared each with how JavaScript writes its value.
      return isNull || c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39);
    case 'strings?':
      return isNull || (c === 0x5b && every(bytes, at, to, (v) => bytes[v] === QUOTE));
    case 'tags?':
      return isNull || (c === 0x5b && every(bytes, at, to, (v) => bytes[v] === 0x7b));
    case 'changes!':
      return c === 0x5b && every(bytes, at, to, (v) => bytes[v] === 0x7b);
  }
}

/** Whether every item of the (valid) array at [at, to) starts as `test` wants. */
function every(bytes: Buffer, at: number, to: number, test: (start: number) => boolean): boolean {
  let i = at + 1;
  if (bytes[i] === 0x5d) return true;
  for (;;) {
    if (!test(i)) return false;
    i = valueEnd(bytes, i, to, 1);
    if (bytes[i] === 0x5d) return true;
    i++;
  }
}

/**
 * Checks the canonical element bytes[start, end) as a swap; what the export needs of it, or undefined
 * when the ordinary way must decide. `timeField`: the date field whose text to return.
 */
export function scanSwap(bytes: Buffer, start: number, end: number, timeField: string): Scanned | undefined {
  const timeIndex = INDEX.get(timeField) ?? -1;
  const seen = new Uint8Array(FIELDS.length);
  let required = 0;
  let id: string | null | undefined;
  let time: string | undefined;
  let unknown: Set<string> | undefined;
  let i = start + 1;
  if (bytes[i] === 0x7d) return REQUIRED === 0 ? { id, time } : undefined;
  for (;;) {
    if (bytes[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(bytes, i, end);
    if (keyEnd < 0 || bytes[keyEnd] !== COLON) return undefined;
    const valueStart = keyEnd + 1;
    const valueStop = valueEnd(bytes, valueStart, end, 1);
    if (valueStop < 0 || valueStop >= end) return undefined;
    const field = BY_HASH.get(hashOf(bytes, i + 1, keyEnd - 1));
    if (field !== undefined && sameBytes(bytes, i + 1, keyEnd - 1, field.name)) {
      if (seen[field.index] === 1) return undefined;
      seen[field.index] = 1;
      if (field.required) required++;
      if (!fits(bytes, field.kind, valueStart, valueStop)) return undefined;
      if (field.index === ID) id = bytes[valueStart] === QUOTE ? bytes.toString('utf8', valueStart + 1, valueStop - 1) : null;
      else if (field.index === timeIndex) time = bytes.toString('latin1', valueStart + 1, valueStop - 1);
    } else {
      const key = bytes.toString('utf8', i + 1, keyEnd - 1);
      unknown ??= new Set();
      if (unknown.has(key)) return undefined;
      unknown.add(key);
    }
    i = valueStop;
    if (bytes[i] === 0x7d) return i + 1 === end && required === REQUIRED ? { id, time } : undefined;
    if (bytes[i] !== COMMA) return undefined;
    i++;
  }
}
