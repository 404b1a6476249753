/**
 * The S3 client against a real S3 server, Ceph's RADOS Gateway (scripts/support/s3-server.ts): whole objects, the
 * conditional puts the mirror's state and lease rely on (with radosgw's answers where AWS's differ), list pages,
 * multipart uploads, and each failure as the one line and exit code the CLI gives it.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AttemptLog } from '../../../../src/api/http.js';
import { exitCodeFor, messageFor } from '../../../../src/cli/exit-codes.js';
import { createS3Client, type S3Client, type S3ClientOptions } from '../../../../src/mirror/lake/s3/client.js';
import type { CredentialProvider } from '../../../../src/mirror/lake/s3/transport.js';
import { PreconditionFailedError } from '../../../../src/mirror/lake/s3/errors.js';
import type { S3User } from '../../../../scripts/support/s3-server.js';
import { useBucket } from '../../../helpers/s3.js';
import { signedRequest } from '../../../../scripts/support/s3-server.js';

const lake = useBucket();

function keys(user: S3User, source = 'the test'): CredentialProvider {
  return { source, get: async () => user, secrets: () => [user.secretAccessKey] };
}

function client(options: Partial<S3ClientOptions> & { prefix?: string } = {}): S3Client {
  const { prefix = 'lake/', ...rest } = options;
  return createS3Client({
    location: { bucket: lake.bucket, prefix },
    region: 'us-east-1',
    endpoint: new URL(lake.server.endpoint),
    credentials: keys(lake.server.owner),
    retries: 0,
    ...rest,
  });
}

async function failure(promise: Promise<unknown>): Promise<{ error: unknown; code: number; message: string }> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  return { error, code: exitCodeFor(error), message: messageFor(error) };
}

describe('whole objects', () => {
  it('puts, gets, heads and deletes an object, and says a missing one is missing', async () => {
    const s3 = client();
    const body = Buffer.from('{"day":"2026-11-27"}\n');
    const { etag } = await s3.put('p/a.json', body);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await s3.get('p/a.json')).toEqual({ body, etag });
    const head = await s3.head('p/a.json');
    expect(head).toEqual({ etag, size: body.length, lastModified: head?.lastModified });
    // Last-Modified, by the server's clock (its Date), to the second.
    expect(Math.abs(head!.lastModified! - s3.serverTime()!)).toBeLessThanOrEqual(5000);
    expect(head!.lastModified! % 1000).toBe(0);
    await s3.delete('p/a.json');
    expect(await s3.get('p/a.json')).toBeUndefined();
    expect(await s3.head('p/a.json')).toBeUndefined();
    await s3.delete('p/a.json');
    expect(Math.abs(s3.serverTime()! - Date.now())).toBeLessThan(60_000);
    await s3.close();
  });

  it("tells the server's clock as it goes on, not as it was at the last answer (a lease's end is written from it)", async () => {
    const s3 = client();
    expect(s3.serverTime()).toBeUndefined();
    await s3.head('p/none.json');
    const then = s3.serverTime()!;
    // No request meanwhile: the clock moves on by the time waited (a monotonic clock's, not this machine's date).
    await sleep(1200);
    const later = s3.serverTime()!;
    expect(later - then).toBeGreaterThanOrEqual(1150);
    expect(later - then).toBeLessThan(60_000);
    await s3.close();
  });

  it('keeps keys under the prefix, with characters a URL encodes', async () => {
    const s3 = client({ prefix: 'deep/er/' });
    await s3.put('date=2026-11-27/part 1+ü.jsonl', Buffer.from('x'));
    const root = client({ prefix: '' });
    expect((await root.list('deep/')).objects.map((o) => o.key)).toEqual(['deep/er/date=2026-11-27/part 1+ü.jsonl']);
    expect((await s3.get('date=2026-11-27/part 1+ü.jsonl'))?.body.toString()).toBe('x');
    await Promise.all([s3.close(), root.close()]);
  });
});

describe('conditional puts', () => {
  it('creates only where nothing is (If-None-Match: *); of 8 at once, exactly one wins', async () => {
    const s3 = client();
    await s3.put('lease', Buffer.from('a'), { ifNoneMatch: '*' });
    const again = await failure(s3.put('lease', Buffer.from('b'), { ifNoneMatch: '*' }));
    expect(again.error).toBeInstanceOf(PreconditionFailedError);
    expect(again.message).toBe(`s3://${lake.bucket}/lake/lease was not written: it exists already (a precondition failed)`);
    expect(again.code).toBe(1);
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => s3.put('race', Buffer.from(String(i)), { ifNoneMatch: '*' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof PreconditionFailedError)).toHaveLength(7);
    await s3.close();
  });

  it('replaces only the version it read (If-Match with the ETag as returned: radosgw takes it unquoted, learned once)', async () => {
    const attempts: AttemptLog[] = [];
    const s3 = client({ onAttempt: (log) => attempts.push(log) });
    const first = await s3.put('state.json', Buffer.from('1'));
    const second = await s3.put('state.json', Buffer.from('2'), { ifMatch: first.etag });
    expect((await s3.get('state.json'))?.body.toString()).toBe('2');
    // radosgw: 412 to the quoted ETag, 200 to the unquoted one; from then on the unquoted form goes first.
    expect(attempts.filter((a) => a.method === 'PUT').map((a) => a.status)).toEqual([200, 412, 200]);
    attempts.length = 0;
    await s3.put('state.json', Buffer.from('3'), { ifMatch: second.etag });
    expect(attempts.map((a) => a.status)).toEqual([200]);
    const stale = await failure(s3.put('state.json', Buffer.from('4'), { ifMatch: first.etag }));
    expect(stale.error).toBeInstanceOf(PreconditionFailedError);
    expect(stale.message).toBe(`s3://${lake.bucket}/lake/state.json was not written: it has changed or is gone (a precondition failed)`);
    expect((await s3.get('state.json'))?.body.toString()).toBe('3');
    await s3.close();
  });

  it('If-Match on a key that is not there fails its precondition (412 on radosgw, 404 on AWS)', async () => {
    const s3 = client();
    const gone = await failure(s3.put('never-written', Buffer.from('x'), { ifMatch: '"0123456789abcdef0123456789abcdef"' }));
    expect(gone.error).toBeInstanceOf(PreconditionFailedError);
    expect(await s3.get('never-written')).toBeUndefined();
    await s3.close();
  });
});

describe('lists', () => {
  it('reads every page (3 keys a page), relative to the prefix, with the delimiter’s common prefixes', async () => {
    const s3 = client({ prefix: 'paged/', pageSize: 3 });
    const names = Array.from({ length: 10 }, (_, i) => `date=2026-11-${String(i + 10)}/part.jsonl`);
    await Promise.all([...names, '_swapx/sync.json'].map((key) => s3.put(key, Buffer.from(key))));
    const attempts: AttemptLog[] = [];
    const counted = client({ prefix: 'paged/', pageSize: 3, onAttempt: (log) => attempts.push(log) });
    const all = await counted.list('');
    expect(all.objects.map((o) => o.key)).toEqual(['_swapx/sync.json', ...names]);
    expect(attempts).toHaveLength(4);
    expect(all.objects[1]).toEqual({ key: names[0], etag: (await s3.head(names[0]!))!.etag, size: names[0]!.length });
    const top = await s3.list('', { delimiter: '/' });
    expect(top.objects).toEqual([]);
    expect(top.prefixes).toEqual(['_swapx/', ...names.map((n) => n.replace('part.jsonl', ''))]);
    expect((await s3.list('date=2026-11-1')).objects).toHaveLength(10);
    expect(await s3.list('nothing/')).toEqual({ objects: [], prefixes: [] });
    await Promise.all([s3.close(), counted.close()]);
  });
});

describe('multipart uploads', () => {
  it('sends a body above the threshold in parts, and reads it back whole', async () => {
    const s3 = client({ multipartThreshold: 5 * 1024 * 1024, partSize: 5 * 1024 * 1024 });
    const body = randomBytes(11 * 1024 * 1024 + 17);
    const { etag } = await s3.put('big.parquet', body);
    expect(etag).toMatch(/^"[0-9a-f]{32}-3"$/);
    const back = await s3.get('big.parquet');
    expect(back?.etag).toBe(etag);
    expect(back?.body.equals(body)).toBe(true);
    await s3.close();
  });

  it('aborts the upload when it fails (parts under S3’s 5 MiB minimum): no parts are left behind', async () => {
    const s3 = client({ multipartThreshold: 1024 * 1024, partSize: 1024 * 1024 });
    const failed = await failure(s3.put('small-parts.bin', randomBytes(3 * 1024 * 1024)));
    expect(failed.message).toMatch(new RegExp(`^the S3 server refused completing s3://${lake.bucket}/lake/small-parts\\.bin \\(HTTP 400 EntityTooSmall`));
    const uploads = await signedRequest(lake.server, lake.server.owner, 'GET', `/${lake.bucket}?uploads`);
    expect(uploads.body).not.toContain('small-parts.bin');
    expect(await s3.head('small-parts.bin')).toBeUndefined();
    await s3.close();
  });

  it('puts a conditional body above the threshold as one PUT: radosgw ignores the condition of a multipart completion', async () => {
    const attempts: AttemptLog[] = [];
    const s3 = client({ multipartThreshold: 1024, onAttempt: (log) => attempts.push(log) });
    await s3.put('cond-big', randomBytes(4096), { ifNoneMatch: '*' });
    expect(attempts.map((a) => `${a.method} ${a.status}`)).toEqual(['PUT 200']);
    expect((await failure(s3.put('cond-big', randomBytes(4096), { ifNoneMatch: '*' }))).error).toBeInstanceOf(PreconditionFailedError);
    await s3.close();
  });
});

describe('failures, each one line with its exit code', () => {
  it('a key the server does not know: exit 3, InvalidAccessKeyId, where the key came from, no key', async () => {
    const s3 = client({ credentials: keys({ accessKeyId: 'NOSUCHKEYAAAA', secretAccessKey: 'whatever-secret' }, 'the environment (AWS_ACCESS_KEY_ID)') });
    const { code, message } = await failure(s3.get('x'));
    expect(code).toBe(3);
    expect(message).toBe('the S3 server does not know the access key from the environment (AWS_ACCESS_KEY_ID) (InvalidAccessKeyId)');
  });

  it('a wrong secret: exit 3, SignatureDoesNotMatch, no secret', async () => {
    const wrong = { accessKeyId: lake.server.owner.accessKeyId, secretAccessKey: 'not-the-secret-0123' };
    const { code, message } = await failure(client({ credentials: keys(wrong, "profile 'work' (/home/u/.aws/credentials)") }).put('x', Buffer.from('x')));
    expect(code).toBe(3);
    expect(message).toBe(
      "the S3 server refused the signature: the secret key from profile 'work' (/home/u/.aws/credentials) is not its access key's (SignatureDoesNotMatch)",
    );
    expect(message).not.toContain('not-the-secret');
  });

  it('another user’s bucket: exit 3, AccessDenied', async () => {
    const { code, message } = await failure(client({ credentials: keys(lake.server.other) }).get('x'));
    expect(code).toBe(3);
    expect(message).toBe(`access denied to read s3://${lake.bucket}/lake/x with the credentials from the test (AccessDenied)`);
  });

  it('a bucket that does not exist: exit 2, named', async () => {
    const missing = createS3Client({
      location: { bucket: 'no-such-bucket-swapx', prefix: '' },
      region: 'us-east-1',
      endpoint: new URL(lake.server.endpoint),
      credentials: keys(lake.server.owner),
      retries: 0,
    });
    for (const attempt of [() => missing.get('k'), () => missing.put('k', Buffer.from('x')), () => missing.list(''), () => missing.check()]) {
      const { code, message } = await failure(attempt());
      expect(code).toBe(2);
      expect(message).toBe(`the bucket 'no-such-bucket-swapx' does not exist at ${lake.server.endpoint} (NoSuchBucket)`);
    }
  });

  it('a server that is down: exit 1, naming the endpoint, after the retries', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const attempts: AttemptLog[] = [];
    const down = client({ endpoint: new URL(`http://127.0.0.1:${port}`), retries: 2, retryPolicy: { baseDelayMs: 1 }, onAttempt: (l) => attempts.push(l) });
    const { code, message } = await failure(down.get('k'));
    expect(code).toBe(1);
    expect(message).toBe(`the S3 endpoint http://127.0.0.1:${port} cannot be reached: connection refused (3 attempts)`);
    expect(attempts.map((a) => a.status)).toEqual(['connection refused', 'connection refused', 'connection refused']);
  });
});
