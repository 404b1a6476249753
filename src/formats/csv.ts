/** CSV (RFC 4180, see output/csv.ts): a header, then a line a record, the fields' columns in order. */
import { LIST_SWAP_FIELDS } from '../api/types.js';
import { createEncoder, type Encoder } from '../output/encode.js';
import { readCsvRecords } from './csv-records.js';
import type { Format } from './format.js';
import type { PartitionCodec, StoredRow } from './stored-row.js';
import { textPartitions, textRow } from './text-partitions.js';
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
  mirror: {
    // The list's fields: balanceChanges, which the list never returns, would be a column always empty.
    defaultFields: LIST_SWAP_FIELDS,
    codec: async (query) => csvCodec(query.gzip, createEncoder('csv', query)),
  },
  encoder: (options) => createEncoder('csv', options),
  exportWriter: async (options, start) => textWriter(createEncoder('csv', options), start),
};

/** A partition of CSV: the header names the columns; each record read back is its row's payload as written. */
export function csvCodec(gzip: boolean, encoder: Encoder): PartitionCodec {
  return textPartitions(csv.extensions[0]!, gzip, encoder, (text) => {
    const rows: StoredRow[] = [];
    let columns: { id: number; completedAt: number; updatedAt: number; count: number } | undefined;
    // swapx ends every record with a newline: a file that does not was cut short inside one, which would
    // otherwise read as a row of its own (its id cut) and be written back, the rows after it lost.
    if (text !== '' && !text.endsWith('\n')) throw new Error('it ends inside a record (cut short?)');
    readCsvRecords(text, (record, raw) => {
      if (!columns) {
        if (!record.includes('id')) throw new Error('no id column');
        columns = { id: record.indexOf('id'), completedAt: record.indexOf('completedAt'), updatedAt: record.indexOf('updatedAt'), count: record.length };
        return;
      }
      const { id, completedAt, updatedAt, count } = columns;
      if (record.length !== count) throw new Error(`row ${rows.length + 1} has ${record.length} fields, the header ${count}`);
      rows.push(textRow(record[id], record[completedAt], record[updatedAt], raw));
    });
    return rows;
  });
}
