/** JSON Lines: one record a line, as the API sent it when every field is kept; a mirror keeps every field by default. */
import { SWAP_FIELDS } from '../api/types.js';
import { createEncoder } from '../output/encode.js';
import type { Format } from './format.js';
import { textWriter } from './text-writer.js';

export const jsonl: Format<'jsonl'> = {
  name: 'jsonl',
  title: 'JSON Lines',
  extensions: ['.jsonl', '.ndjson'],
  gzip: true,
  fileOnly: false,
  people: false,
  shorthand: true,
  fixedColumns: false,
  spreadsheet: false,
  terminalSafe: true,
  // Its lines are the API's objects as sent (pass-through): every field, unknown ones included.
  mirror: { defaultFields: SWAP_FIELDS },
  encoder: (options) => createEncoder('jsonl', options),
  exportWriter: async (options, start) => textWriter(createEncoder('jsonl', options), start),
};
