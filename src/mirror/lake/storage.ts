/**
 * A partitioned mirror's storage in an object store, under `s3://BUCKET/PREFIX` (the partition logic reaches it
 * through storage.ts, as it reaches a folder): a file is an object, written whole by one PUT (a reader sees the old
 * object or the new one), swapx's own files under `_swapx/`, which readers of the partitions skip (Spark, Trino and
 * Athena skip names starting with `_`). A stamp is an object's ETag. What this writer learned of the objects' ETags
 * (one listing of the prefix, then its own reads and writes: it is the one writer, under its lease) is kept, so that
 * a stamp costs no request, and a write whose bytes are those already there (a replay) is no request either.
 */
import { createHash } from 'node:crypto';
import { type MirrorStorage, StaleWriteError } from '../partitions/storage.js';
import type { S3Client } from './s3/client.js';
import { PreconditionFailedError } from './s3/errors.js';

/** The ETag S3 gives an object written by one PUT: the MD5 of its bytes, quoted. */
function etagOf(bytes: Buffer): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}

export class LakeStorage implements MirrorStorage {
  readonly name: string;
  /** each key's ETag as this writer last saw it; undefined: not listed yet */
  private etags: Map<string, string> | undefined;
  /** checked before every write: a writer that lost its lease stops before its next write (lease.ts) */
  guard: () => Promise<void> = async () => {};

  constructor(private readonly client: S3Client) {
    this.name = client.name.replace(/\/$/, '');
  }

  meta(name: string): string {
    return `_swapx/${name}`;
  }

  describe(path: string): string {
    return `${this.name}/${path}`;
  }

  /** Every object's ETag under the prefix, listed once (pages of a thousand). */
  private async known(): Promise<Map<string, string>> {
    if (!this.etags) {
      const { objects } = await this.client.list('');
      this.etags = new Map(objects.map((object) => [object.key, object.etag]));
    }
    return this.etags;
  }

  async read(path: string): Promise<Buffer | undefined> {
    const got = await this.client.get(path);
    const known = await this.known();
    if (!got) {
      known.delete(path);
      return undefined;
    }
    known.set(path, got.etag);
    return got.body;
  }

  async write(path: string, bytes: Buffer, options?: { expect?: string | null }): Promise<void> {
    const known = await this.known();
    const now = known.get(path);
    // A replay writes the bytes already there: nothing to send, and nothing for a reader to see change.
    if (now !== undefined && now === etagOf(bytes) && (options?.expect === undefined || options.expect === now)) return;
    await this.guard();
    const condition = options?.expect === undefined ? undefined : options.expect === null ? { ifNoneMatch: '*' as const } : { ifMatch: options.expect };
    try {
      const { etag } = await this.client.put(path, bytes, condition);
      known.set(path, etag);
    } catch (error) {
      if (error instanceof PreconditionFailedError) {
        known.delete(path);
        throw new StaleWriteError(this.describe(path));
      }
      throw error;
    }
  }

  async list(folder: string): Promise<string[]> {
    const prefix = folder === '' ? '' : `${folder}/`;
    const { objects, prefixes } = await this.client.list(prefix, { delimiter: '/' });
    const names = [...objects.map((object) => object.key.slice(prefix.length)), ...prefixes.map((p) => p.slice(prefix.length).replace(/\/$/, ''))];
    return [...new Set(names)].filter((name) => name !== '').sort();
  }

  async remove(path: string): Promise<void> {
    await this.guard();
    await this.client.delete(path);
    (await this.known()).delete(path);
  }

  async stamp(path: string): Promise<string | undefined> {
    return (await this.known()).get(path);
  }
}
