/** The mirror as a folder: a partitioned mirror (partitions/store.ts) in a local directory (backend.ts). */
import { PartitionedStore, type PartitionedOptions } from '../partitions/store.js';
import { LocalBackend } from './backend.js';
import type { LocalStorage } from './local-storage.js';

export interface FolderOptions extends Omit<PartitionedOptions, 'backend'> {
  dir: string;
  /** the directory's storage (tests give one that fails on cue); default a LocalStorage of `dir` */
  storage?: LocalStorage;
}

export class FolderStore extends PartitionedStore {
  constructor(options: FolderOptions) {
    const { dir, storage, ...rest } = options;
    super({ ...rest, backend: new LocalBackend(dir, storage) });
  }
}
