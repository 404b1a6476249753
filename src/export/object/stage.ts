/**
 * Where an export to an object (-o s3://BUCKET/KEY) is made before it is uploaded: a folder of its own in the user's
 * cache (~/.cache/swapx/exports/<id>/, beside the profiles when SWAPX_CONFIG_DIR is set), named by a digest of the
 * URL, so that the same command line run again, from any directory, finds it: to resume the export, or to upload a
 * finished one whose upload failed. The file there is named `export` with the key's extensions (its format and gzip
 * read from it as from the key), whatever the key's own name (S3 takes names no file system does).
 *
 * Beside it, `upload.json` records what the folder holds for whom: the object, the query of the export (so that a
 * finished file is uploaded again only for the same query), and the multipart upload in flight (so that one left by
 * a killed run is aborted by the next, and no parts are left in the bucket).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { formatFromPath } from '../../formats/choose.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import type { ExportQuery } from '../manifest.js';

/** `file`'s name is `export` and the key's extensions: `export.csv.gz` for s3://b/reports/week.csv.gz. */
export function stageFile(url: string, cacheDir: string): string {
  const id = createHash('sha256').update(url).digest('hex').slice(0, 16);
  const { ext, gzip } = formatFromPath(url);
  return path.join(cacheDir, 'exports', id, `export${ext}${gzip ? '.gz' : ''}`);
}

export interface StageRecord {
  version: 1;
  /** the object, s3://bucket/key */
  object: string;
  /** what the file holds (or will, once complete) */
  query: ExportQuery;
  /** a multipart upload begun and not known to have ended */
  uploadId?: string;
}

export function recordPath(file: string): string {
  return path.join(path.dirname(file), 'upload.json');
}

/** The record, or undefined when there is none or it cannot be read (then nothing finished is trusted). */
export async function readRecord(file: string): Promise<StageRecord | undefined> {
  try {
    const record = JSON.parse(await fs.readFile(recordPath(file), 'utf8')) as Partial<StageRecord>;
    return record.version === 1 && typeof record.object === 'string' && typeof record.query === 'object' && record.query !== null
      ? (record as StageRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

export async function writeRecord(file: string, record: StageRecord): Promise<void> {
  await writeFileAtomic(recordPath(file), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}
