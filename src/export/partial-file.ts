/**
 * An export to a file: appended under `<file>.partial`, checkpointed in
 * `<file>.partial.manifest.json` (data synced first) at most every
 * CHECKPOINT_MS and whenever the export stops, and renamed to `<file>` only
 * when complete. A resume cuts the file back to the last checkpoint, so
 * windows written after it are simply fetched again. With gzip each window
 * is its own gzip member, so the file can be cut at any window.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { syncDirectory } from '../fs/atomic-file.js';
import { OPEN_EXISTING, OPEN_NEW } from '../fs/open-flags.js';
import { writeAll } from '../fs/write-all.js';
import { queryFingerprint, writeManifest, type ExportQuery, type Manifest } from './manifest.js';
import type { ExportSink, SinkState, Tally } from './sink.js';

export function partialPaths(target: string): { partial: string; manifest: string } {
  return { partial: `${target}.partial`, manifest: `${target}.partial.manifest.json` };
}

/** The windows FILE's manifest on disk counts (what a resume starts from), read synchronously; 0 when there is none to read. */
export function windowsSaved(target: string): number {
  try {
    return Number((JSON.parse(fsSync.readFileSync(partialPaths(target).manifest, 'utf8')) as { windowsDone?: unknown }).windowsDone) || 0;
  } catch {
    return 0;
  }
}

/** A checkpoint costs three syncs (data, manifest, directory) and a rename: a few per second keep a resume cheap and the export fast. */
export const CHECKPOINT_MS = 250;

export class PartialFile implements ExportSink {
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
  get state(): SinkState {
    const { windowsDone, swaps, dropped, bytes, formatState } = this.saved;
    return { windowsDone, swaps, dropped, bytes, formatState };
  }

  /** A new export: an empty partial file and a manifest of no windows done. */
  static async start(target: string, query: ExportQuery, windowsTotal: number): Promise<PartialFile> {
    const manifest: Manifest = {
      version: 1,
      fingerprint: queryFingerprint(query),
      query,
      windowsTotal,
      windowsDone: 0,
      bytes: 0,
      swaps: 0,
      dropped: 0,
      updatedAt: new Date().toISOString(),
    };
    const paths = partialPaths(target);
    const handle = await fs.open(paths.partial, OPEN_NEW, 0o644);
    try {
      await writeManifest(paths.manifest, manifest);
    } catch (error) {
      await handle.close();
      await fs.rm(paths.partial, { force: true });
      throw error;
    }
    return new PartialFile(target, handle, manifest, paths);
  }

  /** Continues from the manifest's checkpoint (decideTarget checked it is this export's); `baseUrl` is where the rest comes from. */
  static async resume(target: string, saved: Manifest, baseUrl: string): Promise<PartialFile> {
    const paths = partialPaths(target);
    const handle = await fs.open(paths.partial, OPEN_EXISTING);
    // What lies past the last checkpoint was written by a run that died before recording it.
    await handle.truncate(saved.bytes);
    return new PartialFile(target, handle, { ...saved, query: { ...saved.query, baseUrl } }, paths);
  }

  /**
   * Appends a window's text or bytes (gzipped when the file is); checkpoints when the last checkpoint is CHECKPOINT_MS old.
   * `formatState`, the format's checkpoint at the end of these bytes, is kept in the manifest (undefined: the last stands).
   */
  async append(text: string | Buffer, done: Tally, formatState?: string): Promise<void> {
    if (text.length > 0) {
      const bytes = this.manifest.query.gzip ? gzipSync(text) : typeof text === 'string' ? Buffer.from(text) : text;
      await writeAll(this.handle, bytes, this.manifest.bytes);
      this.manifest = { ...this.manifest, bytes: this.manifest.bytes + bytes.length };
    }
    this.manifest = { ...this.manifest, ...done, ...(formatState === undefined ? {} : { formatState }) };
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
      const bytes = this.manifest.query.gzip ? gzipSync(text) : typeof text === 'string' ? Buffer.from(text) : text;
      await writeAll(this.handle, bytes, this.manifest.bytes);
    }
    await this.handle.sync();
    await this.handle.close();
    await fs.rename(this.paths.partial, this.target);
    await syncDirectory(path.dirname(this.target));
    await fs.rm(this.paths.manifest, { force: true });
  }

  /** After a run that saved no window: leaves nothing behind, since there is nothing to resume. */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => {});
    await fs.rm(this.paths.partial, { force: true });
    await fs.rm(this.paths.manifest, { force: true });
  }

  /** Checkpoints what is written (if it can: a full disk may refuse) and leaves the files for a resume. */
  async close(): Promise<void> {
    await this.checkpoint().catch(() => {});
    await this.handle.close().catch(() => {});
  }
}
