/**
 * What a real server cannot be made to do on cue, against a stand-in S3 of the test's own: 5xx and 429 answers,
 * resets and silences retried through src/api/retry.ts's policy; a clock too far from the server's; an expired
 * session token; a conditional PUT whose first attempt went through unanswered; a multipart completion that
 * answers 200 with an error.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptLog } from '../../../../src/api/http.js';
import { exitCodeFor, messageFor } from '../../../../src/cli/exit-codes.js';
import { createS3Client, type S3ClientOptions } from '../../../../src/mirror/lake/s3/client.js';
import type { CredentialProvider } from '../../../../src/mirror/lake/s3/transport.js';

type Hook = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, count: number) => boolean;

const objects = new Map<string, Buffer>();
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
/** answers a request itself when it returns true; else the stand-in stores and serves objects */
let hook: Hook = () => false;
let server: http.Server;

/** Ends the response: the hook has answered. */
function answer(res: http.ServerResponse, status: number, body?: string, headers: http.OutgoingHttpHeaders = {}): true {
  res.writeHead(status, headers).end(body);
  return true;
}

const md5 = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      if (hook(req, body, res, seen.length)) return;
      const key = new URL(req.url!, 'http://x').pathname;
      const stored = objects.get(key);
      if (req.method === 'PUT') {
        if (req.headers['if-none-match'] === '*' && stored) return void res.writeHead(412).end('<Error><Code>PreconditionFailed</Code></Error>');
        objects.set(key, body);
        return void res.writeHead(200, { etag: md5(body) }).end();
      }
      if (!stored) return void res.writeHead(404).end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code></Error>');
      res.writeHead(200, { etag: md5(stored), 'content-length': stored.length }).end(req.method === 'HEAD' ? undefined : stored);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  objects.clear();
  seen.length = 0;
  hook = () => false;
});

let refreshes = 0;
const credentials: CredentialProvider = {
  source: 'the test',
  get: async (options) => {
    if (options?.forceRefresh) refreshes += 1;
    return { accessKeyId: 'KEY', secretAccessKey: 'SECRET', sessionToken: `token-${refreshes}` };
  },
  secrets: () => ['SECRET'],
};

function client(options: Partial<S3ClientOptions> = {}) {
  const endpoint = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return createS3Client({
    location: { bucket: 'lake', prefix: 'p/' },
    region: 'us-east-1',
    endpoint,
    credentials,
    retryPolicy: { baseDelayMs: 1 },
    ...options,
  });
}

describe('retries through the API’s policy', () => {
  it('retries 503 and 429 (its Retry-After) and a reset connection, then succeeds', async () => {
    hook = (req, _body, res, count) => {
      if (count === 1) return answer(res, 503, '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      if (count === 2) return answer(res, 429, undefined, { 'retry-after': '0' });
      if (count === 3) req.socket.destroy();
      return count === 3;
    };
    const attempts: AttemptLog[] = [];
    await client({ onAttempt: (log) => attempts.push(log) }).put('a', Buffer.from('x'));
    expect(attempts.map((a) => a.status)).toEqual([503, 429, 'connection closed unexpectedly', 200]);
    expect(attempts[0]).toMatchObject({ method: 'PUT', path: '/lake/p/a', attempt: 1, attempts: 6 });
  });

  it('gives up after the retries with the server’s words, exit 1', async () => {
    hook = (_req, _body, res) => answer(res, 500, '<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>');
    const error = await client({ retries: 1 })
      .get('a')
      .catch((e: unknown) => e);
    expect(exitCodeFor(error)).toBe(1);
    expect(messageFor(error)).toBe('the S3 server failed (HTTP 500 InternalError: We encountered an internal error.) on GET /lake/p/a');
  });

  it('a server that answers nothing in time: exit 1, naming the endpoint', async () => {
    hook = () => true;
    const s3 = client({ retries: 1, timeoutMs: 200 });
    const error = await s3.get('a').catch((e: unknown) => e);
    expect(messageFor(error)).toBe(
      `the S3 endpoint http://127.0.0.1:${(server.address() as AddressInfo).port} cannot be reached: no answer in time (2 attempts)`,
    );
    expect(exitCodeFor(error)).toBe(1);
  });
});

describe('answers retried at once', () => {
  it('signs again on the server’s clock after RequestTimeTooSkewed', async () => {
    const ahead = new Date(Date.now() + 3_600_000);
    hook = (_req, _body, res, count) => count === 1 && answer(res, 403, '<Error><Code>RequestTimeTooSkewed</Code></Error>', { date: ahead.toUTCString() });
    await client().put('a', Buffer.from('x'));
    const dates = seen.map((r) => String(r.headers['x-amz-date']));
    expect(dates[1]!.slice(0, 11)).toBe(ahead.toISOString().replace(/[-:]/g, '').slice(0, 11));
    expect(dates[0]).not.toBe(dates[1]);
  });

  it('fetches the credentials again after ExpiredToken', async () => {
    const before = refreshes;
    hook = (_req, _body, res, count) => count === 1 && answer(res, 400, '<Error><Code>ExpiredToken</Code></Error>');
    await client().put('a', Buffer.from('x'));
    expect(refreshes).toBe(before + 1);
    expect(seen.map((r) => r.headers['x-amz-security-token'])).toEqual([`token-${before}`, `token-${before + 1}`]);
  });
});

describe('a conditional put whose first attempt went through unanswered', () => {
  it('finds its own object behind the 412 of its retry (the ETag is its body’s MD5) and succeeds', async () => {
    hook = (req, body, res, count) => {
      if (count !== 1) return false;
      objects.set(new URL(req.url!, 'http://x').pathname, body);
      res.writeHead(500).end();
      return true;
    };
    const body = Buffer.from('lease of run 1');
    expect(await client().put('lease', body, { ifNoneMatch: '*' })).toEqual({ etag: md5(body) });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['PUT /lake/p/lease', 'PUT /lake/p/lease', 'HEAD /lake/p/lease']);
  });

  it('a 412 behind which another writer’s object is stays a precondition failure', async () => {
    hook = (req, _body, res, count) => {
      if (count !== 1) return false;
      objects.set(new URL(req.url!, 'http://x').pathname, Buffer.from('another run'));
      res.writeHead(500).end();
      return true;
    };
    const error = await client()
      .put('lease', Buffer.from('mine'), { ifNoneMatch: '*' })
      .catch((e: unknown) => e);
    expect(messageFor(error)).toBe('s3://lake/p/lease was not written: it exists already (a precondition failed)');
  });
});

describe('multipart completion', () => {
  it('takes a 200 that holds an error for the failure it is, and aborts the upload', async () => {
    hook = (req, _body, res) => {
      const url = new URL(req.url!, 'http://x');
      if (req.method === 'POST' && url.searchParams.has('uploads'))
        return answer(res, 200, '<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>');
      if (req.method === 'PUT' && url.searchParams.has('partNumber')) return answer(res, 200, undefined, { etag: '"p"' });
      if (req.method === 'POST') return answer(res, 200, '<Error><Code>InternalError</Code><Message>try again</Message></Error>');
      if (req.method === 'DELETE') return answer(res, 204);
      return false;
    };
    const error = await client({ multipartThreshold: 10, partSize: 10, retries: 0 })
      .put('big', Buffer.alloc(25))
      .catch((e: unknown) => e);
    expect(messageFor(error)).toBe('the S3 server refused completing s3://lake/p/big (HTTP 500 InternalError: try again)');
    expect(seen.map((r) => r.method)).toEqual(['POST', 'PUT', 'PUT', 'PUT', 'POST', 'DELETE']);
    expect(seen.at(-1)!.url).toBe('/lake/p/big?uploadId=u1');
  });
});
