/**
 * Daily partitions of a sync directory: `<dir>/date=YYYY-MM-DD/part-<stamp>.<ext>`,
 * by the UTC date of completedAt. A part is streamed into a temporary file
 * beside its final name and appears only whole (fsync, rename, fsync of the
 * directory); an existing part is never rewritten. At most one part is open.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempPathFor } from '../output/atomic-file.js';
import type { Encoder } from '../output/encode.js';
import type { SyncFormat } from './state.js';
import { writeAll } from '../util/write-all.js';
import { exists } from '../util/fs.js';

/** A final part file's name; its temporary sibling starts with a dot and ends in `.tmp`. */
export const PART_RE = /^part-[0-9A-Za-z-]+\.(jsonl|csv)(\.gz)?$/;
export const TEMP_PART_RE = /^\.part-.*\.tmp$/;
export const PARTITION_RE = /^date=(\d{4}-\d{2}-\d{2})$/;

export function partExtension(format: SyncFormat, gzip: boolean): string {
  return `.${format}${gzip ? '.gz' : ''}`;
}

/** "2026-11-20" */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function partitionName(date: string): string {
  return `date=${date}`;
}

/** Run start in UTC plus a random suffix, so two runs in the same second name their parts apart: 20261121T101500Z-3f9a1c. */
export function runStamp(ms: number): string {
  const compact = new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '');
  return `${compact}Z-${randomBytes(3).toString('hex')}`;
}

/** Makes a rename (or a file created in the directory) durable. Best effort where directories cannot be opened. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows and some file systems refuse to sync a directory.
  } finally {
    await handle?.close().catch(() => {});
  }
}


interface OpenPart {
  date: string;
  /** relative to the sync dir, with '/' */
  relative: string;
  final: string;
  temp: string;
  handle: fs.FileHandle;
  rows: number;
}

export interface PartFormat {
  format: SyncFormat;
  gzip: boolean;
  encoder: Encoder;
}

export class PartWriter {
  private open: OpenPart | undefined;

  constructor(
    private readonly dir: string,
    private readonly stamp: string,
    private readonly format: PartFormat,
  ) {}

  /** The date of the open part, if one is open. */
  get date(): string | undefined {
    return this.open?.date;
  }

  /** Appends rows of `date`; opens its part first. The caller closes the previous date's part before. */
  async append(date: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.open && this.open.date !== date) throw new Error(`part of ${this.open.date} still open when writing ${date}`);
    const part = this.open ?? (await this.create(date));
    const { encoder, gzip } = this.format;
    const text = (part.rows === 0 ? encoder.header() : '') + encoder.batch(rows, part.rows === 0);
    // With gzip each batch is its own gzip member: a concatenation of members is one valid gzip stream.
    const bytes = gzip ? gzipSync(text) : Buffer.from(text);
    await writeAll(part.handle, bytes);
    part.rows += rows.length;
  }

  /** Makes the open part durable under its final name; returns its path relative to the sync dir. */
  async close(): Promise<string | undefined> {
    const part = this.open;
    if (!part) return undefined;
    this.open = undefined;
    try {
      const footer = this.format.encoder.footer(true);
      if (footer) await writeAll(part.handle, this.format.gzip ? gzipSync(footer) : Buffer.from(footer));
      await part.handle.sync();
    } catch (error) {
      await part.handle.close().catch(() => {});
      await fs.rm(part.temp, { force: true });
      throw error;
    }
    await part.handle.close();
    await fs.rename(part.temp, part.final);
    await syncDirectory(path.dirname(part.final));
    return part.relative;
  }

  /** Drops the open part (after a failure that will not be committed). */
  async discard(): Promise<void> {
    const part = this.open;
    this.open = undefined;
    if (!part) return;
    await part.handle.close().catch(() => {});
    await fs.rm(part.temp, { force: true });
  }

  private async create(date: string): Promise<OpenPart> {
    const partition = partitionName(date);
    const dirPath = path.join(this.dir, partition);
    await fs.mkdir(dirPath, { recursive: true });
    const ext = partExtension(this.format.format, this.format.gzip);
    let name = `part-${this.stamp}${ext}`;
    // Never replace an existing part (the stamp is random-suffixed, so this is belt and braces).
    for (let n = 2; await exists(path.join(dirPath, name)); n += 1) name = `part-${this.stamp}-${n}${ext}`;
    const final = path.join(dirPath, name);
    const temp = tempPathFor(final);
    const handle = await fs.open(temp, 'wx', 0o644);
    this.open = { date, relative: `${partition}/${name}`, final, temp, handle, rows: 0 };
    return this.open;
  }
}
