/**
 * A folder mirror's storage in a local directory. A file is written as fs/atomic-file.ts writes every file: under a
 * temporary name beside it (a dot, the name, the pid and a random tag, `.tmp`), synced, renamed over the old one,
 * and its folder synced: a reader, or a run after a crash, finds the old file or the new one. A crash leaves at
 * most temporary files, which `tidy` removes under the lock.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { syncDirectory, writeFileAtomic } from '../../fs/atomic-file.js';
import type { MirrorStorage } from '../partitions/storage.js';

/** A temporary file of a write (tempPathFor's names), or of the older append-only layout's (`.part-….tmp`). */
export const TEMP_FILE_RE = /^\..+\.\d+-[0-9a-f]+\.tmp$|^\.part-.*\.tmp$/;

function missing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export class LocalStorage implements MirrorStorage {
  constructor(readonly name: string) {}

  /** `.swapx-sync.json`, `.swapx-ids`: hidden, and beside no partition a reader globs. */
  meta(name: string): string {
    return `.swapx-${name}`;
  }

  private full(file: string): string {
    return path.join(this.name, ...file.split('/'));
  }

  describe(file: string): string {
    return this.full(file);
  }

  async read(file: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.full(file));
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async write(file: string, bytes: Buffer): Promise<void> {
    const target = this.full(file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, bytes);
  }

  async list(folder: string): Promise<string[]> {
    try {
      return (await fs.readdir(folder === '' ? this.name : this.full(folder))).sort();
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  }

  /** Removes a file, and its folder when that is left empty (a day with no swap has no folder either). */
  async remove(file: string): Promise<void> {
    const target = this.full(file);
    await fs.rm(target, { force: true });
    const folder = path.dirname(target);
    if (folder !== path.join(this.name)) {
      try {
        await fs.rmdir(folder);
        await syncDirectory(path.dirname(folder));
        return;
      } catch {
        // not empty (or gone): the file's removal is synced below
      }
    }
    await syncDirectory(folder).catch((error: unknown) => {
      if (!missing(error)) throw error;
    });
  }

  async stamp(file: string): Promise<string | undefined> {
    try {
      const stat = await fs.stat(this.full(file), { bigint: true });
      // A write renames a new file into place: a new inode, whatever its size and time.
      return `${stat.ino}-${stat.size}-${stat.mtimeNs}`;
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  /** Removes the temporary files of dead runs in `folder` (only the lock holder writes: under the lock, each is one). */
  async tidy(folder: string): Promise<number> {
    let removed = 0;
    for (const name of await this.list(folder)) {
      if (!TEMP_FILE_RE.test(name)) continue;
      await fs.rm(path.join(this.full(folder), name), { force: true });
      removed += 1;
    }
    return removed;
  }
}
