/**
 * Machine formats as text, a batch of records at a time: JSON Lines, one
 * JSON array, and CSV (RFC 4180, see csv.ts). The exporter writes each
 * window as one batch; the lookup commands write one batch.
 */
import { csvField, csvLines } from './csv.js';
import { CsvFromJson } from './csv-from-json.js';

/** The text encoders this file has, which the format modules (src/formats) build theirs from. */
export type MachineFormat = 'json' | 'jsonl' | 'csv';
/** A record as the encoders read it: API types are interfaces, which have no index signature, so they come in as objects. */
type Row = Record<string, unknown>;

export interface Encoder {
  /** text before the first batch (CSV header, JSON '[') */
  header(): string;
  /**
   * One record as its piece of a batch. `raw`: the record's bytes as the API sent them when they are exactly
   * what JSON.stringify writes (see SwapVisitor): JSON formats then write them as they are, without re-serialising.
   */
  item(record: object, raw?: Buffer): string | Buffer;
  /** A batch of items as bytes; `first`: no record came before this batch. */
  join(items: readonly (string | Buffer)[], first: boolean): Buffer;
  /** `first`: no record came before this batch */
  batch(records: readonly object[], first: boolean): string;
  /**
   * What to put before a batch encoded with `first` when records came before it (JSON's comma):
   * lets a batch be encoded before it is known whether it will be the first.
   */
  between: string;
  footer(wroteAny: boolean): string;
  /**
   * An item written as bytes straight from a record and its `raw` (see item), where the format can: `bound` bytes of room
   * at `at` in `out`, returns where it ends. The same bytes as item(record, raw).
   */
  fromRaw?: RawItemWriter;
}

export interface RawItemWriter {
  bound(raw: Buffer): number;
  write(record: object, raw: Buffer, out: Buffer, at: number): number;
}

export interface EncodeOptions {
  /** the fields to keep, in order */
  fields: readonly string[];
  /** every field the resource has, in the spec's order: when `fields` is all of them, records pass through as sent */
  allFields: readonly string[];
  /** CSV: neutralise cells that a spreadsheet would run as a formula */
  excelSafe?: boolean;
}

function project(record: object, fields: readonly string[]): Row {
  const out: Row = {};
  // A field the record lacks is undefined here, which JSON leaves out.
  for (const field of fields) out[field] = (record as Row)[field];
  return out;
}

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((field, i) => field === b[i]);
}

/** A CSV cell: null as empty, arrays, objects and booleans as compact JSON, numbers as text (finite ones as JSON writes them). */
export function cellText(value: unknown, excelSafe = false): string {
  let text: string;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') text = String(value);
  else text = JSON.stringify(value);
  // OWASP's advice for CSV injection: a leading quote makes the cell text. Numbers stay numbers.
  if (excelSafe && typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return text;
}

/**
 * Items with a separator before each (and `opening` before the first instead), as one buffer: one copy of each item.
 * The separators are ASCII (a byte a character, as the size counts them).
 */
function concat(items: readonly (string | Buffer)[], opening: string, separator: string, closing: string): Buffer {
  let size = 0;
  for (const item of items) size += Buffer.byteLength(item);
  if (items.length > 0) size += opening.length + (items.length - 1) * separator.length + items.length * closing.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < items.length; i++) {
    const before = i === 0 ? opening : separator;
    if (before) at += out.write(before, at);
    const item = items[i]!;
    if (typeof item === 'string') at += out.write(item, at);
    else {
      // TypedArray#set: Buffer#copy checks its arguments in JavaScript on each of a window's thousands of calls.
      out.set(item, at);
      at += item.length;
    }
    if (closing) at += out.write(closing, at);
  }
  return out;
}

function fromItems(encoder: Omit<Encoder, 'batch'>): Encoder {
  return {
    ...encoder,
    batch: (records, first) =>
      encoder
        .join(
          records.map((record) => encoder.item(record)),
          first,
        )
        .toString('utf8'),
  };
}

/** A format of one text line per record (CSV, the table), each line ending in a newline: a header, no footer. */
export function linesEncoder(header: () => string, line: (record: object) => string): Encoder {
  return fromItems({ header, item: line, join: (items) => concat(items, '', '', ''), between: '', footer: () => '' });
}

export function createEncoder(format: MachineFormat, options: EncodeOptions): Encoder {
  const passThrough = sameFields(options.fields, options.allFields);
  const shape = passThrough ? (record: object) => record : (record: object) => project(record, options.fields);
  // The bytes as sent are what JSON.stringify would write, but only when every field is kept.
  const json = (record: object, raw?: Buffer): string | Buffer => (passThrough && raw !== undefined ? raw : JSON.stringify(shape(record)));
  switch (format) {
    case 'jsonl':
      return fromItems({
        header: () => '',
        item: json,
        join: (items) => concat(items, '', '', '\n'),
        between: '',
        footer: () => '',
      });
    case 'json':
      return fromItems({
        header: () => '[',
        item: json,
        join: (items, first) => concat(items, first ? '\n' : ',\n', ',\n', ''),
        between: ',',
        footer: (wroteAny) => (wroteAny ? '\n]\n' : ']\n'),
      });
    case 'csv': {
      const fields = options.fields;
      const excelSafe = options.excelSafe ?? false;
      const encoder = linesEncoder(
        () => csvLines([fields]),
        (record) => {
          // join makes one flat string; a line built with += is a rope of a hundred pieces, which the
          // window holds until it is sorted and then flattens: twice the time (measured).
          // A loop with no closure per cell, and the newline joined in with the last cell (a line and '\n' added
          // after the join is a rope that writing it flattens: one more copy of every line).
          const last = fields.length - 1;
          if (last < 0) return '\n';
          const cells = new Array<string>(fields.length);
          for (let i = 0; i < last; i++) cells[i] = csvField(cellText((record as Row)[fields[i]!], excelSafe));
          cells[last] = `${csvField(cellText((record as Row)[fields[last]!], excelSafe))}\n`;
          return cells.join(',');
        },
      );
      // A canonical swap's line is written from its bytes, without a string per cell.
      return { ...encoder, fromRaw: new CsvFromJson(fields, excelSafe) };
    }
  }
}

/** The whole of a small result as text. */
export function encodeAll(encoder: Encoder, records: readonly object[]): string;
export function encodeAll(format: MachineFormat, records: readonly object[], options: EncodeOptions): string;
export function encodeAll(by: Encoder | MachineFormat, records: readonly object[], options?: EncodeOptions): string {
  const encoder = typeof by === 'string' ? createEncoder(by, options!) : by;
  return encoder.header() + encoder.batch(records, true) + encoder.footer(records.length > 0);
}
