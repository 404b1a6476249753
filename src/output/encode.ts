/**
 * Machine formats as text, a batch of records at a time: JSON Lines, one
 * JSON array, and CSV (RFC 4180, see csv.ts). The exporter writes each
 * window as one batch; the lookup commands write one batch.
 */
import { csvField, csvLines } from './csv.js';
import type { Format } from './format.js';

/** The text formats; Parquet is binary (parquet.ts). */
export type MachineFormat = Exclude<Format, 'table' | 'parquet'>;
/** A record as the encoders read it: API types are interfaces, which have no index signature, so they come in as objects. */
type Row = Record<string, unknown>;

export interface Encoder {
  /** text before the first batch (CSV header, JSON '[') */
  header(): string;
  /** `first`: no record came before this batch */
  batch(records: readonly object[], first: boolean): string;
  /**
   * What to put before a batch encoded with `first` when records came before it (JSON's comma):
   * lets a batch be encoded before it is known whether it will be the first.
   */
  between: string;
  footer(wroteAny: boolean): string;
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
  for (const field of fields) if (field in record) out[field] = (record as Row)[field];
  return out;
}

function sameFields(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((field, i) => field === b[i]);
}

/** A CSV cell: null as empty, arrays and objects as compact JSON, numbers as JSON writes them. */
export function cellText(value: unknown, excelSafe = false): string {
  let text: string;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value);
  // OWASP's advice for CSV injection: a leading quote makes the cell text. Numbers stay numbers.
  if (excelSafe && typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return text;
}

export function createEncoder(format: MachineFormat, options: EncodeOptions): Encoder {
  const passThrough = sameFields(options.fields, options.allFields);
  const shape = passThrough ? (record: object) => record : (record: object) => project(record, options.fields);
  switch (format) {
    case 'jsonl':
      return {
        header: () => '',
        batch: (records) => records.map((record) => `${JSON.stringify(shape(record))}\n`).join(''),
        between: '',
        footer: () => '',
      };
    case 'json':
      return {
        header: () => '[',
        batch: (records, first) => records.map((record, i) => `${first && i === 0 ? '\n' : ',\n'}${JSON.stringify(shape(record))}`).join(''),
        between: ',',
        footer: (wroteAny) => (wroteAny ? '\n]\n' : ']\n'),
      };
    case 'csv': {
      const fields = options.fields;
      const excelSafe = options.excelSafe ?? false;
      return {
        header: () => csvLines([fields]),
        batch: (records) => {
          // One string built in place: no array of cells per record for the collector to sweep.
          let out = '';
          for (const record of records) {
            for (let i = 0; i < fields.length; i++) {
              if (i > 0) out += ',';
              out += csvField(cellText((record as Row)[fields[i]!], excelSafe));
            }
            out += '\n';
          }
          return out;
        },
        between: '',
        footer: () => '',
      };
    }
  }
}

/** The whole of a small result as text. */
export function encodeAll(format: MachineFormat, records: readonly object[], options: EncodeOptions): string {
  const encoder = createEncoder(format, options);
  return encoder.header() + encoder.batch(records, true) + encoder.footer(records.length > 0);
}
