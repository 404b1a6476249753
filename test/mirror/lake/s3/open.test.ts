/**
 * openS3Client: an s3:// --out to a client proved by one request, against the real radosgw, with credentials from
 * the environment, from a profile in a temporary HOME, and from a stand-in instance metadata service.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, messageFor } from '../../../../src/cli/exit-codes.js';
import { openS3Client } from '../../../../src/mirror/lake/s3/open.js';
import { tempDir } from '../../../helpers/cli.js';
import { useBucket } from '../../../helpers/s3.js';
import { s3Env } from '../../../../scripts/support/s3-server.js';

const lake = useBucket();

async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  return { code: exitCodeFor(error), message: messageFor(error) };
}

describe('openS3Client', () => {
  it('opens s3://BUCKET/PREFIX with the environment’s keys and endpoint', async () => {
    const { client: s3, description } = await openS3Client(`s3://${lake.bucket}/opened//here/`, { env: s3Env(lake.server), home: '/nonexistent' });
    expect(description).toBe(
      `s3://${lake.bucket}/opened/here/ at ${lake.server.endpoint} (path-style), region us-east-1, credentials from the environment (AWS_ACCESS_KEY_ID)`,
    );
    await s3.put('k', Buffer.from('v'));
    expect(s3.name).toBe(`s3://${lake.bucket}/opened/here/`);
    await s3.close();
  });

  it('opens it with a profile of ~/.aws: its keys in credentials, its endpoint_url and region in config', async () => {
    const home = tempDir('swapx-aws-home-');
    fs.mkdirSync(path.join(home, '.aws'));
    const { accessKeyId, secretAccessKey } = lake.server.owner;
    fs.writeFileSync(path.join(home, '.aws/credentials'), `[lake]\naws_access_key_id = ${accessKeyId}\naws_secret_access_key = ${secretAccessKey}\n`);
    fs.writeFileSync(path.join(home, '.aws/config'), `[profile lake]\nregion = us-east-1\nendpoint_url = ${lake.server.endpoint}\n`);
    const { client: s3, description } = await openS3Client(`s3://${lake.bucket}`, { env: { AWS_PROFILE: 'lake', AWS_EC2_METADATA_DISABLED: 'true' }, home });
    expect(description).toBe(
      `s3://${lake.bucket}/ at ${lake.server.endpoint} (path-style), region us-east-1, credentials from profile 'lake' (${home}/.aws/credentials)`,
    );
    await s3.close();
  });

  it('opens it with the instance role of a stand-in IMDSv2', async () => {
    const { accessKeyId, secretAccessKey } = lake.server.owner;
    const imds = http.createServer((req, res) => {
      if (req.method === 'PUT') return void res.end('t');
      if (req.url?.endsWith('/security-credentials/')) return void res.end('role');
      res.end(
        JSON.stringify({
          Code: 'Success',
          AccessKeyId: accessKeyId,
          SecretAccessKey: secretAccessKey,
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => imds.listen(0, '127.0.0.1', resolve));
    try {
      const env = { AWS_ENDPOINT_URL_S3: lake.server.endpoint, AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${(imds.address() as AddressInfo).port}` };
      const { client: s3, description } = await openS3Client(`s3://${lake.bucket}/imds`, { env, home: '/nonexistent' });
      expect(description).toMatch(/credentials from the EC2 instance role \(instance metadata\)$/);
      expect(await s3.get('missing')).toBeUndefined();
      await s3.close();
    } finally {
      imds.closeAllConnections();
      await new Promise((resolve) => imds.close(resolve));
    }
  });

  it('says a wrong key before anything else, exit 3, without the secret', async () => {
    const env = { ...s3Env(lake.server), AWS_SECRET_ACCESS_KEY: 'wrong-secret-value' };
    const { code, message } = await failure(openS3Client(`s3://${lake.bucket}/x`, { env, home: '/nonexistent', retries: 0 }));
    expect(code).toBe(3);
    expect(message).toBe(
      "the S3 server refused the signature: the secret key from the environment (AWS_ACCESS_KEY_ID) is not its access key's (SignatureDoesNotMatch)",
    );
  });

  it('says a bucket that is not there, exit 2, before anything else', async () => {
    const { code, message } = await failure(openS3Client('s3://swapx-not-made/x', { env: s3Env(lake.server), home: '/nonexistent', retries: 0 }));
    expect(code).toBe(2);
    expect(message).toBe(`the bucket 'swapx-not-made' does not exist at ${lake.server.endpoint} (NoSuchBucket)`);
  });
});
