/** CSV (RFC 4180, see output/csv.ts): a header, then a line a record, the fields' columns in order. */
import { LIST_SWAP_FIELDS } from '../api/types.js';
import { createEncoder } from '../output/encode.js';
import type { Format } from './format.js';
import { textWriter } from './text-writer.js';

export const csv: Format<'csv'> = {
  name: 'csv',
  title: 'CSV',
  extensions: ['.csv'],
  gzip: true,
  fileOnly: false,
  people: false,
  shorthand: true,
  fixedColumns: true,
  spreadsheet: true,
  // A server's escape sequences would reach the terminal in a cell's text.
  terminalSafe: false,
  // The list's fields: balanceChanges, which the list never returns, would be a column always empty.
  mirror: { defaultFields: LIST_SWAP_FIELDS },
  encoder: (options) => createEncoder('csv', options),
  exportWriter: async (options, start) => textWriter(createEncoder('csv', options), start),
};
