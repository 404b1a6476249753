/**
 * Splits a JSON array of objects into its elements without parsing it whole,
 * so each swap is parsed, checked and encoded on its own and the bytes of a
 * window are never all alive as objects at once.
 *
 * The split also says which elements are canonical: written exactly as
 * JSON.stringify would write their value (no whitespace, no escapes, numbers
 * as JavaScript prints them, no key a JavaScript object would reorder). Those
 * bytes can go to a JSON Lines file as they came, with no re-serialising.
 * What the split does not vouch for (a duplicate key) the caller checks on
 * the parsed value: see `keyCount`.
 */
import { isUtf8 } from 'node:buffer';
import { MAX_NESTING } from '../api/shape.js';

export interface Elements {
  /** start and end (exclusive) byte offsets, one pair per element */
  readonly spans: Uint32Array;
  /** 1 where the element is canonical, per element */
  readonly canonical: Uint8Array;
  /** how many keys (`:` outside strings) each element holds, at any depth */
  readonly keys: Uint32Array;
  readonly count: number;
}

/** JSON's structural bytes (csv-from-json.ts reads canonical elements by them too). */
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first byte at or after `i` that is not JSON whitespace (past the end, bytes[i] is undefined: not a space). */
function skipSpace(bytes: Buffer, i: number): number {
  while (isSpace(bytes[i]!)) i++;
  return i;
}

/** Where `byte` is next, at or after `from`; the length when it is not. */
function nextIndex(bytes: Buffer, byte: number, from: number): number {
  const at = bytes.indexOf(byte, from);
  return at === -1 ? bytes.length : at;
}

/**
 * Whether the number token bytes[start, end) is written as JSON.stringify writes its value: decided on the bytes
 * when it can be (numberOnBytes), else by printing the value.
 */
function canonicalNumber(bytes: Buffer, start: number, end: number): boolean {
  return numberOnBytes(bytes, start, end) ?? slowCanonical(bytes, start, end);
}

/**
 * The common case decided on the bytes, without making a string and a number of them: at most 15 digits (a double
 * keeps them all, so its shortest form is these digits), no exponent, no trailing zero after a point, not -0, not
 * below 1e-6 (written with an exponent). Undefined for the rest, which only printing the value decides. The token
 * is JSON's (JSON.parse refuses the element otherwise): a second point, a minus inside, no digit cannot occur.
 */
export function numberOnBytes(bytes: Buffer, start: number, end: number): boolean | undefined {
  let digits = 0;
  let point = -1;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e) point = i;
    // An exponent's letter (its sign comes after it).
    else if (c !== 0x2d) return undefined;
  }
  if (digits > 15) return undefined;
  const first = bytes[start] === 0x2d ? start + 1 : start;
  if (point === -1) return !(first > start && bytes[first] === 0x30);
  if (bytes[end - 1] === 0x30) return false;
  // Below 1e-6 (six zeros after the point) JavaScript writes an exponent: 1e-7. (A leading 0 has the point next.)
  if (bytes[first] === 0x30) {
    let zeros = 0;
    while (bytes[point + 1 + zeros] === 0x30) zeros++;
    if (zeros >= 6) return undefined;
  }
  return true;
}

function slowCanonical(bytes: Buffer, start: number, end: number): boolean {
  const text = bytes.toString('latin1', start, end);
  return String(Number(text)) === text;
}

/**
 * The elements of `bytes` when it is `[ {…}, {…} ]` (whitespace allowed between tokens);
 * undefined for anything else, which the caller then parses the ordinary way. This does not
 * validate: what lies between an element's braces is left to JSON.parse.
 */
export function splitObjects(bytes: Buffer): Elements | undefined {
  const n = bytes.length;
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN_BRACKET) return undefined;
  i = skipSpace(bytes, i + 1);
  let capacity = 64;
  let spans = new Uint32Array(capacity * 2);
  let canonical = new Uint8Array(capacity);
  let keys = new Uint32Array(capacity);
  let count = 0;
  // Backslashes are rare: found by the native search, once per body, not per string.
  const utf8 = isUtf8(bytes);
  let nextBackslash = nextIndex(bytes, BACKSLASH, i);
  if (bytes[i] === CLOSE_BRACKET) return skipSpace(bytes, i + 1) === n ? { spans, canonical, keys, count } : undefined;
  for (;;) {
    if (bytes[i] !== OPEN_BRACE) return undefined;
    const start = i;
    let depth = 0;
    let clean = utf8;
    let colons = 0;
    // One element: strings are skipped by the native search for the closing quote.
    for (;;) {
      const c = bytes[i];
      if (c === undefined) return undefined;
      if (c === QUOTE) {
        let close = bytes.indexOf(QUOTE, i + 1);
        for (;;) {
          if (close < 0) return undefined;
          let slashes = 0;
          while (bytes[close - 1 - slashes] === BACKSLASH) slashes++;
          if ((slashes & 1) === 0) break;
          close = bytes.indexOf(QUOTE, close + 1);
        }
        // A key that looks like an integer comes first in a JavaScript object, whatever the order sent.
        if (bytes[close + 1] === COLON && bytes[i + 1]! >= 0x30 && bytes[i + 1]! <= 0x39) clean = false;
        i = close + 1;
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        // Too deep to walk safely: the ordinary path (checkSwaps) says so.
        if (++depth > MAX_NESTING) return undefined;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (c === COLON) colons++;
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        let end = i + 1;
        while (isNumberByte(bytes[end]!)) end++;
        if (clean && !canonicalNumber(bytes, i, end)) clean = false;
        i = end;
        continue;
      } else if (isSpace(c)) clean = false;
      i++;
    }
    if (nextBackslash < i) {
      clean = false;
      nextBackslash = nextIndex(bytes, BACKSLASH, i);
    }
    if (count === capacity) {
      capacity *= 2;
      spans = grow(spans, capacity * 2);
      canonical = grow(canonical, capacity);
      keys = grow(keys, capacity);
    }
    spans[count * 2] = start;
    spans[count * 2 + 1] = i;
    canonical[count] = clean ? 1 : 0;
    keys[count] = colons;
    count++;
    i = skipSpace(bytes, i);
    if (bytes[i] === COMMA) {
      i = skipSpace(bytes, i + 1);
      continue;
    }
    if (bytes[i] === CLOSE_BRACKET && skipSpace(bytes, i + 1) === n) return { spans, canonical, keys, count };
    return undefined;
  }
}

function isNumberByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

function grow<T extends Uint8Array | Uint32Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}

/** bytes[start, end) as UTF-8 text: Buffer's own utf8Slice, without the checks toString makes on each of a window's thousands of calls. */
export function utf8Text(bytes: Buffer, start: number, end: number): string {
  return (bytes as Buffer & { utf8Slice(start: number, end: number): string }).utf8Slice(start, end);
}

/** Keys in a parsed value, at any depth: fewer than the colons sent means a key came twice (JSON.parse keeps the last). */
export function keyCount(value: unknown): number {
  // What JSON.parse makes: objects and arrays are Objects; null, strings, numbers and booleans are not.
  if (!(value instanceof Object)) return 0;
  let total = 0;
  if (Array.isArray(value)) {
    for (const item of value) total += keyCount(item);
    return total;
  }
  for (const key in value) total += 1 + keyCount((value as Record<string, unknown>)[key]);
  return total;
}
