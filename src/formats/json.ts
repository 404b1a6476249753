/** JSON: one array of the records, as the API sent them when every field is kept. */
import { createEncoder } from '../output/encode.js';
import type { Format } from './format.js';
import { textWriter } from './text-writer.js';

export const json: Format<'json'> = {
  name: 'json',
  title: 'JSON',
  extensions: ['.json'],
  gzip: true,
  fileOnly: false,
  people: false,
  shorthand: true,
  fixedColumns: false,
  spreadsheet: false,
  terminalSafe: true,
  encoder: (options) => createEncoder('json', options),
  exportWriter: async (options, start) => textWriter(createEncoder('json', options), start),
  // Read on a terminal, JSON is indented (as gh --json is); through a pipe it stays compact.
  shown: (text) => `${JSON.stringify(JSON.parse(text), null, 2)}\n`,
};
