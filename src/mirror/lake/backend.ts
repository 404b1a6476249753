/**
 * A partitioned mirror in an object store (partitions/store.ts over this backend): its objects (storage.ts), its
 * lease (lease.ts). An object store leaves nothing half-written for a next run to repair (a PUT is whole or not at
 * all) and has no folder to make or remove.
 */
import type { PartitionBackend, WriterLock } from '../partitions/storage.js';
import { acquireLease, type LeaseTimes } from './lease.js';
import type { S3Client } from './s3/client.js';
import { LakeStorage } from './storage.js';

export class LakeBackend implements PartitionBackend {
  readonly storage: LakeStorage;

  constructor(
    private readonly client: S3Client,
    /** a lease's times (tests run a lease of seconds) */
    private readonly times?: Partial<LeaseTimes>,
  ) {
    this.storage = new LakeStorage(client);
  }

  async prepare(): Promise<void> {}

  async lock(onTakeOver: (reason: string) => void): Promise<WriterLock> {
    const lease = await acquireLease(this.client, this.storage.meta('sync.lock'), { onTakeOver, times: this.times });
    this.storage.guard = () => lease.check();
    return lease;
  }

  async recover(): Promise<string[]> {
    return [];
  }

  async discard(): Promise<void> {}

  async close(): Promise<void> {
    await this.client.close();
  }
}
