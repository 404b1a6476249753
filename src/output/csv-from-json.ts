/**
 * A CSV line written straight from a swap's canonical JSON bytes (what JSON.stringify writes, see
 * windows/json-elements.ts), byte for byte what the line from the parsed swap is (encode.ts), without a string
 * per cell: an export's cells were most of its garbage. Canonical bytes hold no backslash and no whitespace, so a
 * string's bytes between its quotes are its text (no quote, CR or LF in it: only a comma makes it quoted), a number's
 * are how JavaScript prints it, and an array's or an object's are its JSON.stringify.
 */
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../windows/json-elements.js';

const NEWLINE = 0x0a;
const APOSTROPHE = 0x27;
const NULL_START = 0x6e;

/** Whether a string cell starting with this byte is made text for a spreadsheet (encode.ts's cellText: = + - @; tab and CR cannot be raw). */
function formulaStart(c: number): boolean {
  return c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40;
}

export class CsvFromJson {
  /** each field's column, by name */
  private readonly column = new Map<string, number>();
  /**
   * The keys of the last swap in their order (its parsed object's: canonical bytes have them in the same order, once
   * each), each one's column (-1: not a column) and its length in bytes. Swaps have the same keys: compared as strings
   * V8 holds once, they spare reading the keys' bytes.
   */
  private keys: string[] = [];
  private keyColumn = new Int32Array(0);
  private keyBytes = new Int32Array(0);
  /** whether the keys come in the columns' order: the line is then written in one pass over the bytes */
  private inOrder = true;
  /** out of order: where each column's value lies in the swap being written (-1: absent) */
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;

  constructor(
    private readonly fields: readonly string[],
    private readonly excelSafe: boolean,
  ) {
    for (const [i, field] of fields.entries()) this.column.set(field, i);
    this.starts = new Int32Array(fields.length);
    this.ends = new Int32Array(fields.length);
  }

  /** The most bytes a line from `raw` takes: a quote doubled at worst, two quotes, an apostrophe and a comma a cell, a newline. */
  bound(raw: Buffer): number {
    return raw.length * 2 + this.fields.length * 4 + 1;
  }

  /** Writes the line of `record`, whose canonical bytes are `raw`, into `out` at `at` (room: bound(raw)); returns where it ends. */
  write(record: object, raw: Buffer, out: Buffer, at: number): number {
    this.learn(Object.keys(record));
    return this.inOrder ? this.writeInOrder(raw, out, at) : this.writeLocated(raw, out, at);
  }

  private learn(keys: string[]): void {
    const known = this.keys;
    if (keys.length === known.length) {
      let k = 0;
      while (k < keys.length && keys[k] === known[k]) k++;
      if (k === keys.length) return;
    }
    this.keys = keys;
    this.keyColumn = Int32Array.from(keys, (key) => this.column.get(key) ?? -1);
    this.keyBytes = Int32Array.from(keys, (key) => Buffer.byteLength(key));
    let last = -1;
    this.inOrder = true;
    for (const column of this.keyColumn) {
      if (column < 0) continue;
      if (column < last) this.inOrder = false;
      last = column;
    }
  }

  /** One pass: each value is written as it is read, the columns the swap lacks left empty. */
  private writeInOrder(raw: Buffer, out: Buffer, at: number): number {
    const { keyColumn, keyBytes } = this;
    const count = this.fields.length;
    const n = raw.length;
    // Columns begun so far: a column begins with a comma, but the first.
    let begun = 0;
    // Past `{`, the first key's quote, its bytes, its quote and colon: the first value.
    let i = 1;
    for (let k = 0; k < keyColumn.length; k++) {
      i += keyBytes[k]! + 3;
      const column = keyColumn[k]!;
      if (column < 0) {
        i = pastValue(raw, i);
      } else {
        while (begun <= column) if (begun++ > 0) out[at++] = COMMA;
        const c = raw[i]!;
        if (c === QUOTE) {
          const cell = at;
          i++;
          if (this.excelSafe && formulaStart(raw[i]!)) out[at++] = APOSTROPHE;
          let comma = false;
          for (let b = raw[i]!; b !== QUOTE && i < n; b = raw[++i]!) {
            if (b === COMMA) comma = true;
            out[at++] = b;
          }
          i++;
          if (comma) at = quote(out, cell, at);
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          const end = pastNested(raw, i);
          at = writeJson(raw, i, end, out, at);
          i = end;
        } else {
          const end = pastScalar(raw, i);
          // null is an empty cell; numbers and booleans are as JavaScript prints them.
          if (c !== NULL_START) for (; i < end; i++) out[at++] = raw[i]!;
          i = end;
        }
      }
      // The comma before the next key, or the closing brace.
      i++;
    }
    while (begun < count) if (begun++ > 0) out[at++] = COMMA;
    out[at++] = NEWLINE;
    return at;
  }

  /** Keys out of the columns' order: each column's value is found first, then the line written in the columns' order. */
  private writeLocated(raw: Buffer, out: Buffer, at: number): number {
    const { starts, ends, keyColumn, keyBytes } = this;
    starts.fill(-1);
    let i = 1;
    for (let k = 0; k < keyColumn.length; k++) {
      i += keyBytes[k]! + 3;
      const end = pastValue(raw, i);
      const column = keyColumn[k]!;
      if (column >= 0) {
        starts[column] = i;
        ends[column] = end;
      }
      i = end + 1;
    }
    const count = this.fields.length;
    for (let j = 0; j < count; j++) {
      if (j > 0) out[at++] = COMMA;
      const s = starts[j]!;
      if (s < 0) continue;
      const e = ends[j]!;
      const c = raw[s]!;
      if (c === QUOTE) at = this.writeString(raw, s + 1, e - 1, out, at);
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) at = writeJson(raw, s, e, out, at);
      else if (c !== NULL_START) for (let b = s; b < e; b++) out[at++] = raw[b]!;
    }
    out[at++] = NEWLINE;
    return at;
  }

  /** A string's text raw[s, e) as its cell: quoted when it holds a comma (a quote, CR or LF cannot be raw in canonical JSON). */
  private writeString(raw: Buffer, s: number, e: number, out: Buffer, at: number): number {
    const cell = at;
    if (this.excelSafe && s < e && formulaStart(raw[s]!)) out[at++] = APOSTROPHE;
    let comma = false;
    for (let i = s; i < e; i++) {
      const c = raw[i]!;
      if (c === COMMA) comma = true;
      out[at++] = c;
    }
    return comma ? quote(out, cell, at) : at;
  }
}

/** The cell out[cell, at) in quotes (it holds no quote to double); returns where it ends. */
function quote(out: Buffer, cell: number, at: number): number {
  out.copyWithin(cell + 1, cell, at);
  out[cell] = QUOTE;
  out[at + 1] = QUOTE;
  return at + 2;
}

/** Past the value that starts at raw[i]. */
function pastValue(raw: Buffer, i: number): number {
  const c = raw[i]!;
  if (c === QUOTE) return nextQuote(raw, i + 1) + 1;
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return pastNested(raw, i);
  return pastScalar(raw, i);
}

/** Past a number, true, false or null: up to the comma or brace after it. */
function pastScalar(raw: Buffer, i: number): number {
  const n = raw.length;
  while (i < n && raw[i] !== COMMA && raw[i] !== CLOSE_BRACE) i++;
  return i;
}

/** The next quote at or after `i`: a loop, as Buffer#indexOf costs more in its checks than a short string's bytes. */
function nextQuote(raw: Buffer, i: number): number {
  const n = raw.length;
  while (i < n && raw[i] !== QUOTE) i++;
  return i;
}

/** Past the array or object that starts at raw[i] (strings in it hold no quote: canonical JSON has no escape). */
function pastNested(raw: Buffer, i: number): number {
  let depth = 0;
  for (;;) {
    const c = raw[i++]!;
    if (c === QUOTE) i = nextQuote(raw, i) + 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i;
  }
}

/** An array's or object's JSON raw[s, e) as its cell: quoted, its quotes doubled, when it holds a quote or a comma. */
function writeJson(raw: Buffer, s: number, e: number, out: Buffer, at: number): number {
  let plain = true;
  for (let i = s; i < e && plain; i++) plain = raw[i] !== QUOTE && raw[i] !== COMMA;
  if (plain) {
    for (let i = s; i < e; i++) out[at++] = raw[i]!;
    return at;
  }
  out[at++] = QUOTE;
  for (let i = s; i < e; i++) {
    const c = raw[i]!;
    out[at++] = c;
    if (c === QUOTE) out[at++] = QUOTE;
  }
  out[at++] = QUOTE;
  return at;
}
