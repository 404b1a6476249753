/**
 * Where a folder mirror keeps its files: the seam between the partition logic (partitions.ts, pending.ts,
 * id-index.ts, moves.ts: which rows go where, which version is newer, what a crash leaves to repair) and a
 * storage backend, a local directory (local-storage.ts) or an object store's prefix. Paths are relative to the
 * mirror's root, with '/'. Every write is whole: a reader sees the old file or the new one, never a part of either.
 */
import type { PartitionCodec } from '../../formats/stored-row.js';

export interface MirrorStorage {
  /** what messages name: the directory, or the bucket and prefix */
  readonly name: string;
  /**
   * The path of a file of swapx's own (`sync.json`, the state; `ids`, the partitions' indexes; `moving.json`),
   * named so that readers of the partitions skip it: `.swapx-NAME` in a folder, `_swapx/NAME` under a prefix.
   */
  meta(name: string): string;
  /** `path` as messages name it: the file's path, or the object's URL */
  describe(path: string): string;
  /** the bytes of a file, or undefined when there is none */
  read(path: string): Promise<Buffer | undefined>;
  /**
   * Replaces the file with `bytes`, whole and durably, making the folders it needs. `expect`: the stamp the file must
   * have now (null: it must not exist), else StaleWriteError and nothing written: where writers are kept apart by
   * a lease that can be lost (an object store), the state is written only over the version this writer last saw.
   * A folder, one writer by its lock file, takes it as said.
   */
  write(path: string, bytes: Buffer, options?: { expect?: string | null }): Promise<void>;
  /** the names in a folder ('' for the root), sorted; none when it does not exist */
  list(folder: string): Promise<string[]>;
  /** removes a file, if it is there */
  remove(path: string): Promise<void>;
  /**
   * What the file is now, as a token that changes whenever it is written (a local file's inode, size and mtime;
   * an object's ETag), or undefined when there is none: what an index of the file records, to know it is current.
   */
  stamp(path: string): Promise<string | undefined>;
}

/** A conditional write whose condition did not hold: another writer changed the file (storage.ts `expect`). */
export class StaleWriteError extends Error {
  override name = 'StaleWriteError';
  constructor(readonly path: string) {
    super(`${path} was written by another writer meanwhile`);
  }
}

/** A held one-writer lock (fs/lock.ts for a folder; a lease object in a bucket). */
export interface WriterLock {
  /** throws SyncLockedError when the lock is no longer this writer's (taken over, or its lease lost) */
  check(): Promise<void>;
  release(): Promise<void>;
  /** the process ends at once (a second Ctrl-C): let go now, synchronously, where that can be done */
  releaseSync?(): void;
}

/**
 * A storage backend of a partitioned mirror (store.ts): its files, its one-writer lock, what a killed run of it
 * leaves to repair, and the place it makes for a new mirror.
 */
export interface PartitionBackend {
  readonly storage: MirrorStorage;
  /** makes the mirror's place if it is not there (a folder; a bucket's prefix needs none) */
  prepare(): Promise<void>;
  /** takes the one-writer lock (SyncLockedError when another sync holds it); `onTakeOver` says a stale one was taken */
  lock(onTakeOver: (reason: string) => void): Promise<WriterLock>;
  /** repairs what a killed run of this backend leaves, before anything is read; returns the partitions it folded */
  recover(codec: PartitionCodec): Promise<string[]>;
  /** a first run that committed nothing: removes the place `prepare` made, if it is empty */
  discard(): Promise<void>;
  /** lets go of what the backend holds open (a client's connections) */
  close?(): Promise<void>;
}
