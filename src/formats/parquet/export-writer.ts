/**
 * The export writer of Parquet. Windows wait as columns until they make a row group of ROW_GROUP_ROWS, which is
 * then written. A Parquet file ends with the metadata of all its row groups, so each group's metadata is also
 * appended, synced, to the row groups' file beside the partial file (row-groups.ts) before the group's bytes go
 * out with its checkpoint, the number of groups (the manifest's formatState). A checkpoint is therefore always at
 * a row-group edge: a resume cuts that file back there, rebuilds the writer from its lines and ends with the same
 * bytes as a run never stopped.
 */
import fs from 'node:fs/promises';
import { OPEN_EXISTING, OPEN_NEW } from '../../fs/open-flags.js';
import { writeAll } from '../../fs/write-all.js';
import { ColumnCollector, columnTables, ParquetFile, ROW_GROUP_ROWS, type ColumnBatch } from '../../output/parquet/writer.js';
import type { ExportStart, ExportWriter } from '../writer.js';
import { savedRowGroups } from './row-groups.js';

export interface ParquetWriterOptions {
  /** the columns, in order */
  fields: readonly string[];
  /** where the row groups' metadata is kept until the file is complete */
  stateFile: string;
  /** rows per row group (tests make it small) */
  rowGroupRows?: number;
}

type Row = Record<string, unknown>;

/** The saved metadata lines of the first `count` row groups; the file is cut to them. */
async function openState(file: string, count: number): Promise<{ handle: fs.FileHandle; lines: string[]; bytes: number }> {
  if (count === 0) return { handle: await fs.open(file, OPEN_NEW, 0o644), lines: [], bytes: 0 };
  const lines = await savedRowGroups(file, count);
  const bytes = Buffer.byteLength(lines.join('\n')) + 1;
  const handle = await fs.open(file, OPEN_EXISTING);
  // What lies past the checkpoint belongs to row groups the resume writes again.
  await handle.truncate(bytes);
  return { handle, lines, bytes };
}

export async function parquetExportWriter(options: ParquetWriterOptions, start: ExportStart): Promise<ExportWriter<number, ColumnBatch>> {
  const { fields, stateFile } = options;
  const groupRows = options.rowGroupRows ?? ROW_GROUP_ROWS;
  const resumed = start.bytes > 0;
  const state = await openState(stateFile, resumed ? Number(start.formatState ?? 0) : 0);
  let groups = state.lines.length;
  let stateBytes = state.bytes;
  const close = async (complete: boolean) => {
    await state.handle.close();
    // No row group recorded: nothing to resume from (the partial file is discarded too).
    if (complete || groups === 0) await fs.rm(stateFile, { force: true });
  };
  let file: ParquetFile;
  try {
    file = new ParquetFile(fields, resumed ? { resume: { bytes: start.bytes, rowGroups: state.lines } } : {});
  } catch (error) {
    await close(false);
    throw error;
  }
  // The magic bytes go out with the first row group, or with the footer of an empty export.
  let header: Buffer | undefined = resumed ? undefined : file.header();
  let pending: ColumnBatch[] = [];
  let pendingRows = 0;
  // A window waits as columns (strings as bytes or codes), not as parsed objects, as the text formats keep theirs encoded.
  const tables = columnTables(fields);
  return {
    collector() {
      // Each swap goes into the columns as it is parsed, and the window's order picks the rows.
      const columns = new ColumnCollector(fields, tables);
      return { item: (swap) => columns.add(swap as unknown as Row), batch: (kept) => columns.batch(kept) };
    },
    add(batch) {
      pending.push(batch);
      pendingRows += batch.rows;
    },
    async flush(last) {
      // Cut only where the rows since the last cut decide it, so a resume cuts in the same places.
      if (pendingRows === 0 || (!last && pendingRows < groupRows)) return undefined;
      const group = file.rowGroupOf(pending);
      pending = [];
      pendingRows = 0;
      const line = Buffer.from(`${file.groupState(groups)}\n`);
      await writeAll(state.handle, line, stateBytes);
      await state.handle.datasync();
      stateBytes += line.length;
      groups += 1;
      const bytes = header ? Buffer.concat([header, group]) : group;
      header = undefined;
      return { bytes, formatState: String(groups) };
    },
    footer() {
      const footer = file.footer();
      return header ? Buffer.concat([header, footer]) : footer;
    },
    close,
  };
}
