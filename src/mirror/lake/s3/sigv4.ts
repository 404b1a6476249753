/**
 * AWS Signature Version 4 for S3 (and STS), with node:crypto: the canonical request, the string to sign and the
 * Authorization header, as AWS documents them ("Create a signed AWS API request"). Ours rather than a package's:
 * undici, which swapx already ships, sends the requests, and the measurements in docs/lake.md found nothing a
 * signer package adds that is worth its import time or its fetch. The payload's SHA-256 is signed (not
 * UNSIGNED-PAYLOAD): the server refuses a body altered on the way.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** when temporary credentials stop working (epoch ms) */
  expiresAt?: number;
}

export interface SignInput {
  method: string;
  /** the URL as sent: its path already encoded (encodeKeyPath), its query in any order */
  url: URL;
  /** headers to sign and send, in any case; host and the x-amz-* ones are added */
  headers: Record<string, string>;
  /** hex SHA-256 of the body (sha256Hex), or UNSIGNED-PAYLOAD */
  payloadHash: string;
  region: string;
  service: string;
  credentials: AwsCredentials;
  /** the signing time (epoch ms): ours, corrected by the server's clock after a RequestTimeTooSkewed */
  now: number;
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** RFC 3986's encoding, as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ as %XX (encodeURIComponent leaves !'()*). */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An object key as a URL path: each segment encoded, the '/' between them kept (S3 encodes a key's path once). */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(uriEncode).join('/');
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams].map(([k, v]) => [uriEncode(k), uriEncode(v)] as const);
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** 20261127T091500Z */
function amzDate(now: number): string {
  return new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** One signing key per day, region and service: four HMACs saved on every request after the first. */
const keys = new Map<string, Buffer>();

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const id = `${sha256Hex(secret)}/${day}/${region}/${service}`;
  let key = keys.get(id);
  if (!key) {
    const hmac = (k: Buffer | string, data: string) => createHmac('sha256', k).update(data).digest();
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
    if (keys.size > 16) keys.clear();
    keys.set(id, key);
  }
  return key;
}

/** The headers to send: `input.headers` with host, x-amz-date, x-amz-content-sha256, the session token and Authorization. */
export function signRequest(input: SignInput): Record<string, string> {
  const date = amzDate(input.now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value.trim().replace(/\s+/g, ' ');
  headers.host = input.url.host;
  headers['x-amz-date'] = date;
  headers['x-amz-content-sha256'] = input.payloadHash;
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    input.method,
    input.url.pathname,
    canonicalQuery(input.url),
    names.map((name) => `${name}:${headers[name]}\n`).join(''),
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(input.credentials.secretAccessKey, day, input.region, input.service))
    .update(stringToSign)
    .digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
