/**
 * Parquet (docs/parquet.md): typed columns in row groups, compressed inside, with a footer that indexes every
 * row group, so it is written only to a file. Its writer and codec (src/output/parquet) load only when used.
 */
import { PARQUET_FIELDS } from '../output/parquet/schema.js';
import type { Format } from './format.js';

export const parquet: Format<'parquet'> = {
  name: 'parquet',
  title: 'Parquet',
  extensions: ['.parquet'],
  gzip: false,
  fileOnly: true,
  people: false,
  shorthand: false,
  fixedColumns: true,
  spreadsheet: false,
  terminalSafe: false,
  holds: PARQUET_FIELDS,
  // Every column it has.
  mirror: { defaultFields: PARQUET_FIELDS },
};
