/**
 * A partitioned mirror in a local directory (partitions/store.ts over this backend): its files (local-storage.ts),
 * the lock file (fs/lock.ts), the repairs a killed run of it needs (recovery.ts), and the directory made for a new
 * mirror, removed again, with the parents made for it, when its first run committed nothing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { acquireLock } from '../../fs/lock.js';
import { makeDir } from '../../fs/make-dir.js';
import type { PartitionBackend, WriterLock } from '../partitions/storage.js';
import type { PartitionCodec } from '../../formats/stored-row.js';
import { LocalStorage } from './local-storage.js';
import { recover } from './recovery.js';

/** Removes `dir` and its parents up to `top` (the first one this run created), each only if empty. */
async function removeEmpty(dir: string, top: string): Promise<void> {
  const stop = path.resolve(top);
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      await fs.rmdir(current);
    } catch {
      return;
    }
    // (The root is never empty: its rmdir fails before this loop could pass it.)
    if (current === stop) return;
  }
}

export class LocalBackend implements PartitionBackend {
  /** the first directory this run created, if it created one */
  private created: string | undefined;

  constructor(
    readonly dir: string,
    readonly storage: LocalStorage = new LocalStorage(dir),
  ) {}

  async prepare(): Promise<void> {
    this.created = await makeDir(this.dir);
  }

  lock(onTakeOver: (reason: string) => void): Promise<WriterLock> {
    return acquireLock(this.dir, { onTakeOver });
  }

  async recover(codec: PartitionCodec): Promise<string[]> {
    return (await recover(this.storage, codec)).folded;
  }

  async discard(): Promise<void> {
    if (this.created !== undefined) await removeEmpty(this.dir, this.created);
  }
}
