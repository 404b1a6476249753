/** The table: the view for people on a terminal, laid out to its width (output/table.ts, output/swap-rows.ts). */
import type { Format } from './format.js';

export const table: Format<'table'> = {
  name: 'table',
  title: 'table',
  extensions: [],
  gzip: false,
  fileOnly: false,
  people: true,
  shorthand: false,
  fixedColumns: true,
  spreadsheet: false,
  terminalSafe: true,
};
