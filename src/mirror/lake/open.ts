/**
 * The lake: `swapx sync --out s3://BUCKET/PREFIX`, a partitioned mirror (partitions/store.ts) in an object store,
 * Parquet by default (`date=YYYY-MM-DD/part.parquet`, the columns of the folder mirror's Parquet). Loaded only for
 * an s3:// --out, with its client (s3/open.ts: the credentials, region and endpoint the AWS way, and one request
 * that proves them before anything else).
 */
import type { AttemptLog } from '../../api/http.js';
import type { PartitionedOptions } from '../partitions/store.js';
import { PartitionedStore } from '../partitions/store.js';
import { LakeBackend } from './backend.js';
import type { LeaseTimes } from './lease.js';
import { openS3Client } from './s3/open.js';

export interface LakeOptions extends Omit<PartitionedOptions, 'backend' | 'defaultFormat'> {
  /** the command's environment (credentials, region, endpoint) */
  env: NodeJS.ProcessEnv;
  home?: string;
  onAttempt?: (log: AttemptLog) => void;
  signal?: AbortSignal;
  /** a lease's times (tests run a lease of seconds) */
  lease?: Partial<LeaseTimes>;
}

export async function openLake(out: string, options: LakeOptions): Promise<{ store: PartitionedStore; description: string }> {
  const { env, home, onAttempt, signal, lease, ...rest } = options;
  const { client, description } = await openS3Client(out, { env, home, onAttempt, signal });
  return { store: new PartitionedStore({ ...rest, backend: new LakeBackend(client, lease), defaultFormat: 'parquet' }), description };
}
