/**
 * The metadata of a Parquet export's row groups, one JSON line per group, kept beside its partial file
 * (export-writer.ts; its name: parquet.ts): a resume rebuilds the file's footer from it. Apart from the writer,
 * so that deciding whether an export can be resumed (export/target.ts) does not load the Parquet writer.
 */
import fs from 'node:fs/promises';
import { UnresumableError } from '../../api/errors.js';
import { canCompress, codecOfRowGroups } from '../../output/parquet/compression.js';

/** The saved metadata lines of the first `count` row groups; UnresumableError (nothing changed) when they are not all there. */
export async function savedRowGroups(file: string, count: number): Promise<string[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  const lines = text.split('\n').slice(0, count);
  if (lines.length < count || lines.some((line) => !line.startsWith('{'))) {
    throw new UnresumableError(`${file} does not hold the metadata of the ${count} row group(s) the manifest counts, so the export cannot be resumed`);
  }
  // A file keeps its codec: one started with ZSTD (Node 22.15+) cannot go on where zlib has no zstd.
  const codec = codecOfRowGroups(lines);
  if (codec !== undefined && !canCompress(codec)) {
    throw new UnresumableError(
      `${file.replace(/\.rowgroups$/, '')} is compressed with ${codec}, which Node.js ${process.version} cannot write: resume it with Node.js 22.15 or later`,
      true,
    );
  }
  return lines;
}
