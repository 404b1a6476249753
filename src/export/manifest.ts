/**
 * The record of finished work beside a partial export. A resume trusts it
 * only when it belongs to the same query (the fingerprint), never because a
 * file merely exists. It holds no secret: the base URL cannot carry one.
 */
import fs from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { writeFileAtomic } from '../output/atomic-file.js';
import { describeDifference as describe, fingerprint } from '../util/fingerprint.js';

export interface ExportQuery {
  baseUrl: string;
  filter: string | null;
  from: string;
  to: string;
  windowMs: number;
  format: string;
  fields: string[];
  gzip: boolean;
  excelSafe: boolean;
}

export interface Manifest {
  version: 1;
  fingerprint: string;
  query: ExportQuery;
  windowsTotal: number;
  /** windows complete and contiguous from the first, all in the partial file */
  windowsDone: number;
  /** length of the partial file that those windows fill; anything after it is discarded on resume */
  bytes: number;
  swaps: number;
  dropped: number;
  /** Parquet: how many row groups the partial file holds (their metadata: parquet-export.ts) */
  parquet?: string;
  updatedAt: string;
}

export { fingerprint };

export async function readManifest(file: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new UsageError(`${file} is not a readable export manifest; delete it and the partial file beside it to start over`);
  }
  if (manifest.version !== 1 || typeof manifest.bytes !== 'number' || typeof manifest.windowsDone !== 'number') {
    throw new UsageError(`${file} is not an export manifest swapx can read; delete it and the partial file beside it to start over`);
  }
  return manifest;
}

export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

const LABELS: Record<keyof ExportQuery, string> = {
  baseUrl: 'base URL',
  filter: 'filter',
  from: '--from',
  to: '--to',
  windowMs: '--window (ms)',
  format: 'format',
  fields: '--fields',
  gzip: 'gzip',
  excelSafe: '--excel-safe',
};

export function describeDifference(saved: ExportQuery, wanted: ExportQuery): string {
  return describe(saved, wanted, LABELS);
}
