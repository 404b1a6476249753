/**
 * Where a folder mirror keeps its files: the seam between the partition logic (partitions.ts, pending.ts,
 * id-index.ts, moves.ts: which rows go where, which version is newer, what a crash leaves to repair) and a
 * storage backend, a local directory (local-storage.ts) or an object store's prefix. Paths are relative to the
 * mirror's root, with '/'. Every write is whole: a reader sees the old file or the new one, never a part of either.
 */
export interface MirrorStorage {
  /** what messages name: the directory, or the bucket and prefix */
  readonly name: string;
  /** `path` as messages name it: the file's path, or the object's URL */
  describe(path: string): string;
  /** the bytes of a file, or undefined when there is none */
  read(path: string): Promise<Buffer | undefined>;
  /** replaces the file with `bytes`, whole and durably, making the folders it needs */
  write(path: string, bytes: Buffer): Promise<void>;
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
