/** JSON Lines: one record a line, as the API sent it when every field is kept; a mirror keeps every field by default. */
import { SWAP_FIELDS } from '../api/types.js';
import { createEncoder, type Encoder } from '../output/encode.js';
import type { Format } from './format.js';
import type { PartitionCodec, StoredRow } from './stored-row.js';
import { textPartitions, textRow } from './text-partitions.js';
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
  mirror: {
    // Its lines are the API's objects as sent (pass-through): every field, unknown ones included.
    defaultFields: SWAP_FIELDS,
    codec: async (query) => jsonlCodec(query.gzip, createEncoder('jsonl', query)),
  },
  encoder: (options) => createEncoder('jsonl', options),
  exportWriter: async (options, start) => textWriter(createEncoder('jsonl', options), start),
};

/** A partition of JSON Lines: each line read back is its row's payload as written. */
export function jsonlCodec(gzip: boolean, encoder: Encoder): PartitionCodec {
  return textPartitions(jsonl.extensions[0]!, gzip, encoder, (text) =>
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line): StoredRow => {
        const record = JSON.parse(line) as Record<string, unknown>;
        return textRow(record.id, record.completedAt, record.updatedAt, `${line}\n`);
      }),
  );
}
