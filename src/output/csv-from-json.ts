/**
 * A CSV line written straight from a swap's canonical JSON bytes (what JSON.stringify writes, see
 * windows/json-elements.ts), byte for byte what the line from the parsed swap is (encode.ts), without a string
 * per cell: an export's cells were most of its garbage. Canonical bytes hold no backslash and no whitespace, so a
 * string's bytes between its quotes are its text (no quote, CR or LF in it: only a comma makes it quoted), a number's
 * are how JavaScript prints it, and an array's or an object's are its JSON.stringify.
 */
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, utf8Text } from '../windows/json-elements.js';

const NEWLINE = 0x0a;
const APOSTROPHE = 0x27;

/** Whether a string cell starting with this byte is made text for a spreadsheet (encode.ts's cellText: = + - @; tab and CR cannot be raw). */
function formulaStart(c: number): boolean {
  return c === 0x3d || c === 0x2b || c === 0x2d || c === 0x40;
}

export class CsvFromJson {
  /** each field's column, by name (for a key not where the last swap had it) */
  private readonly column = new Map<string, number>();
  /** the keys of the last swap in their order, and each one's column (-1: not a column) */
  private readonly keys: Buffer[] = [];
  private readonly keyColumn: number[] = [];
  /** where each column's value lies in the swap being written (-1: absent) */
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

  /** Writes the line of the canonical swap `raw` into `out` at `at` (room: bound(raw)); returns where it ends. */
  write(raw: Buffer, out: Buffer, at: number): number {
    const { starts, ends } = this;
    starts.fill(-1);
    this.locate(raw);
    const count = this.fields.length;
    for (let j = 0; j < count; j++) {
      if (j > 0) out[at++] = COMMA;
      const s = starts[j]!;
      if (s < 0) continue;
      const e = ends[j]!;
      const c = raw[s]!;
      if (c === QUOTE) at = this.writeString(raw, s + 1, e - 1, out, at);
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) at = writeJson(raw, s, e, out, at);
      // null is an empty cell; numbers and booleans are as JavaScript prints them.
      else if (c !== 0x6e) for (let i = s; i < e; i++) out[at++] = raw[i]!;
    }
    out[at++] = NEWLINE;
    return at;
  }

  /** Finds each column's value in the object `raw` (canonical: no whitespace, no escape). */
  private locate(raw: Buffer): void {
    const { starts, ends } = this;
    let i = 1;
    let k = 0;
    if (raw[i] === CLOSE_BRACE) return;
    for (;;) {
      // A key: its bytes run to the next quote.
      const keyStart = i + 1;
      const keyEnd = nextQuote(raw, keyStart);
      const column = this.columnOf(raw, keyStart, keyEnd, k++);
      i = keyEnd + 1;
      if (raw[i] !== COLON) throw new Error('not canonical JSON');
      const start = ++i;
      const c = raw[i]!;
      if (c === QUOTE) i = nextQuote(raw, i + 1) + 1;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) i = pastNested(raw, i);
      else while (raw[i] !== COMMA && raw[i] !== CLOSE_BRACE) i++;
      if (column >= 0) {
        starts[column] = start;
        ends[column] = i;
      }
      if (raw[i] === CLOSE_BRACE) return;
      i++;
    }
  }

  /** The column of the key raw[start, end), the k-th of its swap: where the last swap had the same key there, no string is made. */
  private columnOf(raw: Buffer, start: number, end: number, k: number): number {
    const known = this.keys[k];
    if (known !== undefined && known.length === end - start) {
      let i = 0;
      while (i < known.length && known[i] === raw[start + i]) i++;
      if (i === known.length) return this.keyColumn[k]!;
    }
    const column = this.column.get(utf8Text(raw, start, end)) ?? -1;
    this.keys[k] = Buffer.from(raw.subarray(start, end));
    this.keyColumn[k] = column;
    return column;
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
    if (!comma) return at;
    out.copyWithin(cell + 1, cell, at);
    out[cell] = QUOTE;
    out[at + 1] = QUOTE;
    return at + 2;
  }
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
