/** The table: the view for people on a terminal, laid out to its width (output/table.ts, output/swap-rows.ts). */
import { Chalk } from 'chalk';
import type { Format } from './format.js';
import { textWriter } from './text-writer.js';

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
  async exportWriter(options, start) {
    // The swaps' table loads with the export that shows it.
    const { swapRowsEncoder } = await import('../output/swap-rows.js');
    const { look } = options;
    return textWriter(swapRowsEncoder(options.filter, look?.chalk ?? new Chalk({ level: 0 }), { fields: options.fields, width: look?.width }), start);
  },
};
