/**
 * A bucket of its own for the tests of a file (or describe block), on the run's S3 server
 * (scripts/support/s3-server.ts): created before them. The cluster, buckets and all, goes at the end of the run.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, inject } from 'vitest';
import { openS3Client } from '../../src/mirror/lake/s3/open.js';
import { announcedServer } from './background-server.js';
import { type S3Server, s3Env, signedRequest } from '../../scripts/support/s3-server.js';

/**
 * The run's server, once it has started: the globalSetup starts it in the background, so that the files that need
 * no S3 run meanwhile. Throws why it did not start.
 */
export function runS3Server(): Promise<S3Server> {
  return announcedServer(inject('s3Status'), 'S3 test server', 28_000);
}

export interface TestBucket {
  readonly server: S3Server;
  readonly bucket: string;
  /** the environment a swapx run against the bucket takes: the owner's keys, the endpoint, no instance metadata */
  readonly env: Record<string, string>;
}

/**
 * A fresh bucket for the enclosing block; its fields are valid inside tests. When the server did not start, each
 * test that uses them fails with why (not marked skipped, as tests under a failed beforeAll are).
 */
export function useBucket(): TestBucket {
  let handle: TestBucket | undefined;
  let failure: unknown;
  beforeAll(async () => {
    try {
      const server = await runS3Server();
      const bucket = `swapx-${randomBytes(6).toString('hex')}`;
      const made = await signedRequest(server, server.owner, 'PUT', `/${bucket}`);
      if (made.status !== 200) throw new Error(`could not make the test bucket ${bucket}: HTTP ${made.status} ${made.body}`);
      handle = { server, bucket, env: s3Env(server) };
    } catch (error) {
      failure = error;
    }
  });
  const get = <K extends keyof TestBucket>(key: K): TestBucket[K] => {
    if (failure !== undefined) throw failure;
    if (!handle) throw new Error('the test bucket is not made yet: use it inside a test');
    return handle[key];
  };
  return {
    get server() {
      return get('server');
    },
    get bucket() {
      return get('bucket');
    },
    get env() {
      return get('env');
    },
  };
}

/**
 * Fetches the objects under `s3://…/PREFIX/` whose keys start with `startsWith` into `dir`, under the same keys: for
 * readers that cannot reach the S3 server (DuckDB's httpfs extension is downloaded at INSTALL, from a host these
 * machines cannot reach).
 */
export async function fetchObjects(url: string, env: Record<string, string>, startsWith: string, dir: string): Promise<void> {
  const { client } = await openS3Client(url, { env });
  try {
    for (const { key } of (await client.list(startsWith)).objects) {
      fs.mkdirSync(path.join(dir, path.dirname(key)), { recursive: true });
      fs.writeFileSync(path.join(dir, key), (await client.get(key))!.body);
    }
  } finally {
    await client.close();
  }
}
