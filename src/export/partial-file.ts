/**
 * An export to a file: appended under `<file>.partial`, checkpointed in
 * `<file>.partial.manifest.json` (data synced first) at most every
 * CHECKPOINT_MS and whenever the export stops, and renamed to `<file>` only
 * when complete. A resume cuts the file back to the last checkpoint, so
 * windows written after it are simply fetched again. With gzip each window
 * is its own gzip member, so the file can be cut at any window.
 */
import fs from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { UsageError } from '../api/errors.js';
import { writeAll } from '../util/write-all.js';
import { describeDifference, fingerprint, readManifest, writeManifest, type ExportQuery, type Manifest } from './manifest.js';
import { exists } from '../util/fs.js';

export interface PartialState {
  windowsDone: number;
  swaps: number;
  dropped: number;
  bytes: number;
  /** Parquet: the row groups written (Manifest.parquet) */
  parquet?: string;
}


/** What is written once a window is appended: the manifest records it at the next checkpoint. */
export interface ExportDone {
  windowsDone: number;
  swaps: number;
  dropped: number;
  parquet?: string;
}

export function partialPaths(target: string): { partial: string; manifest: string } {
  return { partial: `${target}.partial`, manifest: `${target}.partial.manifest.json` };
}

/** A checkpoint costs two syncs and a rename: a few per second keep a resume cheap and the export fast. */
export const CHECKPOINT_MS = 250;

export class PartialFile {
  /** what the manifest on disk says */
  private saved: Manifest;
  private lastCheckpoint = 0;

  private constructor(
    readonly target: string,
    private readonly handle: fs.FileHandle,
    /** what is written, ahead of the checkpoint */
    private manifest: Manifest,
    private readonly paths: { partial: string; manifest: string },
  ) {
    this.saved = manifest;
  }

  /** What is checkpointed: where a resume starts. */
  get state(): PartialState {
    const { windowsDone, swaps, dropped, bytes, parquet } = this.saved;
    return { windowsDone, swaps, dropped, bytes, parquet };
  }

  /**
   * Opens for a new export or a resume. Refuses (exit 2, before any request) to overwrite a finished
   * file without `force`, to ignore an unfinished one without `resume` or `force`, and to resume a different query.
   */
  static async open(
    target: string,
    query: ExportQuery,
    windowsTotal: number,
    options: { resume: boolean; force: boolean; resumeCommand: string },
  ): Promise<{ file: PartialFile; resumed: boolean }> {
    const paths = partialPaths(target);
    const id = fingerprint(query);
    const saved = await readManifest(paths.manifest);
    if (saved && !options.force) {
      if (!options.resume) {
        throw new UsageError(
          `an unfinished export to ${target} exists (${saved.windowsDone}/${saved.windowsTotal} windows done); resume it with: ${options.resumeCommand} — or add --force to start over`,
        );
      }
      if (saved.fingerprint !== id) {
        throw new UsageError(`the unfinished export to ${target} is of a different query (${describeDifference(saved.query, query)}); repeat its query to resume, or add --force to start over`);
      }
    }
    if (!saved && (await exists(target)) && !options.force) {
      throw new UsageError(`${target} exists; add --force to overwrite it`);
    }
    const resumed = saved !== undefined && options.resume && !options.force && (await exists(paths.partial));
    const manifest: Manifest = resumed
      ? saved
      : { version: 1, fingerprint: id, query, windowsTotal, windowsDone: 0, bytes: 0, swaps: 0, dropped: 0, updatedAt: new Date().toISOString() };
    const handle = await fs.open(paths.partial, resumed ? 'r+' : 'w', 0o644);
    // What lies past the last checkpoint was written by a run that died before recording it.
    await handle.truncate(manifest.bytes);
    const file = new PartialFile(target, handle, manifest, paths);
    if (!resumed) await writeManifest(paths.manifest, manifest);
    return { file, resumed };
  }

  /** Appends a window's text (or bytes, written as they are); checkpoints when the last checkpoint is CHECKPOINT_MS old. */
  async append(text: string | Buffer, done: ExportDone): Promise<void> {
    if (text.length > 0) {
      const bytes = typeof text !== 'string' ? text : this.manifest.query.gzip ? gzipSync(text) : Buffer.from(text);
      await writeAll(this.handle, bytes, this.manifest.bytes);
      this.manifest = { ...this.manifest, bytes: this.manifest.bytes + bytes.length };
    }
    this.manifest = { ...this.manifest, ...done };
    if (performance.now() - this.lastCheckpoint >= CHECKPOINT_MS) await this.checkpoint();
  }

  /** Records what is written: the data is synced before the manifest says so. */
  async checkpoint(): Promise<void> {
    await this.handle.datasync();
    const manifest = { ...this.manifest, updatedAt: new Date().toISOString() };
    await writeManifest(this.paths.manifest, manifest);
    this.saved = manifest;
    this.lastCheckpoint = performance.now();
  }

  /** Writes the closing text, renames to the final name and removes the manifest. */
  async complete(text: string | Buffer): Promise<void> {
    // An empty export is still a valid (empty) gzip file.
    const emptyGzip = this.manifest.query.gzip && this.manifest.bytes === 0;
    if (text.length > 0 || emptyGzip) {
      const bytes = typeof text !== 'string' ? text : this.manifest.query.gzip ? gzipSync(text) : Buffer.from(text);
      await writeAll(this.handle, bytes, this.manifest.bytes);
    }
    await this.handle.sync();
    await this.handle.close();
    await fs.rename(this.paths.partial, this.target);
    await fs.rm(this.paths.manifest, { force: true });
  }

  /** Checkpoints what is written (if it can: a full disk may refuse) and leaves the files for a resume. */
  async close(): Promise<void> {
    await this.checkpoint().catch(() => {});
    await this.handle.close().catch(() => {});
  }
}
