/**
 * Parquet (docs/parquet.md): typed columns in row groups, compressed inside, with a footer that indexes every
 * row group, so it is written only to a file. Its writer (parquet/export-writer.ts, over src/output/parquet)
 * loads only when used.
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
  mirror: {
    // Every column it has.
    defaultFields: PARQUET_FIELDS,
    codec: async (query) => (await import('./parquet/partitions.js')).parquetCodec(query.fields),
  },
  async exportWriter(options, start) {
    const { parquetExportWriter } = await import('./parquet/export-writer.js');
    // runExport refuses a file-only format without a file.
    return parquetExportWriter({ fields: options.fields, stateFile: rowGroupsFile(options.partial!) }, start);
  },
  sideFiles: (partial) => [rowGroupsFile(partial)],
  async checkResume(partial, formatState) {
    // The footer is rebuilt from the row groups' metadata: without every line the checkpoint counts, nothing to resume.
    const count = Number(formatState ?? 0);
    if (count > 0) await (await import('./parquet/row-groups.js')).savedRowGroups(rowGroupsFile(partial), count);
  },
};

/** Where an export keeps its row groups' metadata (parquet/row-groups.ts) until FILE is complete. */
function rowGroupsFile(partial: string): string {
  return `${partial}.rowgroups`;
}
