/**
 * The row groups' metadata a Parquet resume rebuilds its footer from: taken only when every group the manifest
 * counts is there, as JSON, and only in a codec this runtime can write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnresumableError } from '../../src/api/errors.js';
import { parquet } from '../../src/formats/parquet.js';
import { savedRowGroups } from '../../src/formats/parquet/row-groups.js';
import { canCompress } from '../../src/output/parquet/compression.js';
import { tempDir } from '../helpers/cli.js';

const group = (codec: string) => JSON.stringify({ columns: [{ meta_data: { codec } }] });

/** A state file with `text`, in a folder whose name also ends in .rowgroups (only the file's own suffix is its). */
function stateFile(text: string): string {
  const dir = path.join(tempDir('swapx-parquet-state-'), 'x.rowgroups');
  fs.mkdirSync(dir);
  const [file] = parquet.sideFiles!(path.join(dir, 'out.parquet.partial'));
  fs.writeFileSync(file!, text);
  return file!;
}

const refusal = (file: string, count: number) =>
  `${file} does not hold the metadata of the ${count} row group(s) the manifest counts, so the export cannot be resumed`;

describe('savedRowGroups', () => {
  it('is the first `count` lines, past them nothing', async () => {
    const file = stateFile(`${group('SNAPPY')}\n${group('SNAPPY')}\n{"a group past the checkpoint"}\n`);
    expect(file.endsWith('out.parquet.partial.rowgroups')).toBe(true);
    expect(await savedRowGroups(file, 2)).toEqual([group('SNAPPY'), group('SNAPPY')]);
    expect(await savedRowGroups(file, 0)).toEqual([]);
  });

  it.each([
    ['fewer lines than the manifest counts', `${group('SNAPPY')}`, 2],
    ['a line that is not a group', `${group('SNAPPY')}\nhalf a li\n`, 2],
    ['an empty line among them', `${group('SNAPPY')}\n\n${group('SNAPPY')}\n`, 3],
  ])('refuses %s, changing nothing', async (_, text, count) => {
    const file = stateFile(text);
    const error = await savedRowGroups(file, count).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnresumableError);
    expect((error as UnresumableError).orElse).toBe(false);
    expect((error as Error).message).toBe(refusal(file, count));
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a file that is not there', async () => {
    const file = path.join(tempDir('swapx-parquet-state-'), 'gone.rowgroups');
    await expect(savedRowGroups(file, 1)).rejects.toThrow(refusal(file, 1));
  });

  // Node 20's zlib has no zstd: a file begun with ZSTD on Node 22.15+ is not continued there in another codec.
  it('goes on in the codec the file began with only where this runtime writes it', async () => {
    const file = stateFile(`${group('ZSTD')}\n`);
    if (canCompress('ZSTD')) {
      expect(await savedRowGroups(file, 1)).toEqual([group('ZSTD')]);
    } else {
      const error = await savedRowGroups(file, 1).catch((e: unknown) => e);
      // The way out beside --force is said: the shell adds ", or add --force to start over".
      expect(error).toBeInstanceOf(UnresumableError);
      expect((error as UnresumableError).orElse).toBe(true);
      expect((error as Error).message).toBe(
        `${path.dirname(file)}/out.parquet.partial is compressed with ZSTD, which Node.js ${process.version} cannot write: resume it with Node.js 22.15 or later`,
      );
    }
    expect(await savedRowGroups(stateFile(`${group('SNAPPY')}\n`), 1)).toEqual([group('SNAPPY')]);
  });
});
